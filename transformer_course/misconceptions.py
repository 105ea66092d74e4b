"""Known wrong answers, so that feedback can name the mistake instead of only noticing it.

Each function takes the same inputs as an exercise and returns ``{description: tensor}``:
what a student would get with that misconception. A test passes the dictionary to
``Checks.close``; when the student's answer equals one of the tensors, the feedback says
"This matches <description>". Descriptions complete the sentence "This matches ...".

Tokens are rows here (``(seq_len, d)``); notebook 01's column vectors are stacked into rows
by the tests before they ask for variants.
"""

from __future__ import annotations

import math

import torch

__all__ = ["attention", "attention_weights", "projection", "score", "softmax", "weighted_sum"]


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
        other = -2 if dim in (-1, z.dim() - 1) else -1
        variants["a softmax over the wrong axis (columns instead of rows)"] = torch.softmax(
            z, dim=other
        )
    return variants


def attention_weights(Q: torch.Tensor, K: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of softmax(Q Kᵀ / √d_k) row by row; Q (T, d_k), K (S, d_k)."""
    d_k = Q.shape[-1]
    scores = Q @ K.transpose(-2, -1)
    variants = {
        "attention without the 1/√d_k scaling": torch.softmax(scores, dim=-1),
        "the scores divided by d_k instead of √d_k": torch.softmax(scores / d_k, dim=-1),
        "a softmax over the queries (columns) instead of over the keys (rows)": torch.softmax(
            scores / math.sqrt(d_k), dim=-2
        ),
        "the scaled scores with no softmax at all": scores / math.sqrt(d_k),
        "exp of the scores, not normalised to sum to 1": torch.exp(scores / math.sqrt(d_k)),
    }
    if Q.shape[-2] == K.shape[-2]:
        variants["keys and queries swapped (softmax of K Qᵀ)"] = torch.softmax(
            K @ Q.transpose(-2, -1) / math.sqrt(d_k), dim=-1
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
    (when d_in = d_v) and "scaled by √d_in" (when d_in ≠ d_k).
    """
    variants = {
        description: weights @ V for description, weights in attention_weights(Q, K).items()
    }
    correct = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1)
    variants["the values summed without their weights"] = torch.ones_like(correct) @ V
    if X is not None and X.shape == V.shape:
        variants["a weighted sum of the inputs x instead of the values v"] = correct @ X
    if X is not None and X.shape[-1] != Q.shape[-1]:
        scores = Q @ K.transpose(-2, -1) / math.sqrt(X.shape[-1])
        variants[
            "scores divided by the square root of the inputs' length instead of the "
            "length of q and k"
        ] = torch.softmax(scores, dim=-1) @ V
    return variants
