"""The modern decoder: a block and a model built from RMSNorm, rotary position embeddings,
SwiGLU and grouped-query attention, each part chosen on its own.

Notebook 08's language model is the decoder of 2017–2019: learned positions added to the
token vectors, layer norms, a ReLU feed-forward layer, as many key/value heads as query heads.
The decoders of today (LLaMA, Mistral, Qwen, …) keep its shape and swap four parts, each
in a module of its own:

* **RMSNorm** (rms_norm.py) divides each token's vector by its root mean square; no mean is
  subtracted and no bias added: ``x / sqrt(mean(x²) + eps) * weight``.
* **Rotary position embeddings** (rotary.py) add nothing to the token vectors. Inside
  attention, each pair of features (2i, 2i+1) of a query or key at position p is turned by
  the angle p·ω_i, ω_i = base^(−2i/d_head); a query–key score then depends on their
  positions only through the offset between them.
* **SwiGLU** (swiglu.py) replaces Linear → ReLU → Linear by a gated layer,
  ``down(silu(gate(x)) * up(x))``, with three matrices of a hidden size ≈ 2/3 of the ReLU
  layer's, so that it holds as many weights.
* **Grouped-query attention** (grouped_query.py) gives the keys and values fewer heads than
  the queries: ``n_heads / n_kv_heads`` query heads share each key/value head, and the
  key–value cache shrinks by that factor. ``n_kv_heads = 1`` is multi-query attention.

``ModernLM`` is notebook 08's ``CharLM`` with each part chosen on its own: with
``norm="layer", feed_forward="relu", positions="learned"`` and ``n_kv_heads = n_heads`` it is
the same function as ``CharLM`` (``from_char_lm`` copies one into the other), and each
argument swaps in one modern part. It runs the course's ``KVCache`` and ``generate``.

Training models side by side and scoring them by position, notebook 09's comparison, is
modern_training.py. The names of the parts and of the comparison are importable from here
too (``__all__``), as notebook 09, its checks and its refusals import them.

Shapes: tokens (B, T, d_model); heads (B, H, T, d_head); masks boolean, True = may attend.
"""

from __future__ import annotations

from typing import Literal

import torch
import torch.nn as nn

from .decoder import causal_mask
from .encoder import FeedForward
from .grouped_query import SDPA_HAS_GQA, grouped_query_attention, repeat_kv
from .kv_cache import KVCache
from .language_model import CharLM
from .modern_training import bits_by_position, train_for
from .multihead import merge_heads, split_heads
from .rms_norm import RMSNorm, rms_norm
from .rotary import _cos_sin, _turn, apply_rotary, rotary_angles
from .swiglu import SwiGLU, matched_hidden_size, swiglu

__all__ = [
    "ModernBlock",
    "ModernLM",
    "from_char_lm",
    # Re-exported from the modules that now hold them (the notebooks, their checks and
    # refusals, tests and benchmarks import them from here):
    "RMSNorm",
    "SDPA_HAS_GQA",
    "SwiGLU",
    "apply_rotary",
    "bits_by_position",
    "grouped_query_attention",
    "matched_hidden_size",
    "repeat_kv",
    "rms_norm",
    "rotary_angles",
    "swiglu",
    "train_for",
]


Norm = Literal["layer", "rms"]
FeedForwardKind = Literal["relu", "swiglu"]
Positions = Literal["learned", "rotary"]


def _norm(kind: Norm, d_model: int) -> nn.Module:
    if kind == "layer":
        return nn.LayerNorm(d_model)
    if kind == "rms":
        return RMSNorm(d_model)
    raise ValueError(f"norm must be 'layer' or 'rms', not {kind!r}")


class ModernBlock(nn.Module):
    """A pre-norm causal decoder block whose parts are chosen one by one:

        h = x + out_proj(attention(norm1(x)))        rotary on q and k if ``rotary``
        out = h + feed_forward(norm2(h))

    ``norm``: "layer" (nn.LayerNorm) or "rms" (RMSNorm); ``feed_forward``: "relu"
    (``FeedForward(d_model, d_ff)``) or "swiglu" (``SwiGLU(d_model, d_ff)``); ``n_kv_heads``
    key/value heads (default ``n_heads``). The projections keep their biases, as in CharLM.
    x (B, T, d_model) -> (B, T, d_model).
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        n_kv_heads: int | None = None,
        d_ff: int | None = None,
        norm: Norm = "rms",
        feed_forward: FeedForwardKind = "swiglu",
        rotary: bool = True,
    ):
        super().__init__()
        n_kv_heads = n_kv_heads or n_heads
        if d_model % n_heads or n_heads % n_kv_heads:
            raise ValueError(
                f"need n_heads | d_model and n_kv_heads | n_heads; got d_model = "
                f"{d_model}, n_heads = {n_heads}, n_kv_heads = {n_kv_heads}"
            )
        d_head = d_model // n_heads
        self.n_heads, self.n_kv_heads, self.rotary = n_heads, n_kv_heads, rotary
        self.norm1 = _norm(norm, d_model)
        self.q_proj = nn.Linear(d_model, n_heads * d_head)
        self.k_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.v_proj = nn.Linear(d_model, n_kv_heads * d_head)
        self.out_proj = nn.Linear(n_heads * d_head, d_model)
        self.norm2 = _norm(norm, d_model)
        if feed_forward == "relu":
            self.feed_forward = FeedForward(d_model, d_ff or 4 * d_model)
        elif feed_forward == "swiglu":
            self.feed_forward = SwiGLU(d_model, d_ff or matched_hidden_size(d_model, 4 * d_model))
        else:
            raise ValueError(f"feed_forward must be 'relu' or 'swiglu', not {feed_forward!r}")

    def forward(
        self, x: torch.Tensor, start: int = 0, cache: KVCache | None = None, layer: int = 0
    ) -> torch.Tensor:
        """x (B, T, d_model), the tokens at positions start … start+T−1; with a ``cache``,
        their keys and values join those of the ``start`` tokens before them, stored there
        under ``layer``. -> (B, T, d_model)."""
        x = x + self._attend(self.norm1(x), start, cache, layer)
        return x + self.feed_forward(self.norm2(x))

    def _attend(self, h: torch.Tensor, start: int, cache: KVCache | None, layer: int):
        q = split_heads(self.q_proj(h), self.n_heads)  # (B, H, T, d_head)
        k = split_heads(self.k_proj(h), self.n_kv_heads)  # (B, H_kv, T, d_head)
        v = split_heads(self.v_proj(h), self.n_kv_heads)
        new = h.shape[-2]
        if self.rotary:  # q and k turned by the same angles, computed once
            positions = torch.arange(start, start + new, device=h.device)
            cos, sin = _cos_sin(positions, q.shape[-1], 10000.0, q.dtype)
            q, k = _turn(q, cos, sin), _turn(k, cos, sin)
        if cache is not None:
            k, v = cache.append(layer, k, v)  # the cache holds keys already rotated
        total = k.shape[-2]
        if total == new:  # no earlier tokens: the fused kernel's own causal path
            return self.out_proj(merge_heads(grouped_query_attention(q, k, v, is_causal=True)))
        # The new token at position start + i may see positions 0 … start + i: the causal
        # mask aligned to the bottom right (one new token sees every key).
        mask = None if new == 1 else causal_mask(total, device=h.device)[total - new :]
        return self.out_proj(merge_heads(grouped_query_attention(q, k, v, mask)))


class ModernLM(nn.Module):
    """Notebook 08's character model with its parts chosen one by one (defaults: its size,
    and every part modern).

    (B, T) int64 -> (B, T, vocab_size). With ``positions="learned"`` a position embedding
    (max_len, d_model) is added to the token vectors, as in CharLM; with "rotary" there is
    none, and ``max_len`` only bounds what ``generate`` may write. The final norm is of the
    blocks' kind; the output head is tied to the token embedding.
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 96,
        n_heads: int = 4,
        n_layers: int = 3,
        max_len: int = 256,
        *,
        n_kv_heads: int | None = None,
        d_ff: int | None = None,
        norm: Norm = "rms",
        feed_forward: FeedForwardKind = "swiglu",
        positions: Positions = "rotary",
    ):
        super().__init__()
        if positions not in ("learned", "rotary"):
            raise ValueError(f"positions must be 'learned' or 'rotary', not {positions!r}")
        self.max_len = max_len
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(max_len, d_model) if positions == "learned" else None
        self.blocks = nn.ModuleList(
            ModernBlock(
                d_model, n_heads, n_kv_heads, d_ff, norm, feed_forward, rotary=positions == "rotary"
            )
            for _ in range(n_layers)
        )
        self.final_norm = _norm(norm, d_model)
        # CharLM's (GPT-2's) initialisation: small normal weights, zero biases, norms at 1.
        for name, parameter in self.named_parameters():
            if parameter.dim() == 2:
                nn.init.normal_(parameter, std=0.02)
            elif name.endswith("bias"):
                nn.init.zeros_(parameter)

    def embed(self, idx: torch.Tensor, start: int = 0) -> torch.Tensor:
        """(B, T) -> (B, T, d_model): token vectors (plus learned positions start … start+T−1)."""
        x = self.token_embedding(idx)
        if self.position_embedding is not None:
            x = x + self.position_embedding(
                torch.arange(start, start + idx.shape[1], device=idx.device)
            )
        return x

    def head(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_model) -> (B, T, vocab_size): final norm, then scores against E."""
        return self.final_norm(x) @ self.token_embedding.weight.T

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """idx (B, T) -> logits (B, T, vocab_size), each position seeing itself and earlier ones."""
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(x)

    def step(self, idx: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Run the new characters idx (B, T_new), which follow the ``cache.length`` in
        ``cache``; extends the cache -> logits (B, T_new, vocab_size). As ``CharLM.step``."""
        start = cache.length
        if self.position_embedding is not None and start + idx.shape[1] > self.max_len:
            raise ValueError(f"{start + idx.shape[1]} characters exceed max_len = {self.max_len}")
        if cache.capacity is None:
            cache.capacity = self.max_len
        x = self.embed(idx, start)
        for layer, block in enumerate(self.blocks):
            x = block(x, start, cache, layer)
        cache.length += idx.shape[1]
        return self.head(x)


def from_char_lm(model: CharLM) -> ModernLM:
    """A ``ModernLM`` with the 2017 parts and the weights of notebook 08's ``model``: the
    same function (``tests/test_modern.py`` checks the logits)."""
    first = model.blocks[0]
    d_model, vocab_size = model.token_embedding.embedding_dim, model.token_embedding.num_embeddings
    modern = ModernLM(
        vocab_size,
        d_model,
        first.attention.n_heads,
        len(model.blocks),
        model.max_len,
        d_ff=first.feed_forward.linear1.out_features,
        norm="layer",
        feed_forward="relu",
        positions="learned",
    )
    modern = modern.to(model.token_embedding.weight.device)
    modern.token_embedding.load_state_dict(model.token_embedding.state_dict())
    modern.position_embedding.load_state_dict(model.position_embedding.state_dict())
    modern.final_norm.load_state_dict(model.final_norm.state_dict())
    for old, new in zip(model.blocks, modern.blocks, strict=True):
        weights = old.attention.in_proj.weight.chunk(3)
        biases = old.attention.in_proj.bias.chunk(3)
        with torch.no_grad():
            for projection, w, b in zip(
                (new.q_proj, new.k_proj, new.v_proj), weights, biases, strict=True
            ):
                projection.weight.copy_(w)
                projection.bias.copy_(b)
        new.out_proj.load_state_dict(old.attention.out_proj.state_dict())
        new.feed_forward.load_state_dict(old.feed_forward.state_dict())
        new.norm1.load_state_dict(old.norm1.state_dict())
        new.norm2.load_state_dict(old.norm2.state_dict())
    return modern
