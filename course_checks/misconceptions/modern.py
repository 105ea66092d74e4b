"""Known wrong answers for notebook 09, the modern decoder."""

from __future__ import annotations

import copy
import math
from itertools import pairwise

import torch
import torch.nn.functional as F

from transformer_course import modern
from transformer_course.decoder import causal_mask
from transformer_course.multihead import merge_heads, split_heads

__all__ = [
    "apply_rotary",
    "bpe_encode",
    "bpe_merges",
    "grouped_query_attention",
    "matched_hidden_size",
    "merge_pair",
    "modern_block",
    "rms_norm",
    "rotary_attention",
    "swiglu",
]


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5) -> dict[str, torch.Tensor]:
    """Variants of x (..., d) / √(mean(x²) + ε) · weight."""

    def divide(by, w=weight):
        return x / by * w

    mean_square = x.pow(2).mean(-1, keepdim=True)
    centred = x - x.mean(-1, keepdim=True)
    variants = {
        "layer norm's centring kept: the mean subtracted first (RMSNorm leaves it out)": (
            centred / (centred.pow(2).mean(-1, keepdim=True) + eps).sqrt() * weight
        ),
        "ε added to the root mean square instead of inside the square root": divide(
            mean_square.sqrt() + eps
        ),
        "the root of the sum of squares (each vector's length) instead of the root of their "
        "mean: √d times too small": divide((x.pow(2).sum(-1, keepdim=True) + eps).sqrt()),
        "torch.std (the unbiased standard deviation, after subtracting the mean) instead of "
        "the root mean square": divide(x.std(-1, keepdim=True) + eps),
        "the mean square without its square root": divide(mean_square + eps),
        "the normalised values without the weight": divide((mean_square + eps).sqrt(), 1.0),
    }
    if x.dim() >= 2:
        variants["the mean over the tokens (dim −2) instead of over each token's features"] = (
            divide((x.pow(2).mean(-2, keepdim=True) + eps).sqrt())
        )
    return variants


def _rotate(x, positions, base, exponent=2.0, sign=1.0, frequencies=True, swap=False, halves=False):
    """A rotary embedding with one thing changed (float64)."""
    x = x.double()
    d = x.shape[-1]
    i = torch.arange(d // 2, dtype=torch.float64)
    omega = base ** (-exponent * i / d) if frequencies else torch.ones(d // 2, dtype=torch.float64)
    angles = positions.double()[:, None] * omega
    cos, sin = (angles.sin(), angles.cos()) if swap else (angles.cos(), angles.sin())
    sin = sign * sin
    if halves:
        first, second = x[..., : d // 2], x[..., d // 2 :]
        return torch.cat([first * cos - second * sin, first * sin + second * cos], dim=-1)
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


def apply_rotary(
    x: torch.Tensor, positions: torch.Tensor, base: float = 10000.0
) -> dict[str, torch.Tensor]:
    """Variants of turning each pair (2i, 2i+1) of x (..., T, d) by positions[t] · base^(−2i/d)."""
    return {
        "the rotation the other way round (−sin where +sin belongs: notebook 04's R_p, not "
        "R_−p)": _rotate(x, positions, base, sign=-1.0),
        "pairs made of the two halves, (i, i + d/2), as GPT-NeoX and Hugging Face's LLaMA "
        "arrange them, instead of neighbouring features (2i, 2i+1)": _rotate(
            x, positions, base, halves=True
        ),
        "the exponent i/d instead of 2i/d in the frequencies": _rotate(
            x, positions, base, exponent=1.0
        ),
        "the frequencies growing, base^(+2i/d), instead of falling": _rotate(
            x, positions, base, exponent=-2.0
        ),
        "the same angle (the position itself) for every pair, without the pair's frequency": (
            _rotate(x, positions, base, frequencies=False)
        ),
        "cos and sin swapped": _rotate(x, positions, base, swap=True),
    }


def rotary_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of causal attention with q and k (B, H, T, d) turned by their positions."""
    positions = torch.arange(q.shape[-2])
    turned_q, turned_k, turned_v = (modern.apply_rotary(t, positions) for t in (q, k, v))

    def attend(query, key, value, causal=True):
        return F.scaled_dot_product_attention(query, key, value, is_causal=causal)

    return {
        "the values turned as well (rotary embeddings turn only the queries and the keys)": (
            attend(turned_q, turned_k, turned_v)
        ),
        "only the queries turned, the keys left as they are": attend(turned_q, k, v),
        "only the keys turned": attend(q, turned_k, v),
        "attention without rotary embeddings": attend(q, k, v),
        "attention without the causal mask": attend(turned_q, turned_k, v, causal=False),
    }


def swiglu(
    x: torch.Tensor, W_gate: torch.Tensor, W_up: torch.Tensor, W_down: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Variants of (silu(x W_gateᵀ) · x W_upᵀ) W_downᵀ."""
    gate, up = x @ W_gate.T, x @ W_up.T
    return {
        "the SiLU on the up projection instead of the gate (W_gate and W_up swapped)": (
            F.silu(up) * gate
        )
        @ W_down.T,
        "a ReLU where the SiLU belongs": (torch.relu(gate) * up) @ W_down.T,
        "the sigmoid alone as the gate, σ(x W_gate) · x W_up (GLU, not SwiGLU)": (
            torch.sigmoid(gate) * up
        )
        @ W_down.T,
        "no up projection: silu(x W_gate) W_down": F.silu(gate) @ W_down.T,
        "the SiLU applied after the product, silu(x W_gate · x W_up)": F.silu(gate * up) @ W_down.T,
        "the gate and up products added instead of multiplied": (F.silu(gate) + up) @ W_down.T,
    }


def matched_hidden_size(d_model: int, d_ff: int) -> dict[str, torch.Tensor]:
    """Variants of the SwiGLU hidden size with the weights of a ReLU layer of size d_ff."""
    return {
        "8/3 · d_model, which is right only when d_ff = 4 · d_model": torch.tensor(
            float(round(8 * d_model / 3))
        ),
        "d_ff itself: three matrices of that size hold 1.5 times the ReLU layer's weights": (
            torch.tensor(float(d_ff))
        ),
        "2·d_ff/3 rounded down (int() or //) instead of to the nearest whole number": (
            torch.tensor(float(2 * d_ff // 3))
        ),
        "3·d_ff/2: the ratio upside down": torch.tensor(float(round(3 * d_ff / 2))),
    }


def _attend(q, k, v, mask, scale=True):
    scores = q @ k.transpose(-2, -1) / (math.sqrt(q.shape[-1]) if scale else 1.0)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(-1) @ v


def grouped_query_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None
) -> dict[str, torch.Tensor]:
    """Variants of attention for q (B, H, T, d) with k, v (B, H_kv, S, d)."""
    n_rep = q.shape[-3] // k.shape[-3]

    def grouped(t):
        return t.repeat_interleave(n_rep, dim=-3)

    def turns(t):  # head h with key/value head h mod H_kv
        return t.repeat(1, n_rep, 1, 1)

    def first(t):
        return t[:, :1].expand(-1, q.shape[-3], -1, -1)

    variants = {
        "key/value heads dealt out in turn (k.repeat: query head h uses key/value head "
        "h mod H_kv) instead of in groups of neighbours (repeat_interleave: heads 0 … "
        "H/H_kv − 1 share key/value head 0)": _attend(q, turns(k), turns(v), mask),
        "every query head using the first key/value head only": _attend(
            q, first(k), first(v), mask
        ),
        "scores not divided by √d_head": _attend(q, grouped(k), grouped(v), mask, scale=False),
    }
    if mask is not None:
        variants["attention with the mask ignored"] = _attend(q, grouped(k), grouped(v), None)
    return variants


def modern_block(block: modern.ModernBlock, x: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of the package's modern block (RMSNorm, rotary, GQA, SwiGLU) on x (B, T, d)."""
    T = x.shape[-2]
    positions = torch.arange(T)

    def attention(h, rotary="qk", causal=True):
        q = split_heads(block.q_proj(h), block.n_heads)
        k = split_heads(block.k_proj(h), block.n_kv_heads)
        v = split_heads(block.v_proj(h), block.n_kv_heads)
        if "q" in rotary:
            q = modern.apply_rotary(q, positions)
        if "k" in rotary:
            k = modern.apply_rotary(k, positions)
        if "v" in rotary:
            v = modern.apply_rotary(v, positions)
        mask = causal_mask(T) if causal else None
        return block.out_proj(merge_heads(modern.grouped_query_attention(q, k, v, mask)))

    norm1, norm2, feed = block.norm1, block.norm2, block.feed_forward

    def wired(attend=attention, second_norm=norm2):
        h = x + attend(norm1(x))
        return h + feed(second_norm(h))

    no_rotary = copy.deepcopy(block)
    no_rotary.rotary = False
    with torch.no_grad():
        post = norm1(x + attention(x))
        return {
            "the block without rotary embeddings": no_rotary(x),
            "rotary embeddings on the values as well": wired(lambda h: attention(h, "qkv")),
            "rotary embeddings on the queries only": wired(lambda h: attention(h, "q")),
            "attention without the causal mask": wired(lambda h: attention(h, causal=False)),
            "one norm (norm1) used for both sublayers": wired(second_norm=norm1),
            "post-norm (the norm after each residual addition) instead of pre-norm": norm2(
                post + feed(post)
            ),
            "the sublayers without their residual connections": feed(norm2(attention(norm1(x)))),
        }


# --- byte-pair encoding ------------------------------------------------------------------
# One parametric BPE, written apart from the package's, with each named mistake a setting.
# The descriptions are shared by the three functions of the exercise: a helper's mistake
# shows in every function that uses it, and is named alike there.

LEAST_FREQUENT = "merges of the least frequent pair each time, not the most frequent"
TIE_SMALLEST = (
    "ties between equally frequent pairs broken by the smallest pair, not by the pair met first"
)
TIE_LARGEST = (
    "ties between equally frequent pairs broken by the largest pair, not by the pair met first"
)
TIE_LAST = (
    "ties between equally frequent pairs broken by the pair met last, not by the pair met first"
)
NO_OVERLAP = 'pairs counted without overlap: a run "aaa" counted as holding (a, a) once, not twice'
RIGHT_TO_LEFT = 'pairs replaced from right to left: "aaa" merged into a + aa instead of aa + a'
FIRST_ONLY = "only the first occurrence of a pair replaced, not every occurrence"
REVERSED = "the merges applied in reverse order (the last learned first), not in the order learned"
CODE_POINTS = (
    "the characters' code points (ord) merged instead of the text's UTF-8 bytes (a "
    "character outside ASCII is several bytes)"
)


def _replaced(ids: list[int], pair: tuple[int, int], new_id: int, how: str = "left") -> list[int]:
    if how == "right":
        return _replaced(ids[::-1], (pair[1], pair[0]), new_id)[::-1]
    out, i, done = [], 0, False
    while i < len(ids):
        if not done and i + 1 < len(ids) and (ids[i], ids[i + 1]) == tuple(pair):
            out.append(new_id)
            i += 2
            done = how == "first"
        else:
            out.append(ids[i])
            i += 1
    return out


def _counted(ids: list[int], overlap: bool = True) -> dict[tuple[int, int], int]:
    counts: dict[tuple[int, int], int] = {}
    free_from: dict[tuple[int, int], int] = {}  # without overlap: where the pair may start again
    for i, pair in enumerate(pairwise(ids)):
        if overlap or i >= free_from.get(pair, 0):
            counts[pair] = counts.get(pair, 0) + 1
            free_from[pair] = i + 2
        else:
            counts.setdefault(pair, 0)
    return counts


def _learned(
    ids,
    num_merges: int,
    pick: str = "most",
    tie: str = "first",
    overlap: bool = True,
    how: str = "left",
) -> list[tuple[int, int]]:
    ids, merges = list(ids), []
    for k in range(num_merges):
        counts = {p: c for p, c in _counted(ids, overlap).items() if c or pick == "most"}
        if not counts:
            break
        best_count = (max if pick == "most" else min)(counts.values())
        tied = [p for p, c in counts.items() if c == best_count]
        best = {"first": tied[0], "last": tied[-1], "smallest": min(tied), "largest": max(tied)}[
            tie
        ]
        merges.append(best)
        ids = _replaced(ids, best, 256 + k, how)
    return merges


def _pairs(merges) -> torch.Tensor:
    return torch.tensor([list(p) for p in merges], dtype=torch.long).reshape(-1, 2)


def _tokens(ids) -> torch.Tensor:
    return torch.tensor(list(ids), dtype=torch.long)


def merge_pair(ids: list[int], pair: tuple[int, int], new_id: int) -> dict[str, torch.Tensor]:
    """Variants of ``ids`` with ``pair`` replaced by ``new_id``, left to right, no overlap."""
    return {
        RIGHT_TO_LEFT: _tokens(_replaced(list(ids), pair, new_id, "right")),
        FIRST_ONLY: _tokens(_replaced(list(ids), pair, new_id, "first")),
    }


def bpe_merges(ids: list[int], num_merges: int) -> dict[str, torch.Tensor]:
    """Variants of the merges learned from ``ids``, as (M, 2) int64 tensors."""
    return {
        LEAST_FREQUENT: _pairs(_learned(ids, num_merges, pick="least")),
        TIE_SMALLEST: _pairs(_learned(ids, num_merges, tie="smallest")),
        TIE_LARGEST: _pairs(_learned(ids, num_merges, tie="largest")),
        TIE_LAST: _pairs(_learned(ids, num_merges, tie="last")),
        NO_OVERLAP: _pairs(_learned(ids, num_merges, overlap=False)),
        RIGHT_TO_LEFT: _pairs(_learned(ids, num_merges, how="right")),
        FIRST_ONLY: _pairs(_learned(ids, num_merges, how="first")),
    }


def bpe_encode(text: str, merges: list[tuple[int, int]]) -> dict[str, torch.Tensor]:
    """Variants of the tokens of ``text`` under ``merges``, as (n,) int64 tensors."""

    def applied(ids, order, how="left"):
        for k, pair in order:
            ids = _replaced(ids, pair, 256 + k, how)
        return _tokens(ids)

    in_order = list(enumerate(merges))
    data = list(text.encode("utf-8"))
    return {
        REVERSED: applied(data, in_order[::-1]),
        RIGHT_TO_LEFT: applied(data, in_order, "right"),
        FIRST_ONLY: applied(data, in_order, "first"),
        CODE_POINTS: applied([ord(c) for c in text], in_order),
    }
