"""The Transformer decoder: causal mask, decoder block (three sublayers), stack.

Shapes: the decoder's own tokens ``x`` are (batch, T, d_model); ``memory``, the encoder's
output, is (batch, S, d_model). Masks as everywhere in the course: boolean, True = may
attend, broadcastable to (B, H, T, T) for self-attention and (B, H, T, S) for
cross-attention; a padding mask over the source is ``src_real[:, None, :]``.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from .encoder import BlockStack, FeedForward
from .multihead import MultiHeadAttention, from_torch, to_torch

__all__ = ["Decoder", "DecoderBlock", "block_from_torch", "block_to_torch", "causal_mask"]


def causal_mask(seq_len: int, device: torch.device | str | None = None) -> torch.Tensor:
    """(T, T) boolean, True on and below the diagonal: token t may attend to tokens 0 … t.

    ``torch.where(causal_mask(T), 0.0, -inf)`` equals
    ``nn.Transformer.generate_square_subsequent_mask(T)``.
    """
    return torch.ones(seq_len, seq_len, dtype=torch.bool, device=device).tril()


class DecoderBlock(nn.Module):
    """Masked self-attention, cross-attention and feed-forward, each with residual and norm.

    Post-norm (``norm_first=False``, the original paper):
        h = norm1(x + self_attention(x, causal));  h = norm2(h + cross_attention(h, memory));
        out = norm3(h + feed_forward(h)).
    Pre-norm (``norm_first=True``) normalises each sublayer's input instead.
    Equal to ``nn.TransformerDecoderLayer(batch_first=True)`` with ReLU (see ``block_from_torch``).
    """

    def __init__(
        self, d_model: int, n_heads: int, d_ff: int, dropout: float = 0.0, norm_first: bool = False
    ):
        super().__init__()
        self.self_attention = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attention = MultiHeadAttention(d_model, n_heads, dropout)
        self.feed_forward = FeedForward(d_model, d_ff, dropout)
        self.norm1, self.norm2, self.norm3 = (nn.LayerNorm(d_model) for _ in range(3))
        self.dropout1, self.dropout2, self.dropout3 = (nn.Dropout(dropout) for _ in range(3))
        self.norm_first = norm_first

    def forward(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        self_mask: torch.Tensor | None = None,
        src_mask: torch.Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[torch.Tensor, tuple[torch.Tensor | None, torch.Tensor | None]]:
        """x (B, T, d_model), memory (B, S, d_model) -> (B, T, d_model) and, with
        ``need_weights``, the self-attention (B, H, T, T) and cross-attention (B, H, T, S)
        weights. ``self_mask`` defaults to the causal mask.
        """
        if self_mask is None:
            self_mask = causal_mask(x.shape[-2], x.device)

        def attend_self(h):
            return self.self_attention(h, mask=self_mask, need_weights=need_weights)

        def attend_memory(h):
            return self.cross_attention(h, memory, mask=src_mask, need_weights=need_weights)

        if self.norm_first:
            attended, self_weights = attend_self(self.norm1(x))
            x = x + self.dropout1(attended)
            attended, cross_weights = attend_memory(self.norm2(x))
            x = x + self.dropout2(attended)
            x = x + self.dropout3(self.feed_forward(self.norm3(x)))
        else:
            attended, self_weights = attend_self(x)
            x = self.norm1(x + self.dropout1(attended))
            attended, cross_weights = attend_memory(x)
            x = self.norm2(x + self.dropout2(attended))
            x = self.norm3(x + self.dropout3(self.feed_forward(x)))
        return x, (self_weights, cross_weights)


class Decoder(BlockStack):
    """A stack of ``n_layers`` decoder blocks, equal to ``nn.TransformerDecoder``."""

    def forward(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        self_mask: torch.Tensor | None = None,
        src_mask: torch.Tensor | None = None,
    ) -> torch.Tensor:
        """x (B, T, d_model), memory (B, S, d_model) -> (B, T, d_model)."""
        for layer in self.layers:
            x, _ = layer(x, memory, self_mask, src_mask)
        return x if self.final_norm is None else self.final_norm(x)

    def attention_maps(
        self,
        x: torch.Tensor,
        memory: torch.Tensor,
        self_mask: torch.Tensor | None = None,
        src_mask: torch.Tensor | None = None,
    ) -> list[tuple[torch.Tensor, torch.Tensor]]:
        """Per layer, the (self (B, H, T, T), cross (B, H, T, S)) attention weights."""
        maps = []
        for layer in self.layers:
            x, weights = layer(x, memory, self_mask, src_mask, need_weights=True)
            maps.append(weights)
        return maps


def block_from_torch(layer: nn.TransformerDecoderLayer) -> DecoderBlock:
    """A ``DecoderBlock`` with the weights of ``nn.TransformerDecoderLayer(batch_first=True)``."""
    if layer.activation not in (F.relu, torch.relu) and not isinstance(layer.activation, nn.ReLU):
        raise ValueError("the course's decoder block uses ReLU")
    d_model, d_ff = layer.linear1.in_features, layer.linear1.out_features
    block = DecoderBlock(
        d_model, layer.self_attn.num_heads, d_ff, layer.dropout.p, layer.norm_first
    )
    block.self_attention = from_torch(layer.self_attn)
    block.cross_attention = from_torch(layer.multihead_attn)
    block.feed_forward.linear1.load_state_dict(layer.linear1.state_dict())
    block.feed_forward.linear2.load_state_dict(layer.linear2.state_dict())
    for name in ("norm1", "norm2", "norm3"):
        getattr(block, name).load_state_dict(getattr(layer, name).state_dict())
    return block


def block_to_torch(block: DecoderBlock) -> nn.TransformerDecoderLayer:
    """A ``nn.TransformerDecoderLayer(batch_first=True)`` with this block's weights."""
    layer = nn.TransformerDecoderLayer(
        block.self_attention.d_model,
        block.self_attention.n_heads,
        block.feed_forward.linear1.out_features,
        block.feed_forward.dropout.p,
        batch_first=True,
        norm_first=block.norm_first,
    )
    layer.self_attn.load_state_dict(to_torch(block.self_attention).state_dict())
    layer.multihead_attn.load_state_dict(to_torch(block.cross_attention).state_dict())
    layer.linear1.load_state_dict(block.feed_forward.linear1.state_dict())
    layer.linear2.load_state_dict(block.feed_forward.linear2.state_dict())
    for name in ("norm1", "norm2", "norm3"):
        getattr(layer, name).load_state_dict(getattr(block, name).state_dict())
    return layer
