"""SwiGLU, the gated feed-forward layer of today's decoders.

It replaces Linear → ReLU → Linear by ``down(silu(gate(x)) * up(x))``, silu(z) = z ·
sigmoid(z), with three matrices of a hidden size ≈ 2/3 of the ReLU layer's
(``matched_hidden_size``), so that it holds as many weights.

Shapes: x (..., d_model) -> (..., d_model); weights in ``nn.Linear``'s layout, (out, in).
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

__all__ = ["SwiGLU", "matched_hidden_size", "swiglu"]


def matched_hidden_size(d_model: int, d_ff: int) -> int:
    """The hidden size of a SwiGLU layer with as many weights as a ReLU feed-forward layer of
    hidden size d_ff: three matrices of d_model × h against two of d_model × d_ff, so
    h = 2·d_ff / 3 (d_model cancels), rounded; 8/3 · d_model for the usual d_ff = 4 · d_model."""
    return round(2 * d_ff / 3)


def swiglu(
    x: torch.Tensor, w_gate: torch.Tensor, w_up: torch.Tensor, w_down: torch.Tensor
) -> torch.Tensor:
    """x (..., d) -> (..., d): (silu(x W_gateᵀ) * x W_upᵀ) W_downᵀ, with w_gate and w_up
    (h, d) and w_down (d, h) in ``nn.Linear``'s layout; silu(z) = z · sigmoid(z)."""
    return (F.silu(x @ w_gate.T) * (x @ w_up.T)) @ w_down.T


class SwiGLU(nn.Module):
    """The gated feed-forward layer of LLaMA: three bias-free ``nn.Linear``s, gate, up, down."""

    def __init__(self, d_model: int, d_hidden: int):
        super().__init__()
        self.gate = nn.Linear(d_model, d_hidden, bias=False)
        self.up = nn.Linear(d_model, d_hidden, bias=False)
        self.down = nn.Linear(d_hidden, d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return swiglu(x, self.gate.weight, self.up.weight, self.down.weight)
