"""One-parameter families of a reference answer (autograder/mutation/families.py): a wrong
number is fitted and said in the student's terms."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from conftest import grading_with

from autograder.mutation import candidates, free_numbers
from autograder.mutation.variants import VariantAnswers
from course_checks import naming
from course_checks.checking import Checks

ATTENTION = '''def attention(Q, K, V):
    """Q: (..., T, d_k), K: (..., S, d_k), V: (..., S, d_v)  ->  (..., T, d_v)"""
    ### BEGIN SOLUTION
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    return torch.softmax(scores, dim=-1) @ V
    ### END SOLUTION
'''


def notebook(solution: str) -> dict:
    def cell(grade_id, text, **meta):
        return {
            "cell_type": "code",
            "source": text,
            "metadata": {"nbgrader": {"grade_id": grade_id, **meta}},
        }

    return {
        "cells": [
            cell("setup", "import math\nimport torch"),
            cell("ex1_attention", solution, solution=True),
            cell("ex1_tests", 'checks = Checks("Exercise 1 · attention", points=1)', grade=True),
        ]
    }


def report_for(student, capsys, monkeypatch) -> str:
    """The checks' report on ``student``, with the grader's variants on: two checks whose
    number of queries differs from the number of keys and from d_k."""
    grading_with(monkeypatch, variants=VariantAnswers(notebook(ATTENTION)))
    monkeypatch.setattr(naming, "VARIANT_SECONDS", 60.0)  # a busy machine must not matter
    checks = Checks("Exercise 1 · attention", points=1)
    g = torch.Generator().manual_seed(0)
    namespace = {"attention": student}
    for t, s, d in ((5, 7, 4), (3, 6, 9)):
        namespace.update(
            Q=torch.randn(2, t, d, generator=g),
            K=torch.randn(2, s, d, generator=g),
            V=torch.randn(2, s, 3, generator=g),
        )
        code = eval("lambda: attention(Q, K, V)", namespace)  # noqa: S307 - a check's lambda
        checks.close(
            f"T = {t}",
            code,
            F.scaled_dot_product_attention(namespace["Q"], namespace["K"], namespace["V"]),
        )
    checks.score()
    return capsys.readouterr().out


def test_a_wrong_size_is_fitted_and_said_with_the_docstrings_symbols(capsys, monkeypatch):
    def student(Q, K, V):  # √(number of queries) where √d_k belongs
        return torch.softmax(Q @ K.mT / math.sqrt(Q.shape[-2]), dim=-1) @ V

    report = report_for(student, capsys, monkeypatch)
    assert (
        "This matches an answer that divides by √`Q.shape[-2]` (√T, the number of queries "
        "(tokens): √5 ≈ 2.236 here) where `math.sqrt(Q.shape[-1])` (2 here) belongs."
    ) in report


def test_a_hard_coded_number_is_fitted_and_measured_not_named(capsys, monkeypatch):
    def student(Q, K, V):  # a divisor that is no size of these inputs
        return torch.softmax(Q @ K.mT / 7.5, dim=-1) @ V

    report = report_for(student, capsys, monkeypatch)  # measured, not named
    assert "This matches" not in report
    assert (
        "Measured: your results are those of an answer that divides by 7.5 where "
        "`math.sqrt(Q.shape[-1])`" in report
    )


def test_an_answer_no_member_explains_is_not_named(capsys, monkeypatch):
    def student(Q, K, V):  # the right divisor for the first check only
        return torch.softmax(Q @ K.mT / 2, dim=-1) @ V * (1 + 0.1 * (Q.shape[-2] == 3))

    assert "This matches" not in report_for(student, capsys, monkeypatch)


def test_free_numbers_and_docstring_symbols_are_found():
    text, sites = free_numbers.instrument(ATTENTION)
    assert "__free__(0, math.sqrt(Q.shape[-1]))" in text
    assert [(s.verb, s.code) for s in sites] == [("divides by", "`math.sqrt(Q.shape[-1])`")]
    namespace: dict = {"math": math, "torch": torch}
    exec(ATTENTION, namespace)  # noqa: S102 - the test's own answer
    symbols = candidates.docstring_symbols(namespace, ["attention"])
    assert symbols[("Q", -2)] == "T" and symbols[("K", -2)] == "S" and symbols[("V", -1)] == "d_v"
