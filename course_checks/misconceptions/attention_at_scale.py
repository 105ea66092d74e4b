"""Known wrong answers for notebook 10, attention at scale (the online softmax, tiled
attention, the backward pass by hand).

Answers that return several tensors are checked one tensor at a time, so each function here
returns ``{description: tuple}`` and the checks pick the element they compare.
"""

from __future__ import annotations

import dataclasses
import math

import torch

from transformer_course.tiled_attention import causal_mask

__all__ = [
    "Tiling",
    "attention_backward",
    "attention_function",
    "attention_output",
    "flash_backward",
    "online_softmax_step",
    "tiled_attention",
    "tiling_slips",
]

NEG_INF = float("-inf")


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


# The causal loops of tiled attention, forward and backward, as parameters: which key blocks a
# block of queries computes (the bound its loop compares with, the comparison, block numbers
# or positions, one block more or fewer, the condition reversed), and how a computed block is
# masked (which keys the mask hides, positions counted from the block's start, no mask at
# all), and whether the scores are scaled. ``Tiling()`` is the right answer; each of
# ``tiling_slips()`` changes one of these, and its description is made from what it changes.
RIGHT_SKIP = "right: only once its first key > the query block's last query"
BOUNDS = {
    "first": "the query block's first query (`i`)",
    "last": "the query block's last query (`i + block_q − 1`)",
    "end": "the position after the query block's last query (`i + block_q`)",
}
# what the bound, and whether the skip is on `>` (True) or `≥`, leave out or add
LEFT = {
    ("first", True): "the blocks that straddle the diagonal are left out",
    ("first", False): "the blocks that straddle the diagonal are left out, and a block "
    "that starts at the first query too",
    ("last", False): "a block that starts at the last query is left out, though that "
    "query sees its own key there",
    ("end", True): "a block that the mask empties, starting just after the last query, "
    "is computed too",
}
HIDDEN = {">": "s > t", ">=": "s ≥ t", "<": "s < t", "<=": "s ≤ t"}
NO_DIAGONAL = "a causal mask that also hides the diagonal (no query sees its own key)"


@dataclasses.dataclass(frozen=True)
class Tiling:
    """How a causal tiled loop picks the key blocks a block of queries needs, and masks them;
    ``Tiling()`` is right. Query block i holds queries i … i + rows − 1; key block j starts
    at key j."""

    bound: str = "last"  # the query a key block's first key is compared with (BOUNDS)
    strict: bool = True  # needed while first key ≤ bound (skipped on `>`); False: on `>=`
    numbers: bool = False  # block numbers compared (j // block_k ≤ i // block_q), not positions
    shift: int = 0  # the bound moved by one key block: one block more (+1) or fewer (−1)
    flipped: bool = False  # the condition reversed: the blocks it would skip are computed
    stops: bool = False  # (flipped) the loop stops at the first block the reversed rule skips
    hidden: str = ">"  # the keys s the mask hides from query t (HIDDEN)
    local: str = ""  # positions counted from the block's start: "queries", "keys" or "both"
    masked: bool = True  # the computed blocks are masked at all
    scale: bool = True  # the scores are multiplied by 1/√d

    def key_blocks(self, i: int, rows: int, S: int, block_q: int, block_k: int) -> list[int]:
        """The first keys of the key blocks computed for the query block at i (of rows)."""
        starts = list(range(0, S, block_k))
        bound = {"first": i, "last": i + rows - 1, "end": i + rows}[
            self.bound
        ] + self.shift * block_k
        rule = [
            j // block_k <= i // block_q
            if self.numbers
            else (j <= bound if self.strict else j < bound)
            for j in starts
        ]
        if self.flipped:
            rule = [not needed for needed in rule]
            if self.stops:
                first_skipped = next((n for n, kept in enumerate(rule) if not kept), len(rule))
                rule = [n < first_skipped for n in range(len(rule))]
        return [j for j, kept in zip(starts, rule, strict=True) if kept]

    def mask(self, scores: torch.Tensor, i: int, j: int) -> torch.Tensor:
        """The block of scores at (i, j) as this tiling masks it."""
        if not self.masked:
            return scores
        queries = torch.arange(scores.shape[-2])[:, None] + (
            0 if self.local in ("queries", "both") else i
        )
        keys = torch.arange(scores.shape[-1]) + (0 if self.local in ("keys", "both") else j)
        hidden = {
            ">": keys > queries,
            ">=": keys >= queries,
            "<": keys < queries,
            "<=": keys <= queries,
        }[self.hidden]
        return scores.masked_fill(hidden, NEG_INF)

    def describe(self, backward: bool = False) -> str:
        """What this tiling gets wrong, completing "This matches …"."""
        loops = "the causal loops" if backward else "the causal loop over key blocks"
        if not self.scale:
            return (
                (
                    "the scores rebuilt without the 1/√d of the forward pass: P = exp(q kᵀ − L) "
                    "where P = exp(q kᵀ / √d − L) belongs"
                )
                if backward
                else "scores not divided by √d"
            )
        if not self.masked:
            return (
                "the blocks that straddle the diagonal left unmasked: the blocks the mask "
                "empties are skipped, but the later keys inside the others are not hidden"
            )
        if self.hidden == ">=":
            return NO_DIAGONAL
        if self.hidden != ">":
            return (
                f"a causal mask the wrong way round: it hides the keys s of query t where "
                f"{HIDDEN[self.hidden]}, where it should hide s > t"
            )
        if self.local:
            counted = {
                "queries": "the queries' positions",
                "keys": "the keys' positions",
                "both": "the positions of queries and keys",
            }[self.local]
            origin = {"queries": "`i`", "keys": "`j`", "both": "`i` and `j`"}[self.local]
            return (
                f"a causal mask that counts {counted} from 0 in each block (`arange` of "
                f"the block) instead of from the block's start {origin}: the diagonal of "
                "every block masked instead of the diagonal of the whole"
            )
        if self.flipped and self.stops:
            return (
                f"{loops} with the stopping condition reversed: it stops at the first key "
                "block, which every query needs, so no block is computed"
            )
        if self.flipped:
            return (
                f"{loops} with the skip condition reversed: the key blocks the mask "
                "empties are computed, and the ones the queries need skipped"
            )
        if self.shift:
            return (
                (
                    f"{loops} stopping one key block early: the last block the queries need "
                    "(the one that straddles the diagonal) is left out"
                )
                if self.shift < 0
                else (
                    f"{loops} running one key block too far: a block that the mask empties "
                    "is computed too"
                )
            )
        if self.numbers:
            return (
                f"{loops} skipping a key block once its block number is past the query "
                "block's (`j // block_k > i // block_q`): block numbers compared where "
                f"positions belong ({RIGHT_SKIP})"
            )
        skips = ">" if self.strict else "≥"
        return (
            f"{loops} skipping a key block once its first key {skips} "
            f"{BOUNDS[self.bound]} ({RIGHT_SKIP}): {LEFT[self.bound, self.strict]}"
        )


def tiling_slips(backward: bool = False) -> list[Tiling]:
    """One slip of the causal loops or their mask each (the scale too): the family of
    ``Tiling``'s parameters, one changed at a time (a loop's bound with its comparison)."""
    slips = [
        Tiling(bound=bound, strict=strict)
        for bound in BOUNDS
        for strict in (True, False)
        if (bound, strict) not in (("last", True), ("end", False))
    ]
    slips += [Tiling(numbers=True), Tiling(shift=-1), Tiling(shift=1), Tiling(flipped=True)]
    slips += [] if backward else [Tiling(flipped=True, stops=True)]
    slips += [Tiling(hidden=hidden) for hidden in (">=", "<", "<=")]
    slips += [Tiling(local=local) for local in ("queries", "keys", "both")]
    return [*slips, Tiling(masked=False), Tiling(scale=False)]


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


def ignores_causal(tiled: bool) -> str:
    """The forward pass of AttentionFunction (or, ``tiled``, FlashAttention) without
    ``causal``: one name per function, since the checks run both."""
    return (
        f"{'FlashAttention' if tiled else 'AttentionFunction'}'s forward pass leaving "
        "`causal` out (of its mask, or of its call to `tiled_attention`): on causal "
        "inputs its output and gradients are those of attention without the mask"
    )


FORWARD_WITHOUT_CAUSAL = (
    "FlashAttention's forward pass not passing `causal` on to "
    "`tiled_attention`, though its backward pass has it: the output of "
    "attention without the mask, and gradients rebuilt from its L"
)


def attention_output(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, causal: bool, tiled: bool = False
) -> dict[str, torch.Tensor]:
    """Variants of the output O of an autograd Function's forward pass (``tiled``: one that
    calls tiled_attention), each under the description ``attention_function`` gives its
    gradients."""
    if not causal:
        return {}
    unmasked = torch.softmax(_masked_scores(Q, K, False), dim=-1) @ V
    found = {ignores_causal(tiled): unmasked}
    if tiled:
        found[FORWARD_WITHOUT_CAUSAL] = unmasked
    else:
        found[MASK_AFTER_SOFTMAX] = _zeroed(Q, K) @ V
    return found


MASK_AFTER_SOFTMAX = (
    "AttentionFunction's causal mask applied after the softmax, zeroing the "
    "weights of later keys (each row then sums to less than 1), instead of "
    "to the scores before it"
)


def _by_hand(Q, K, V, P, dO):
    """(dQ, dK, dV) that exercise 3's formulas give for the weights P, whatever P is (not the
    package's attention_backward, which exercise 5 refuses while its checks run)."""
    dP = dO @ V.transpose(-2, -1)
    dS = P * (dP - (dP * P).sum(dim=-1, keepdim=True)) / math.sqrt(Q.shape[-1])
    return dS @ K, dS.transpose(-2, -1) @ Q, P.transpose(-2, -1) @ dO


def _zeroed(Q, K):
    """softmax(Q Kᵀ / √d) with the weights of later keys set to 0 afterwards."""
    weights = torch.softmax(_masked_scores(Q, K, False), dim=-1)
    return weights * causal_mask(*weights.shape[-2:])


def attention_function(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    dO: torch.Tensor,
    causal: bool,
    tiled: bool = False,
) -> dict[str, tuple]:
    """Variants of (dQ, dK, dV) that a ``torch.autograd.Function``'s backward returns;
    ``tiled`` for one whose backward rebuilds the weights from L (flash_backward), whose
    mistakes only such a function can make."""
    P = torch.softmax(_masked_scores(Q, K, causal), dim=-1)
    variants = attention_backward(Q, K, V, P, dO)
    found = {key: variants[key] for key in (JACOBIAN_HALF, NO_SCALE)}
    dQ, dK, dV = _exact(Q, K, V, dO, causal)
    # one name per function, since the checks run both and a slip is in one of them
    name = "FlashAttention" if tiled else "AttentionFunction"
    found[f"{name}.backward returning its gradients in the order (dK, dQ, dV)"] = (dK, dQ, dV)
    found[f"{name}.backward returning its gradients in the order (dV, dK, dQ)"] = (dV, dK, dQ)
    if causal:
        found[ignores_causal(tiled)] = _exact(Q, K, V, dO, False)
        if not tiled:  # its backward pass given the zeroed weights as P
            zeroed = _zeroed(Q, K)
            found[MASK_AFTER_SOFTMAX] = _by_hand(Q, K, V, zeroed, dO)
        found[
            "a backward pass that forgets the causal mask (the gradients of attention without it)"
        ] = _exact(Q, K, V, dO, False)
        if tiled:
            rebuilt = flash_backward(Q, K, V, dO, causal)
            found.update(
                (key, value) for key, value in rebuilt.items() if "without the causal" in key
            )
            # O and L of attention without the mask, the blocks' weights rebuilt causally
            scores = _masked_scores(Q, K, False)
            O = torch.softmax(scores, dim=-1) @ V
            L = torch.logsumexp(scores, dim=-1)
            found[FORWARD_WITHOUT_CAUSAL] = _flash(
                Q, K, V, O, L, dO, Q.shape[-2], K.shape[-2], True, Tiling()
            )
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
