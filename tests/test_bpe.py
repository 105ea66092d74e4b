"""Notebook 09's byte-pair encoding: merges on examples worked by hand, the round trip, and
agreement with an independent, deliberately naive implementation on random byte strings."""

from __future__ import annotations

import random

import pytest

from transformer_course import bpe, corpus


def naive_merges(data: bytes, num_merges: int) -> list[tuple[int, int]]:
    """BPE written another way: tokens as tuples of bytes, pairs found by scanning every
    position for every candidate, replacements made on a copy with slices."""
    tokens = [(b,) for b in data]
    ids = {(b,): b for b in range(256)}
    merges = []
    for k in range(num_merges):
        if len(tokens) < 2:
            break
        candidates = []  # in the order first met
        for i in range(len(tokens) - 1):
            if (tokens[i], tokens[i + 1]) not in candidates:
                candidates.append((tokens[i], tokens[i + 1]))
        frequency = [
            sum(1 for i in range(len(tokens) - 1) if (tokens[i], tokens[i + 1]) == c)
            for c in candidates
        ]
        best = candidates[frequency.index(max(frequency))]  # index: the first of the best
        merges.append((ids[best[0]], ids[best[1]]))
        ids[best[0] + best[1]] = 256 + k
        i = 0
        while i < len(tokens) - 1:
            if (tokens[i], tokens[i + 1]) == best:
                tokens[i : i + 2] = [best[0] + best[1]]
            i += 1
    return merges


def test_the_worked_example():
    """aaabdaaabac: aa (4 times, overlapping), then Za and ab tie twice over and Za is met
    first, then Yb: ZabdZabac, YbdYbac, XdXac."""
    merges = bpe.bpe_merges(b"aaabdaaabac", 3)
    assert merges == [(97, 97), (256, 97), (257, 98)]
    assert bpe.bpe_encode("aaabdaaabac", merges) == [258, 100, 258, 97, 99]
    assert bpe.token_bytes(merges)[256:] == [b"aa", b"aaa", b"aaab"]


def test_runs_are_counted_with_overlap_and_replaced_from_the_left():
    assert bpe.count_pairs([1, 1, 1]) == {(1, 1): 2}
    assert bpe.merge_pair([1, 1, 1], (1, 1), 9) == [9, 1]
    assert bpe.merge_pair([1, 1, 1, 1], (1, 1), 9) == [9, 9]
    assert bpe.merge_pair([2, 1, 2, 1, 2], (1, 2), 9) == [2, 9, 9]
    # ab twice, aa three times (overlapping): aa wins; counted without overlap, ab would
    assert bpe.bpe_merges(b"ababcaaaa", 1) == [(97, 97)]


def test_ties_go_to_the_pair_met_first():
    assert bpe.bpe_merges(b"xyab", 1) == [(120, 121)]
    assert bpe.bpe_merges(b"baab", 1) == [(98, 97)]  # not the smallest, (97, 97), nor the largest


def test_it_stops_when_one_token_is_left():
    assert bpe.bpe_merges(b"abc", 5) == [(97, 98), (256, 99)]
    assert bpe.bpe_merges(b"a", 3) == [] and bpe.bpe_merges(b"", 3) == []
    assert bpe.bpe_encode("", [(97, 98)]) == []


def test_inputs_are_left_as_they_are():
    ids = [1, 1, 2, 1, 1]
    bpe.bpe_merges(ids, 3)
    bpe.merge_pair(ids, (1, 1), 7)
    assert ids == [1, 1, 2, 1, 1]


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_a_naive_implementation_on_random_bytes(seed):
    rng = random.Random(seed)
    alphabet = rng.sample(range(256), rng.choice((2, 3, 5, 256)))
    data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 120)))
    num_merges = rng.randrange(0, 30)
    merges = bpe.bpe_merges(data, num_merges)
    assert merges == naive_merges(data, num_merges)
    ids = list(data)
    for k, pair in enumerate(merges):
        ids = bpe.merge_pair(ids, pair, 256 + k)
    assert len(merges) == num_merges or len(ids) <= 1  # fewer only when one token is left


@pytest.mark.parametrize("seed", range(20))
def test_decode_undoes_encode(seed):
    rng = random.Random(seed)
    letters = "ab λé→✓\n\t" + "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(5))
    train = "".join(rng.choice(letters) for _ in range(200))
    text = "".join(rng.choice(letters + "😀z") for _ in range(rng.randrange(0, 80)))
    merges = bpe.bpe_merges(train.encode(), 40)
    ids = bpe.bpe_encode(text, merges)
    assert bpe.bpe_decode(ids, merges) == text
    assert all(0 <= t < 256 + len(merges) for t in ids)
    assert len(ids) <= len(text.encode())


def test_encoding_the_training_text_uses_every_merge():
    text = corpus.load_corpus().train[:3000]
    merges = bpe.bpe_merges(text.encode(), 60)
    ids = bpe.bpe_encode(text, merges)
    assert len(merges) == 60 and set(range(256, 316)) & set(ids)
    assert bpe.bpe_decode(ids, merges) == text
    assert len(ids) < 0.7 * len(text)  # code compresses well: indentation, keywords
