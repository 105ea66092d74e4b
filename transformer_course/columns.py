"""Notebook 01's attention, one column vector at a time, as the course's reference.

Notebook 01 writes tokens as columns (D, 1) and attends one query at a time; its exercises
build these functions. The notebook's demo cells use them where an exercise is unfinished, so
that running every cell always works; the exercises' checks refuse them.
"""

from __future__ import annotations

import math

import torch

from .attention import softmax

__all__ = ["attention_weights", "project", "score", "self_attention"]


def project(W: torch.Tensor, b: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """W (D_out, D_in), b (D_out, 1), x (D_in, 1) -> W x + b (D_out, 1)."""
    return W @ x + b


def score(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    """q, k (D, 1) -> the scaled dot product q·k / √D, a 0-d tensor."""
    return (q * k).sum() / math.sqrt(q.shape[0])


def attention_weights(queries: list[torch.Tensor], keys: list[torch.Tensor]) -> torch.Tensor:
    """Lists of N_q and N_k columns (D, 1) -> (N_q, N_k): row n is the softmax over the keys
    of query n's scores."""
    scores = torch.stack([torch.stack([score(q, k) for k in keys]) for q in queries])
    return softmax(scores, dim=-1)


def self_attention(xs, W_q, b_q, W_k, b_k, W_v, b_v) -> list[torch.Tensor]:
    """A list of N input columns (D_in, 1) -> the N output columns (D_out, 1)."""
    queries, keys, values = (
        [project(W, b, x) for x in xs] for W, b in ((W_q, b_q), (W_k, b_k), (W_v, b_v))
    )
    weights = attention_weights(queries, keys)
    return [sum(w * v for w, v in zip(row, values, strict=True)) for row in weights]
