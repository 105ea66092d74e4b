"""Positional information: the sinusoidal table, its module, the learned alternative.

Attention is blind to order (it is permutation-equivariant), so each token's vector gets a
position-dependent vector added. The sinusoidal table of "Attention is all you need":

    PE[pos, 2i]   = sin(pos / base^(2i / d_model))
    PE[pos, 2i+1] = cos(pos / base^(2i / d_model)),   base = 10000, positions from 0.
"""

from __future__ import annotations

import torch
import torch.nn as nn

__all__ = ["LearnedPositionalEmbedding", "PositionalEncoding", "rotation", "sinusoidal_table"]


def frequencies(d_model: int, base: float = 10000.0) -> torch.Tensor:
    """ω_i = 1 / base^(2i / d_model) for i = 0 … ⌈d_model/2⌉ − 1: one per (sin, cos) pair."""
    return base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)


def sinusoidal_table(seq_len: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The (seq_len, d_model) table: sin on even features, cos on odd ones. float32."""
    angles = torch.arange(seq_len, dtype=torch.float64)[:, None] * frequencies(d_model, base)
    table = torch.zeros(seq_len, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles[:, : d_model // 2])
    return table.float()


def rotation(k: int, d_model: int, base: float = 10000.0) -> torch.Tensor:
    """The (d_model, d_model) matrix R with PE[pos + k] = R @ PE[pos] for every position.

    Block diagonal: feature pair (2i, 2i+1) is rotated by the angle k·ω_i, because
    sin(a + b) = sin a cos b + cos a sin b and cos(a + b) = cos a cos b − sin a sin b.
    """
    if d_model % 2:
        raise ValueError("the rotation pairs sin and cos features, so d_model must be even")
    R = torch.zeros(d_model, d_model, dtype=torch.float64)
    for i, w in enumerate(frequencies(d_model, base)):
        c, s = torch.cos(k * w), torch.sin(k * w)
        R[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = torch.stack(
            [torch.stack([c, s]), torch.stack([-s, c])]
        )
    return R.float()


class PositionalEncoding(nn.Module):
    """Adds the sinusoidal table to its input: (B, T, d_model) -> (B, T, d_model).

    The table is a buffer, not a parameter: it is not trained, follows the module to another
    device or dtype, and is left out of the state dict (it can always be recomputed).
    """

    def __init__(self, d_model: int, max_len: int = 5000, dropout: float = 0.0):
        super().__init__()
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        seq_len = x.shape[-2]
        if seq_len > self.table.shape[0]:
            raise ValueError(
                f"sequence of {seq_len} tokens, but the table has {self.table.shape[0]}"
            )
        return self.dropout(x + self.table[:seq_len])  # (T, d_model) broadcasts over the batch


class LearnedPositionalEmbedding(nn.Module):
    """The alternative: one trained vector per position (as in BERT and GPT-2)."""

    def __init__(self, d_model: int, max_len: int = 512, dropout: float = 0.0):
        super().__init__()
        self.embedding = nn.Embedding(max_len, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        positions = torch.arange(x.shape[-2], device=x.device)
        return self.dropout(x + self.embedding(positions))
