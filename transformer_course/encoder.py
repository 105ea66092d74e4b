"""The Transformer encoder: feed-forward network, encoder block (post-norm or pre-norm), stack.

Shapes: (batch, seq_len, d_model) in and out. Masks as everywhere in the course: boolean,
True = may attend, broadcastable to (B, H, T, S); a padding mask is ``real[:, None, :]``.
"""

from __future__ import annotations

import copy
from typing import Self

import torch
import torch.nn as nn

from .multihead import MultiHeadAttention, from_torch, to_torch

__all__ = [
    "BlockStack",
    "Encoder",
    "EncoderBlock",
    "FeedForward",
    "block_from_torch",
    "block_to_torch",
    "pre_norm_block",
]


class FeedForward(nn.Module):
    """Position-wise feed-forward network: Linear(d_model, d_ff) -> ReLU -> Linear(d_ff, d_model).

    "Position-wise": the same two layers are applied to every token on its own.
    """

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0):
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear2(self.dropout(torch.relu(self.linear1(x))))


def pre_norm_block(x, attention, feed_forward_net, norm1, norm2, mask=None) -> torch.Tensor:
    """The pre-norm wiring of four given sublayers (notebook 05, exercise 4):
    h = x + attention(norm1(x), mask=mask)[0], then h + feed_forward_net(norm2(h)).
    ``attention`` returns ``(output, weights)``; x (B, T, d_model) -> (B, T, d_model)."""
    h = x + attention(norm1(x), mask=mask)[0]
    return h + feed_forward_net(norm2(h))


class EncoderBlock(nn.Module):
    """Self-attention and feed-forward sublayers, each with a residual connection and a norm.

    Post-norm (the original paper, ``norm_first=False``): x = norm(x + sublayer(x)).
    Pre-norm (``norm_first=True``): x = x + sublayer(norm(x)); easier to train deep.
    Equal to ``nn.TransformerEncoderLayer(batch_first=True)`` with ReLU (see ``block_from_torch``).
    """

    def __init__(
        self, d_model: int, n_heads: int, d_ff: int, dropout: float = 0.0, norm_first: bool = False
    ):
        super().__init__()
        self.attention = MultiHeadAttention(d_model, n_heads, dropout)
        self.feed_forward = FeedForward(d_model, d_ff, dropout)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.norm_first = norm_first

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None, need_weights: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """x (B, T, d_model) -> (B, T, d_model) and, with ``need_weights``, (B, H, T, T)."""
        if self.norm_first:
            attended, weights = self.attention(self.norm1(x), mask=mask, need_weights=need_weights)
            x = x + self.dropout1(attended)
            x = x + self.dropout2(self.feed_forward(self.norm2(x)))
        else:
            attended, weights = self.attention(x, mask=mask, need_weights=need_weights)
            x = self.norm1(x + self.dropout1(attended))
            x = self.norm2(x + self.dropout2(self.feed_forward(x)))
        return x, weights


class BlockStack(nn.Module):
    """``n_layers`` copies of ``block`` (each with its own weights), applied in turn, then
    ``final_norm`` if given. The encoder's and the decoder's stacks are both this."""

    def __init__(self, block: nn.Module, n_layers: int, final_norm: nn.Module | None = None):
        super().__init__()
        self.layers = nn.ModuleList(copy.deepcopy(block) for _ in range(n_layers))
        self.final_norm = final_norm

    @classmethod
    def from_blocks(cls, blocks, final_norm: nn.Module | None = None) -> Self:
        """A stack of these very blocks (each keeps its own weights), in this order."""
        stack = cls(blocks[0], n_layers=0, final_norm=final_norm)
        stack.layers = nn.ModuleList(blocks)
        return stack


class Encoder(BlockStack):
    """A stack of ``n_layers`` encoder blocks, equal to ``nn.TransformerEncoder``."""

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        for layer in self.layers:
            x, _ = layer(x, mask)
        return x if self.final_norm is None else self.final_norm(x)

    def attention_maps(
        self, x: torch.Tensor, mask: torch.Tensor | None = None
    ) -> list[torch.Tensor]:
        """Every layer's attention weights, each (B, H, T, T), computed on the way up."""
        maps = []
        for layer in self.layers:
            x, weights = layer(x, mask, need_weights=True)
            maps.append(weights)
        return maps


def block_from_torch(layer: nn.TransformerEncoderLayer) -> EncoderBlock:
    """An ``EncoderBlock`` with the weights of ``nn.TransformerEncoderLayer(batch_first=True)``."""
    if layer.activation_relu_or_gelu != 1:
        raise ValueError("the course's encoder block uses ReLU")
    d_model, d_ff = layer.linear1.in_features, layer.linear1.out_features
    block = EncoderBlock(
        d_model, layer.self_attn.num_heads, d_ff, layer.dropout.p, layer.norm_first
    )
    block.attention = from_torch(layer.self_attn)
    block.feed_forward.linear1.load_state_dict(layer.linear1.state_dict())
    block.feed_forward.linear2.load_state_dict(layer.linear2.state_dict())
    block.norm1.load_state_dict(layer.norm1.state_dict())
    block.norm2.load_state_dict(layer.norm2.state_dict())
    return block


def block_to_torch(block: EncoderBlock) -> nn.TransformerEncoderLayer:
    """A ``nn.TransformerEncoderLayer(batch_first=True)`` with this block's weights."""
    attention = block.attention
    layer = nn.TransformerEncoderLayer(
        attention.d_model,
        attention.n_heads,
        block.feed_forward.linear1.out_features,
        block.feed_forward.dropout.p,
        batch_first=True,
        norm_first=block.norm_first,
    )
    layer.self_attn.load_state_dict(to_torch(attention).state_dict())
    layer.linear1.load_state_dict(block.feed_forward.linear1.state_dict())
    layer.linear2.load_state_dict(block.feed_forward.linear2.state_dict())
    layer.norm1.load_state_dict(block.norm1.state_dict())
    layer.norm2.load_state_dict(block.norm2.state_dict())
    return layer
