"""A decoder-only (GPT-style) character language model: its blocks, its forward pass, and its
step over a key–value cache.

Drop the encoder and the cross-attention of notebook 06 and what is left is a stack of
causally masked self-attention blocks that predicts each next token: a language model.

    logits = LN(blocks(E[x] + P[0..T-1])) Eᵀ          (B, T) indices -> (B, T, V) scores

``E`` is the token embedding (V, d_model); the output head reuses it ("tied" weights), so a
character's vector is both how it is read and how it is scored. ``P`` is a learned position
embedding (max_len, d_model). The blocks are pre-norm blocks run with a causal mask: the
course's ``EncoderBlock``, or a ``PreNormBlock`` assembled from a learner's own attention
module (notebook 03) and block wiring (notebook 05).

``CharLM.step`` runs only the new characters through the blocks, their queries attending to
the keys and values of the earlier ones that a ``KVCache`` keeps.

What notebook 08 does with the model has modules of its own: the cache (kv_cache.py),
sampling (sampling.py), the optimiser (adamw.py), training and bits per character
(lm_training.py). Their names are importable from here too (``__all__``), as notebooks 08
and 09, their checks and their refusals import them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F

from .adamw import AdamW, adamw_step, parameter_groups
from .decoder import causal_mask
from .encoder import EncoderBlock, FeedForward, pre_norm_block
from .kv_cache import KVCache, attend_with_cache
from .lm_training import (
    Batches,
    bits_per_character,
    evaluate_bits,
    flops_per_character,
    load_checkpoint,
    save_checkpoint,
    train,
    train_language_model,
    training_curve,
)
from .multihead import MultiHeadAttention, merge_heads, split_heads
from .sampling import generate, sample_next, top_p_filter

__all__ = [
    "CharLM",
    "PreNormBlock",
    "lm_logits",
    # Re-exported from the modules that now hold them (the notebooks, their checks and
    # refusals, tests and benchmarks import them from here):
    "AdamW",
    "Batches",
    "KVCache",
    "adamw_step",
    "attend_with_cache",
    "bits_per_character",
    "evaluate_bits",
    "flops_per_character",
    "generate",
    "load_checkpoint",
    "parameter_groups",
    "sample_next",
    "save_checkpoint",
    "top_p_filter",
    "train",
    "train_language_model",
    "training_curve",
]


def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm) -> torch.Tensor:
    """The forward pass from its pieces (notebook 08's exercise): idx (B, T) int64 ->
    logits (B, T, V), each block called as ``block(x, causal_mask)``, head tied to E."""
    T = idx.shape[1]
    x = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return final_norm(x) @ token_embedding.weight.T


class PreNormBlock(nn.Module):
    """A pre-norm block from parts: ``attention(d_model, n_heads)`` makes an attention module
    called as PyTorch's (``query, key, value, mask=..., need_weights=...`` -> ``(output,
    weights)``) with PyTorch's parameters (``in_proj_weight``, ``in_proj_bias``, ``out_proj``,
    or the course's ``in_proj``); ``wiring(x, attention, feed_forward_net, norm1, norm2,
    mask)`` puts the sublayers together (the course's ``pre_norm_block`` by default)."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        attention: Callable[[int, int], nn.Module] = MultiHeadAttention,
        wiring: Callable = pre_norm_block,
    ):
        super().__init__()
        self.n_heads = n_heads
        self.attention = attention(d_model, n_heads)
        self.feed_forward = FeedForward(d_model, d_ff)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.wiring = wiring

    def self_attention(self, h: torch.Tensor, mask: torch.Tensor | None = None):
        """The attention module over h alone: -> (output (B, T, d_model), None)."""
        return self.attention(h, h, h, mask=mask, need_weights=False)[0], None

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None, need_weights: bool = False
    ) -> tuple[torch.Tensor, None]:
        """x (B, T, d_model) -> (B, T, d_model), None (the maps come from
        ``CharLM.attention_maps``)."""
        return self.wiring(
            x, self.self_attention, self.feed_forward, self.norm1, self.norm2, mask=mask
        ), None


class CharLM(nn.Module):
    """Token and position embeddings, ``n_layers`` pre-norm causal blocks, a final layer norm,
    and an output head tied to the token embedding: (B, T) int64 -> (B, T, vocab_size).

    By default the blocks are the course's ``EncoderBlock(norm_first=True)`` and the forward
    pass is the course's. A learner's own parts replace them: ``attention`` (a module class,
    ``attention(d_model, n_heads)``) and ``wiring`` (a pre-norm block function) make the
    blocks ``PreNormBlock``s, and ``logits`` (a function like ``lm_logits``) is the forward
    pass. Dropout (``dropout``) applies to the course's blocks and forward pass only.
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 128,
        n_heads: int = 4,
        n_layers: int = 4,
        d_ff: int | None = None,
        max_len: int = 256,
        dropout: float = 0.0,
        *,
        attention: Callable[[int, int], nn.Module] | None = None,
        wiring: Callable | None = None,
        logits: Callable | None = None,
        cached_attention: Callable | None = None,
    ):
        super().__init__()
        self.max_len = max_len
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(max_len, d_model)
        d_ff = d_ff or 4 * d_model
        if attention is None and wiring is None:
            blocks = (
                EncoderBlock(d_model, n_heads, d_ff, dropout, norm_first=True)
                for _ in range(n_layers)
            )
        else:
            blocks = (
                PreNormBlock(
                    d_model,
                    n_heads,
                    d_ff,
                    attention or MultiHeadAttention,
                    wiring or pre_norm_block,
                )
                for _ in range(n_layers)
            )
        self.blocks = nn.ModuleList(blocks)
        self.final_norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.logits = logits
        self.cached_attention = cached_attention
        # GPT-2's initialisation: small normal weights keep the first logits near uniform.
        for name, parameter in self.named_parameters():
            if parameter.dim() == 2:
                nn.init.normal_(parameter, std=0.02)
            elif name.endswith("bias"):
                nn.init.zeros_(parameter)

    def embed(self, idx: torch.Tensor, start: int = 0) -> torch.Tensor:
        """(B, T) -> (B, T, d_model): token vectors plus those of positions start .. start+T-1."""
        positions = torch.arange(start, start + idx.shape[1], device=idx.device)
        return self.dropout(self.token_embedding(idx) + self.position_embedding(positions))

    def head(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_model) -> (B, T, vocab_size): final norm, then scores against E."""
        return self.final_norm(x) @ self.token_embedding.weight.T

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """idx (B, T) with T <= max_len -> logits (B, T, vocab_size)."""
        if self.logits is not None:
            return self.logits(
                idx,
                self.token_embedding,
                self.position_embedding,
                list(self.blocks),
                self.final_norm,
            )
        x = self.embed(idx)
        mask = causal_mask(idx.shape[1], device=idx.device)
        for block in self.blocks:
            x = block(x, mask)[0]
        return self.head(x)

    @torch.no_grad()
    def attention_maps(self, idx: torch.Tensor) -> list[torch.Tensor]:
        """Every layer's attention weights for ``idx`` (B, T): a list of (B, H, T, T),
        computed from each block's projections of its normed input (pre-norm blocks)."""
        x = self.embed(idx)
        mask = causal_mask(idx.shape[1], device=idx.device)
        maps = []
        for block in self.blocks:
            q, k, _ = _heads(block, block.norm1(x))
            scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
            maps.append(torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1))
            x = block(x, mask)[0]
        return maps

    def step(self, idx: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Run the new characters ``idx`` (B, T_new), which follow the ``cache.length`` already
        in ``cache``, through the model; extends the cache; -> logits (B, T_new, vocab)."""
        start = cache.length
        if start + idx.shape[1] > self.max_len:
            raise ValueError(f"{start + idx.shape[1]} characters exceed max_len = {self.max_len}")
        if cache.capacity is None:
            cache.capacity = self.max_len
        x = self.embed(idx, start)
        for layer, block in enumerate(self.blocks):
            wiring = getattr(block, "wiring", pre_norm_block)
            attend = partial(
                _cached_self_attention,
                block,
                cache,
                layer,
                self.cached_attention or attend_with_cache,
            )
            x = wiring(x, attend, block.feed_forward, block.norm1, block.norm2)
        cache.length += idx.shape[1]
        return self.head(x)


def _heads(block: nn.Module, h: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The block's queries, keys and values of h (B, T, d_model), each (B, H, T, d_head),
    from its attention's packed projection (PyTorch's names or the course's ``in_proj``)."""
    attention = block.attention
    if hasattr(attention, "in_proj_weight"):
        weight, bias = attention.in_proj_weight, attention.in_proj_bias
    else:
        weight, bias = attention.in_proj.weight, attention.in_proj.bias
    n_heads = getattr(block, "n_heads", None) or attention.n_heads
    return tuple(split_heads(t, n_heads) for t in F.linear(h, weight, bias).chunk(3, dim=-1))


def _cached_self_attention(
    block: nn.Module,
    cache: KVCache,
    layer: int,
    attend: Callable,
    h: torch.Tensor,
    mask: torch.Tensor | None = None,
) -> tuple[torch.Tensor, None]:
    """The block's attention for the new (normed) inputs h (B, T_new, d) over the cache and
    h, as an attention module returns it: (output, None), with ``attend`` (like
    ``attend_with_cache``) writing the new keys and values into the cache. (``mask`` is not
    used: the one a cached step needs follows from the cache.)"""
    q, k, v = _heads(block, h)
    cache_k, cache_v = cache.room(layer, k, v)
    output = attend(q, k, v, cache_k, cache_v, cache.length)
    return block.attention.out_proj(merge_heads(output)), None
