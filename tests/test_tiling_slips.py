"""Notebook 10's causal loops and masks as a family of slips (``misconceptions.Tiling``):
every slip the family makes differs from the right answer, has a name of its own made from
its parameters, and names a one-mistake answer that makes it, in the student's own checks."""

from __future__ import annotations

import dataclasses
import json

import pytest
import torch
import torch.nn.functional as F

from autograder.mutation import analysis, measure
from autograder.mutation.variants import code_cells
from course_checks import misconceptions
from course_checks.misconceptions.attention_at_scale import (
    FORWARD_WITHOUT_CAUSAL,
    MASK_AFTER_SOFTMAX,
    NO_SCALE_DK,
    Tiling,
    ignores_causal,
    tiling_slips,
)
from transformer_course import tiled_attention as tiled

NOTEBOOK = analysis.ROOT / "solutions" / "10_attention_at_scale" / "10_attention_at_scale.ipynb"


def qkv(seed, t, s, d=4, d_v=3):
    g = torch.Generator().manual_seed(seed)
    return tuple(
        torch.randn(2, n, width, generator=g, dtype=torch.float64)
        for n, width in ((t, d), (s, d), (s, d_v), (t, d_v))
    )


# A block too many costs matrix products, not values: the FLOP checks see it.
COST_ONLY = (Tiling(shift=1), Tiling(bound="end"))


def test_the_right_tiling_computes_what_the_mask_leaves_and_each_slip_changes_one_thing():
    assert Tiling().key_blocks(5, 5, 24, 5, 7) == [0, 7]  # queries 5…9: keys up to 9
    assert Tiling(shift=-1).key_blocks(5, 5, 24, 5, 7) == [0]
    assert Tiling(shift=1).key_blocks(5, 5, 24, 5, 7) == [0, 7, 14]
    assert Tiling(flipped=True).key_blocks(5, 5, 24, 5, 7) == [14, 21]
    assert Tiling(bound="first").key_blocks(6, 6, 24, 6, 6) == [0, 6]
    assert Tiling(strict=False).key_blocks(0, 6, 24, 6, 5) == [0]  # key 5 is query 5's own
    slips = tiling_slips() + tiling_slips(backward=True)
    for slip in slips:
        changed = [
            f.name
            for f in dataclasses.fields(Tiling)
            if getattr(slip, f.name) != getattr(Tiling(), f.name)
        ]
        assert 1 <= len(changed) <= 2 and (
            len(changed) == 1 or set(changed) in ({"bound", "strict"}, {"flipped", "stops"})
        ), slip
    for backward in (False, True):
        names = [slip.describe(backward) for slip in tiling_slips(backward)]
        assert len(set(names)) == len(names)


@pytest.mark.parametrize("slip", tiling_slips(), ids=lambda s: s.describe()[:40])
def test_each_forward_slip_is_offered_and_differs_from_the_right_answer(slip):
    Q, K, V, _ = qkv(1, 24, 24)
    variants = misconceptions.tiled_attention(Q, K, V, 8, 3, causal=True)
    right = F.scaled_dot_product_attention(Q, K, V, attn_mask=tiled.causal_mask(24, 24))
    out, lse = variants[slip.describe()]
    if slip not in COST_ONLY:
        assert not (
            torch.allclose(out, right, equal_nan=True)
            and torch.allclose(lse, tiled.row_logsumexp(Q, K, True))
        )


@pytest.mark.parametrize("slip", tiling_slips(backward=True), ids=lambda s: s.describe(True)[:40])
def test_each_backward_slip_is_offered_and_differs_from_the_right_answer(slip):
    Q, K, V, dO = qkv(2, 24, 24)
    variants = misconceptions.flash_backward(Q, K, V, dO, True, 8, 3)
    right = torch.cat([g.flatten() for g in tiled.reference_gradients(Q, K, V, dO, True)])
    got = torch.cat([g.flatten() for g in variants[slip.describe(backward=True)]])
    if slip not in COST_ONLY:
        assert not torch.allclose(got, right, equal_nan=True)


# One-mistake answers made from the reference answer, each with the slip it should be named
# as: (cell, what the reference has, what the answer has instead, the name's description).
def _slips():
    forward, backward = "ex2_tiled_attention", "ex4_flash_backward"
    loop, skip = "if causal and j > last_query:", "if causal and j > i + q.shape[-2] - 1:"
    mask = "masked_fill(keys > queries[:, None]"
    cases = [
        (forward, loop, "if causal and j > last_query - block_k:", Tiling(shift=-1)),
        (forward, loop, "if causal and j > i:", Tiling(bound="first")),
        (forward, loop, "if causal and j >= last_query:", Tiling(strict=False)),
        (forward, loop, "if causal and j // block_k > i // block_q:", Tiling(numbers=True)),
        (forward, loop, "if causal and j <= last_query:", Tiling(flipped=True, stops=True)),
        (forward, mask, "masked_fill(keys >= queries[:, None]", Tiling(hidden=">=")),
        (
            forward,
            "torch.arange(i, i + q.shape[-2]",
            "torch.arange(q.shape[-2]",
            Tiling(local="queries"),
        ),
        (backward, skip, "if causal and j > i + q.shape[-2] - 1 - block_k:", Tiling(shift=-1)),
        (backward, skip, "if causal and j > i:", Tiling(bound="first")),
        (backward, skip, "if causal and j >= i + q.shape[-2] - 1:", Tiling(strict=False)),
        (backward, skip, "if causal and j <= i + q.shape[-2] - 1:", Tiling(flipped=True)),
        (backward, mask, "masked_fill(keys >= queries[:, None]", Tiling(hidden=">=")),
        (
            backward,
            "            if causal:\n                queries",
            "            if False:\n                queries",
            Tiling(masked=False),
        ),
        (
            backward,
            "scores = q @ k.transpose(-2, -1) * scale",
            "scores = q @ k.transpose(-2, -1)",
            Tiling(scale=False),
        ),
    ]
    return [
        (cell, old, new, slip.describe(backward=cell == backward)) for cell, old, new, slip in cases
    ] + [
        (
            backward,
            "dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ q * scale",
            "dK[..., j:j + block_k, :] += dS.transpose(-2, -1) @ q",
            NO_SCALE_DK,
        )
    ]


def _ex5_slips():
    cell = "ex5_autograd_functions"
    return [
        (
            cell,
            "O, L = tiled_attention(Q, K, V, block_q, block_k, causal=causal)",
            "O, L = tiled_attention(Q, K, V, block_q, block_k)",
            FORWARD_WITHOUT_CAUSAL,
        ),
        (
            cell,
            '            scores = scores.masked_fill(~visible, float("-inf"))',
            "            pass",
            ignores_causal(tiled=False),
        ),
        (
            cell,
            '            scores = scores.masked_fill(~visible, float("-inf"))\n'
            "        P = torch.softmax(scores, dim=-1)\n",
            "            pass\n        P = torch.softmax(scores, dim=-1)\n"
            "        P = P * visible if causal else P\n",
            MASK_AFTER_SOFTMAX,
        ),
    ]


@pytest.fixture(scope="module")
def reports():
    """Each one-mistake answer graded by the student's own checks (no grader's variants)."""
    notebook = json.loads(NOTEBOOK.read_text())
    sources = {grade_id: text for grade_id, _, text in code_cells(notebook)}
    answers = []
    for cell, old, new, _ in _slips() + _ex5_slips():
        assert sources[cell].count(old) >= 1, old
        answers.append(({cell: sources[cell].replace(old, new)}, {cell.split("_")[0] + "_tests"}))
    return measure.graded_answers(NOTEBOOK, answers, variants=False)


@pytest.mark.parametrize(
    "index, case",
    list(enumerate(_slips() + _ex5_slips())),
    ids=lambda x: x if isinstance(x, int) else x[2][:40],
)
def test_a_one_mistake_answer_with_a_slip_of_the_family_is_named_by_it(reports, index, case):
    cell, _, _, description = case
    ((score, report, _),) = reports[index].values()
    assert score is not None and score < 3, report
    assert f"This matches {description}." in report.replace("\n  ", " "), report


def test_a_backward_pass_one_gradient_short_is_explained_in_the_functions_words():
    # Named in grading by the mutant that returns a tuple one value short; explained anywhere.
    from course_checks import errors

    class OneShort(torch.autograd.Function):
        @staticmethod
        def forward(ctx, Q, causal):
            return 2 * Q

        @staticmethod
        def backward(ctx, grad):
            return 2 * grad  # the gradient of Q, but no None for `causal`

    with pytest.raises(RuntimeError) as raised:
        OneShort.apply(torch.ones(3, requires_grad=True), True).sum().backward()
    cause = errors.explain("RuntimeError", str(raised.value))
    assert "`OneShort.backward` returned one value too few" in cause and "`None`" in cause, cause


def test_exercise_5_names_a_slip_in_the_function_that_makes_it():
    # The checks run both functions: a name offered to both would be refuted by the one
    # that has no slip (its checks pass where the name's value fails).
    Q, K, V, dO = qkv(3, 6, 6)
    plain, flash = (
        set(misconceptions.attention_function(Q, K, V, dO, True, tiled=tiled))
        for tiled in (False, True)
    )
    assert ignores_causal(False) in plain - flash and ignores_causal(True) in flash - plain
    assert MASK_AFTER_SOFTMAX in plain - flash and FORWARD_WITHOUT_CAUSAL in flash - plain
    assert any(name.startswith("AttentionFunction.backward returning") for name in plain - flash)
    assert any(name.startswith("FlashAttention.backward returning") for name in flash - plain)
