"""Known wrong answers for notebook 02, matrix form."""

from __future__ import annotations

import math

import torch

from .vector_attention import WRONG_ORDER

__all__ = [
    "masked_attention",
    "padding_mask",
]


def masked_attention(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Variants of masked attention outputs; Q (..., T, d_k), mask broadcastable to (..., T, S).

    The course's masks are boolean with True = may attend. The exercise returns the pair
    (output, weights), so the weights in the output's place are the pair in the wrong order.
    """
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = mask.expand_as(scores)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    inverted = torch.softmax(scores.masked_fill(allowed, float("-inf")), dim=-1)
    return {
        "the mask's polarity inverted (True taken to mean 'ignore')": inverted @ V,
        "masked scores set to 0 instead of −inf (they still get weight)": torch.softmax(
            scores.masked_fill(~allowed, 0.0), dim=-1
        )
        @ V,
        "the mask applied after the softmax, so the rows no longer sum to 1": (
            torch.softmax(scores, dim=-1) * allowed
        )
        @ V,
        "attention with the mask ignored": torch.softmax(scores, dim=-1) @ V,
        "masked attention without the 1/√d_k scaling": torch.softmax(
            (scores * math.sqrt(Q.shape[-1])).masked_fill(~allowed, float("-inf")), dim=-1
        )
        @ V,
        "a masked softmax over the queries instead of the keys": torch.nan_to_num(
            torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-2)
        )
        @ V,
        WRONG_ORDER: weights,
    }


def padding_mask(lengths: torch.Tensor, seq_len: int) -> dict[str, torch.Tensor]:
    """Variants of the (B, seq_len) mask that is True at the real (non-padding) positions."""
    positions = torch.arange(seq_len)
    return {
        "the opposite polarity: True at the padding instead of the real tokens": positions
        >= lengths[:, None],
        "one position too many (<= length instead of < length)": positions <= lengths[:, None],
        "one position too few (counting from 1)": positions < lengths[:, None] - 1,
    }
