"""Known wrong answers for notebook 04, positional encoding."""

from __future__ import annotations

import math

import torch

__all__ = [
    "pe_table",
    "positional_encoding",
    "rotation",
]


def _pe(positions: torch.Tensor, feature_exponents: torch.Tensor, d_model: int, swap=False):
    """A sinusoidal table from explicit positions and per-feature exponents (float64)."""
    angles = positions[:, None] / 10000.0 ** (feature_exponents[None, :] / d_model)
    table = torch.empty(len(positions), d_model, dtype=torch.float64)
    even, odd = (torch.cos, torch.sin) if swap else (torch.sin, torch.cos)
    table[:, 0::2] = even(angles[:, 0::2])
    table[:, 1::2] = odd(angles[:, 1::2])
    return table


def pe_table(seq_len: int, d_model: int) -> dict[str, torch.Tensor]:
    """Variants of the sinusoidal table (seq_len, d_model), d_model even."""
    positions = torch.arange(seq_len, dtype=torch.float64)
    features = torch.arange(d_model, dtype=torch.float64)
    pair = features // 2  # i for both features of pair i
    return {
        "sin and cos swapped (cos on the even features, sin on the odd ones)": _pe(
            positions, 2 * pair, d_model, swap=True
        ),
        "the exponent i/d_model instead of 2i/d_model": _pe(positions, pair, d_model),
        "each feature's own index in the exponent, so a cos feature has a different frequency "
        "from its sin partner": _pe(positions, features, d_model),
        "positions counted from 1 instead of 0": _pe(positions + 1, 2 * pair, d_model),
        "pos · 10000^(2i/d) instead of pos / 10000^(2i/d)": _pe(positions, -2 * pair, d_model),
        "the sines in the first half and the cosines in the second (concatenated instead of "
        "interleaved)": torch.cat(
            [
                _pe(positions, 2 * pair, d_model)[:, 0::2],
                _pe(positions, 2 * pair, d_model)[:, 1::2],
            ],
            dim=1,
        ),
    }


def positional_encoding(x: torch.Tensor, table: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of adding a (max_len, d_model) table to x (B, T, d_model)."""
    batch, seq_len = x.shape[0], x.shape[1]
    return {
        "the table indexed by batch entry instead of by position (row b added to every token "
        "of sequence b)": x + table[:batch, None, :],
        "the input returned without the table": x,
        "the table alone, without the input": table[:seq_len].expand_as(x),
    }


def rotation(k: int, d_model: int, R: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the block-diagonal rotation matrix; ``R`` is the right one."""

    def blocks(angle_of_pair):
        M = torch.zeros(d_model, d_model, dtype=R.dtype)
        for i in range(d_model // 2):
            c, s = math.cos(angle_of_pair(i)), math.sin(angle_of_pair(i))
            M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = torch.tensor([[c, s], [-s, c]])
        return M

    return {
        "the rotation in the opposite direction (the transpose: it moves k positions back)": R.T,
        "the same angle k for every pair, without the pair's frequency": blocks(lambda i: k),
        "each pair's angle ω_i without the factor k (the rotation for one step)": blocks(
            lambda i: 10000 ** (-2 * i / d_model)
        ),
        "the exponent i/d_model instead of 2i/d_model in the frequencies": blocks(
            lambda i: k * 10000 ** (-i / d_model)
        ),
    }
