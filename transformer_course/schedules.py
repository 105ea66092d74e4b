"""Learning-rate schedules as ``LambdaLR`` factors: callables of the step, counted from 0.

Each is a small frozen dataclass rather than a closure, so that a schedule can be pickled
(the grader hands one to a student's function in the kernel that way).

``torch.optim.lr_scheduler.LambdaLR(optimizer, factor)`` sets the learning rate of update
number ``step`` (0 for the first ``optimizer.step()``) to ``base_lr * factor(step)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["cosine_warmup", "transformer_lr"]


@dataclass(frozen=True)
class transformer_lr:
    """The schedule of "Attention is all you need", for ``LambdaLR`` with base lr 1.0:

        lr(n) = d_model^-0.5 · min(n^-0.5, n · warmup^-1.5),  n = step + 1,

    because the paper counts updates from 1 and ``LambdaLR`` from 0 (so step 0 is no
    division by zero). It rises linearly for ``warmup`` updates, peaks at
    (d_model · warmup)^-0.5 — 6.99e-4 for d_model 512 and warmup 4000 — then decays as n^-0.5.
    """

    d_model: int = 512
    warmup: int = 4000

    def __call__(self, step: int) -> float:
        n = step + 1
        return self.d_model**-0.5 * min(n**-0.5, n * self.warmup**-1.5)


@dataclass(frozen=True)
class cosine_warmup:
    """A cosine decay from 1 to 0 over ``max_iters`` steps, times a linear warm-up:

        factor(t) = 0.5 · (1 + cos(π t / max_iters)) · (t / warmup if t ≤ warmup else 1).

    factor(0) = 0: the very first update has learning rate 0, as in the UvA tutorial.
    """

    warmup: int
    max_iters: int

    def __call__(self, step: int) -> float:
        value = 0.5 * (1 + math.cos(math.pi * step / self.max_iters))
        if step <= self.warmup:
            value *= step / self.warmup
        return value
