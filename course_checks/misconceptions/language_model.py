"""Known wrong answers for notebook 08, a character language model."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from transformer_course.decoder import causal_mask

__all__ = [
    "attend_with_cache",
    "bits_per_character",
    "encode",
    "lm_logits",
    "random_windows",
    "sample_distribution",
]


def encode(text: str, vocab: list[str]) -> dict[str, torch.Tensor]:
    """Variants of the indices of ``text`` (every character of it in ``vocab``)."""
    right = [vocab.index(c) for c in text]
    return {
        "indices counted from 1 (the unknown entry at index 0 left out of the count)": (
            torch.tensor([i + 1 for i in right])
        ),
        "indices into the vocabulary without its unknown entry in front": (
            torch.tensor([i - 1 for i in right])
        ),
        "the characters' code points (ord) instead of their indices in the vocabulary": (
            torch.tensor([ord(c) for c in text])
        ),
    }


def random_windows(
    data: torch.Tensor, block_size: int, batch_size: int, seed: int
) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Variants of ``(inputs, targets)`` drawn with ``torch.Generator().manual_seed(seed)``."""
    n, t = len(data), block_size

    def windows(high: int, shift: int):
        starts = torch.randint(high, (batch_size,), generator=torch.Generator().manual_seed(seed))
        rows = starts[:, None] + torch.arange(t)
        return data[rows.clamp(max=n - 1)], data[(rows + shift).clamp(0, n - 1)]

    x, _ = windows(n - t, 1)
    return {
        "targets equal to the inputs, not shifted by one character": (x, x),
        "targets shifted the wrong way (the character before, not after)": windows(n - t, -1),
        "targets shifted by two characters": windows(n - t, 2),
        "starts drawn from len(data) - block_size + 1 values: a window's target can fall past "
        "the end": windows(n - t + 1, 1),
    }


def lm_logits(
    idx: torch.Tensor, token_embedding, position_embedding, blocks, final_norm
) -> dict[str, torch.Tensor]:
    """Variants of the model's logits (B, T, V) with these pieces."""
    T = idx.shape[1]
    positions = torch.arange(T)

    causal = causal_mask(T)

    def run(x, mask=causal, norm=True):
        for block in blocks:
            x = block(x, mask)[0]
        return (final_norm(x) if norm else x) @ token_embedding.weight.T

    tokens = token_embedding(idx)
    with torch.no_grad():
        return {
            "the model without a causal mask: every character sees the ones after it": run(
                tokens + position_embedding(positions), mask=None
            ),
            "the model without position embeddings": run(tokens),
            "the model without the final layer norm": run(
                tokens + position_embedding(positions), norm=False
            ),
            "positions counted from 1": run(tokens + position_embedding(positions + 1))
            if T < position_embedding.num_embeddings
            else run(tokens),
            "a causal mask that hides the diagonal too (no character sees itself)": run(
                tokens + position_embedding(positions), mask=causal_mask(T).tril(-1)
                | torch.eye(T, dtype=torch.bool).logical_and(torch.arange(T)[:, None] == 0)
            ),
        }


def bits_per_character(logits: torch.Tensor, targets: torch.Tensor) -> dict[str, torch.Tensor]:
    flat, wanted = logits.flatten(0, -2), targets.flatten()
    nats = F.cross_entropy(flat, wanted)
    return {
        "the cross-entropy in nats (natural log): divide by ln 2 for bits": nats,
        "the cross-entropy with log10: bits need log2": nats / math.log(10),
        "the sum over characters instead of the mean": F.cross_entropy(
            flat, wanted, reduction="sum"
        ) / math.log(2),
        "probabilities passed to cross_entropy, which expects logits (softmax applied twice)": (
            F.cross_entropy(torch.softmax(flat, -1), wanted) / math.log(2)
        ),
    }


def sample_distribution(
    logits: torch.Tensor, temperature: float, top_k: int | None
) -> dict[str, torch.Tensor]:
    """Variants of the distribution (V,) that ``sample_next`` draws from for one row."""

    def keep_top(scores, k, largest=True):
        if k is None:
            return scores
        kept = scores.topk(k, largest=largest).indices
        return torch.full_like(scores, float("-inf")).index_copy(0, kept, scores[kept])

    return {
        "logits multiplied by the temperature instead of divided": torch.softmax(
            keep_top(logits * temperature, top_k), -1
        ),
        "the temperature ignored": torch.softmax(keep_top(logits, top_k), -1),
        "top-k keeping the k smallest logits instead of the k largest": torch.softmax(
            keep_top(logits / temperature, top_k, largest=False), -1
        )
        if top_k is not None
        else torch.softmax(logits / temperature, -1),
        "top-k ignored": torch.softmax(logits / temperature, -1),
    }


def attend_with_cache(steps, prompt: int) -> dict[str, torch.Tensor]:
    """Variants of the outputs (B, H, T, d) of cached attention over ``steps`` = (q, k, v),
    each (B, H, T, d), fed ``prompt`` positions at once and then one at a time."""
    q, k, v = steps
    T = q.shape[-2]
    scale = q.shape[-1] ** -0.5

    def attend(mask, scale=scale):
        scores = (q @ k.transpose(-2, -1)) * scale
        return torch.softmax(scores.masked_fill(~mask, float("-inf")), -1) @ v

    causal = causal_mask(T)
    rows, columns = torch.arange(T)[:, None], torch.arange(T)
    in_prompt = (rows < prompt) & (columns < prompt)
    first_only = causal & ((rows < prompt) | (columns == 0))
    return {
        "attention to the new characters only: the cache is never read": attend(
            causal & in_prompt | torch.eye(T, dtype=torch.bool)
        ),
        "no causal mask inside the prompt: its characters see the ones after them": attend(
            causal | in_prompt
        ),
        "a mask built for the new queries alone (tril() without the offset p): after the "
        "prompt, each new character sees only the first": attend(first_only),
        "scores not divided by √d_head": attend(causal, scale=1.0),
    }
