"""Byte-pair encoding: merges learned from a text's bytes, texts encoded with them, and back.

Notebook 08's model reads one character at a time. The tokenisers of today's decoders (GPT-2
and after, LLaMA, Mistral, Qwen) read *tokens*: byte-pair encoding (Sennrich et al., 2016,
after Gage's compression scheme of 1994) starts from the text's UTF-8 bytes, 256 tokens, and
learns merges, one at a time:

1. count every pair of neighbouring tokens, at every position: a run ``a a a`` holds the pair
   ``(a, a)`` twice;
2. take the most frequent pair; among pairs counted equally often, the one met first, reading
   the sequence from the left (what ``max`` returns over a dict filled in reading order);
3. give it the next new token, ``256 + k`` for merge ``k``, and replace its occurrences from
   left to right, without overlap (``a a a`` becomes ``aa a``);

until ``num_merges`` merges are learned or one token is left. A text is encoded by taking its
bytes and applying the merges in the order they were learned; decoding joins the bytes of
each token, so ``bpe_decode(bpe_encode(text, merges), merges) == text`` for every text.

Tokens are Python ints; a sequence is a ``list[int]``; merges are a ``list[tuple[int, int]]``
in the order learned. Plain Python: a few hundred merges of some ten thousand bytes take a
second or two.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

__all__ = [
    "FIRST_NEW_TOKEN",
    "bpe_decode",
    "bpe_encode",
    "bpe_merges",
    "count_pairs",
    "merge_pair",
    "token_bytes",
]

FIRST_NEW_TOKEN = 256  # bytes are tokens 0 to 255; merge k makes token 256 + k


def count_pairs(ids: Sequence[int]) -> dict[tuple[int, int], int]:
    """pair -> how often it occurs in ``ids``, at every position (overlapping), in the order
    the pairs are first met."""
    counts: dict[tuple[int, int], int] = {}
    for pair in pairwise(ids):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge_pair(ids: Sequence[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """``ids`` with every occurrence of ``pair`` replaced by ``new_id``, from left to right,
    without overlap: ``[a, a, a]`` with ``(a, a)`` gives ``[new_id, a]``. ``ids`` is left as
    it is."""
    out: list[int] = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and ids[i] == pair[0] and ids[i + 1] == pair[1]:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bpe_merges(ids: Iterable[int], num_merges: int) -> list[tuple[int, int]]:
    """The merges byte-pair encoding learns from ``ids`` (byte values, 0 to 255), in order.

    Merge ``k`` is the most frequent pair of the sequence after merges ``0 … k-1``, counted at
    every position, ties going to the pair met first; it becomes token ``256 + k``. Fewer than
    ``num_merges`` when the sequence shrinks to one token.
    """
    ids = list(ids)
    merges: list[tuple[int, int]] = []
    for k in range(num_merges):
        counts = count_pairs(ids)
        if not counts:
            break
        best = max(counts, key=counts.__getitem__)  # the first met among the most frequent
        merges.append(best)
        ids = merge_pair(ids, best, FIRST_NEW_TOKEN + k)
    return merges


def bpe_encode(text: str, merges: Sequence[tuple[int, int]]) -> list[int]:
    """The tokens of ``text``: its UTF-8 bytes, with ``merges`` applied in the order learned."""
    ids = list(text.encode("utf-8"))
    for k, pair in enumerate(merges):
        ids = merge_pair(ids, tuple(pair), FIRST_NEW_TOKEN + k)
    return ids


def token_bytes(merges: Sequence[tuple[int, int]]) -> list[bytes]:
    """The bytes each token stands for: ``result[t]`` for token ``t``, 256 + len(merges) of
    them."""
    table = [bytes([b]) for b in range(FIRST_NEW_TOKEN)]
    for a, b in merges:
        table.append(table[a] + table[b])
    return table


def bpe_decode(ids: Iterable[int], merges: Sequence[tuple[int, int]]) -> str:
    """The text of ``ids``: the bytes of its tokens joined, read as UTF-8 (a token sequence
    cut inside a character gives "\ufffd" there)."""
    table = token_bytes(merges)
    return b"".join(table[t] for t in ids).decode("utf-8", errors="replace")
