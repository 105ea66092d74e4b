"""Scaled dot-product attention: softmax, one query at a time, and the batched matrix form.

Conventions used across the course:

* Tokens are rows: a sequence of ``seq_len`` tokens with ``d_model`` features is a tensor of
  shape ``(seq_len, d_model)``, and batches add leading dimensions ``(batch, ..., seq_len, d)``.
* Masks are boolean and **True means "may attend"** (the polarity of
  ``torch.nn.functional.scaled_dot_product_attention``). ``nn.MultiheadAttention``'s
  ``key_padding_mask`` and ``attn_mask`` use the opposite polarity; notebook 03 shows the trap.
* A query whose keys are all masked attends to nothing: its weights are all zero and its
  output is a zero vector, never NaN, on every supported PyTorch (the fused kernel gives
  zeros itself only from PyTorch 2.5; before, NaN, which the package replaces).
"""

from __future__ import annotations

import math

import psutil
import torch
import torch.nn.functional as F

__all__ = [
    "attend_one",
    "attention_weights",
    "available_memory",
    "explicit_attention",
    "scaled_dot_product_attention",
    "softmax",
]


def softmax(scores: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """Numerically stable softmax along ``dim``; equal to ``torch.softmax``.

    ``exp`` overflows for inputs above about 88 in float32, so the largest entry is
    subtracted first: ``softmax(z) == softmax(z - max(z))`` because the common factor
    ``exp(-max(z))`` cancels between numerator and denominator.

    Shapes: any; the result has the shape of ``scores`` and sums to 1 along ``dim``.
    A slice that is entirely ``-inf`` gives NaN, as ``torch.softmax`` does.
    """
    shift = scores.amax(dim=dim, keepdim=True).detach()
    exps = torch.exp(scores - shift)
    return exps / exps.sum(dim=dim, keepdim=True)


def attend_one(query: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Attention for a single query vector, written the way notebook 01 teaches it.

    Shapes: ``query`` (d_k,), ``keys`` (S, d_k), ``values`` (S, d_v) -> (d_v,).
    """
    d_k = query.shape[-1]
    scores = keys @ query / math.sqrt(d_k)  # (S,): one score per key
    weights = softmax(scores)  # (S,): positive, sums to 1
    return weights @ values  # (d_v,): weighted sum of the value rows


def attention_weights(
    query: torch.Tensor, key: torch.Tensor, mask: torch.Tensor | None = None
) -> torch.Tensor:
    """softmax(Q Kᵀ / √d_k) with an optional boolean mask (True = may attend).

    Shapes: ``query`` (..., T, d_k), ``key`` (..., S, d_k), ``mask`` broadcastable to
    (..., T, S) -> weights (..., T, S); each row sums to 1, or is all zero where the mask
    leaves a query no key at all.
    """
    d_k = query.shape[-1]
    _refuse_if_too_large(query, key)
    scores = query @ key.transpose(-2, -1) / math.sqrt(d_k)  # (..., T, S)
    if mask is None:
        return softmax(scores, dim=-1)
    mask = _check_mask(mask)
    scores = scores.masked_fill(~mask, float("-inf"))
    weights = softmax(scores, dim=-1)
    # Rows with no allowed key are 0/0 = NaN; they attend to nothing instead.
    return weights.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)


def explicit_attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    dropout_p: float = 0.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The readable path: build the (T, S) weight matrix, then mix the values.

    Shapes: ``query`` (..., T, d_k), ``key`` (..., S, d_k), ``value`` (..., S, d_v)
    -> output (..., T, d_v) and weights (..., T, S).
    Memory grows with T·S per head, which is what the fused kernel avoids.
    """
    weights = attention_weights(query, key, mask)
    if dropout_p > 0.0:
        weights = F.dropout(weights, p=dropout_p)
    return weights @ value, weights


def scaled_dot_product_attention(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    dropout_p: float = 0.0,
    need_weights: bool = False,
) -> tuple[torch.Tensor, torch.Tensor | None]:
    """softmax(Q Kᵀ / √d_k) V over any leading batch dimensions.

    Shapes: ``query`` (..., T, d_k), ``key`` (..., S, d_k), ``value`` (..., S, d_v),
    ``mask`` boolean broadcastable to (..., T, S), True = may attend
    -> output (..., T, d_v) and, when ``need_weights``, weights (..., T, S), else None.

    Without weights, PyTorch's fused kernel does the work (less memory, faster); with
    weights, the explicit path computes the same numbers and keeps the matrix to plot.
    """
    if need_weights:
        return explicit_attention(query, key, value, mask, dropout_p)
    if mask is not None:
        mask = _check_mask(mask)
    output = F.scaled_dot_product_attention(query, key, value, attn_mask=mask, dropout_p=dropout_p)
    if mask is not None:  # PyTorch < 2.5 gives NaN for a query with no allowed key
        output = output.masked_fill(~mask.any(dim=-1, keepdim=True), 0.0)
    return output, None


def available_memory(device: torch.device) -> int:
    """Bytes that can still be allocated on ``device`` (free GPU memory, or available RAM)."""
    if device.type == "cuda":
        return torch.cuda.mem_get_info(device)[0]
    return psutil.virtual_memory().available


# The explicit path holds about three (..., T, S) tensors at once: scores, their exponentials
# and the weights. Below the threshold the check is skipped: asking the system for free
# memory costs more than a small attention.
_SCORE_COPIES = 3
_ALWAYS_FITS = 256 * 2**20


def _refuse_if_too_large(query: torch.Tensor, key: torch.Tensor) -> None:
    batch = torch.broadcast_shapes(query.shape[:-2], key.shape[:-2])
    n_scores = math.prod(batch) * query.shape[-2] * key.shape[-2]
    needed = _SCORE_COPIES * n_scores * query.element_size()
    if needed <= _ALWAYS_FITS:
        return
    available = available_memory(query.device)
    if needed > available:
        raise MemoryError(
            f"the explicit attention path would need about {needed / 2**30:.1f} GiB for its "
            f"{(*batch, query.shape[-2], key.shape[-2])} score matrices, but only "
            f"{available / 2**30:.1f} GiB is free on {query.device}. Ask for no weights "
            "(need_weights=False uses PyTorch's fused kernel, which never stores them), or "
            "use shorter sequences or a smaller batch."
        )


def _check_mask(mask: torch.Tensor) -> torch.Tensor:
    if mask.dtype != torch.bool:
        raise TypeError(
            f"masks in this course are boolean with True = may attend; got dtype {mask.dtype}. "
            "Convert with `mask.bool()` (and flip it with `~mask` if True meant 'ignore')."
        )
    return mask
