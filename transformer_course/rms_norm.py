"""RMSNorm, the norm of today's decoders: each token's vector divided by its root mean
square, times a learned weight.

Layer norm (notebook 05) subtracts the mean, divides by the standard deviation, then scales
and shifts; RMSNorm only divides and scales, with no mean subtracted and no bias added:

    x / sqrt(mean(x²) + eps) * weight          x (..., d), weight (d,) -> (..., d)

Equal to ``nn.RMSNorm``; notebook 09's first part.
"""

from __future__ import annotations

import torch
import torch.nn as nn

__all__ = ["RMSNorm", "rms_norm"]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    """x (..., d) divided by the root mean square of its last axis, times weight (d,).

    Equal to ``nn.RMSNorm(d, eps)`` with that weight: layer norm without the mean subtracted
    and without a bias.
    """
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


class RMSNorm(nn.Module):
    """``rms_norm`` with a learned weight (d_model,), starting at 1; like ``nn.RMSNorm``."""

    def __init__(self, d_model: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)
