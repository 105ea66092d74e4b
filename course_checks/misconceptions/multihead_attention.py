"""Known wrong answers for notebook 03, multi-head attention."""

from __future__ import annotations

import math

import torch

__all__ = [
    "expand_mask",
    "heads_cols",
    "merge_heads",
    "module_output",
    "module_weights",
    "multihead",
    "split_heads",
]


def split_heads(x: torch.Tensor, n_heads: int) -> dict[str, torch.Tensor]:
    """Variants of (B, T, d_model) -> (B, H, T, d_head)."""
    *lead, t, d_model = x.shape
    d_head = d_model // n_heads
    round_robin = x.unflatten(-1, (d_head, n_heads)).permute(*range(len(lead)), -1, -3, -2)
    return {
        "a reshape straight to (B, H, T, d_head) without the transpose: each head gets pieces "
        "of several tokens": x.reshape(*lead, n_heads, t, d_head),
        "features dealt out in turn (head h gets features h, h+H, …) instead of in blocks": (
            round_robin
        ),
        "the heads split off but left after the tokens, (B, T, H, d_head)": x.unflatten(
            -1, (n_heads, d_head)
        ),
    }


def expand_mask(mask: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of bringing a 2-D or 3-D mask to 4-D (B, H, T, S)."""
    variants = {"the mask returned unchanged": mask}
    if mask.dim() == 3:
        variants[
            "a (B, T, S) mask with the new axis in front, (1, B, T, S), so batch and heads "
            "trade places"
        ] = mask[None]
        variants["a (B, T, S) mask with the new axis last"] = mask[..., None]
    if mask.dim() == 2:
        variants["only one axis added, (1, T, S)"] = mask[None]
    return variants


def multihead(
    x: torch.Tensor,
    in_proj_weight: torch.Tensor,
    in_proj_bias: torch.Tensor,
    out_proj_weight: torch.Tensor,
    out_proj_bias: torch.Tensor,
    n_heads: int,
    mask: torch.Tensor | None = None,
) -> dict[str, torch.Tensor]:
    """Variants of packed multi-head self-attention over x (B, T, d_model).

    ``mask``: boolean, True = may attend, (T, S), (B, T, S) or (B, H, T, S).
    """
    B, T, d_model = x.shape
    d_head = d_model // n_heads
    q, k, v = (x @ in_proj_weight.T + in_proj_bias).chunk(3, dim=-1)

    def heads(t):
        return t.unflatten(-1, (n_heads, d_head)).transpose(-3, -2)

    def finish(head_outputs):  # (B, H, T, d_head) -> projected (B, T, d_model)
        return head_outputs.transpose(-3, -2).flatten(-2) @ out_proj_weight.T + out_proj_bias

    def attend(q4, k4, v4, scale, allowed=None, fill=float("-inf")):
        scores = q4 @ k4.transpose(-2, -1) / scale
        if allowed is not None:
            scores = scores.masked_fill(~allowed, fill)
        return torch.softmax(scores, dim=-1) @ v4

    qh, kh, vh = heads(q), heads(k), heads(v)
    right = attend(qh, kh, vh, math.sqrt(d_head))
    mixed = [t.reshape(B, n_heads, T, d_head) for t in (q, k, v)]
    variants = {
        "the scores divided by √d_model instead of √d_head": finish(
            attend(qh, kh, vh, math.sqrt(d_model))
        ),
        "multi-head attention without the 1/√d_head scaling": finish(attend(qh, kh, vh, 1.0)),
        "the heads' outputs without the output projection": right.transpose(-3, -2).flatten(-2),
        "heads split by a reshape without the transpose": (
            # mixed: q, k and v, three arguments (mypy cannot count a list's)
            attend(*mixed, math.sqrt(d_head)).reshape(B, T, d_model)  # type: ignore[call-arg]
            @ out_proj_weight.T
            + out_proj_bias
        ),
        "single-head attention over all of d_model (the heads never split)": (
            attend(q, k, v, math.sqrt(d_model)) @ out_proj_weight.T + out_proj_bias
        ),
    }
    if mask is None:
        return variants
    full = mask.expand(B, n_heads, T, T) if mask.dim() == 4 else None
    if full is None:
        full = (mask[None, None] if mask.dim() == 2 else mask[:, None]).expand(B, n_heads, T, T)
    variants = {
        "the mask's polarity inverted (True taken to mean 'ignore')": finish(
            attend(qh, kh, vh, math.sqrt(d_head), ~full)
        ),
        "masked scores set to 0 instead of −inf": finish(
            attend(qh, kh, vh, math.sqrt(d_head), full, fill=0.0)
        ),
        "attention with the mask ignored": finish(right),
    }
    if mask.dim() == 3 and mask.shape[0] == n_heads:
        # (B, T, S) against (B, H, T, S) without expand_mask: batch and heads trade places
        variants["a (B, T, S) mask used without expand_mask, so it lined up with the heads"] = (
            finish(attend(qh, kh, vh, math.sqrt(d_head), mask.expand(B, n_heads, T, T)))
        )
    return variants


def merge_heads(x: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of (B, H, T, d_head) -> (B, T, H·d_head)."""
    *lead, n_heads, t, d_head = x.shape
    return {
        "a reshape straight back to (B, T, d_model) without first moving the heads next to "
        "the features": x.reshape(*lead, t, n_heads * d_head),
        "the heads averaged instead of concatenated": x.mean(dim=-3),
    }


def heads_cols(X: torch.Tensor, heads: list[dict], W_c: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of multi-head self-attention with tokens as the columns of X (D, N).

    ``heads``: one dict per head with W_q, W_k, W_v (d_head, D) and b_q, b_k, b_v (d_head, 1);
    the right answer is W_c @ [head outputs stacked vertically].
    """
    D = X.shape[0]

    def outputs(scale, softmax_dim=0):
        result = []
        for h in heads:
            Q, K, V = (h[f"W_{r}"] @ X + h[f"b_{r}"] for r in "qkv")
            result.append(V @ torch.softmax(K.T @ Q / scale, dim=softmax_dim))
        return torch.cat(result, dim=0)

    d_head = heads[0]["W_q"].shape[0]
    right = outputs(math.sqrt(d_head))
    return {
        "multi-head attention without the 1/√d_head scaling": W_c @ outputs(1.0),
        "the scores divided by √D (the full width) instead of √(D/H), a head's width": W_c
        @ outputs(math.sqrt(D)),
        "each head's softmax along the rows instead of down the columns": W_c
        @ outputs(math.sqrt(d_head), softmax_dim=1),
        "the heads' stacked outputs without the combining matrix W_c": right,
        "the heads stacked in the reverse order": W_c @ torch.cat(right.chunk(len(heads))[::-1]),
    }


def _module_variants(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    in_proj_weight: torch.Tensor,
    in_proj_bias: torch.Tensor,
    out_proj_weight: torch.Tensor,
    out_proj_bias: torch.Tensor,
    n_heads: int,
    mask: torch.Tensor | None,
) -> dict[str, tuple[torch.Tensor | None, torch.Tensor | None]]:
    """description -> (output, weights) of known wrong answers for the module of exercise 5
    (None where a mistake leaves that part right)."""
    B, T, d_model = query.shape
    S = key.shape[1]
    d_head = d_model // n_heads
    w_q, w_k, w_v = in_proj_weight.chunk(3)
    b_q, b_k, b_v = in_proj_bias.chunk(3)
    q, k, v = query @ w_q.T + b_q, key @ w_k.T + b_k, value @ w_v.T + b_v

    def heads(t):
        return t.unflatten(-1, (n_heads, d_head)).transpose(-3, -2)

    def finish(head_outputs):  # (B, H, T, d_head) -> projected (B, T, d_model)
        return head_outputs.transpose(-3, -2).flatten(-2) @ out_proj_weight.T + out_proj_bias

    allowed = None
    if mask is not None:
        allowed = (
            mask if mask.dim() == 4 else mask[None, None] if mask.dim() == 2 else mask[:, None]
        )
        allowed = allowed.expand(B, n_heads, T, S)

    def weights_of(q4, k4, scale=None, keep=allowed, fill=float("-inf")):
        scores = q4 @ k4.transpose(-2, -1) / (math.sqrt(d_head) if scale is None else scale)
        if keep is not None:
            scores = scores.masked_fill(~keep, fill)
        return torch.softmax(scores, dim=-1)

    qh, kh, vh = heads(q), heads(k), heads(v)
    right = weights_of(qh, kh)
    variants: dict[str, tuple[torch.Tensor | None, torch.Tensor | None]] = {}
    for description, weights in [
        ("multi-head attention without the 1/√d_head scaling", weights_of(qh, kh, 1.0)),
        (
            "the scores divided by √d_model instead of √d_head",
            weights_of(qh, kh, math.sqrt(d_model)),
        ),
    ]:
        variants[description] = (finish(weights @ vh), weights.mean(dim=1))
    mixed = [t.reshape(B, n_heads, -1, d_head) for t in (q, k, v)]
    weights = weights_of(mixed[0], mixed[1])
    variants["heads split by a reshape to (B, H, T, d_head) without the transpose"] = (
        (weights @ mixed[2]).reshape(B, T, d_model) @ out_proj_weight.T + out_proj_bias,
        weights.mean(dim=1),
    )
    variants["the heads' outputs without the output projection (out_proj)"] = (
        (right @ vh).transpose(-3, -2).flatten(-2),
        None,
    )
    variants["the weights of every head, (B, H, T, S), not averaged over the heads"] = (None, right)
    variants["the heads' weights added up instead of averaged"] = (None, right.sum(dim=1))
    variants["only the first head's weights returned"] = (None, right[:, 0])
    if S == T and not (key is query and value is query):
        own = [heads(query @ w.T + b) for w, b in ((w_k, b_k), (w_v, b_v))]
        weights = weights_of(qh, own[0])
        variants["self-attention over the query, with key and value ignored"] = (
            finish(weights @ own[1]),
            weights.mean(dim=1),
        )
    if key is not value:
        variants["key and value swapped"] = (
            finish(weights_of(qh, heads(value @ w_k.T + b_k)) @ heads(key @ w_v.T + b_v)),
            None,
        )
    if allowed is not None:
        for description, weights in [
            (
                "the mask's polarity inverted (True taken to mean 'ignore')",
                weights_of(qh, kh, keep=~allowed),
            ),
            ("masked scores set to 0 instead of −inf", weights_of(qh, kh, fill=0.0)),
            ("attention with the mask ignored", weights_of(qh, kh, keep=None)),
        ]:
            variants[description] = (finish(weights @ vh), weights.mean(dim=1))
    return variants


def module_output(*args, mask: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
    """Outputs (B, T, d_model) of wrong answers to exercise 5's ``forward``. Arguments:
    query, key, value, in_proj_weight, in_proj_bias, out_proj_weight, out_proj_bias,
    n_heads; ``mask`` boolean, True = may attend."""
    return {
        description: output
        # args: the 8 arguments before mask (mypy cannot count them)
        for description, (output, _) in _module_variants(*args, mask).items()  # type: ignore[call-arg]
        if output is not None
    }


def module_weights(*args, mask: torch.Tensor | None = None) -> dict[str, torch.Tensor]:
    """Weights (B, T, S), averaged over the heads, of wrong answers to exercise 5's
    ``forward``; the arguments of ``module_output``."""
    return {
        description: weights
        # args: the 8 arguments before mask (mypy cannot count them)
        for description, (_, weights) in _module_variants(*args, mask).items()  # type: ignore[call-arg]
        if weights is not None
    }
