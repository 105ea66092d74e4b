"""What the reader reports: one thing an answer reaches, and how it is said."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One thing an answer reaches: ``refused`` (costs the exercise), ``opaque`` (flagged: the
    reader cannot see through it) or ``untaught`` (flagged: outside the exercise's
    vocabulary, ``autograder/trusted/vocabulary.py``)."""

    kind: str
    what: str  # "torch.softmax", or the construct: "exec()"
    where: str  # "your answer cell ex3_softmax, line 4"

    def message(self) -> str:
        if self.kind == "refused":
            return (
                f"this exercise asks you to write it yourself: your answer calls {self.what}"
                f" ({self.where})"
            )
        if self.kind == "untaught":
            return (
                f"{self.where} uses {self.what}, which the course has not taught by this "
                "exercise: see whether it does the exercise's work"
            )
        return f"{self.where} uses {self.what}, which the grader cannot read through"
