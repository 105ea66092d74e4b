"""Learning-rate schedules as ``LambdaLR`` factors: functions of the step, counted from 0.

``torch.optim.lr_scheduler.LambdaLR(optimizer, factor)`` sets the learning rate of update
number ``step`` (0 for the first ``optimizer.step()``) to ``base_lr * factor(step)``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["cosine_warmup", "transformer_lr"]


def transformer_lr(d_model: int = 512, warmup: int = 4000) -> Callable[[int], float]:
    """The schedule of "Attention is all you need", for ``LambdaLR`` with base lr 1.0:

        lr(n) = d_model^-0.5 · min(n^-0.5, n · warmup^-1.5),  n = step + 1,

    because the paper counts updates from 1 and ``LambdaLR`` from 0 (so step 0 is no
    division by zero). It rises linearly for ``warmup`` updates, peaks at
    (d_model · warmup)^-0.5 — 6.99e-4 for d_model 512 and warmup 4000 — then decays as n^-0.5.
    """

    def factor(step: int) -> float:
        n = step + 1
        return d_model**-0.5 * min(n**-0.5, n * warmup**-1.5)

    return factor


def cosine_warmup(warmup: int, max_iters: int) -> Callable[[int], float]:
    """A cosine decay from 1 to 0 over ``max_iters`` steps, times a linear warm-up:

        factor(t) = 0.5 · (1 + cos(π t / max_iters)) · (t / warmup if t ≤ warmup else 1).

    factor(0) = 0: the very first update has learning rate 0, as in the UvA tutorial.
    """

    def factor(step: int) -> float:
        value = 0.5 * (1 + math.cos(math.pi * step / max_iters))
        if step <= warmup:
            value *= step / warmup
        return value

    return factor
