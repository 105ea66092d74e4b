"""Known wrong answers for notebook 10's forward pass: the online softmax's step, and tiled
attention's (O (..., T, d_v), L (..., T)), each as ``{description: tuple}``; and the scaled
scores (..., T, S), masked when causal, that the backward pass's answers start from too.
"""

from __future__ import annotations

import math

import torch

from transformer_course.tiled_attention import causal_mask

from .tiling import NEG_INF, tiling_slips


def online_softmax_step(
    m: torch.Tensor, l: torch.Tensor, z: torch.Tensor
) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Variants of (m_new, l_new) for a running maximum m (...), normaliser l (...) and a
    block of scores z (..., b)."""
    m_new = torch.maximum(m, z.amax(dim=-1))
    block = torch.exp(z - m_new[..., None]).sum(dim=-1)
    return {
        "a step that never rescales the old sum: l + Σ exp(z − m_new), as if the maximum "
        "had not moved": (m_new, l + block),
        "the old sum rescaled by exp(m_new − m) instead of exp(m − m_new)": (
            m_new,
            l * torch.exp(m_new - m) + block,
        ),
        "the block's exponentials shifted by the block's own maximum instead of the new "
        "running maximum": (
            m_new,
            l * torch.exp(m - m_new) + torch.exp(z - z.amax(dim=-1, keepdim=True)).sum(dim=-1),
        ),
        "the sum of the new block alone: the scores seen before are forgotten": (m_new, block),
        "exp(z) summed without subtracting any maximum (it overflows)": (
            m_new,
            l * torch.exp(m - m_new) + torch.exp(z).sum(dim=-1),
        ),
        "a maximum that is never updated (the old m kept)": (
            torch.as_tensor(m).expand_as(m_new),
            l + torch.exp(z - m[..., None]).sum(dim=-1),
        ),
        "the block's own maximum in place of the running one": (
            z.amax(dim=-1),
            l * torch.exp(m - z.amax(dim=-1))
            + torch.exp(z - z.amax(dim=-1, keepdim=True)).sum(dim=-1),
        ),
    }


def _tiled(
    Q,
    K,
    V,
    block_q,
    block_k,
    causal,
    *,
    scale=True,
    rescale_sum=True,
    rescale_acc=True,
    normalise=True,
    mask=True,
    diagonal=0,
    tiling=None,
):
    """Tiled attention with one step changed; -> (O, L) as the exercise returns them.
    A ``Tiling`` chooses, when causal, the key blocks computed and their mask (and the scale)."""
    T, S = Q.shape[-2], K.shape[-2]
    scale = scale and (tiling is None or tiling.scale)
    factor = 1 / math.sqrt(Q.shape[-1]) if scale else 1.0
    outputs, logsumexps = [], []
    for i in range(0, T, block_q):
        q = Q[..., i : i + block_q, :]
        m = torch.full(q.shape[:-1], NEG_INF, dtype=Q.dtype)
        l = torch.zeros(q.shape[:-1], dtype=Q.dtype)
        acc = torch.zeros(*q.shape[:-1], V.shape[-1], dtype=Q.dtype)
        computed = (
            tiling.key_blocks(i, q.shape[-2], S, block_q, block_k)
            if causal and tiling is not None
            else range(0, S, block_k)
        )
        for j in computed:
            scores = q @ K[..., j : j + block_k, :].transpose(-2, -1) * factor
            if causal and tiling is not None:
                scores = tiling.mask(scores, i, j)
            elif causal and mask:
                rows = torch.arange(i, i + q.shape[-2])[:, None]
                columns = torch.arange(j, j + scores.shape[-1])
                scores = scores.masked_fill(columns > rows - diagonal, NEG_INF)
            m_new = torch.maximum(m, scores.amax(dim=-1))
            p = torch.exp(scores - m_new[..., None])
            alpha = torch.exp(m - m_new)
            l = (l * alpha if rescale_sum else l) + p.sum(dim=-1)
            acc = (acc * alpha[..., None] if rescale_acc else acc) + p @ V[..., j : j + block_k, :]
            m = m_new
        outputs.append(acc / l[..., None] if normalise else acc)
        logsumexps.append(m + torch.log(l))
    return torch.cat(outputs, dim=-2), torch.cat(logsumexps, dim=-1)


def tiled_attention(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    block_q: int,
    block_k: int,
    causal: bool = False,
) -> dict[str, tuple]:
    """Variants of (O, L) of tiled attention; O (..., T, d_v), L (..., T)."""

    def run(**changes):
        return _tiled(Q, K, V, block_q, block_k, causal, **changes)

    O, L = run()
    variants = {
        "scores not divided by √d": run(scale=False),
        "an accumulator that is not rescaled when the maximum grows (the normaliser is)": run(
            rescale_acc=False
        ),
        "a normaliser that is not rescaled when the maximum grows (the accumulator is)": run(
            rescale_sum=False
        ),
        "the accumulator returned without dividing it by the normaliser l": run(normalise=False),
        "L = m, the running maximum, without + log l": (O, _max(Q, K, causal)),
    }
    variants["L = log l without the maximum m"] = (O, L - _max(Q, K, causal))
    if causal:
        variants["tiled attention without the causal mask"] = run(mask=False)
        for tiling in tiling_slips():  # the loop's blocks, their mask: one slip at a time
            variants.setdefault(tiling.describe(), run(tiling=tiling))
    return variants


def _max(Q, K, causal):
    """Each row's largest scaled score (..., T), masked when causal."""
    return _masked_scores(Q, K, causal).amax(dim=-1)


def _masked_scores(Q, K, causal):
    """The scaled scores (..., T, S), −inf where a key comes after its query when causal."""
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    return scores.masked_fill(~causal_mask(*scores.shape[-2:]), NEG_INF) if causal else scores
