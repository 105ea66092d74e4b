"""The full encoder–decoder Transformer, teacher forcing, and greedy decoding.

Token tensors are ``long``: the source ``src`` (B, S), the decoder's input ``tgt_in`` (B, T).
Training feeds the whole target shifted right by one (``shift_right``) in one pass; inference
generates one token at a time from a start token (``greedy_decode``).
"""

from __future__ import annotations

import copy
import math

import torch
import torch.nn as nn

from .decoder import Decoder, DecoderBlock, causal_mask
from .decoder import block_from_torch as decoder_block_from_torch
from .encoder import Encoder, EncoderBlock
from .encoder import block_from_torch as encoder_block_from_torch
from .positional import PositionalEncoding

__all__ = ["Transformer", "core_from_torch", "greedy_decode", "shift_right"]


class Transformer(nn.Module):
    """Embeddings, sinusoidal positions, an encoder and a decoder stack, and an output layer.

    As in ``nn.Transformer``, both stacks end with a layer norm; as in the original paper,
    embeddings are multiplied by √d_model before the positions are added.
    """

    def __init__(
        self,
        src_vocab: int,
        tgt_vocab: int,
        d_model: int = 64,
        n_heads: int = 4,
        d_ff: int = 128,
        n_encoder_layers: int = 2,
        n_decoder_layers: int = 2,
        dropout: float = 0.0,
        max_len: int = 512,
        norm_first: bool = False,
    ):
        super().__init__()
        self.d_model = d_model
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.positions = PositionalEncoding(d_model, max_len, dropout)
        self.encoder = Encoder(
            EncoderBlock(d_model, n_heads, d_ff, dropout, norm_first),
            n_encoder_layers,
            final_norm=nn.LayerNorm(d_model),
        )
        self.decoder = Decoder(
            DecoderBlock(d_model, n_heads, d_ff, dropout, norm_first),
            n_decoder_layers,
            final_norm=nn.LayerNorm(d_model),
        )
        self.output = nn.Linear(d_model, tgt_vocab)
        for embedding in (self.src_embed, self.tgt_embed):
            # std d_model^-0.5, so that after the √d_model scaling the embeddings have unit size,
            # like the positional table; nn.Embedding's N(0, 1) would drown the positions.
            nn.init.normal_(embedding.weight, std=d_model**-0.5)

    def _embed(self, embedding: nn.Embedding, tokens: torch.Tensor) -> torch.Tensor:
        return self.positions(embedding(tokens) * math.sqrt(self.d_model))

    def embed_source(self, src: torch.Tensor) -> torch.Tensor:
        """(B, S) tokens -> (B, S, d_model) vectors with positions added."""
        return self._embed(self.src_embed, src)

    def embed_target(self, tgt_in: torch.Tensor) -> torch.Tensor:
        """(B, T) tokens -> (B, T, d_model) vectors with positions added."""
        return self._embed(self.tgt_embed, tgt_in)

    def encode(self, src: torch.Tensor, src_mask: torch.Tensor | None = None) -> torch.Tensor:
        """(B, S) tokens -> memory (B, S, d_model). ``src_mask``: (B, 1, S), True = real token."""
        return self.encoder(self.embed_source(src), src_mask)

    def decode(
        self, tgt_in: torch.Tensor, memory: torch.Tensor, src_mask: torch.Tensor | None = None
    ) -> torch.Tensor:
        """(B, T) tokens and memory (B, S, d_model) -> logits (B, T, tgt_vocab), causally masked."""
        x = self.embed_target(tgt_in)
        return self.output(self.decoder(x, memory, causal_mask(x.shape[1], x.device), src_mask))

    def forward(
        self, src: torch.Tensor, tgt_in: torch.Tensor, src_mask: torch.Tensor | None = None
    ) -> torch.Tensor:
        """One teacher-forced pass: (B, S) and (B, T) tokens -> logits (B, T, tgt_vocab).

        The logits at position t predict target token t, having seen ``tgt_in[:, : t + 1]``.
        """
        return self.decode(tgt_in, self.encode(src, src_mask), src_mask)


def shift_right(target: torch.Tensor, start_token: int) -> torch.Tensor:
    """The decoder's input for teacher forcing: (B, T) -> (B, T), start first, last dropped."""
    start = torch.full_like(target[:, :1], start_token)
    return torch.cat([start, target[:, :-1]], dim=1)


@torch.no_grad()
def greedy_decode(
    model: Transformer,
    src: torch.Tensor,
    start_token: int,
    end_token: int,
    max_len: int,
    src_mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """Generate one token at a time, always the most likely one. (B, S) -> (B, L).

    The result starts with ``start_token`` and holds at most ``max_len`` generated tokens.
    A sequence that has produced ``end_token`` is filled with ``end_token`` from then on, and
    generation stops early once every sequence has ended. Put the model in eval mode first.
    """
    memory = model.encode(src, src_mask)
    tokens = torch.full((src.shape[0], 1), start_token, dtype=torch.long, device=src.device)
    finished = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    for _ in range(max_len):
        next_token = model.decode(tokens, memory, src_mask)[:, -1].argmax(dim=-1)  # (B,)
        next_token = next_token.masked_fill(finished, end_token)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        finished |= next_token == end_token
        if bool(finished.all()):
            break
    return tokens


def core_from_torch(reference: nn.Transformer) -> tuple[Encoder, Decoder]:
    """The package's encoder and decoder stacks holding ``nn.Transformer(batch_first=True)``'s
    weights, final norms included: ``decoder(x, encoder(s))`` equals ``reference(s, x)``
    with the causal ``tgt_mask``.
    """
    encoder = Encoder.from_blocks(
        [encoder_block_from_torch(layer) for layer in reference.encoder.layers],
        final_norm=copy.deepcopy(reference.encoder.norm),
    )
    decoder = Decoder.from_blocks(
        [decoder_block_from_torch(layer) for layer in reference.decoder.layers],
        final_norm=copy.deepcopy(reference.decoder.norm),
    )
    return encoder, decoder
