"""Attention without the T×S matrix: the online softmax, FlashAttention's tiling, the backward
pass by hand, and the two ``torch.autograd.Function``s of notebook 10.

The forward pass visits the keys in blocks and keeps, for every query row, a running
maximum ``m``, a running normaliser ``l`` (the sum of ``exp(score - m)`` so far) and an
output accumulator. When a new block raises the maximum, what was summed so far is rescaled
by ``exp(m_old - m_new)``. At the end the output is the accumulator divided by ``l``, and the
row's log-sum-exp ``L = m + log l`` is all the backward pass needs to rebuild any block of
weights, ``P = exp(S - L)``.

The algorithm is exact: it gives ``F.scaled_dot_product_attention``'s numbers up to
rounding. Written in Python it is slower than the fused kernel, which runs the same loops in
compiled code; its point is that no tensor ever holds more than a block of scores.

Shapes: ``Q`` (..., T, d), ``K`` (..., S, d), ``V`` (..., S, d_v), any leading dimensions.
``causal=True`` lets query ``t`` see keys ``s <= t`` (the top-left aligned mask of
``F.scaled_dot_product_attention(..., is_causal=True)``); the causal loops skip the blocks
that the mask empties.
"""

from __future__ import annotations

import math

import torch

__all__ = [
    "AttentionFunction",
    "FlashAttention",
    "attention_backward",
    "causal_mask",
    "explicit_weights",
    "flash_attention",
    "flash_backward",
    "online_softmax_step",
    "reference_gradients",
    "row_logsumexp",
    "tiled_attention",
]


def online_softmax_step(m: torch.Tensor, l: torch.Tensor, z: torch.Tensor):
    """One step of the online softmax: fold the block of scores ``z`` into the running
    maximum ``m`` and normaliser ``l = Σ exp(score - m)`` of the scores seen so far.

    m, l: (...); z: (..., b)  ->  m_new, l_new (...). Start from m = -inf, l = 0.
    """
    m_new = torch.maximum(m, z.amax(dim=-1))
    l_new = l * torch.exp(m - m_new) + torch.exp(z - m_new[..., None]).sum(dim=-1)
    return m_new, l_new


def _causal_block(scores: torch.Tensor, first_query: int, first_key: int) -> torch.Tensor:
    """The block of scores with the keys after each query set to -inf."""
    rows = torch.arange(first_query, first_query + scores.shape[-2], device=scores.device)
    columns = torch.arange(first_key, first_key + scores.shape[-1], device=scores.device)
    return scores.masked_fill(columns > rows[:, None], float("-inf"))


def tiled_attention(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    block_q: int,
    block_k: int,
    causal: bool = False,
):
    """softmax(Q Kᵀ / √d) V, one (block_q × block_k) block of scores at a time.

    -> O (..., T, d_v) and L (..., T), each row's log-sum-exp of its scaled scores.
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    outputs, logsumexps = [], []
    for i in range(0, T, block_q):
        q = Q[..., i : i + block_q, :]
        last_query = i + q.shape[-2] - 1
        m = torch.full(q.shape[:-1], float("-inf"), dtype=Q.dtype, device=Q.device)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype, device=Q.device)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
        for j in range(0, S, block_k):
            if causal and j > last_query:
                break  # this block and all after it are masked for every query here
            scores = q @ K[..., j : j + block_k, :].transpose(-2, -1) * scale
            if causal:
                scores = _causal_block(scores, i, j)
            m_new = torch.maximum(m, scores.amax(dim=-1))
            p = torch.exp(scores - m_new[..., None])
            rescale = torch.exp(m - m_new)
            l = l * rescale + p.sum(dim=-1)
            acc = acc * rescale[..., None] + p @ V[..., j : j + block_k, :]
            m = m_new
        outputs.append(acc / l[..., None])
        logsumexps.append(m + torch.log(l))
    return torch.cat(outputs, dim=-2), torch.cat(logsumexps, dim=-1)


def causal_mask(T: int, S: int, device=None) -> torch.Tensor:
    """(T, S) boolean, True where query t may attend to key s: s <= t."""
    return torch.ones(T, S, dtype=torch.bool, device=device).tril()


def shifted(Q: torch.Tensor, K: torch.Tensor, shift) -> tuple[torch.Tensor, torch.Tensor]:
    """Q (..., T, d) and K (..., S, d) with one more feature, (..., T, d + 1) and
    (..., S, d + 1), that adds ``shift`` (a number, or one per key (S,)) to every scaled score.

    With one shift for all keys the weights stay those of the ordinary scores, so scores far
    beyond ``exp``'s range still test what a wrong scale or a missed rescaling changes; scores
    made large by scaling Q and K would put all the weight on one key, where such mistakes
    can pass.
    """
    d = Q.shape[-1] + 1
    shift = torch.as_tensor(shift, dtype=K.dtype, device=K.device).expand(K.shape[-2])
    extra_q = torch.full((*Q.shape[:-1], 1), d**0.25, dtype=Q.dtype, device=Q.device)
    extra_k = (shift * d**0.25)[:, None].expand(*K.shape[:-1], 1)
    return torch.cat([Q, extra_q], dim=-1), torch.cat([K, extra_k], dim=-1)


def _scores(Q: torch.Tensor, K: torch.Tensor, causal: bool) -> torch.Tensor:
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    return _causal_block(scores, 0, 0) if causal else scores


def explicit_weights(Q: torch.Tensor, K: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """The whole (..., T, S) matrix of weights softmax(Q Kᵀ / √d), for comparison."""
    return torch.softmax(_scores(Q, K, causal), dim=-1)


def row_logsumexp(Q: torch.Tensor, K: torch.Tensor, causal: bool = False) -> torch.Tensor:
    """Each query row's log Σ_s exp(score) (..., T), from the whole matrix of scores."""
    return torch.logsumexp(_scores(Q, K, causal), dim=-1)


def reference_gradients(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, dO: torch.Tensor, causal: bool = False
) -> tuple[torch.Tensor, ...]:
    """(dQ, dK, dV) of F.scaled_dot_product_attention by autograd: what the checks compare
    the hand-written backward passes with."""
    leaves = [t.detach().clone().requires_grad_() for t in (Q, K, V)]
    mask = causal_mask(Q.shape[-2], K.shape[-2], Q.device) if causal else None
    with torch.enable_grad():
        output = torch.nn.functional.scaled_dot_product_attention(*leaves, attn_mask=mask)
        return torch.autograd.grad(output, leaves, dO)


def attention_backward(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, P: torch.Tensor, dO: torch.Tensor
):
    """The gradients of O = P V, P = softmax(Q Kᵀ / √d), given P and dO = ∂loss/∂O.

    The softmax's Jacobian diag(p) - p pᵀ is never formed: for one row, its product with the
    row's gradient g is p ⊙ (g - p·g). A mask needs nothing here: masked weights are 0.
    -> dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    scale = 1 / math.sqrt(Q.shape[-1])
    dV = P.transpose(-2, -1) @ dO
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (dP * P).sum(dim=-1, keepdim=True))
    return dS @ K * scale, dS.transpose(-2, -1) @ Q * scale, dV


def flash_backward(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    O: torch.Tensor,
    L: torch.Tensor,
    dO: torch.Tensor,
    block_q: int,
    block_k: int,
    causal: bool = False,
):
    """``attention_backward`` block by block, rebuilding each block of weights from the
    row log-sum-exps L (..., T) of the forward pass: P = exp(S - L). Uses p·g = dO·O per row.

    -> dQ (..., T, d), dK (..., S, d), dV (..., S, d_v)
    """
    T, S = Q.shape[-2], K.shape[-2]
    scale = 1 / math.sqrt(Q.shape[-1])
    D = (dO * O).sum(dim=-1)  # (..., T): row t's Σ_s P_ts dP_ts, without forming P
    dQ, dK, dV = torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)
    for j in range(0, S, block_k):
        k, v = K[..., j : j + block_k, :], V[..., j : j + block_k, :]
        for i in range(0, T, block_q):
            q, g = Q[..., i : i + block_q, :], dO[..., i : i + block_q, :]
            if causal and j > i + q.shape[-2] - 1:
                continue  # every query of this block comes before every key of that one
            scores = q @ k.transpose(-2, -1) * scale
            if causal:
                scores = _causal_block(scores, i, j)
            p = torch.exp(scores - L[..., i : i + block_q, None])
            dV[..., j : j + block_k, :] += p.transpose(-2, -1) @ g
            dS = p * (g @ v.transpose(-2, -1) - D[..., i : i + block_q, None])
            dQ[..., i : i + block_q, :] += dS @ k * scale
            dK[..., j : j + block_k, :] += dS.transpose(-2, -1) @ q * scale
    return dQ, dK, dV


class AttentionFunction(torch.autograd.Function):
    """Attention with the backward pass by hand; saves the (..., T, S) weights for it.

    ``AttentionFunction.apply(Q, K, V, causal)`` -> O (..., T, d_v)
    """

    @staticmethod
    def forward(ctx, Q, K, V, causal):
        P = explicit_weights(Q, K, causal)
        ctx.save_for_backward(Q, K, V, P)
        return P @ V

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, P = ctx.saved_tensors
        return *attention_backward(Q, K, V, P, dO), None


class FlashAttention(torch.autograd.Function):
    """Tiled attention forward and backward; saves Q, K, V, O and the row log-sum-exps L,
    never a (T, S) tensor, and recomputes each block of scores in the backward pass.

    ``FlashAttention.apply(Q, K, V, causal, block_q, block_k)`` -> O (..., T, d_v)
    """

    @staticmethod
    def forward(ctx, Q, K, V, causal, block_q, block_k):
        O, L = tiled_attention(Q, K, V, block_q, block_k, causal)
        ctx.save_for_backward(Q, K, V, O, L)
        ctx.causal, ctx.blocks = causal, (block_q, block_k)
        return O

    @staticmethod
    def backward(ctx, dO):
        Q, K, V, O, L = ctx.saved_tensors
        grads = flash_backward(Q, K, V, O, L, dO, *ctx.blocks, ctx.causal)
        return *grads, None, None, None


def flash_attention(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    causal: bool = False,
    block_q: int = 64,
    block_k: int = 64,
) -> torch.Tensor:
    """``FlashAttention`` as a function: differentiable tiled attention -> (..., T, d_v)."""
    return FlashAttention.apply(Q, K, V, causal, block_q, block_k)
