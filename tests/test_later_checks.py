"""An answer that passes its own exercise never makes a later exercise fail.

Later checks call earlier answers (a check cell's ``uses=``, or the student's own block of a
later exercise calling them): an earlier exercise's checks must try every kind of input a
later one passes, so that an honest answer written in another idiom either passes both or
fails where its mistake is, with the reason named, and never loses points twice. Each case is
such an answer, graded by the trusted checks with every other answer the reference's.
"""

from __future__ import annotations

import json

import pytest
from conftest import solution_path

from autograder.mutation import measure

# Each answer graded with a whole notebook's trusted checks: seconds each.
pytestmark = pytest.mark.slow

VIEW_BITS = """def bits_per_character(logits, targets):
    B, T, V = logits.shape
    loss = F.cross_entropy(logits.view(B * T, V), targets.view(B * T))
    return loss / math.log(2)
"""
VIEW_ROTARY = """def apply_rotary(x, positions, base=10000.0):
    shape, d = x.shape, x.shape[-1]
    flat = x.view(-1, shape[-2], d)
    i = torch.arange(d // 2, device=x.device)
    angles = positions.to(x.device)[:, None] * base ** (-2 * i / d)
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    even, odd = flat[..., 0::2], flat[..., 1::2]
    out = torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1)
    return out.view(shape)


def rotary_attention(q, k, v):
    positions = torch.arange(q.shape[-2], device=q.device)
    return F.scaled_dot_product_attention(apply_rotary(q, positions), apply_rotary(k, positions),
                                          v, is_causal=True)
"""
VIEW_GQA = """def grouped_query_attention(q, k, v, mask=None):
    B, H, T, d = q.shape
    n = H // k.shape[1]
    k, v = k.repeat_interleave(n, dim=1), v.repeat_interleave(n, dim=1)
    S = k.shape[-2]
    scores = (q.view(B * H, T, d) @ k.view(B * H, S, d).transpose(1, 2)).view(B, H, T, S)
    scores = scores / math.sqrt(d)
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores.softmax(dim=-1) @ v
"""
# (notebook, {grade id: answer}, its own test cell, the later test cells that call it)
CASES = {
    # nanoGPT's idiom: .view needs contiguous logits and targets
    "08 bits_per_character with .view": (
        "08_language_model",
        {"ex6_bits_per_character": VIEW_BITS},
        "ex6_tests",
        ["ex7_tests"],
    ),
    # exercise 5 turns the heads split_heads returns, transposed views
    "09 apply_rotary with .view": (
        "09_modern_decoder",
        {"ex2_rotary": VIEW_ROTARY},
        "ex2_tests",
        ["ex5_tests"],
    ),
    "09 grouped_query_attention with .view": (
        "09_modern_decoder",
        {"ex4_gqa": VIEW_GQA},
        "ex4_tests",
        ["ex5_tests"],
    ),
}


def _points(assignment: str) -> dict[str, float]:
    notebook = json.loads(solution_path(assignment).read_text())
    return {
        c["metadata"]["nbgrader"]["grade_id"]: float(c["metadata"]["nbgrader"]["points"])
        for c in notebook["cells"]
        if c["metadata"].get("nbgrader", {}).get("grade")
    }


@pytest.mark.parametrize("case", list(CASES))
def test_an_answer_in_another_idiom_never_loses_points_twice(case):
    assignment, answers, own, later = CASES[case]
    reports = measure.feedback(solution_path(assignment), answers)
    points = _points(assignment)
    if reports[own][0] == points[own]:
        for cell in later:
            assert reports[cell][0] == points[cell], reports[cell][1]
    else:  # it fails where its mistake is, and says why
        assert "use `.reshape`" in reports[own][1], reports[own][1]
