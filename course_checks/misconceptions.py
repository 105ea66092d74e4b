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

__all__ = [
    "accuracies",
    "attention",
    "attention_weights",
    "causal_attention",
    "causal_attention_weights",
    "causal_mask",
    "cosine_warmup",
    "cross_attention",
    "decoder_block",
    "encoder_block",
    "expand_mask",
    "feed_forward",
    "greedy_decode",
    "heads_cols",
    "learning_rates",
    "layer_norm",
    "masked_attention",
    "merge_heads",
    "multihead",
    "padding_mask",
    "pe_table",
    "positional_encoding",
    "projection",
    "rotation",
    "score",
    "shift_right",
    "softmax",
    "split_heads",
    "transformer_lr",
    "weighted_sum",
]


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
    (when d_in = d_v) and "scaled by √d_in" (when d_in ≠ d_k).
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
    return variants


def masked_attention(
    Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Variants of masked attention outputs; Q (..., T, d_k), mask broadcastable to (..., T, S).

    The course's masks are boolean with True = may attend.
    """
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    allowed = mask.expand_as(scores)
    weights = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)
    inverted = torch.softmax(scores.masked_fill(allowed, float("-inf")), dim=-1)
    return {
        "the mask's polarity inverted (True taken to mean 'ignore')": inverted @ V,
        "masked scores set to 0 instead of −inf (they still get weight)": torch.softmax(
            scores.masked_fill(~allowed, 0.0), dim=-1
        )
        @ V,
        "the mask applied after the softmax, so the rows no longer sum to 1": (
            torch.softmax(scores, dim=-1) * allowed
        )
        @ V,
        "attention with the mask ignored": torch.softmax(scores, dim=-1) @ V,
        "masked attention without the 1/√d_k scaling": torch.softmax(
            (scores * math.sqrt(Q.shape[-1])).masked_fill(~allowed, float("-inf")), dim=-1
        )
        @ V,
        "a masked softmax over the queries instead of the keys": torch.nan_to_num(
            torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-2)
        )
        @ V,
        "the masked weights themselves, never multiplied with the values": weights,
    }


def padding_mask(lengths: torch.Tensor, seq_len: int) -> dict[str, torch.Tensor]:
    """Variants of the (B, seq_len) mask that is True at the real (non-padding) positions."""
    positions = torch.arange(seq_len)
    return {
        "the opposite polarity: True at the padding instead of the real tokens": positions
        >= lengths[:, None],
        "one position too many (<= length instead of < length)": positions <= lengths[:, None],
        "one position too few (counting from 1)": positions < lengths[:, None] - 1,
    }


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
            attend(*mixed, math.sqrt(d_head)).reshape(B, T, d_model) @ out_proj_weight.T
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


def _pe(positions: torch.Tensor, feature_exponents: torch.Tensor, d_model: int, swap=False):
    """A sinusoidal table from explicit positions and per-feature exponents (float64)."""
    angles = positions[:, None] / 10000.0 ** (feature_exponents[None, :] / d_model)
    table = torch.empty(len(positions), d_model, dtype=torch.float64)
    even, odd = (torch.cos, torch.sin) if swap else (torch.sin, torch.cos)
    table[:, 0::2] = even(angles[:, 0::2])
    table[:, 1::2] = odd(angles[:, 1::2])
    return table


def pe_table(seq_len: int, d_model: int) -> dict[str, torch.Tensor]:
    """Variants of the sinusoidal table (seq_len, d_model), d_model even."""
    positions = torch.arange(seq_len, dtype=torch.float64)
    features = torch.arange(d_model, dtype=torch.float64)
    pair = features // 2  # i for both features of pair i
    return {
        "sin and cos swapped (cos on the even features, sin on the odd ones)": _pe(
            positions, 2 * pair, d_model, swap=True
        ),
        "the exponent i/d_model instead of 2i/d_model": _pe(positions, pair, d_model),
        "each feature's own index in the exponent, so a cos feature has a different frequency "
        "from its sin partner": _pe(positions, features, d_model),
        "positions counted from 1 instead of 0": _pe(positions + 1, 2 * pair, d_model),
        "pos · 10000^(2i/d) instead of pos / 10000^(2i/d)": _pe(positions, -2 * pair, d_model),
        "the sines in the first half and the cosines in the second (concatenated instead of "
        "interleaved)": torch.cat(
            [
                _pe(positions, 2 * pair, d_model)[:, 0::2],
                _pe(positions, 2 * pair, d_model)[:, 1::2],
            ],
            dim=1,
        ),
    }


def positional_encoding(x: torch.Tensor, table: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of adding a (max_len, d_model) table to x (B, T, d_model)."""
    batch, seq_len = x.shape[0], x.shape[1]
    return {
        "the table indexed by batch entry instead of by position (row b added to every token "
        "of sequence b)": x + table[:batch, None, :],
        "the input returned without the table": x,
        "the table alone, without the input": table[:seq_len].expand_as(x),
    }


def rotation(k: int, d_model: int, R: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the block-diagonal rotation matrix; ``R`` is the right one."""

    def blocks(angle_of_pair):
        M = torch.zeros(d_model, d_model, dtype=R.dtype)
        for i in range(d_model // 2):
            c, s = math.cos(angle_of_pair(i)), math.sin(angle_of_pair(i))
            M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = torch.tensor([[c, s], [-s, c]])
        return M

    return {
        "the rotation in the opposite direction (the transpose: it moves k positions back)": R.T,
        "the same angle k for every pair, without the pair's frequency": blocks(lambda i: k),
        "each pair's angle ω_i without the factor k (the rotation for one step)": blocks(
            lambda i: 10000 ** (-2 * i / d_model)
        ),
        "the exponent i/d_model instead of 2i/d_model in the frequencies": blocks(
            lambda i: k * 10000 ** (-i / d_model)
        ),
    }


def layer_norm(
    x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5
) -> dict[str, torch.Tensor]:
    """Variants of layer normalisation over the last axis of x (..., d_model)."""

    def normalise(dims, unbiased=False, eps_inside=True, g=gamma, b=beta):
        mean = x.mean(dim=dims, keepdim=True)
        var = x.var(dim=dims, keepdim=True, unbiased=unbiased)
        std = (var + eps).sqrt() if eps_inside else var.sqrt() + eps
        return (x - mean) / std * g + b

    variants = {
        "the unbiased variance (dividing by d_model − 1, torch.var's default) instead of the "
        "mean of squared deviations": normalise(-1, unbiased=True),
        "ε added to the standard deviation instead of inside the square root": normalise(
            -1, eps_inside=False
        ),
        "γ and β swapped": normalise(-1, g=beta, b=gamma),
        "the normalised values without γ and β": normalise(-1, g=1.0, b=0.0),
    }
    if x.dim() >= 2:
        variants[
            "statistics over the tokens (a batch-norm-like axis) instead of over each "
            "token's features"
        ] = normalise(-2)
    return variants


def feed_forward(
    x: torch.Tensor, W1: torch.Tensor, b1: torch.Tensor, W2: torch.Tensor, b2: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Variants of Linear -> ReLU -> Linear with PyTorch's weight layout (out, in)."""
    hidden = x @ W1.T + b1
    return {
        "the two layers without the ReLU between them": hidden @ W2.T + b2,
        "a ReLU after the second layer as well": torch.relu(torch.relu(hidden) @ W2.T + b2),
        "the ReLU before the first layer instead of between the layers": torch.relu(x) @ W1.T @ W2.T
        + b1 @ W2.T
        + b2,
    }


def encoder_block(x: torch.Tensor, attend, feed, norm1, norm2) -> dict[str, torch.Tensor]:
    """Variants of the post-norm encoder block; ``attend(x)`` and ``feed(x)`` are the sublayers."""
    with torch.no_grad():
        h = norm1(x + attend(x))
        pre = x + attend(norm1(x))
        no_residual = norm1(attend(x))
        after_norm = norm1(attend(x)) + x
        return {
            "pre-norm (each sublayer sees a normalised input) instead of post-norm": pre
            + feed(norm2(pre)),
            "the sublayers without their residual connections": norm2(feed(no_residual)),
            "the residual added after the norm, norm(sublayer(x)) + x": norm2(feed(after_norm))
            + after_norm,
            "the two layer norms swapped": norm1(norm2(x + attend(x)) + feed(norm2(x + attend(x)))),
            "the attention sublayer only (the feed-forward sublayer missing)": h,
        }


def causal_mask(seq_len: int) -> dict[str, torch.Tensor]:
    """Variants of the (T, T) boolean causal mask, True = may attend (on and below the diagonal)."""
    ones = torch.ones(seq_len, seq_len, dtype=torch.bool)
    return {
        "the triangle flipped: every token sees itself and the future instead of the past": (
            ones.triu()
        ),
        "a mask that hides the diagonal too, so no token may attend to itself": ones.tril(-1),
        "the opposite polarity, True where attention is forbidden (nn.MultiheadAttention's "
        "convention, not the course's)": ones.triu(1),
    }


def _softmax_rows(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    return torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1)


def causal_attention_weights(Q: torch.Tensor, K: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the causally masked weights; Q and K (..., T, d_k)."""
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    causal = torch.ones(scores.shape[-2:], dtype=torch.bool).tril()
    variants = {
        description: _softmax_rows(scores, mask)
        for description, mask in causal_mask(scores.shape[-1]).items()
    }
    variants["masked scores set to 0 instead of −inf (the future still gets weight)"] = (
        torch.softmax(scores.masked_fill(~causal, 0.0), dim=-1)
    )
    variants["the mask applied after the softmax, so the rows no longer sum to 1"] = (
        torch.softmax(scores, dim=-1) * causal
    )
    variants["attention with no mask at all"] = torch.softmax(scores, dim=-1)
    variants["masked attention without the 1/√d_k scaling"] = _softmax_rows(
        scores * math.sqrt(Q.shape[-1]), causal
    )
    return variants


def causal_attention(Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of causally masked attention outputs; Q, K (..., T, d_k), V (..., T, d_v)."""
    return {
        description: weights @ V
        for description, weights in causal_attention_weights(Q, K).items()
    }


def cross_attention(x: torch.Tensor, memory: torch.Tensor, to_q, to_k, to_v) -> dict:
    """Variants of cross-attention outputs; x (B, T, d) from the decoder, memory (B, S, d)."""
    with torch.no_grad():

        def attend(queries_from, keys_from, mask=None):
            scores = to_q(queries_from) @ to_k(keys_from).transpose(-2, -1)
            scores = scores / math.sqrt(scores.new_tensor(to_q.out_features))
            if mask is not None:
                scores = scores.masked_fill(~mask, float("-inf"))
            return torch.softmax(scores, dim=-1) @ to_v(keys_from)

        T, S = x.shape[-2], memory.shape[-2]
        return {
            "self-attention over the decoder's tokens: keys and values must come from the "
            "encoder's output (memory), only the queries from the decoder": attend(x, x),
            "the roles swapped: queries from the encoder, keys and values from the decoder": (
                attend(memory, x)
            ),
            "cross-attention with a causal mask (the decoder may read the whole source)": attend(
                x, memory, torch.ones(T, S, dtype=torch.bool).tril()
            ),
        }


def decoder_block(x, memory, attend_self, attend_self_unmasked, attend_memory, feed, norms):
    """Variants of the post-norm decoder block. ``attend_self(h)`` is causally masked
    self-attention, ``attend_memory(h, m)`` cross-attention, ``norms`` the three layer norms.
    """
    norm1, norm2, norm3 = norms
    with torch.no_grad():

        def post_norm(self_attention=attend_self, keys_from_memory=True, cross=True):
            h = norm1(x + self_attention(x))
            if cross:
                h = norm2(h + attend_memory(h, memory if keys_from_memory else h))
            return norm3(h + feed(h))

        pre = x + attend_self(norm1(x))
        pre = pre + attend_memory(norm2(pre), memory)
        return {
            "the self-attention without its causal mask (every token sees the future)": post_norm(
                attend_self_unmasked
            ),
            "cross-attention whose keys and values come from the decoder instead of the "
            "encoder's output (memory)": post_norm(keys_from_memory=False),
            "pre-norm (each sublayer sees a normalised input) instead of post-norm": pre
            + feed(norm3(pre)),
            "a block without its cross-attention sublayer (an encoder block with a causal "
            "mask)": post_norm(cross=False),
        }


def shift_right(target: torch.Tensor, start_token: int) -> dict[str, torch.Tensor]:
    """Variants of the decoder's teacher-forcing input for targets (B, T)."""
    start = torch.full_like(target[:, :1], start_token)
    return {
        "the target itself, not shifted: the decoder would see the very token it must "
        "predict": target,
        "a shift to the left (first token dropped, start token at the end) instead of to the "
        "right": torch.cat([target[:, 1:], start], dim=1),
        "the start token put in front without dropping the last token (one token too "
        "long)": torch.cat([start, target], dim=1),
    }


def _greedy(model, src, start, end, max_len, last=True, whole_prefix=True, fill=True):
    memory = model.encode(src)
    tokens = torch.full((src.shape[0], 1), start, dtype=torch.long)
    finished = torch.zeros(src.shape[0], dtype=torch.bool)
    for _ in range(max_len):
        logits = model.decode(tokens if whole_prefix else tokens[:, -1:], memory)
        next_token = logits[:, -1 if last else 0].argmax(dim=-1)
        if fill:
            next_token = next_token.masked_fill(finished, end)
        tokens = torch.cat([tokens, next_token[:, None]], dim=1)
        finished |= next_token == end
        if bool(finished.all()):
            break
    return tokens


def greedy_decode(model, src: torch.Tensor, start: int, end: int, max_len: int) -> dict:
    """Variants of greedy decoding with the package's ``Transformer`` (eval mode, CPU)."""
    with torch.no_grad():
        return {
            "reading the prediction at the first position instead of the last (newest) "
            "one": _greedy(model, src, start, end, max_len, last=False),
            "feeding back only the newest token instead of the whole sequence so far": (
                _greedy(model, src, start, end, max_len, whole_prefix=False)
            ),
            "sequences that go on after their end token (fill them with the end token "
            "instead)": _greedy(model, src, start, end, max_len, fill=False),
        }


def transformer_lr(steps: list[int], d_model: int, warmup: int) -> dict[str, torch.Tensor]:
    """Variants of the original schedule at LambdaLR's ``steps`` (counted from 0)."""

    def values(rate):
        return torch.tensor([rate(step) for step in steps], dtype=torch.float64)

    return {
        "the schedule without the d_model^-0.5 factor": values(
            lambda s: min((s + 1) ** -0.5, (s + 1) * warmup**-1.5)
        ),
        "the lecture notes' misprint, d_model^-0.5 inside the min instead of step^-0.5": values(
            lambda s: d_model**-0.5 * min(d_model**-0.5, (s + 1) * warmup**-1.5)
        ),
        "the step not counted from 1 (LambdaLR's step 0 is the paper's step 1: use step + 1)": (
            values(lambda s: d_model**-0.5 * min(max(s, 1) ** -0.5, max(s, 1) * warmup**-1.5))
        ),
        "warmup^-0.5 instead of warmup^-1.5": values(
            lambda s: d_model**-0.5 * min((s + 1) ** -0.5, (s + 1) * warmup**-0.5)
        ),
    }


def cosine_warmup(steps: list[int], warmup: int, max_iters: int) -> dict[str, torch.Tensor]:
    """Variants of the cosine warm-up factor at ``steps``."""

    def values(factor):
        return torch.tensor([factor(step) for step in steps], dtype=torch.float64)

    def cosine(t, horizon):
        return 0.5 * (1 + math.cos(math.pi * t / horizon))

    return {
        "the cosine over the warm-up steps instead of the whole run (π·t/warmup)": values(
            lambda t: cosine(t, warmup) * (t / warmup if t <= warmup else 1.0)
        ),
        "a warm-up factor off by one, (t + 1)/warmup": values(
            lambda t: cosine(t, max_iters) * ((t + 1) / warmup if t <= warmup else 1.0)
        ),
        "the cosine decay without the warm-up factor": values(lambda t: cosine(t, max_iters)),
        "cos(π·t/max_iters) without the 0.5·(1 + …) that keeps the factor between 0 and 1": (
            values(lambda t: math.cos(math.pi * t / max_iters) * (t / warmup if t <= warmup else 1))
        ),
    }


def learning_rates(factor, base_lr: float, steps: int) -> dict[str, torch.Tensor]:
    """Variants of the learning rates a LambdaLR hands to updates 0 … steps − 1."""
    return {
        "the rates one update late: read after scheduler.step(), or with scheduler.step() "
        "called before optimizer.step()": torch.tensor(
            [base_lr * factor(s + 1) for s in range(steps)], dtype=torch.float64
        ),
        "the factors themselves, never multiplied by the base learning rate": torch.tensor(
            [factor(s) for s in range(steps)], dtype=torch.float64
        ),
    }


def accuracies(generated: torch.Tensor, target: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of (token accuracy, sequence accuracy) for (N, L) token tensors."""
    hits = (generated == target).double()
    token, sequence = hits.mean(), hits.min(dim=1).values.mean()
    return {
        "the two numbers in the opposite order (token accuracy first, then sequences)": (
            torch.stack([sequence, token])
        ),
        "a sequence counted as correct when any of its tokens is (use all, not any)": (
            torch.stack([token, hits.max(dim=1).values.mean()])
        ),
        "the number of correct tokens and sequences instead of their shares": torch.stack(
            [hits.sum(), hits.min(dim=1).values.sum()]
        ),
    }
