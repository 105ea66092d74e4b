"""Known wrong answers for notebook 02, matrix form."""

from __future__ import annotations

import math

import torch

from .vector_attention import WRONG_ORDER

__all__ = [
    "masked_attention",
    "padding_mask",
    "previous_token_head",
    "same_token_head",
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


_UNSCALED = (
    "q·k = strength, forgetting that attention divides every score by √d_head "
    "(the scores come out √d_head times too small)"
)
_DIVIDED = "q·k = strength / √d_head: divided by √d_head where the weights must multiply by it"
_TWICE = (
    "the factor strength·√d_head put into both W_q and W_k, so that q·k is its square "
    "(put it into one of them)"
)


def _table(query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """(..., N) query-side and key-side numbers -> (..., N, N) float64, row = query."""
    return (query[..., :, None] == key[..., None, :]).double()


def previous_token_head(
    positions: torch.Tensor, max_len: int, d_head: int, strength: float
) -> dict[str, torch.Tensor]:
    """Scaled score tables (..., N, N) of wrong previous-token heads, for tokens at
    ``positions`` (..., N); the right one is ``strength`` where key position = query − 1."""
    previous = _table(positions - 1, positions)
    wrong = {
        "a head that attends to the next token instead of the previous one": strength
        * _table(positions + 1, positions),
        "a query block that is not shifted: every token attends to its own position": strength
        * _table(positions, positions),
        "a shift that wraps around, so position 0 attends to the last position, "
        "max_len − 1": strength * _table((positions - 1) % max_len, positions),
        _UNSCALED: strength / math.sqrt(d_head) * previous,
        _DIVIDED: strength / d_head * previous,
        _TWICE: strength**2 * math.sqrt(d_head) * previous,
    }
    if max_len != d_head:
        wrong[_other_width("max_len")] = strength * math.sqrt(max_len / d_head) * previous
    return wrong


def _other_width(name: str) -> str:
    return (
        f"a factor √{name} where √d_head belongs: the two are equal only when d_head = "
        f"{name}, and d_head may be larger"
    )


def same_token_head(
    tokens: torch.Tensor,
    positions: torch.Tensor,
    d_head: int,
    strength: float,
    vocab_size: int | None = None,
) -> dict[str, torch.Tensor]:
    """Scaled score tables (..., N, N) of wrong same-token heads, for ``tokens`` at
    ``positions`` (..., N); the right one is ``strength`` wherever the tokens are equal."""
    same = _table(tokens, tokens)
    wrong = {
        "a head that matches positions instead of tokens: "
        "every token attends only to itself": strength * _table(positions, positions),
        _UNSCALED: strength / math.sqrt(d_head) * same,
        _DIVIDED: strength / d_head * same,
        _TWICE: strength**2 * math.sqrt(d_head) * same,
    }
    if vocab_size not in (None, d_head):
        wrong[_other_width("vocab_size")] = strength * math.sqrt(vocab_size / d_head) * same
    return wrong
