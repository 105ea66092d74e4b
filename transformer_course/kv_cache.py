"""The key–value cache: the keys and values of every token generated so far, kept for the
next step's queries, and that step's attention over them.

Generating one character at a time recomputes, at every step, the keys and values of every
earlier character — which never change. A **key–value cache** keeps them, in tensors
allocated once for the whole text: each step runs only the new character through the blocks,
writes its key and value into the cache of every layer, and lets its query attend to
everything stored. The logits are the same; the work per character no longer grows with the
text so far (attention over the cache aside).

``KVCache`` holds them per layer, (B, H, length, d_head); ``attend_with_cache`` (notebook 08's
exercise) writes a step's new keys and values into it and attends over all of them. The
models' ``step`` (``CharLM``'s, ``ModernLM``'s) runs a step through it.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["KVCache", "attend_with_cache"]


def attend_with_cache(
    q: torch.Tensor,
    k_new: torch.Tensor,
    v_new: torch.Tensor,
    cache_k: torch.Tensor,
    cache_v: torch.Tensor,
    length: int,
) -> torch.Tensor:
    """q, k_new, v_new (B, H, n, d) of n new tokens at positions length … length+n−1;
    cache_k, cache_v (B, H, C, d) with C >= length + n, the first ``length`` stored. Writes
    the new keys and values after them (in place) and returns the new queries' causal
    attention over all length + n: (B, H, n, d).

    The query at position length + i sees keys 0 … length + i: the causal mask aligned to the
    bottom right of the (n, length + n) scores. One new token sees every key (no mask); a
    prompt alone (length 0) takes ``is_causal``, the fused kernel's own path (top left and
    bottom right are the same for a square); a prompt after stored tokens needs the mask."""
    n, end = q.shape[-2], length + q.shape[-2]
    cache_k[..., length:end, :] = k_new
    cache_v[..., length:end, :] = v_new
    keys, values = cache_k[..., :end, :], cache_v[..., :end, :]
    mask = (
        torch.ones(n, end, dtype=torch.bool, device=q.device).tril(length)
        if n > 1 and length > 0
        else None
    )
    return F.scaled_dot_product_attention(
        q, keys, values, attn_mask=mask, is_causal=n > 1 and length == 0
    )


class KVCache:
    """Per layer, the keys and values (B, H, length, d_head) of every character seen so far,
    in tensors allocated once for ``capacity`` positions (``CharLM.step`` sets it to the
    model's ``max_len`` when it is None): a step writes into them, it never copies them."""

    def __init__(self, n_layers: int, capacity: int | None = None):
        self.keys: list[torch.Tensor | None] = [None] * n_layers
        self.values: list[torch.Tensor | None] = [None] * n_layers
        self.length = 0
        self.capacity = capacity

    def room(self, layer: int, k: torch.Tensor, v: torch.Tensor):
        """One layer's storage (B, H, size, d_head), with room for the new keys and values
        ``k``, ``v`` (B, H, n, d_head) after the ``length`` stored: allocated at the first
        step, grown (copied once, into twice the room) only past its capacity."""
        start, end = self.length, self.length + k.shape[-2]
        stored = self.keys[layer]
        if stored is None or end > stored.shape[-2]:
            size = max(end, self.capacity or 0, 2 * stored.shape[-2] if stored is not None else 0)
            keys, values = (t.new_empty(*t.shape[:-2], size, t.shape[-1]) for t in (k, v))
            if stored is not None:
                keys[..., :start, :] = stored[..., :start, :]
                values[..., :start, :] = self.values[layer][..., :start, :]
            self.keys[layer], self.values[layer] = keys, values
        return self.keys[layer], self.values[layer]

    def append(self, layer: int, k: torch.Tensor, v: torch.Tensor):
        """Write one layer's new keys and values (B, H, n, d_head) after the ``length``
        stored; -> views of all of that layer's keys and values, (B, H, length + n, d_head)."""
        keys, values = self.room(layer, k, v)
        start, end = self.length, self.length + k.shape[-2]
        keys[..., start:end, :] = k
        values[..., start:end, :] = v
        return keys[..., :end, :], values[..., :end, :]

    def nbytes(self) -> int:
        """The memory the stored keys and values take (``length`` positions)."""
        stored = [t[..., : self.length, :] for t in self.keys + self.values if t is not None]
        return sum(t.numel() * t.element_size() for t in stored)

    def allocated_nbytes(self) -> int:
        """The memory set aside for them (``capacity`` positions)."""
        stored = [t for t in self.keys + self.values if t is not None]
        return sum(t.numel() * t.element_size() for t in stored)
