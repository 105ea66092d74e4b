"""Count-based character n-gram models: the baselines a language model has to beat.

An order-n model predicts a character from the n - 1 before it, by counting how often each
continuation followed that context in the training text. Contexts seen rarely or never need
smoothing: some probability is taken from what was seen and handed to the prediction of the
(n-1)-gram model, whose context h' drops the oldest character of h. Both smoothers here
interpolate in the same shape,

    P_n(c | h) = (A(h c) + B(h) · P_{n-1}(c | h')) / Z(h),

and a context never seen falls back to P_{n-1} as it is. The recursion ends in the uniform
distribution over the vocabulary, so no character, however new, gets probability 0. Order 1
is the unigram model (no context), order 2 the bigram.

- **Witten–Bell** (``NGramModel``), which needs no tuning: A = C(h c), the count;
  B = N(h), the number of distinct characters seen after h; Z = C(h) + N(h).
- **Interpolated modified Kneser–Ney** (``KneserNeyModel``, Chen & Goodman 1998): A = C(h c)
  - D(C(h c)), each count lowered by a discount D₁, D₂ or D₃₊ (for counts 1, 2, 3 or more)
  estimated from the counts of counts; B = the discounts taken from h's continuations;
  Z = C(h). Below the highest order, C(h c) is not how often h c occurred but after how many
  *different* characters it occurred (its continuation count): a lower order is only asked
  when the longer context was rare, and then what matters is how readily c follows new
  contexts, not how often it followed one common one.

All counting is done on tensors: an n-gram of indices below V is one integer in base V.
"""

from __future__ import annotations

import math

import torch

__all__ = ["KneserNeyModel", "NGramModel"]


class NGramModel:
    """A Witten–Bell smoothed character n-gram model over indices ``0 .. vocab_size - 1``."""

    def __init__(self, order: int, vocab_size: int):
        if order < 1 or vocab_size**order >= 2**62:
            raise ValueError(f"order {order} over {vocab_size} symbols does not fit in int64")
        self.order, self.vocab_size = order, vocab_size
        # per k = 1 .. order: sorted k-gram keys and their A; sorted context keys, B and Z
        self.tables: list[tuple[torch.Tensor, ...]] = []

    def _keys(self, ids: torch.Tensor, k: int) -> torch.Tensor:
        """(len(ids) - k + 1,) the k-grams of ``ids`` as integers in base V."""
        keys = torch.zeros(len(ids) - k + 1, dtype=torch.long)
        for j in range(k):
            keys = keys * self.vocab_size + ids[j : len(ids) - k + 1 + j]
        return keys

    def _counts(self, ids: torch.Tensor, k: int, memo: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """The distinct k-grams of ``ids`` (sorted keys) and how often each occurs."""
        if ("counts", k) not in memo:
            memo["counts", k] = torch.unique(self._keys(ids, k), return_counts=True)
        return memo["counts", k]

    def _table(self, ids: torch.Tensor, k: int, memo: dict) -> tuple[torch.Tensor, ...]:
        """The table of order k: the same for every model order (Witten–Bell)."""
        if ("table", k) not in memo:
            memo["table", k] = self._level(*self._counts(ids, k, memo))
        return memo["table", k]

    def _level(self, grams: torch.Tensor, counts: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The table of one order from its k-grams and their counts (A, B, Z of the module's
        formula): Witten–Bell's A = C(h c), B = N(h), Z = C(h) + N(h)."""
        contexts, group = torch.unique_consecutive(grams // self.vocab_size, return_inverse=True)
        totals = torch.zeros(len(contexts), dtype=torch.long).index_add_(0, group, counts)
        distinct = torch.bincount(group, minlength=len(contexts))
        return grams, counts.double(), contexts, distinct.double(), (totals + distinct).double()

    def fit(self, ids: torch.Tensor, memo: dict | None = None) -> NGramModel:
        """Count every k-gram of the 1-D index tensor ``ids``, for k up to the order.
        Models fitted to the same ``ids`` may share a ``memo`` (see ``fit_orders``)."""
        ids, memo = ids.cpu().long(), {} if memo is None else memo
        self.tables = [self._table(ids, k, memo) for k in range(1, self.order + 1)]
        return self

    @classmethod
    def fit_orders(
        cls, orders, vocab_size: int, ids: torch.Tensor, memo: dict | None = None
    ) -> dict[int, NGramModel]:
        """{order: model} for every order in ``orders``, fitted to ``ids``, counting each
        k-gram once for all of them (and for other calls given the same ``memo``)."""
        memo = {} if memo is None else memo
        return {order: cls(order, vocab_size).fit(ids, memo) for order in orders}

    @staticmethod
    def _lookup(keys: torch.Tensor, table: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        """values[i] where table[i] == key, 0 where the key is absent (table sorted)."""
        where = torch.searchsorted(table, keys).clamp(max=len(table) - 1)
        return torch.where(table[where] == keys, values[where], 0)

    def _probabilities(self, windows: torch.Tensor) -> torch.Tensor:
        """windows (M, order): each row's last index after the order - 1 before it -> (M,)
        its probability."""
        p = torch.full((len(windows),), 1.0 / self.vocab_size, dtype=torch.float64)
        for k, (grams, numerators, contexts, weights, totals) in enumerate(self.tables, 1):
            keys = torch.zeros(len(windows), dtype=torch.long)
            for column in windows[:, self.order - k :].T:  # the k-gram ending at the target
                keys = keys * self.vocab_size + column
            total = self._lookup(keys // self.vocab_size, contexts, totals)
            weight = self._lookup(keys // self.vocab_size, contexts, weights)
            seen = self._lookup(keys, grams, numerators)
            p = torch.where(total > 0, (seen + weight * p) / total.clamp(min=1e-12), p)
        return p

    def probabilities(self, ids: torch.Tensor) -> torch.Tensor:
        """(len(ids) - order + 1,) the probability of each character of ``ids`` from the
        order - 1 characters before it (so the first order - 1 characters are not scored)."""
        ids = ids.cpu().long()
        return self._probabilities(ids.unfold(0, self.order, 1))

    def next_distribution(self, contexts: torch.Tensor) -> torch.Tensor:
        """contexts (B, order - 1) -> (B, V): the probability of every character after each."""
        contexts = contexts.cpu().long().reshape(len(contexts), self.order - 1)
        B, V = len(contexts), self.vocab_size
        windows = torch.cat(
            [contexts.repeat_interleave(V, 0), torch.arange(V).repeat(B)[:, None]], dim=1
        )
        return self._probabilities(windows).view(B, V)

    def bits_per_character(self, ids: torch.Tensor) -> float:
        """The average of -log2 P over the scored characters of ``ids``."""
        return -self.probabilities(ids).log().mean().item() / math.log(2)


class KneserNeyModel(NGramModel):
    """An interpolated modified Kneser–Ney character n-gram model (Chen & Goodman, 1998)."""

    def fit(self, ids: torch.Tensor, memo: dict | None = None) -> KneserNeyModel:
        """Raw counts for the highest order, continuation counts below it; the discounts of
        each order from its own counts of counts (``self.discounts``: (D₁, D₂, D₃₊) per k)."""
        super().fit(ids, memo)
        self.discounts = [table[-1] for table in self.tables]
        self.tables = [table[:-1] for table in self.tables]
        return self

    def _table(self, ids: torch.Tensor, k: int, memo: dict) -> tuple[torch.Tensor, ...]:
        kind = "raw" if k == self.order else "continuation"
        if (kind, k) not in memo:
            if kind == "raw":
                grams, counts = self._counts(ids, k, memo)
            else:  # N₁₊(• g): after how many distinct characters the k-gram g occurred
                longer = self._counts(ids, k + 1, memo)[0]
                grams, counts = torch.unique(longer % self.vocab_size**k, return_counts=True)
            memo[kind, k] = self._level(grams, counts)
        return memo[kind, k]

    def _level(self, grams: torch.Tensor, counts: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """A = C(h c) - D(C(h c)); B = the sum of h's discounts; Z = C(h); and the discounts."""
        n = [int((counts == r).sum()) for r in (1, 2, 3, 4)]
        y = n[0] / (n[0] + 2 * n[1]) if n[0] + 2 * n[1] else 0.5
        # D_r = r - (r + 1) Y n_{r+1} / n_r, kept between 0 and r (tiny texts can have n_r = 0)
        discount = [
            min(max(r - (r + 1) * y * n[r] / n[r - 1], 0.0), r) if n[r - 1] else r / 2
            for r in (1, 2, 3)
        ]
        taken = torch.tensor(discount, dtype=torch.float64)[counts.clamp(max=3) - 1]
        contexts, group = torch.unique_consecutive(grams // self.vocab_size, return_inverse=True)
        totals = torch.zeros(len(contexts), dtype=torch.float64).index_add_(
            0, group, counts.double()
        )
        weights = torch.zeros(len(contexts), dtype=torch.float64).index_add_(0, group, taken)
        return grams, counts.double() - taken, contexts, weights, totals, tuple(discount)
