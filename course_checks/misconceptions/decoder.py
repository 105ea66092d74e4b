"""Known wrong answers for notebook 06, decoder."""

from __future__ import annotations

import math

import torch

from .vector_attention import WRONG_ORDER

__all__ = [
    "causal_attention",
    "causal_attention_weights",
    "causal_mask",
    "cross_attention",
    "decoder_block",
    "greedy_decode",
    "shift_right",
]


def causal_mask(seq_len: int) -> dict[str, torch.Tensor]:
    """Variants of the (T, T) boolean causal mask, True = may attend (on and below the diagonal)."""
    ones = torch.ones(seq_len, seq_len, dtype=torch.bool)
    return {
        "the triangle flipped: every token sees itself and the future instead of the past": (
            ones.triu()
        ),
        "a mask that hides the diagonal too, so no token may attend to itself": ones.tril(-1),
        "the opposite polarity, True where attention is forbidden (nn.MultiheadAttention's "
        "convention, not the course's)": ones.triu(1),
    }


def _softmax_rows(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)


def causal_attention_weights(Q: torch.Tensor, K: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the causally masked weights; Q and K (..., T, d_k)."""
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
    variants = {
        description: _softmax_rows(scores, mask)
        for description, mask in causal_mask(scores.shape[-1]).items()
    }
    variants["masked scores set to 0 instead of −inf (the future still gets weight)"] = (
        torch.softmax(scores.masked_fill(~causal, 0.0), dim=-1)
    )
    variants["the mask applied after the softmax, so the rows no longer sum to 1"] = (
        torch.softmax(scores, dim=-1) * causal
    )
    variants["attention with no mask at all"] = torch.softmax(scores, dim=-1)
    variants["masked attention without the 1/√d_k scaling"] = _softmax_rows(
        scores * math.sqrt(Q.shape[-1]), causal
    )
    return variants


def causal_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of causally masked attention outputs; Q, K (..., T, d_k), V (..., T, d_v).

    The exercise returns the pair (output, weights), so the weights in the output's place
    are the pair in the wrong order.
    """
    variants = {
        description: weights @ V for description, weights in causal_attention_weights(Q, K).items()
    }
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
    variants[WRONG_ORDER] = _softmax_rows(scores, causal)
    return variants


def cross_attention(x: torch.Tensor, memory: torch.Tensor, to_q, to_k, to_v) -> dict:
    """Variants of cross-attention outputs; x (B, T, d) from the decoder, memory (B, S, d).

    The exercise returns the pair (output, weights), so the weights in the output's place
    are the pair in the wrong order.
    """
    with torch.no_grad():

        def weights(queries_from, keys_from, mask=None):
            scores = to_q(queries_from) @ to_k(keys_from).transpose(-2, -1)
            scores = scores / math.sqrt(scores.new_tensor(to_q.out_features))
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            return torch.softmax(scores, dim=-1)

        def attend(queries_from, keys_from, mask=None):
            return weights(queries_from, keys_from, mask) @ to_v(keys_from)

        T, S = x.shape[-2], memory.shape[-2]
        return {
            "self-attention over the decoder's tokens: keys and values must come from the "
            "encoder's output (memory), only the queries from the decoder": attend(x, x),
            "the roles swapped: queries from the encoder, keys and values from the decoder": (
                attend(memory, x)
            ),
            "cross-attention with a causal mask (the decoder may read the whole source)": attend(
                x, memory, torch.ones(T, S, dtype=torch.bool).tril()
            ),
            WRONG_ORDER: weights(x, memory),
        }


def decoder_block(x, memory, attend_self, attend_self_unmasked, attend_memory, feed, norms):
    """Variants of the post-norm decoder block. ``attend_self(h)`` is causally masked
    self-attention, ``attend_memory(h, m)`` cross-attention, ``norms`` the three layer norms.
    """
    norm1, norm2, norm3 = norms
    with torch.no_grad():

        def post_norm(self_attention=attend_self, keys_from_memory=True, cross=True):
            h = norm1(x + self_attention(x))
            if cross:
                h = norm2(h + attend_memory(h, memory if keys_from_memory else h))
            return norm3(h + feed(h))

        pre = x + attend_self(norm1(x))
        pre = pre + attend_memory(norm2(pre), memory)
        return {
            "the self-attention without its causal mask (every token sees the future)": post_norm(
                attend_self_unmasked
            ),
            "cross-attention whose keys and values come from the decoder instead of the "
            "encoder's output (memory)": post_norm(keys_from_memory=False),
            "pre-norm (each sublayer sees a normalised input) instead of post-norm": pre
            + feed(norm3(pre)),
            "a block without its cross-attention sublayer (an encoder block with a causal "
            "mask)": post_norm(cross=False),
        }


def shift_right(target: torch.Tensor, start_token: int) -> dict[str, torch.Tensor]:
    """Variants of the decoder's teacher-forcing input for targets (B, T)."""
    start = torch.full_like(target[:, :1], start_token)
    return {
        "the target itself, not shifted: the decoder would see the very token it must "
        "predict": target,
        "a shift to the left (first token dropped, start token at the end) instead of to the "
        "right": torch.cat([target[:, 1:], start], dim=1),
        "the start token put in front without dropping the last token (one token too "
        "long)": torch.cat([start, target], dim=1),
    }


def _greedy(model, src, start, end, max_len, last=True, whole_prefix=True, fill=True):
    memory = model.encode(src)
    tokens = torch.full((src.shape[0], 1), start, dtype=torch.long)
    finished = torch.zeros(src.shape[0], dtype=torch.bool)
    for _ in range(max_len):
        logits = model.decode(tokens if whole_prefix else tokens[:, -1:], memory)
        next_token = logits[:, -1 if last else 0].argmax(dim=-1)
        if fill:
            next_token = next_token.masked_fill(finished, end)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        finished |= next_token == end
        if bool(finished.all()):
            break
    return tokens


def greedy_decode(model, src: torch.Tensor, start: int, end: int, max_len: int) -> dict:
    """Variants of greedy decoding with the package's ``Transformer`` (eval mode, CPU)."""
    with torch.no_grad():
        return {
            "reading the prediction at the first position instead of the last (newest) "
            "one": _greedy(model, src, start, end, max_len, last=False),
            "feeding back only the newest token instead of the whole sequence so far": (
                _greedy(model, src, start, end, max_len, whole_prefix=False)
            ),
            "sequences that go on after their end token (fill them with the end token "
            "instead)": _greedy(model, src, start, end, max_len, fill=False),
        }
