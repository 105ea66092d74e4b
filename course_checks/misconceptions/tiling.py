"""The causal loops of notebook 10's tiled attention, forward and backward, as a family of
slips: ``Tiling`` says which key blocks a block of queries computes and how it masks them
(``Tiling()`` is right), and ``tiling_slips()`` changes one of its parameters at a time.
"""

from __future__ import annotations

import dataclasses

import torch

NEG_INF = float("-inf")


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
