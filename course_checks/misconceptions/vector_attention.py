"""Known wrong answers for notebook 01, vector self-attention."""

from __future__ import annotations

import math

import torch

__all__ = [
    "WRONG_ORDER",
    "attention",
    "attention_weights",
    "projection",
    "score",
    "softmax",
    "weighted_sum",
]

# For the exercises whose answer is the pair (output, weights): the checks read the output
# from its first element, so a swapped pair hands them the weights.
WRONG_ORDER = "the pair returned in the wrong order: (weights, output) instead of (output, weights)"


def projection(W: torch.Tensor, b: torch.Tensor, x: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of ``W @ x + b`` for a column vector ``x`` (D_in, 1) and bias (D_out, 1)."""
    variants = {"W x without the bias b": W @ x}
    if W.shape[0] == W.shape[1]:
        variants["the transposed weight, Wᵀ x + b"] = W.T @ x + b
        variants["W (x + b): the bias added before the multiplication"] = W @ (x + b)
    return variants


def score(q: torch.Tensor, k: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the scaled score q·k / √D for two vectors of D numbers."""
    dot = (q.reshape(-1) * k.reshape(-1)).sum()
    d = q.numel()
    return {
        "the plain dot product, without the 1/√D scaling": dot,
        "the dot product divided by D instead of √D": dot / d,
        "the dot product multiplied by √D instead of divided": dot * math.sqrt(d),
    }


def softmax(z: torch.Tensor, dim: int = -1) -> dict[str, torch.Tensor]:
    """Variants of softmax(z) along ``dim``."""
    exps = torch.exp(z)
    variants = {
        "exp(z) that was never divided by its sum (weights not normalised)": exps,
        "z / sum(z): normalised, but without the exponential": z / z.sum(dim=dim, keepdim=True),
        "softmax without subtracting the maximum first: exp overflows to inf (or underflows "
        "to 0) and the division gives NaN": exps / exps.sum(dim=dim, keepdim=True),
        "exp(z − max z) that was never divided by its sum": torch.exp(
            z - z.amax(dim=dim, keepdim=True)
        ),
    }
    if z.dim() > 1:
        rows_asked = dim in (-1, z.dim() - 1)
        description = (
            "a softmax down the columns instead of along the rows"
            if rows_asked
            else "a softmax along the rows instead of down the columns"
        )
        variants[description] = torch.softmax(z, dim=-2 if rows_asked else -1)
        overall = torch.exp(z - z.max())
        variants[
            "a softmax that subtracted the overall maximum instead of each "
            + ("row's" if rows_asked else "column's")
            + ": a "
            + ("row" if rows_asked else "column")
            + " far below it underflows to 0/0"
        ] = overall / overall.sum(dim=dim, keepdim=True)
    return variants


def attention_weights(Q: torch.Tensor, K: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of softmax(Q Kᵀ / √d_k) row by row; Q (T, d_k), K (S, d_k)."""
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1)
    variants = {
        "attention without the 1/√d_k scaling": torch.softmax(scores, dim=-1),
        "the scores divided by d_k instead of √d_k": torch.softmax(scores / d_k, dim=-1),
        "a softmax over the queries instead of over the keys": torch.softmax(
            scores / math.sqrt(d_k), dim=-2
        ),
        "the scaled scores with no softmax at all": scores / math.sqrt(d_k),
        "exp of the scores, not normalised to sum to 1": torch.exp(scores / math.sqrt(d_k)),
    }
    if Q.shape[-2] == K.shape[-2]:
        variants["keys and queries swapped (the scores transposed before the softmax)"] = (
            torch.softmax(K @ Q.transpose(-2, -1) / math.sqrt(d_k), dim=-1)
        )
    return variants


def weighted_sum(weights: torch.Tensor, V: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the weighted sum ``weights @ V``; weights (S,) or (T, S), V (S, d_v)."""
    ones = torch.ones_like(weights)
    return {
        "the values summed without their weights": ones @ V,
        "the values averaged without their weights": ones @ V / V.shape[-2],
        "the weights applied to the values in reverse order": weights.flip(-1) @ V,
    }


def attention(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, X: torch.Tensor | None = None
) -> dict[str, torch.Tensor]:
    """Variants of softmax(Q Kᵀ / √d_k) V; Q (T, d_k), K (S, d_k), V (S, d_v).

    ``X`` (S, d_in), the inputs, adds "weighted sum of the inputs instead of the values"
    (when d_in = d_v) and "scaled by √d_in" (when d_in ≠ d_k). Without ``X`` the exercise is
    ``attention(Q, K, V)`` itself, which returns the pair (output, weights): the weights in
    the output's place (``WRONG_ORDER``) are a variant too.
    """
    variants = {
        description: weights @ V for description, weights in attention_weights(Q, K).items()
    }
    correct = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1)
    variants["the values summed without their weights"] = torch.ones_like(correct) @ V
    if Q.shape[-2] == K.shape[-2]:
        variants["the weight matrix transposed before it mixes the values"] = (
            correct.transpose(-2, -1) @ V
        )
    if X is not None and X.shape == V.shape:
        variants["a weighted sum of the inputs x instead of the values v"] = correct @ X
    if X is not None and X.shape[-1] != Q.shape[-1]:
        scores = Q @ K.transpose(-2, -1) / math.sqrt(X.shape[-1])
        variants[
            "scores divided by the square root of the inputs' length instead of the "
            "length of q and k"
        ] = torch.softmax(scores, dim=-1) @ V
    if X is None:
        variants[WRONG_ORDER] = correct
    return variants
