"""Training that keeps the time it promises: a step count and a time budget, whichever
comes first.

A cell that says "about a minute" must take about a minute on a slow laptop or a busy
JupyterHub node too, not fifteen. So long loops iterate over a ``Budget``: it yields step
numbers until either the steps or the seconds run out, draws a text progress bar, and says
afterwards how far it got and why it stopped. As it starts, it fits PyTorch's threads to the
machine as it is then (``transformer_course.threads``; a count you chose is kept).

    budget = Budget(steps=820, seconds=60)
    for step in budget:
        ...one training step...
    print(budget.summary())   # "820 of 820 steps in 58 s" or "512 of 820 steps: ..."

``COURSE_BUDGET_SCALE`` in the environment multiplies every time budget (0.1: a tenth), so
that the course's tests can run a notebook as a machine ten times slower would, and read what
it says after a training run that was cut short.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

from .progress import progress_bar
from .threads import use_sensible_threads

__all__ = ["Budget"]


class Budget:
    """At most ``steps`` steps and ``seconds`` of wall-clock time (None: no time limit).

    The time is checked before each step, so the last step may end a little past the
    budget (by one step's time). ``done`` counts the steps that ran.
    """

    def __init__(
        self,
        steps: int,
        seconds: float | None = None,
        desc: str = "training",
        progress: bool = True,
        unit: str = "steps",
    ):
        """``unit`` names what is counted in ``summary()``: "steps", or "seeds" for a loop
        over whole runs."""
        self.steps = int(steps)
        scale = float(os.environ.get("COURSE_BUDGET_SCALE") or 1)
        self.seconds = None if seconds is None else seconds * scale
        self.desc = desc
        self.progress = progress
        self.unit = unit
        self.done = 0
        self.elapsed = 0.0
        self.out_of_time = False
        self._bar = None

    def __iter__(self) -> Iterator[int]:
        use_sensible_threads()  # the machine may be busier (or quieter) than at import
        start = time.perf_counter()
        bar = self._bar = progress_bar(range(self.steps), self.desc, disable=not self.progress)
        try:
            for step in bar:
                self.elapsed = time.perf_counter() - start
                if self.seconds is not None and self.elapsed >= self.seconds:
                    self.out_of_time = True
                    break
                yield step
                self.done = step + 1
        finally:
            bar.close()
            self.elapsed = time.perf_counter() - start

    def show(self, **values) -> None:
        """Show ``values`` (the loss, say) beside the progress bar while the loop runs."""
        if self._bar is not None:
            self._bar.set_postfix(values, refresh=False)

    def summary(self) -> str:
        """How far the loop got, in one sentence for the reader."""
        if not self.out_of_time:
            return f"{self.done} of {self.steps} {self.unit} in {self.elapsed:.0f} s."
        shorter = "those of a shorter run" if self.unit == "steps" else f"from fewer {self.unit}"
        return (
            f"{self.done} of {self.steps} {self.unit} in {self.elapsed:.0f} s: the "
            f"{self.seconds:g} s budget ran out first (this machine is slower or busier "
            "than the one the figures in the text come from), so the results below are "
            f"{shorter}."
        )
