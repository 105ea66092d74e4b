"""Count-based character n-gram models: the baselines a language model has to beat.

An order-n model predicts a character from the n - 1 before it, by counting how often each
continuation followed that context in the training text. Contexts seen rarely or never are
smoothed by Witten–Bell interpolation, which needs no tuning: a context seen C(h) times with
N(h) distinct continuations gives

    P_n(c | h) = (C(h c) + N(h) · P_{n-1}(c | h')) / (C(h) + N(h)),

where h' drops the oldest character of h, and an unseen context falls back to P_{n-1}. The
recursion ends in the uniform distribution over the vocabulary, so no character, however
new, gets probability 0. Order 1 is the unigram model (no context), order 2 the bigram.

All counting is done on tensors: an n-gram of indices below V is one integer in base V.
"""

from __future__ import annotations

import math

import torch

__all__ = ["NGramModel"]


class NGramModel:
    """A Witten–Bell smoothed character n-gram model over indices ``0 .. vocab_size - 1``."""

    def __init__(self, order: int, vocab_size: int):
        if order < 1 or vocab_size**order >= 2**62:
            raise ValueError(f"order {order} over {vocab_size} symbols does not fit in int64")
        self.order, self.vocab_size = order, vocab_size
        # per k = 1 .. order: sorted k-gram keys and counts; context keys, totals, distinct
        self.tables: list[tuple[torch.Tensor, ...]] = []

    def _keys(self, ids: torch.Tensor, k: int) -> torch.Tensor:
        """(len(ids) - k + 1,) the k-grams of ``ids`` as integers in base V."""
        keys = torch.zeros(len(ids) - k + 1, dtype=torch.long)
        for j in range(k):
            keys = keys * self.vocab_size + ids[j : len(ids) - k + 1 + j]
        return keys

    def fit(self, ids: torch.Tensor) -> NGramModel:
        """Count every k-gram of the 1-D index tensor ``ids``, for k up to the order."""
        ids = ids.cpu().long()
        self.tables = []
        for k in range(1, self.order + 1):
            grams, counts = torch.unique(self._keys(ids, k), return_counts=True)
            context_of = grams // self.vocab_size  # sorted, since the grams are
            contexts, group = torch.unique_consecutive(context_of, return_inverse=True)
            totals = torch.zeros(len(contexts), dtype=torch.long).index_add_(0, group, counts)
            distinct = torch.bincount(group, minlength=len(contexts))
            self.tables.append((grams, counts, contexts, totals, distinct))
        return self

    @staticmethod
    def _lookup(keys: torch.Tensor, table: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        """values[i] where table[i] == key, 0 where the key is absent (table sorted)."""
        where = torch.searchsorted(table, keys).clamp(max=len(table) - 1)
        return torch.where(table[where] == keys, values[where], 0)

    def probabilities(self, ids: torch.Tensor) -> torch.Tensor:
        """(len(ids) - order + 1,) the probability of each character of ``ids`` from the
        order - 1 characters before it (so the first order - 1 characters are not scored)."""
        ids = ids.cpu().long()
        start = self.order - 1
        p = torch.full((len(ids) - start,), 1.0 / self.vocab_size, dtype=torch.float64)
        for k, (grams, counts, contexts, totals, distinct) in enumerate(self.tables, 1):
            keys = self._keys(ids[start - k + 1 :], k)  # the k-gram ending at each scored char
            seen = self._lookup(keys, grams, counts).double()
            context = keys // self.vocab_size
            total = self._lookup(context, contexts, totals).double()
            kinds = self._lookup(context, contexts, distinct).double()
            p = torch.where(total > 0, (seen + kinds * p) / (total + kinds).clamp(min=1), p)
        return p

    def bits_per_character(self, ids: torch.Tensor) -> float:
        """The average of -log2 P over the scored characters of ``ids``."""
        return -self.probabilities(ids).log().mean().item() / math.log(2)
