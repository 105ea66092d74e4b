"""A small language-model training set-up for checking a training loop: model, optimiser,
scheduler, batches and a held-out score, rebuilt exactly from a seed.

The checks hand a ``LoopCase``'s ``model``, ``optimizer``, ``scheduler``, ``batches`` and
``evaluate`` to a student's ``train`` and compare the history it returns with that of a
fresh copy trained by the reference loop.

When grading, the student's function runs in the kernel and the checks in the trusted
checker, so each argument is pickled on its own, and a model pickled apart from its
optimiser would no longer be the tensors that optimiser updates. Every part therefore
pickles as a reference to its case (``_part``): the kernel rebuilds the case once from the
same seed and hands out *its* parts, which then keep their state from one call to the
next, exactly as the same objects do when the checks run in the kernel. (The same scheme as
notebook 07's ``StepCase``.)
"""

from __future__ import annotations

import uuid

import torch

from transformer_course import language_model
from transformer_course.language_model import CharLM
from transformer_course.schedules import cosine_warmup

__all__ = ["LoopCase"]

_CASES: dict[tuple, LoopCase] = {}  # the kernel's copies, built on first use


def _part(key: tuple, name: str):
    if key not in _CASES:
        _CASES[key] = LoopCase._build(key)
    return getattr(_CASES[key], name)


class _Model(CharLM):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "model")


class _SGD(torch.optim.SGD):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "optimizer")


class _AdamW(torch.optim.AdamW):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "optimizer")


class _LambdaLR(torch.optim.lr_scheduler.LambdaLR):
    _key: tuple  # its case's, set by _build

    def __reduce__(self):
        return _part, (self._key, "scheduler")


class _Batches:
    """batches(step) -> (inputs, targets) of the case: its step-th batch."""

    def __init__(self, key: tuple, batches: list):
        self._key, self.batches = key, batches

    def __call__(self, step: int):
        return self.batches[step]

    def __reduce__(self):
        return _part, (self._key, "batches")


class _Evaluate:
    """evaluate(model) -> the model's bits per character on the case's held-out windows."""

    def __init__(self, key: tuple, windows: tuple):
        self._key, self.windows = key, windows

    def __call__(self, model) -> float:
        with torch.no_grad():
            return language_model.bits_per_character(model(self.windows[0]), self.windows[1]).item()

    def __reduce__(self):
        return _part, (self._key, "evaluate")


class LoopCase:
    """A CharLM (vocabulary ``vocab``, d_model 16, 2 heads, one block, livelier weights than
    at initialisation), ``steps`` batches of ``batch`` windows of ``block`` characters, a
    held-out batch for ``evaluate``, and an optimiser (``"adamw"`` with the course's parameter
    groups, or ``"sgd"``) under notebook 07's cosine warm-up (2 steps)."""

    # set by _build (what __init__ copies from the case it builds)
    key: tuple
    steps: int
    batches: _Batches
    evaluate: _Evaluate
    model: _Model
    optimizer: _SGD | _AdamW
    scheduler: _LambdaLR

    def __init__(
        self,
        seed: int,
        steps: int = 6,
        batch: int = 4,
        block: int = 8,
        vocab: int = 11,
        optimizer: str = "adamw",
        lr: float = 0.05,
    ):
        # The seed as the checks' generator makes it (when grading hidden checks, mixed with
        # the grader's secret), so that the kernel's copy is built from the very same number.
        effective = torch.Generator().manual_seed(seed).initial_seed()
        key = (effective, steps, batch, block, vocab, optimizer, lr, uuid.uuid4().hex)
        self.__dict__.update(LoopCase._build(key).__dict__)

    @staticmethod
    def _build(key: tuple) -> LoopCase:
        effective, steps, batch, block, vocab, optimizer, lr, _ = key
        case = LoopCase.__new__(LoopCase)
        case.key, case.steps = key, steps
        generator = torch._C.Generator().manual_seed(effective)  # never the checker's mixer
        model = _Model(vocab, d_model=16, n_heads=2, n_layers=1, max_len=block)
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.copy_(0.3 * torch.randn(parameter.shape, generator=generator))

        def windows(n):
            ids = torch.randint(0, vocab, (n, block + 1), generator=generator)
            # contiguous, as the course's batches are: exercise 6's `.view` answers must pass
            return ids[:, :-1].contiguous(), ids[:, 1:].contiguous()

        case.batches = _Batches(key, [windows(batch) for _ in range(steps)])
        case.evaluate = _Evaluate(key, windows(8))
        if optimizer == "sgd":
            case.optimizer = _SGD(model.parameters(), lr=lr * 20)
        else:
            case.optimizer = _AdamW(language_model.parameter_groups(model, 0.1), lr=lr)
        case.scheduler = _LambdaLR(case.optimizer, cosine_warmup(2, steps))
        case.model = model.train()
        for part in (case.model, case.optimizer, case.scheduler):
            part._key = key
        return case

    def fresh(self) -> LoopCase:
        """Another copy, as this case was before any step: for the reference to train."""
        return LoopCase._build(self.key)

    def run(
        self, train, steps=None, every: int = 2, clip: float = 1.0, evaluate: bool = True
    ) -> dict:
        """The history ``train`` returns for the case's parts over ``steps`` (default: all
        of the case's batches)."""
        steps = range(self.steps) if steps is None else steps
        return train(
            self.model,
            self.optimizer,
            self.scheduler,
            self.batches,
            steps,
            self.evaluate if evaluate else None,
            every,
            clip,
        )

    def history(self, train, part: str, **kwargs) -> torch.Tensor:
        """One part of the history as float64: ``"bits"`` (steps,), ``"held_out"`` (n, 2)."""
        return torch.tensor(self.run(train, **kwargs)[part], dtype=torch.float64)
