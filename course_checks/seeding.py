"""Student code run with PyTorch's random state fixed, to tell a random answer from one
whose result changes for another reason (a cache, a counter).

``seeded(seed)`` seeds PyTorch's generators for the calls made inside it and puts their
state back afterwards, so nothing else sees a difference. In the trusted checker the calls
go to the student's kernel: ``current()`` is the seed that each call takes with it, and the
kernel's agent seeds every such call alike (``autograder/trusted/agent.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

_seeds: list[int] = []  # the seed of the calls now running, innermost last


def current() -> int | None:
    """The seed the calls made now run under, or None."""
    return _seeds[-1] if _seeds else None


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[None]:
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        _seeds.append(seed)
        try:
            yield
        finally:
            _seeds.pop()
