"""The seeded examples the notebooks and their tests share, re-created from seeds on demand.

Tests never trust a student's variables: they call these functions for fresh copies.
Random numbers come from a private generator, so calling them leaves PyTorch's global
random state alone, and they equal what ``torch.manual_seed(seed)`` followed by the same
``torch.randn`` calls gives.
"""

from __future__ import annotations

import torch

__all__ = [
    "column_vectors",
    "head_parameters",
    "lookup_table",
    "projection_parameters",
    "token_encodings",
]


def _randn(*shape: int, generator: torch.Generator) -> torch.Tensor:
    return torch.randn(*shape, generator=generator)


def column_vectors(n: int = 3, d: int = 4, seed: int = 3) -> list[torch.Tensor]:
    """``n`` input vectors of shape (d, 1), drawn one after another after seeding.

    The defaults are notebook 01's example: x₁ = [0.8033, 0.1748, 0.0890, −0.6137]ᵀ, ….
    """
    generator = torch.Generator().manual_seed(seed)
    return [_randn(d, 1, generator=generator) for _ in range(n)]


def projection_parameters(d_in: int = 4, d_out: int | None = None, seed: int = 0) -> dict:
    """W_q, W_k, W_v (d_out, d_in) then b_q, b_k, b_v (d_out, 1), drawn in that order.

    The defaults are notebook 01's parameters (``torch.manual_seed(0)``, D = 4).
    """
    d_out = d_in if d_out is None else d_out
    generator = torch.Generator().manual_seed(seed)
    weights = {name: _randn(d_out, d_in, generator=generator) for name in ("W_q", "W_k", "W_v")}
    biases = {name: _randn(d_out, 1, generator=generator) for name in ("b_q", "b_k", "b_v")}
    return weights | biases


def lookup_table() -> tuple[torch.Tensor, torch.Tensor]:
    """The soft-dictionary example: four keys (4, 3), two of them equal, and their values (4, 3)."""
    keys = torch.tensor([[10.0, 0, 0], [0, 10, 0], [0, 0, 10], [0, 0, 10]])
    values = torch.tensor([[1.0, 0, 1], [10, 0, 2], [100, 5, 0], [1000, 6, 0]])
    return keys, values


def head_parameters(d: int = 8, n_heads: int = 2, seed: int = 0) -> dict:
    """Per-head projections for multi-head attention by hand, then the combining matrix.

    For each head in turn: W_q, W_k, W_v (d/H, d) then b_q, b_k, b_v (d/H, 1); finally
    W_c (d, d). Returns ``{"heads": [dict per head], "W_c": tensor}``. The defaults are
    notebook 03's two-head example (``torch.manual_seed(0)``, D = 8, H = 2).
    """
    d_head = d // n_heads
    generator = torch.Generator().manual_seed(seed)
    heads = []
    for _ in range(n_heads):
        weights = {n: _randn(d_head, d, generator=generator) for n in ("W_q", "W_k", "W_v")}
        biases = {n: _randn(d_head, 1, generator=generator) for n in ("b_q", "b_k", "b_v")}
        heads.append(weights | biases)
    return {"heads": heads, "W_c": _randn(d, d, generator=generator)}


def token_encodings() -> torch.Tensor:
    """Three tokens with two features each (rows), the lecture slides' running example."""
    return torch.tensor([[1.16, 0.23], [0.57, 1.36], [4.41, -2.16]])
