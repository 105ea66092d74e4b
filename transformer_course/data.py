"""Toy sequence-to-sequence tasks: seeded, deterministic, made on the fly (nothing to download).

A task maps a source sequence of ``seq_len`` symbols (0 … n_symbols − 1) to a target of the
same length: ``copy`` repeats it, ``reverse`` reverses it, ``sort`` sorts it. Two extra
tokens frame the decoder's side: ``start`` (= n_symbols) begins every decoder input and
``end`` (= n_symbols + 1) closes every target, so the vocabulary has n_symbols + 2 tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

__all__ = ["SequenceTask"]

_RULES = {
    "copy": lambda src: src,
    "reverse": lambda src: src.flip(-1),
    "sort": lambda src: src.sort(dim=-1).values,
}


@dataclass(frozen=True)
class SequenceTask:
    """One toy task. ``batch`` draws training examples; ``dataset`` a fixed, seeded set."""

    rule: str = "reverse"
    seq_len: int = 16
    n_symbols: int = 10

    def __post_init__(self):
        if self.rule not in _RULES:
            raise ValueError(f"unknown rule {self.rule!r}; choose one of {sorted(_RULES)}")

    @property
    def start(self) -> int:
        return self.n_symbols

    @property
    def end(self) -> int:
        return self.n_symbols + 1

    @property
    def vocab_size(self) -> int:
        return self.n_symbols + 2

    def target(self, src: torch.Tensor) -> torch.Tensor:
        """(B, seq_len) sources -> (B, seq_len + 1) targets: the rule's output, then ``end``."""
        end = torch.full_like(src[:, :1], self.end)
        return torch.cat([_RULES[self.rule](src), end], dim=1)

    def batch(
        self, n: int, generator: torch.Generator, device: torch.device | str = "cpu"
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``n`` random examples: sources (n, seq_len) and targets (n, seq_len + 1), long."""
        src = torch.randint(0, self.n_symbols, (n, self.seq_len), generator=generator)
        return src.to(device), self.target(src).to(device)

    def dataset(self, n: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
        """The same ``n`` examples for the same seed, on the CPU."""
        return self.batch(n, torch.Generator().manual_seed(seed))

    def show(self, tokens) -> str:
        """One sequence of tokens as text, its framing tokens by name: "3 1 4 <end>"."""
        names = {self.start: "<start>", self.end: "<end>"}
        return " ".join(names.get(token, str(token)) for token in torch.as_tensor(tokens).tolist())
