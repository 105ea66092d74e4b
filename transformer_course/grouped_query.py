"""Grouped-query attention: fewer key/value heads than query heads.

``n_heads / n_kv_heads`` query heads share each key/value head, and the key–value cache
shrinks by that factor; ``n_kv_heads = 1`` is multi-query attention. PyTorch 2.5's
``F.scaled_dot_product_attention(..., enable_gqa=True)`` computes it as it is; before it,
each key/value head is repeated for the query heads of its group (``repeat_kv``).

Shapes: q (B, H, T, d), k and v (B, H_kv, S, d) with H_kv dividing H; masks boolean, True =
may attend.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["SDPA_HAS_GQA", "grouped_query_attention", "repeat_kv"]


# PyTorch 2.5 added enable_gqa to F.scaled_dot_product_attention; before, K and V are expanded.
SDPA_HAS_GQA = "enable_gqa" in (F.scaled_dot_product_attention.__doc__ or "")


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    """(B, H_kv, T, d) -> (B, H_kv · n_rep, T, d): each key/value head repeated for the
    n_rep query heads of its group (heads 0 … n_rep−1 use key/value head 0, and so on)."""
    return x.repeat_interleave(n_rep, dim=-3)


def grouped_query_attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None = None,
    is_causal: bool = False,
) -> torch.Tensor:
    """q (B, H, T, d), k and v (B, H_kv, S, d) with H_kv dividing H, mask boolean
    broadcastable to (T, S) or (B, H, T, S), True = may attend, or ``is_causal`` (the mask
    aligned to the top left, as F.scaled_dot_product_attention's) -> (B, H, T, d).

    Query head h attends with key/value head h // (H / H_kv). Equal to
    ``F.scaled_dot_product_attention(q, k, v, mask, is_causal=is_causal, enable_gqa=True)``.
    """
    n_heads, n_kv_heads = q.shape[-3], k.shape[-3]
    if n_heads % n_kv_heads:
        raise ValueError(f"n_kv_heads = {n_kv_heads} does not divide n_heads = {n_heads}")
    if SDPA_HAS_GQA:
        return F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, is_causal=is_causal, enable_gqa=True
        )
    n_rep = n_heads // n_kv_heads
    return F.scaled_dot_product_attention(
        q, repeat_kv(k, n_rep), repeat_kv(v, n_rep), attn_mask=mask, is_causal=is_causal
    )
