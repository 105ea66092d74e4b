"""Known wrong answers for notebook 10's autograd Functions (AttentionFunction and
FlashAttention): the output O of their forward pass and the (dQ, dK, dV) of their backward,
with the slips only such a Function makes (gradients in the wrong order, `causal` left out).
"""

from __future__ import annotations

import math

import torch

from transformer_course.tiled_attention import causal_mask

from .backward_pass import JACOBIAN_HALF, NO_SCALE, _flash, attention_backward, flash_backward
from .tiled_forward import _masked_scores
from .tiling import Tiling


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


def _exact(Q, K, V, dO, causal):
    """(dQ, dK, dV) of softmax(Q Kᵀ / √d) V by autograd."""
    leaves = [t.detach().clone().requires_grad_() for t in (Q, K, V)]
    with torch.enable_grad():
        out = torch.softmax(_masked_scores(*leaves[:2], causal), dim=-1) @ leaves[2]
        return torch.autograd.grad(out, leaves, dO)
