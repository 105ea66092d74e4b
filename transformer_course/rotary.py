"""Rotary position embeddings (RoPE): positions as turns of the queries and keys.

They add nothing to the token vectors. Inside attention, each pair of features (2i, 2i+1) of
a query or key at position p is turned by the angle p·ω_i, ω_i = base^(−2i/d_head); a
query–key score then depends on their positions only through the offset between them.

Shapes: positions (T,); queries and keys (..., T, d_head), d_head even; angles
(T, d_head / 2).
"""

from __future__ import annotations

import torch

__all__ = ["apply_rotary", "rotary_angles"]


def rotary_angles(
    positions: torch.Tensor, d_head: int, base: float = 10000.0, dtype: torch.dtype = torch.float32
) -> torch.Tensor:
    """positions (T,) -> angles (T, d_head / 2): position p times ω_i = base^(−2i/d_head),
    the frequencies of notebook 04's sinusoidal table."""
    pairs = torch.arange(0, d_head, 2, device=positions.device, dtype=dtype)
    return positions.to(dtype)[:, None] * base ** (-pairs / d_head)


def apply_rotary(x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0) -> torch.Tensor:
    """Turn every pair of features (2i, 2i+1) of x (..., T, d), d even, by its angle:

        out[2i]   = x[2i] cos θ − x[2i+1] sin θ,   θ = positions[t] · base^(−2i/d)
        out[2i+1] = x[2i] sin θ + x[2i+1] cos θ

    as multiplying x[2i] + i·x[2i+1] by e^{iθ} (RoFormer's and LLaMA's convention; notebook
    04's rotation matrix R_p turns the other way, so this is x @ R_{−p}ᵀ). -> (..., T, d).
    """
    return _turn(x, *_cos_sin(positions, x.shape[-1], base, x.dtype))


def _cos_sin(positions: torch.Tensor, d: int, base: float, dtype: torch.dtype):
    """The cosines and sines (T, d/2) of the angles, in ``dtype``; computed in float32 at
    least (float64 for float64), since large positions need the digits."""
    angles = rotary_angles(positions, d, base, torch.promote_types(dtype, torch.float32))
    return angles.cos().to(dtype), angles.sin().to(dtype)


def _turn(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)
