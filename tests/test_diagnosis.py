"""What a wrong value is, measured (course_checks.diagnosis), and PyTorch's errors translated
(course_checks.errors): the parts of feedback that need no reference code."""

from __future__ import annotations

import linecache
import math

import pytest
import torch

from course_checks import diagnosis, errors
from course_checks.checking import Checks

G = torch.Generator().manual_seed(0)
Q, K, V = (
    torch.randn(2, 5, 4, generator=G),
    torch.randn(2, 5, 4, generator=G),
    torch.randn(2, 5, 3, generator=G),
)
SIZES = diagnosis.sizes_of([("Q", Q), ("K", K), ("V", V), ("n_heads", 7)])
RIGHT = torch.softmax(Q @ K.mT / 2, -1) @ V


def test_sizes_are_traced_to_the_inputs_that_have_them():
    assert SIZES == {
        2: "`Q.shape[0]`",
        5: "`Q.shape[-2]`",
        4: "`Q.shape[-1]`",
        3: "`V.shape[-1]`",
        7: "`n_heads`",
    }


@pytest.mark.parametrize(
    "got, expected, words",
    [
        ((2, 1, 5, 3), (2, 5, 3), "one extra axis of size 1 at position 1"),
        ((2, 7, 5, 3), (2, 5, 3), "an extra axis of size 7, `n_heads` at position 1"),
        ((2, 3), (2, 5, 3), "Axis 1 (size 5, `Q.shape[-2]`) is missing"),
        ((2, 3, 5), (2, 5, 3), "Axes 1 and 2 are swapped"),
        ((5, 2, 3, 4), (2, 3, 4, 5), "the right axes in another order"),
        ((2, 5, 4), (2, 5, 3), "Axis 2 has size 4, `Q.shape[-1]` where 3, `V.shape[-1]` belongs"),
    ],
)
def test_shapes_are_explained_axis_by_axis(got, expected, words):
    assert words in diagnosis.explain_shape(got, expected, SIZES)


@pytest.mark.parametrize(
    "got, words",
    [
        (
            RIGHT * 2 / math.sqrt(5),
            "times 0.8944 (√4/√5, where 4 is `Q.shape[-1]`, 5 is `Q.shape[-2]`)",
        ),
        (-RIGHT, "every sign flipped"),
        (RIGHT + 0.5, "plus 0.5 everywhere"),
        (RIGHT.flip(1), "in reverse order along axis 1"),
        (torch.roll(RIGHT, 1, 1), "moved 1 position later along axis 1"),
        (torch.roll(RIGHT, -1, 2), "moved 1 position earlier along the last axis"),
        (RIGHT.mean(0), "averaged over axis 0 (size 2, `Q.shape[0]`)"),
        (RIGHT.permute(0, 2, 1), "with axes 1 and 2 swapped"),
        (RIGHT.permute(2, 0, 1), "with the axes in the order (2, 0, 1)"),
        (torch.cat([RIGHT[:1], RIGHT[1:] + 1]), "right only at index 0 of axis 0 (of 2)"),
    ],
)
def test_a_wrong_value_is_measured_against_families_of_the_expected_one(got, words):
    measured = diagnosis.measure(got.double(), RIGHT.double(), SIZES)
    assert measured is not None and words in measured, measured


def test_a_row_and_its_table_moved_alike_are_measured_alike():
    """A shift along a table's last axis reads the same in one of its rows."""
    table, row = RIGHT.flatten(0, 1).T, RIGHT.flatten()
    for got, expected in ((table.roll(-2, 1), table), (row.roll(-2), row)):
        assert "moved 2 positions earlier along the last axis" in diagnosis.measure(
            got.double(), expected.double(), SIZES
        )


def test_masks_and_triangles_are_measured():
    causal = torch.ones(4, 4, dtype=torch.bool).tril()
    assert "every entry is inverted" in diagnosis.measure(
        (~causal).double(), causal.double(), dtype=torch.bool
    )
    weights = torch.softmax(torch.randn(4, 4, generator=G), -1)
    leaked = torch.where(causal, weights, torch.full_like(weights, 0.1))
    assert "only above the diagonal" in diagnosis.measure(leaked, weights)


def test_values_that_no_family_explains_are_not_measured():
    noise = RIGHT + 0.1 * torch.randn(RIGHT.shape, generator=G)
    assert diagnosis.measure(noise.double(), RIGHT.double(), SIZES) is None


@pytest.mark.parametrize(
    "code, words",
    [
        (lambda: torch.ones(2, 3) @ torch.ones(2, 3), "One side needs a transpose"),
        (lambda: torch.ones(2, 3) @ torch.ones(4, 3), "PyTorch stores a weight as (out, in)"),
        (lambda: torch.ones(5, 4) + torch.ones(4, 5), "4 is `Q.shape[-1]`, 5 is `Q.shape[-2]`"),
        (lambda: torch.ones(2, 3).view(4, 2), "multiply to 8, not 6"),
        (lambda: torch.ones(3).sum(2), "it has 1 axis"),
        (lambda: torch.multinomial(torch.tensor([float("nan"), 1.0]), 1), "temperature of 0"),
        (lambda: torch.ones(2) + (torch.ones(2), torch.ones(2)), "(output, weights)"),
        (lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 3)], 1), "the wrong axis"),
        (
            lambda: torch.nn.Linear(3, 4).load_state_dict({"w": torch.ones(1)}),
            "the checks look for weight, bias; your Linear has w instead",
        ),
        (lambda: torch.ones(3).masked_fill(torch.ones(3), 0), "not boolean"),
        (lambda: torch.softmax(torch.arange(3), 0), "`torch.arange(n)`"),
        (lambda: range(torch.tensor(2.0)), "`//` an int"),
        (lambda: bool(torch.ones(3)), "use `&`, `|`, `~`"),
    ],
)
def test_pytorch_errors_are_translated_to_their_usual_cause(code, words):
    with pytest.raises(Exception) as raised:
        code()
    cause = errors.explain(type(raised.value).__name__, str(raised.value), SIZES)
    assert words in cause, cause


def student_cell(source: str) -> dict:
    """A cell of student code, as IPython runs it: its lines where tracebacks find them."""
    name = "<ipython-input-7>"
    linecache.cache[name] = (len(source), None, source.splitlines(keepends=True), name)
    namespace = {"torch": torch}
    exec(compile(source, name, "exec"), namespace)  # noqa: S102 - the test's own code
    return namespace


def test_an_error_names_the_students_line_and_its_cause(capsys):
    scaled_scores = student_cell("def scaled_scores(q, k):\n    return q @ k.T / q.shape[1]\n")[
        "scaled_scores"
    ]
    checks = Checks("Exercise E", points=1)
    q = torch.ones(3, 4)
    checks.close("scores", lambda: scaled_scores(q, torch.ones(5, 3)), torch.ones(3, 5))
    checks.score()
    report = capsys.readouterr().out
    assert "in `scaled_scores`: `return q @ k.T / q.shape[1]`" in report
    assert "Usual cause: a matrix product of a (3, 4) by a (3, 5)" in report


def test_the_same_long_message_is_shown_once(capsys):
    checks = Checks("Exercise F", points=1)
    for size in (3, 4):
        checks.close(f"size {size}", lambda: torch.ones(2) @ torch.ones(3), torch.ones(1))
    checks.score()
    report = capsys.readouterr().out
    assert report.count("cannot be multiplied") + report.count("inconsistent") <= 1
    assert "the same as in “size 3”" in report


def test_an_error_the_checks_own_code_raises_names_no_line(capsys):
    checks = Checks("Exercise G", points=1)
    checks.true("a helper of the check fails", lambda: torch.ones(2) @ torch.ones(3), "hint")
    checks.score()
    assert "raised RuntimeError" in capsys.readouterr().out
    assert checks._naming.evidence[0].kind != "raised"  # no answer's error: it vetoes no name


def test_errors_on_sizes_that_follow_from_a_wrong_shape_still_let_it_be_named(capsys):
    # a mask built transposed: its own checks measure it, and the check that uses it
    # raises PyTorch's size error in the student's code
    ns = student_cell(
        "def mask(lengths, n):\n"
        "    return torch.arange(n)[:, None] < lengths[None, :]\n"
        "def use(lengths, n):\n"
        "    return torch.zeros(len(lengths), n).masked_fill(mask(lengths, n), 1)\n"
        "def use_badly(lengths, n):\n"
        "    return mask(lengths, n)[n + 5]\n"
    )

    def graded(user):
        checks = Checks("Exercise T", points=3)
        for lengths, n in ((torch.tensor([3, 5, 1]), 5), (torch.tensor([2, 1, 1, 4]), 7)):
            checks.close(
                f"lengths {lengths.tolist()}",
                lambda lens=lengths, n=n: ns["mask"](lens, n),
                torch.arange(n)[None, :] < lengths[:, None],
            )
        lengths = torch.tensor([1, 2])
        checks.close("used", lambda: user(lengths, 3), torch.zeros(2, 3))
        checks.score()
        return capsys.readouterr().out

    report = graded(ns["use"])
    assert "must match the size of tensor b" in report
    assert (
        "This matches an answer whose result is the expected one with axes 0 and 1 "
        "swapped" in report
    )
    # an error that is not about sizes may be another mistake: nothing is named
    assert "This matches" not in graded(ns["use_badly"])
