"""Attention heads built by hand on readable features (notebook 02, exercise 5).

Each token is the vector ``[one-hot token id ; one-hot position]`` of length
``d_model = vocab_size + max_len``. A head is a pair ``W_q, W_k`` of shape
``(d_model, d_head)`` (tokens as rows: ``Q = X @ W_q``), and its scaled scores are

    score(t, s) = (x_t @ W_q) · (x_s @ W_k) / √d_head = x_t @ (W_q @ W_kᵀ) @ x_s / √d_head,

a bilinear form whose matrix ``W_q @ W_kᵀ`` (d_model × d_model) has rank at most ``d_head``.

The two heads here give the intended key the scaled score ``strength`` and every other key
the score 0:

* ``previous_token_head``: the key at position t − 1 (position 0 has none: all its scores
  are 0, so it spreads its weight evenly);
* ``same_token_head``: every key holding the query's own token, itself included.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

__all__ = [
    "head_scores",
    "one_hot_features",
    "previous_token_head",
    "same_token_head",
]


def one_hot_features(
    tokens: torch.Tensor, vocab_size: int, max_len: int, positions: torch.Tensor | None = None
) -> torch.Tensor:
    """``[one-hot token ; one-hot position]`` for each token, float32.

    tokens: (..., T) integers in [0, vocab_size); positions: (..., T) integers in
    [0, max_len), by default 0, 1, …, T − 1  ->  (..., T, vocab_size + max_len)
    """
    tokens = torch.as_tensor(tokens)
    if positions is None:
        positions = torch.arange(tokens.shape[-1]).expand(tokens.shape)
    return torch.cat(
        [F.one_hot(tokens, vocab_size), F.one_hot(torch.as_tensor(positions), max_len)], dim=-1
    ).float()


def head_scores(
    X: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, d_head: int | None = None
) -> torch.Tensor:
    """Scaled scores of a head, (X W_q)(X W_k)ᵀ / √d_head, in float64.

    X: (..., T, d_model); W_q, W_k: (d_model, d_head)  ->  (..., T, T), one row per query.
    ``d_head`` defaults to the number of columns of ``W_q``.
    """
    d_head = W_q.shape[-1] if d_head is None else d_head
    X = X.double()
    Q, K = X @ W_q.double(), X @ W_k.double()
    return Q @ K.transpose(-2, -1) / math.sqrt(d_head)


def previous_token_head(
    vocab_size: int, max_len: int, d_head: int, strength: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """W_q, W_k (vocab_size + max_len, d_head), d_head ≥ max_len: query t scores
    ``strength`` with the key at position t − 1 and 0 with every other key."""
    d_model = vocab_size + max_len
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    # the query of position p is the direction of position p − 1; the key of p is p's own
    W_q[vocab_size + 1 :, : max_len - 1] = strength * math.sqrt(d_head) * torch.eye(max_len - 1)
    W_k[vocab_size:, :max_len] = torch.eye(max_len)
    return W_q, W_k


def same_token_head(
    vocab_size: int, max_len: int, d_head: int, strength: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """W_q, W_k (vocab_size + max_len, d_head), d_head ≥ vocab_size: query t scores
    ``strength`` with every key holding the same token and 0 with the others."""
    d_model = vocab_size + max_len
    W_q, W_k = torch.zeros(d_model, d_head), torch.zeros(d_model, d_head)
    W_q[:vocab_size, :vocab_size] = strength * math.sqrt(d_head) * torch.eye(vocab_size)
    W_k[:vocab_size, :vocab_size] = torch.eye(vocab_size)
    return W_q, W_k
