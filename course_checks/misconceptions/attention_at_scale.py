"""Known wrong answers for notebook 10, attention at scale (the online softmax, tiled
attention, the backward pass by hand).

Answers that return several tensors are checked one tensor at a time, so each function here
returns ``{description: tuple}`` and the checks pick the element they compare.
"""

from __future__ import annotations

import math

import torch

from transformer_course.tiled_attention import causal_mask

__all__ = ["attention_backward", "attention_function", "flash_backward",
           "online_softmax_step", "tiled_attention"]

NEG_INF = float("-inf")


def online_softmax_step(m: torch.Tensor, l: torch.Tensor, z: torch.Tensor
                        ) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Variants of (m_new, l_new) for a running maximum m (...), normaliser l (...) and a
    block of scores z (..., b)."""
    m_new = torch.maximum(m, z.amax(dim=-1))
    block = torch.exp(z - m_new[..., None]).sum(dim=-1)
    return {
        "a step that never rescales the old sum: l + Σ exp(z − m_new), as if the maximum "
        "had not moved": (m_new, l + block),
        "the old sum rescaled by exp(m_new − m) instead of exp(m − m_new)": (
            m_new, l * torch.exp(m_new - m) + block),
        "the block's exponentials shifted by the block's own maximum instead of the new "
        "running maximum": (m_new, l * torch.exp(m - m_new)
                            + torch.exp(z - z.amax(dim=-1, keepdim=True)).sum(dim=-1)),
        "the sum of the new block alone: the scores seen before are forgotten": (m_new, block),
        "exp(z) summed without subtracting any maximum (it overflows)": (
            m_new, l * torch.exp(m - m_new) + torch.exp(z).sum(dim=-1)),
        "a maximum that is never updated (the old m kept)": (
            torch.as_tensor(m).expand_as(m_new), l + torch.exp(z - m[..., None]).sum(dim=-1)),
        "the block's own maximum in place of the running one": (
            z.amax(dim=-1), l * torch.exp(m - z.amax(dim=-1)) + torch.exp(
                z - z.amax(dim=-1, keepdim=True)).sum(dim=-1)),
    }


def _tiled(Q, K, V, block_q, block_k, causal, *, scale=True, rescale_sum=True,
           rescale_acc=True, normalise=True, mask=True, diagonal=0):
    """Tiled attention with one step changed; -> (O, L) as the exercise returns them."""
    T, S = Q.shape[-2], K.shape[-2]
    factor = 1 / math.sqrt(Q.shape[-1]) if scale else 1.0
    outputs, logsumexps = [], []
    for i in range(0, T, block_q):
        q = Q[..., i:i + block_q, :]
        m = torch.full(q.shape[:-1], NEG_INF, dtype=Q.dtype)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype)
        for j in range(0, S, block_k):
            scores = q @ K[..., j:j + block_k, :].transpose(-2, -1) * factor
            if causal and mask:
                rows = torch.arange(i, i + q.shape[-2])[:, None]
                columns = torch.arange(j, j + scores.shape[-1])
                scores = scores.masked_fill(columns > rows - diagonal, NEG_INF)
            m_new = torch.maximum(m, scores.amax(dim=-1))
            p = torch.exp(scores - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = (l * alpha if rescale_sum else l) + p.sum(dim=-1)
            acc = (acc * alpha[..., None] if rescale_acc else acc) + p @ V[..., j:j + block_k, :]
            m = m_new
        outputs.append(acc / l[..., None] if normalise else acc)
        logsumexps.append(m + torch.log(l))
    return torch.cat(outputs, dim=-2), torch.cat(logsumexps, dim=-1)


def tiled_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, block_q: int,
                    block_k: int, causal: bool = False) -> dict[str, tuple]:
    """Variants of (O, L) of tiled attention; O (..., T, d_v), L (..., T)."""
    def run(**changes):
        return _tiled(Q, K, V, block_q, block_k, causal, **changes)

    O, L = run()
    variants = {
        "scores not divided by √d": run(scale=False),
        "an accumulator that is not rescaled when the maximum grows (the normaliser is)":
            run(rescale_acc=False),
        "a normaliser that is not rescaled when the maximum grows (the accumulator is)":
            run(rescale_sum=False),
        "the accumulator returned without dividing it by the normaliser l": run(normalise=False),
        "L = m, the running maximum, without + log l": (O, _max(Q, K, causal)),
    }
    variants["L = log l without the maximum m"] = (O, L - _max(Q, K, causal))
    if causal:
        variants["tiled attention without the causal mask"] = run(mask=False)
        variants["a causal mask that also hides the diagonal (no query sees its own key)"] = \
            run(diagonal=1)
    return variants


def _max(Q, K, causal):
    """Each row's largest scaled score (..., T), masked when causal."""
    return _masked_scores(Q, K, causal).amax(dim=-1)


JACOBIAN_HALF = ("the softmax's Jacobian without its −p pᵀ part: dS = P ⊙ dP, as if each "
                 "weight depended on its own score alone")
NO_SCALE = "dQ and dK without the 1/√d of the scores"


def attention_backward(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, P: torch.Tensor,
                       dO: torch.Tensor) -> dict[str, tuple]:
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
            P * (dP - (dP * P).sum(dim=-2, keepdim=True))),
        "Σ dP in place of Σ P ⊙ dP along each row": grads(
            P * (dP - dP.sum(dim=-1, keepdim=True))),
    }
    if P.shape[-2] == P.shape[-1]:
        variants["dV = P dO, without transposing P"] = grads(right, dV=P @ dO)
        variants["dK = dS Q, without transposing dS"] = (right @ K * scale, right @ Q * scale,
                                                         dV)
    return variants


def flash_backward(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, dO: torch.Tensor,
                   causal: bool = False) -> dict[str, tuple]:
    """Variants of (dQ, dK, dV) of the tiled backward pass (any blocks give the same)."""
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

    found = {key: variants[key] for key in (JACOBIAN_HALF, NO_SCALE)}
    found["weights rebuilt as exp(S) without subtracting the log-sum-exp L"] = grads(
        torch.exp(scores))
    found["weights rebuilt as exp(S + L) instead of exp(S − L)"] = grads(torch.exp(scores + L))
    found["D = Σ dO ⊙ dO instead of Σ dO ⊙ O"] = grads(P, (dO * dO).sum(dim=-1, keepdim=True))
    if causal:
        unmasked = _masked_scores(Q, K, False)
        found["a backward pass without the causal mask: the weights of future keys rebuilt "
              "as exp(S − L)"] = grads(torch.exp(unmasked - L))
    return found


def attention_function(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, dO: torch.Tensor,
                       causal: bool, tiled: bool = False) -> dict[str, tuple]:
    """Variants of (dQ, dK, dV) that a ``torch.autograd.Function``'s backward returns;
    ``tiled`` for one whose backward rebuilds the weights from L (flash_backward), whose
    mistakes only such a function can make."""
    P = torch.softmax(_masked_scores(Q, K, causal), dim=-1)
    variants = attention_backward(Q, K, V, P, dO)
    found = {key: variants[key] for key in (JACOBIAN_HALF, NO_SCALE)}
    dQ, dK, dV = _exact(Q, K, V, dO, causal)
    found["gradients returned in the order (dK, dQ, dV)"] = (dK, dQ, dV)
    found["gradients returned in the order (dV, dK, dQ)"] = (dV, dK, dQ)
    if causal:
        found["a backward pass that forgets the causal mask (the gradients of attention "
              "without it)"] = _exact(Q, K, V, dO, False)
        if tiled:
            rebuilt = flash_backward(Q, K, V, dO, causal)
            found.update((key, value) for key, value in rebuilt.items()
                         if "without the causal" in key)
    return found


def _masked_scores(Q, K, causal):
    """The scaled scores (..., T, S), −inf where a key comes after its query when causal."""
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    return scores.masked_fill(~causal_mask(*scores.shape[-2:]), NEG_INF) if causal else scores


def _exact(Q, K, V, dO, causal):
    """(dQ, dK, dV) of softmax(Q Kᵀ / √d) V by autograd."""
    leaves = [t.detach().clone().requires_grad_() for t in (Q, K, V)]
    with torch.enable_grad():
        out = torch.softmax(_masked_scores(*leaves[:2], causal), dim=-1) @ leaves[2]
        return torch.autograd.grad(out, leaves, dO)
