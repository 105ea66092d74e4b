"""Demo cells that run while an exercise is unfinished: the course's column-vector attention
(notebook 01's reference) and the switch from a student's function to it."""

from __future__ import annotations

import torch

from course_checks.fallback import yours_or_ours
from transformer_course import columns, examples


def test_notebook_01s_reference_gives_the_sources_numbers():
    xs, p = examples.column_vectors(), examples.projection_parameters()
    outputs = columns.self_attention(xs, p["W_q"], p["b_q"], p["W_k"], p["b_k"], p["W_v"], p["b_v"])
    assert len(outputs) == 3 and outputs[0].shape == (4, 1)
    expected = torch.tensor([[0.2117], [1.0697], [-3.3355], [-4.9260]])
    torch.testing.assert_close(outputs[0], expected, atol=1e-4, rtol=0)
    weights = columns.attention_weights(xs, xs)
    torch.testing.assert_close(weights.sum(dim=1), torch.ones(3))


def test_a_working_answer_is_used_and_an_unfinished_one_falls_back_once(capsys):
    def project(W, b, x):
        raise NotImplementedError()

    def score(q, k):
        return torch.tensor(7.0)

    project_ = yours_or_ours(project, columns.project, "exercise 1")
    W, b, x = torch.eye(2), torch.ones(2, 1), torch.tensor([[1.0], [2.0]])
    assert torch.equal(project_(W, b, x), W @ x + b)
    assert torch.equal(project_(W, b, x), W @ x + b)
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "`project` is not finished yet" in said
    assert "Finish exercise 1 to see yours" in said
    assert yours_or_ours(score, columns.score, "exercise 2")(x, x).item() == 7.0
    assert capsys.readouterr().out == ""


def test_an_answer_that_raises_is_named_with_its_error(capsys):
    def score(q, k):
        return q @ k  # (2, 1) @ (2, 1): a shape error

    x = torch.ones(2, 1)
    value = yours_or_ours(score, columns.score, "exercise 2")(x, x)
    assert abs(value.item() - 2 / 2**0.5) < 1e-6
    assert "`score` raised RuntimeError" in capsys.readouterr().out


def test_a_demo_uses_the_students_function_only_once_its_exercise_passed(capsys, monkeypatch):
    from course_checks import selfcheck
    from course_checks.checking import Checks
    from course_checks.fallback import yours_if_passed

    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    selfcheck.forget()

    def mine(x):
        return x

    def course(x):
        return -x

    assert yours_if_passed(mine, course, "Exercise 2") is course  # its checks never ran
    assert "the course's `mine`: your Exercise 2 has not passed" in capsys.readouterr().out
    for answer in (course, mine):  # first a failing answer, then a passing one
        checks = Checks("Exercise 2 · mine", points=1)
        checks.close("identity", lambda a=answer: a(torch.ones(2)), torch.ones(2))
        checks.score()
        passed_now = answer is mine
        assert (yours_if_passed(mine, course, "Exercise 2") is mine) is passed_now
    assert "your `mine`: Exercise 2 passed its checks" in capsys.readouterr().out
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert yours_if_passed(mine, course, "Exercise 2") is course
    assert "While grading" in capsys.readouterr().out
    selfcheck.forget()
