"""Known wrong answers for notebook 10's backward pass, each ``{description: (dQ, dK, dV)}``:
by hand from the weights P (``attention_backward``), and tiled, the weights rebuilt from L
block by block (``flash_backward``, with the slips of its causal loops).
"""

from __future__ import annotations

import math

import torch

from .tiled_forward import _masked_scores
from .tiling import Tiling, tiling_slips

JACOBIAN_HALF = (
    "the softmax's Jacobian without its −p pᵀ part: dS = P ⊙ dP, as if each "
    "weight depended on its own score alone"
)
NO_SCALE = "dQ and dK without the 1/√d of the scores"
NO_SCALE_DQ = "dQ without the 1/√d of the scores (dK has it)"
NO_SCALE_DK = "dK without the 1/√d of the scores (dQ has it)"


def attention_backward(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, P: torch.Tensor, dO: torch.Tensor
) -> dict[str, tuple]:
    """Variants of (dQ, dK, dV) for O = P V with P = softmax(Q Kᵀ / √d)."""
    scale = 1 / math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)

    def grads(dS, factor=scale, dV=dV):
        return dS @ K * factor, dS.transpose(-2, -1) @ Q * factor, dV

    right = P * (dP - (dP * P).sum(dim=-1, keepdim=True))
    variants = {
        JACOBIAN_HALF: grads(P * dP),
        "no softmax in the backward pass at all: dS = dP": grads(dP),
        NO_SCALE: grads(right, 1.0),
        "dQ and dK multiplied by √d instead of divided": grads(right, math.sqrt(Q.shape[-1])),
        "the sums Σ P ⊙ dP taken down the columns instead of along each row": grads(
            P * (dP - (dP * P).sum(dim=-2, keepdim=True))
        ),
        "Σ dP in place of Σ P ⊙ dP along each row": grads(P * (dP - dP.sum(dim=-1, keepdim=True))),
        NO_SCALE_DQ: (right @ K, right.transpose(-2, -1) @ Q * scale, dV),
        NO_SCALE_DK: (right @ K * scale, right.transpose(-2, -1) @ Q, dV),
    }
    if P.shape[-2] == P.shape[-1]:
        variants["dV = P dO, without transposing P"] = grads(right, dV=P @ dO)
        variants["dK = dS Q, without transposing dS"] = (right @ K * scale, right @ Q * scale, dV)
    return variants


def _flash(Q, K, V, O, L, dO, block_q, block_k, causal, tiling):
    """The tiled backward pass, its causal loops and mask (and the scale of its rebuilt
    scores) as ``tiling`` has them; -> (dQ, dK, dV)."""
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for i in range(0, T, block_q):
        q, g = Q[..., i : i + block_q, :], dO[..., i : i + block_q, :]
        computed = (
            tiling.key_blocks(i, q.shape[-2], S, block_q, block_k)
            if causal
            else range(0, S, block_k)
        )
        for j in computed:
            k, v = K[..., j : j + block_k, :], V[..., j : j + block_k, :]
            scores = q @ k.transpose(-2, -1) * (scale if tiling.scale else 1.0)
            if causal:
                scores = tiling.mask(scores, i, j)
            p = torch.exp(scores - L[..., i : i + block_q, None])
            dV[..., j : j + block_k, :] += p.transpose(-2, -1) @ g
            dS = p * (g @ v.transpose(-2, -1) - D[..., i : i + block_q, None])
            dQ[..., i : i + block_q, :] += dS @ k * scale
            dK[..., j : j + block_k, :] += dS.transpose(-2, -1) @ q * scale
    return dQ, dK, dV


def flash_backward(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    dO: torch.Tensor,
    causal: bool = False,
    block_q: int | None = None,
    block_k: int | None = None,
) -> dict[str, tuple]:
    """Variants of (dQ, dK, dV) of the tiled backward pass; with the blocks the answer is
    called with, also the slips of its causal loops and mask (``tiling_slips``)."""
    scale = 1 / math.sqrt(Q.shape[-1])
    scores = _masked_scores(Q, K, causal)
    L = torch.logsumexp(scores, dim=-1, keepdim=True)
    P = torch.exp(scores - L)
    variants = attention_backward(Q, K, V, P, dO)
    D = (dO * (P @ V)).sum(dim=-1, keepdim=True)
    dP = dO @ V.transpose(-2, -1)

    def grads(p, d=D):
        dS = p * (dP - d)
        return dS @ K * scale, dS.transpose(-2, -1) @ Q * scale, p.transpose(-2, -1) @ dO

    found = {key: variants[key] for key in (JACOBIAN_HALF, NO_SCALE, NO_SCALE_DQ, NO_SCALE_DK)}
    found["weights rebuilt as exp(S) without subtracting the log-sum-exp L"] = grads(
        torch.exp(scores)
    )
    found["weights rebuilt as exp(S + L) instead of exp(S − L)"] = grads(torch.exp(scores + L))
    found["D = Σ dO ⊙ dO instead of Σ dO ⊙ O"] = grads(P, (dO * dO).sum(dim=-1, keepdim=True))
    if causal:
        unmasked = _masked_scores(Q, K, False)
        found[
            "a backward pass without the causal mask: the weights of future keys rebuilt "
            "as exp(S − L)"
        ] = grads(torch.exp(unmasked - L))
    O = P @ V
    blocks = (block_q or Q.shape[-2], block_k or K.shape[-2])
    for tiling in tiling_slips(backward=True) if causal and block_q else [Tiling(scale=False)]:
        found.setdefault(
            tiling.describe(backward=True),
            _flash(Q, K, V, O, L[..., 0], dO, *blocks, causal, tiling),
        )
    return found
