"""The checking helpers: clear messages, named misconceptions, points, and silence."""

from __future__ import annotations

import linecache
import math
import warnings

import pytest
import torch
from conftest import grading_with

from course_checks import misconceptions
from course_checks.checking import Checks, compare
from transformer_course.decoder import causal_mask
from transformer_course.positional import rotation, sinusoidal_table
from transformer_course.transformer import shift_right

G = torch.Generator().manual_seed(0)
Q, K, V, X = (torch.randn(4, 5, generator=G) for _ in range(4))
CORRECT = torch.softmax(Q @ K.T / math.sqrt(5), dim=-1) @ V


def test_a_correct_answer_passes_in_any_dtype_and_layout():
    assert compare(CORRECT, CORRECT) is None
    assert compare(CORRECT.double(), CORRECT) is None
    assert compare(CORRECT.T.contiguous().T, CORRECT) is None
    assert compare(2.0, torch.tensor(2.0)) is None


@pytest.mark.parametrize(
    "got, expected_words",
    [
        (None, "forget to `return`"),
        ([1.0, 2.0], "should be a torch.Tensor but is a list"),
        (CORRECT.T, "rows and columns are swapped"),
        (CORRECT.reshape(2, 10), "Same number of entries"),
        (torch.full((4, 5), float("nan")), "contains NaN in 20 of 20 entries"),
        (CORRECT + torch.eye(4, 5), "largest difference 1"),
    ],
)
def test_messages_say_what_is_wrong(got, expected_words):
    message = compare(got, CORRECT)
    assert message is not None and expected_words in message


def test_the_largest_difference_is_located():
    wrong = CORRECT.clone()
    wrong[2, 3] += 0.5
    message = compare(wrong, CORRECT)
    assert "at index [2, 3]" in message and f"expected {float(CORRECT[2, 3]):.4f}" in message


@pytest.mark.parametrize("description, wrong", list(misconceptions.attention(Q, K, V, X).items()))
def test_every_attention_misconception_is_named(description, wrong):
    assert compare(wrong, CORRECT, misconceptions=misconceptions.attention(Q, K, V, X)).endswith(
        f"This matches {description}."
    )


@pytest.mark.parametrize(
    "variants, correct",
    [
        (misconceptions.score(Q[0], K[0]), Q[0] @ K[0] / math.sqrt(5)),
        (misconceptions.softmax(Q[0]), torch.softmax(Q[0], 0)),
        (misconceptions.softmax(Q), torch.softmax(Q, -1)),
        (misconceptions.attention_weights(Q, K), torch.softmax(Q @ K.T / math.sqrt(5), -1)),
        (
            misconceptions.weighted_sum(torch.softmax(Q[0, :4], 0), V),
            torch.softmax(Q[0, :4], 0) @ V,
        ),
        (misconceptions.projection(Q[:, :4], K[:, :1], V[:4, :1]), Q[:, :4] @ V[:4, :1] + K[:, :1]),
        (misconceptions.pe_table(12, 8), sinusoidal_table(12, 8)),
        (misconceptions.rotation(3, 8, rotation(3, 8)), rotation(3, 8)),
        (
            misconceptions.layer_norm(0.01 * Q, K[0] + 2, V[0]),
            torch.nn.functional.layer_norm(0.01 * Q, (5,), K[0] + 2, V[0]),
        ),
        (misconceptions.causal_mask(5), causal_mask(5)),
        (
            misconceptions.causal_attention(Q, K, V),
            torch.nn.functional.scaled_dot_product_attention(Q, K, V, is_causal=True),
        ),
        (misconceptions.shift_right(X.long(), 9), shift_right(X.long(), 9)),
    ],
)
def test_no_misconception_equals_the_correct_answer(variants, correct):
    for description, wrong in variants.items():
        if "maximum" in description:
            continue  # equals softmax on ordinary scores by design; differs only on overflow
        assert compare(wrong, correct) is not None, description


def test_no_cross_attention_misconception_equals_the_correct_answer():
    torch.manual_seed(0)
    to_q, to_k, to_v = (torch.nn.Linear(5, 3) for _ in range(3))
    x, memory = Q[None], torch.randn(1, 6, 5)  # 4 decoder tokens, 6 source tokens
    with torch.no_grad():
        correct = torch.nn.functional.scaled_dot_product_attention(
            to_q(x), to_k(memory), to_v(memory)
        )
    for description, wrong in misconceptions.cross_attention(x, memory, to_q, to_k, to_v).items():
        assert compare(wrong, correct) is not None, description


def output_of(result):
    # how the test cells of the exercises that return (output, weights) read the output
    return result[0] if isinstance(result, (tuple, list)) else result


def attention_in_the_wrong_order(Q, K, V, mask=None):
    scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return weights, weights @ V  # should be (output, weights)


PADDING = torch.tensor([True, True, False, True]).expand(4, 4)
CAUSAL = torch.ones(4, 4, dtype=torch.bool).tril()


@pytest.mark.parametrize(
    "mask, variants",
    [
        (None, misconceptions.attention(Q, K, V)),
        (PADDING, misconceptions.masked_attention(Q, K, V, PADDING)),
        (CAUSAL, misconceptions.causal_attention(Q, K, V)),
    ],
)
def test_a_pair_returned_in_the_wrong_order_is_named(mask, variants):
    expected = torch.nn.functional.scaled_dot_product_attention(Q, K, V, attn_mask=mask)
    got = output_of(attention_in_the_wrong_order(Q, K, V, mask))
    message = compare(got, expected, misconceptions=variants)
    assert message.endswith(
        "This matches the pair returned in the wrong order: (weights, output) instead of "
        "(output, weights)."
    )


def test_a_cross_attention_pair_in_the_wrong_order_is_named():
    torch.manual_seed(0)
    to_q, to_k, to_v = (torch.nn.Linear(5, 3) for _ in range(3))
    x, memory = Q[None], torch.randn(1, 6, 5)
    with torch.no_grad():
        q, k, v = to_q(x), to_k(memory), to_v(memory)
        swapped = attention_in_the_wrong_order(q, k, v)
        variants = misconceptions.cross_attention(x, memory, to_q, to_k, to_v)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    message = compare(output_of(swapped), expected, misconceptions=variants)
    assert message.endswith(f"This matches {misconceptions.WRONG_ORDER}.")


def test_self_attention_without_a_pair_is_not_told_about_one():
    # notebook 01's and 02's self-attention return the output alone: no pair to swap
    assert misconceptions.WRONG_ORDER not in misconceptions.attention(Q, K, V, X)


def test_overflow_is_diagnosed():
    large = torch.tensor([1000.0, 1001.0, 1002.0])
    naive = torch.exp(large) / torch.exp(large).sum()
    message = compare(naive, torch.softmax(large, 0), misconceptions=misconceptions.softmax(large))
    assert "contains NaN" in message and "without subtracting the maximum" in message


def test_checks_award_points_for_the_share_passed(capsys):
    checks = Checks("Exercise X", points=3)
    checks.close("right", lambda: CORRECT, CORRECT)
    checks.close("wrong", lambda: CORRECT + 1, CORRECT)
    checks.true("a truth", lambda: True, "never shown")
    assert checks.score() == 2.0
    report = capsys.readouterr().out
    assert "Exercise X: 2 of 3 checks passed" in report and "✗ wrong" in report


def test_student_errors_become_feedback_not_crashes(capsys):
    def unfinished():
        raise NotImplementedError()

    def broken():
        return torch.ones(2) @ torch.ones(3)

    checks = Checks("Exercise Y", points=2)
    assert not checks.close("unfinished", unfinished, CORRECT)
    assert not checks.close("broken", broken, CORRECT)
    assert checks.score() == 0.0
    report = capsys.readouterr().out
    assert "not attempted yet" in report and "raised RuntimeError" in report


def test_a_correct_cell_writes_nothing_to_stderr_even_when_student_code_warns(capsys):
    def noisy():
        warnings.warn("something harmless", UserWarning, stacklevel=1)
        import sys

        print("debug output", file=sys.stderr)
        return CORRECT

    checks = Checks("Exercise Z", points=1)
    checks.close("noisy but right", noisy, CORRECT)
    assert checks.score() == 1.0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "something harmless" in captured.out and "debug output" in captured.out


def test_a_correct_float_of_a_loss_is_not_reported_as_a_warning(capsys):
    def loss_as_float():
        x = torch.ones(3, requires_grad=True)
        return float((2 * x).sum())  # PyTorch warns about the graph; the answer is right

    checks = Checks("Exercise F", points=1)
    checks.true("a float", lambda: loss_as_float() == 6.0, "")
    assert checks.score() == 1.0
    report = capsys.readouterr().out
    assert "warning" not in report.lower() and "requires_grad" not in report


def test_rebinding_torch_allclose_does_not_fool_the_checks(monkeypatch):
    monkeypatch.setattr(torch, "allclose", lambda *args, **kwargs: True)
    assert compare(CORRECT + 1, CORRECT) is not None


def test_mixed_dtypes_get_a_hint_and_dependencies_are_named(capsys):
    from course_checks import selfcheck

    selfcheck.forget()  # no exercise 3 passed in this process, whatever ran before
    checks = Checks("Exercise W", points=1, uses="your `softmax` (exercise 3)")
    checks.close("mixed", lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64), CORRECT)
    assert checks.score() == 0.0
    report = capsys.readouterr().out
    assert "float32 and float64 tensors were mixed" in report
    assert "these checks call your `softmax` (exercise 3)" in report


def test_the_dependency_note_appears_only_when_that_exercise_is_not_passing(capsys):
    from course_checks import selfcheck

    selfcheck.forget()
    passing = Checks("Exercise 3 · softmax", points=1)
    passing.close("fine", lambda: CORRECT, CORRECT)
    passing.score()
    later = Checks("Exercise 4 · later", points=1, uses="your `softmax` (exercise 3)")
    later.close("wrong", lambda: CORRECT + 1, CORRECT)
    later.score()
    assert "these checks call" not in capsys.readouterr().out
    failing = Checks("Exercise 3 · softmax", points=1)
    failing.close("wrong", lambda: CORRECT + 1, CORRECT)
    failing.score()
    later = Checks("Exercise 4 · later", points=1, uses="your functions from exercises 1 to 5")
    later.close("wrong", lambda: CORRECT + 1, CORRECT)
    later.score()
    assert "these checks call your functions from exercises 1 to 5" in capsys.readouterr().out
    selfcheck.forget()


def change_in_place(x):
    x -= x.max()
    return x.exp() / x.exp().sum()


def test_an_input_changed_in_place_fails_its_check_and_is_put_back(capsys):
    z = torch.tensor([1.0, 2.0, 3.0])
    checks = Checks("Exercise I", points=1)
    checks.close("in place", lambda: change_in_place(z), torch.softmax(z, 0))
    assert checks.score() == 0.0
    assert "your function changed its input `z` in place" in capsys.readouterr().out
    assert torch.equal(z, torch.tensor([1.0, 2.0, 3.0]))  # the next check sees the original


def test_tiny_numbers_print_with_the_digits_that_tell_them_apart():
    message = compare(torch.tensor([1.0e-7]), torch.tensor([1.2e-7]), atol=0, rtol=1e-6)
    assert "expected 1.2e-07, got 1.0e-07" in message
    assert "0.0000" not in message


def test_warnings_printed_before_an_error_are_kept(capsys):
    def warns_then_fails():
        warnings.warn("torch.foo is deprecated, use torch.bar", DeprecationWarning, stacklevel=1)
        raise RuntimeError("shapes do not match")

    checks = Checks("Exercise D", points=1)
    checks.close("fails", warns_then_fails, CORRECT)
    checks.score()
    report = capsys.readouterr().out
    assert "DeprecationWarning: torch.foo is deprecated" in report
    assert "raised RuntimeError: shapes do not match" in report


def test_the_grader_names_the_variant_answer_a_wrong_answer_matches(capsys, monkeypatch):

    # The reference divides by sqrt(d) = 4; this student divides by d = 16.
    variants = [
        ("multiplies instead", {"scale": lambda x: x * 4}),
        ("divides by `d` instead of its square root", {"scale": lambda x: x / 16}),
    ]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    namespace = {"scale": lambda x: x / 16}
    checks = Checks("Exercise V", points=1)
    for value in (torch.ones(3), torch.arange(3.0)):  # each check rebinds x, as cells do
        namespace["x"] = value
        code = eval("lambda: scale(x)", namespace)  # noqa: S307 - a test cell's lambda
        checks.close(f"x = {value.tolist()}", code, value / 4)
    checks.score()
    assert (
        "This matches an answer that divides by `d` instead of its square root."
        in capsys.readouterr().out
    )


def test_a_variant_that_never_ends_is_stopped_within_the_naming_time(capsys, monkeypatch):
    """Found writing notebook 09's byte-pair encoding: a mutant of a `while` loop whose step
    was rewritten never ends, and the grader, which runs the variants in its own process,
    waited for it. Each variant now runs under the naming's limit of CPU time, so the check
    ends and reports (naming stops there: the time for it is spent)."""
    import time

    from course_checks import naming

    monkeypatch.setattr(naming, "VARIANT_SECONDS", 1.0)

    def forever(x):
        while True:
            x = x + 0

    grading_with(monkeypatch, variants=lambda exercise: [("loops for ever", {"scale": forever})])
    namespace = {"scale": lambda x: x / 16, "x": torch.ones(3)}
    checks = Checks("Exercise V", points=1)
    started = time.monotonic()
    checks.close(
        "x = [1, 1, 1]",
        eval("lambda: scale(x)", namespace),  # noqa: S307
        torch.ones(3) / 4,
    )
    assert checks.score() == 0
    assert time.monotonic() - started < 30
    assert "0 of 1 checks passed" in capsys.readouterr().out


def test_of_variants_alike_on_every_check_the_one_the_answers_calls_side_with_comes_first(
    capsys, monkeypatch
):
    from autograder.mutation.variants import Variant

    # Masking after the softmax, or not masking at all, give the same weights; the answer
    # makes no `masked_fill` call, so the step left out is named, not the order.
    reference = (
        "def weights(s, m):\n    s = s.masked_fill(m, -1e9)\n    return torch.softmax(s, -1)\n"
    )
    unmasked = {"weights": lambda s, m: torch.softmax(s, -1)}
    variants = [
        Variant(
            "runs the softmax before the mask",
            unmasked,
            "def weights(s, m):\n"
            "    p = torch.softmax(s, -1)\n    s = s.masked_fill(m, -1e9)\n    return p\n",
            reference,
        ),
        Variant(
            "leaves out the mask",
            unmasked,
            "def weights(s, m):\n    return torch.softmax(s, -1)\n",
            reference,
        ),
    ]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    answer = "def weights(s, m):\n    return torch.softmax(s, dim=-1)\n"
    both = "runs the softmax before the mask, or one that leaves out the mask."
    for source, named in ((answer, "leaves out the mask."), (None, both)):
        grading_with(monkeypatch, source=lambda exercise, s=source: s)
        namespace = {
            "weights": unmasked["weights"],
            "s": torch.arange(4.0).reshape(2, 2),
            "m": torch.tensor([[False, True], [False, False]]),
        }
        checks = Checks("Exercise W", points=1)
        checks.close(
            "a masked row",
            eval("lambda: weights(s, m)", namespace),  # noqa: S307
            torch.softmax(namespace["s"].masked_fill(namespace["m"], -1e9), -1),
        )
        checks.score()
        assert f"This matches an answer that {named}" in capsys.readouterr().out


def test_a_variant_stands_in_for_an_answer_passed_to_a_helper(capsys, monkeypatch):

    # The check cell hands the student's function to a helper, so the lambda holds it in
    # a closure: every variant must replace it there too, or any variant "matches".
    variants = [
        ("multiplies instead", {"scale": lambda x: x * 4}),
        ("divides by `d` instead of its square root", {"scale": lambda x: x / 16}),
    ]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    namespace = {
        "scale": lambda x: x / 16,
        "checks": Checks("Exercise V", points=1),
        "torch": torch,
    }
    exec(  # noqa: S102 - a test cell's code
        "def check(where, function, x):\n"
        "    checks.close(where, lambda: function(x), x / 4)\n"
        "for value in (torch.ones(3), torch.arange(3.0)):\n"
        "    check(f'x = {value.tolist()}', scale, value)\n",
        namespace,
    )
    namespace["checks"].score()
    assert (
        "This matches an answer that divides by `d` instead of its square root."
        in capsys.readouterr().out
    )


def test_a_variant_with_the_same_numbers_in_another_kind_is_no_match(capsys, monkeypatch):

    # the student's ids come back as floats; a variant that gives the same ids as integers
    # (here: the reference itself, written another way) does not explain that
    variants = [("takes `torch.cat` over another axis", {"ids": lambda n: torch.arange(n)})]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    namespace = {"ids": lambda n: torch.arange(n).float()}
    checks = Checks("Exercise K", points=1)
    for n in (3, 5):
        checks.close(
            f"n = {n}",
            eval(f"lambda: ids({n})", namespace),  # noqa: S307
            torch.arange(n),
        )
    checks.score()
    report = capsys.readouterr().out
    assert "as floats" in report and "torch.cat" not in report
    # what it is instead: the right numbers, measured to be of another kind
    assert (
        "This matches an answer whose numbers are right, but come as torch.float32 where "
        "torch.int64 is expected."
    ) in report


def test_shapes_are_written_as_python_writes_them():
    message = compare(torch.zeros(3), torch.zeros(4), "the result")
    assert "has shape (3,) but should have shape (4,)" in message, message
    assert "shape () but" in compare(torch.tensor(1.0), torch.zeros(2, 2), "the result")


# --- no wrong names: a mistake is named only when it explains every check ---------------------

HALF = {"the values halved": 0.5 * CORRECT}
_CELL = "<ipython-input-3>"  # student code, as IPython compiles a cell
_BROKEN = "def broken():\n    return torch.ones(2) @ torch.ones(3)\n"
linecache.cache[_CELL] = (len(_BROKEN), None, _BROKEN.splitlines(keepends=True), _CELL)
_namespace = {"torch": torch}
exec(compile(_BROKEN, _CELL, "exec"), _namespace)  # noqa: S102 - the test's own code
BROKEN = _namespace["broken"]


def test_a_misconception_is_named_when_it_explains_every_check(capsys):
    checks = Checks("Exercise N", points=2)
    checks.close("first", lambda: 0.5 * CORRECT, CORRECT, misconceptions=HALF)
    checks.close("second", lambda: 0.5 * CORRECT, CORRECT, misconceptions=HALF)
    checks.score()
    assert "This matches the values halved." in capsys.readouterr().out


@pytest.mark.parametrize(
    "second, expected, offered",
    [
        (lambda: 0.25 * CORRECT, CORRECT, HALF),  # failed differently where it was offered
        (lambda: CORRECT, CORRECT, HALF),  # passed where the mistake would have failed
        (lambda: BROKEN(), CORRECT, None),  # the answer's own code raised
    ],
)
def test_a_misconception_that_one_check_contradicts_is_not_named(capsys, second, expected, offered):
    checks = Checks("Exercise N", points=2)
    checks.close("first", lambda: 0.5 * CORRECT, CORRECT, misconceptions=HALF)
    checks.close("second", second, expected, misconceptions=offered)
    checks.score()
    report = capsys.readouterr().out
    assert "This matches" not in report
    assert "Measured: your result is the expected one times 0.5" in report  # still measured


def test_a_variant_must_agree_with_the_truth_checks_too(capsys, monkeypatch):

    variants = [
        ("doubles", {"scale": lambda x: x * 2}),
        ("doubles and never returns a tensor", {"scale": lambda x: (x * 2).tolist()}),
    ]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    namespace = {"scale": lambda x: x * 2, "x": torch.arange(3.0), "torch": torch}
    checks = Checks("Exercise T", points=2)
    checks.close("x", eval("lambda: scale(x)", namespace), namespace["x"])  # noqa: S307
    checks.true(
        "a tensor",
        eval(  # noqa: S307 - a test cell's code
            "lambda: isinstance(scale(x), torch.Tensor)",
            namespace,
        ),
        "return a tensor",
    )
    checks.score()
    report = capsys.readouterr().out
    assert "This matches an answer that doubles." in report


def test_variants_that_only_fail_the_same_truth_are_named_only_when_one_or_two_are_left(
    capsys, monkeypatch
):
    """A failed truth tells few mistakes apart: the one or two variants left are named (two
    as alternatives the checks cannot tell apart), three or more are not."""

    namespace = {"head": lambda xs: xs[:1], "xs": [1, 2, 3]}
    one = [("keeps the first item only", {"head": lambda xs: xs[:1]})]
    two = one + [("keeps the last item only", {"head": lambda xs: xs[-1:]})]
    three = two + [("keeps no item", {"head": lambda xs: xs[:0]})]
    for variants, named in (
        (one, "an answer that keeps the first item only."),
        (two, "an answer that keeps the first item only, or one that keeps the last item only."),
        (three, None),
    ):
        grading_with(monkeypatch, variants=lambda exercise, v=variants: v)
        checks = Checks("Exercise L", points=1)
        checks.true(
            "two items",
            eval("lambda: len(head(xs)) == 2", namespace),  # noqa: S307
            "return two items",
        )
        checks.score()
        report = capsys.readouterr().out
        if named:
            assert f"This matches {named}" in report
        else:
            assert "This matches" not in report


def test_a_bare_error_beside_a_failed_truth_does_not_keep_a_variant_from_its_name(
    capsys, monkeypatch
):
    """A list one item short fails "how many" and then raises "list index out of range":
    the error follows from the truth, so the one variant left is still named; the same
    bare error alone names nothing."""

    namespace = {"head": lambda xs: xs[:1], "xs": [1, 2, 3]}
    variants = [("keeps the first item only", {"head": lambda xs: xs[:1]})]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    for truth in (True, False):
        checks = Checks("Exercise L", points=1)
        if truth:
            checks.true(
                "two items",
                eval("lambda: len(head(xs)) == 2", namespace),  # noqa: S307
                "return two items",
            )
        checks.close(
            "the second item",
            eval("lambda: head(xs)[1]", namespace),  # noqa: S307
            torch.tensor(2),
        )
        checks.score()
        assert (
            "This matches an answer that keeps the first item only" in capsys.readouterr().out
        ) is truth


def test_variants_are_matched_with_what_a_check_read_inside_a_nested_lambda(capsys, monkeypatch):
    """The checks passed before the first failure are replayed for the variants with the
    inputs they had, also those read by a lambda inside the check's lambda (`expected`,
    rebound by a later check): else the variant fails a check it passes and goes unnamed."""

    namespace = {"half": lambda x: x / 4, "x": torch.tensor([2.0]), "expected": torch.tensor([1.0])}
    variants = [("halves twice", {"half": lambda x: x / 4})]
    grading_with(monkeypatch, variants=lambda exercise: variants)
    checks = Checks("Exercise N", points=1)
    checks.true(
        "the shape of x",
        eval(  # noqa: S307
            "lambda: (lambda r: r.shape == expected.shape)(half(x))", namespace
        ),
        "keep the shape",
    )
    namespace["expected"] = torch.tensor([1.0, 1.0])  # rebound before the next check
    checks.close("half of x", eval("lambda: half(x)", namespace), torch.tensor([1.0]))  # noqa: S307
    checks.score()
    assert "This matches an answer that halves twice." in capsys.readouterr().out


def test_a_family_that_several_numbers_fit_names_none(capsys, monkeypatch):
    """Any exponent above 0 makes `min` pick the other term: the number is not pinned down
    (`d`, √`d` and minus -0.5 all fit)."""
    from autograder.mutation.families import families

    source = (
        "def rate(n, d=2):\n    ### BEGIN SOLUTION\n    return min(n ** -0.5, n * 0.01)\n"
        "    ### END SOLUTION\n"
    )
    found = families(source, {}, ["rate"])
    grading_with(monkeypatch, variants=lambda exercise: found)
    namespace = {"rate": lambda n, d=2: n * 0.01, "torch": torch}
    checks = Checks("Exercise R", points=1)
    checks.close(
        "n = 100, 400",
        eval(  # noqa: S307 - a test cell's code
            "lambda: torch.tensor([rate(100), rate(400)])",
            namespace,
        ),
        torch.tensor([0.1, 0.05]),
    )
    checks.score()
    assert "This matches" not in capsys.readouterr().out


def test_what_every_failed_check_measured_alike_is_named(capsys):
    checks = Checks("Exercise M", points=2)
    for size in (3, 4):
        x = torch.randn(size, size + 1, dtype=torch.float64)
        checks.close(f"size {size}", lambda x=x: x.T, x)
    checks.score()
    assert (
        "This matches an answer whose result is the expected one with axes 0 and 1 swapped"
        in capsys.readouterr().out
    )
    checks = Checks("Exercise M", points=2)  # seen once only: measured, not named
    x = torch.randn(3, 4, dtype=torch.float64)
    checks.close("once", lambda: x.T, x)
    checks.close("right", lambda: x, x)
    checks.score()
    assert "This matches" not in capsys.readouterr().out


class _Grader:
    """``variant_answers`` as the grader holds it: no variants here, and the reference."""

    def __init__(self, reference):
        self._reference = reference

    def __call__(self, exercise):
        return []

    def reference(self, exercise):
        return {"layer": self._reference}


def _graded(answer, reference, monkeypatch, capsys) -> str:
    """The report on ``answer`` from two checks against ``reference``, as the grader gives it."""

    grading_with(monkeypatch, variants=_Grader(reference))
    namespace = {"layer": answer}
    checks = Checks("Exercise R", points=1)
    for seed in (1, 2):  # each check rebinds x, as cells do
        namespace["x"] = torch.randn(6, generator=torch.Generator().manual_seed(seed)) + 2
        with torch.random.fork_rng():
            torch.manual_seed(0)  # a fixed draw, for a random expected value
            expected = reference(namespace["x"])
        checks.close(f"seed {seed}", eval("lambda: layer(x)", namespace), expected)  # noqa: S307
    state = torch.random.get_rng_state()
    checks.score()
    assert torch.equal(torch.random.get_rng_state(), state)  # the seeded runs put it back
    return capsys.readouterr().out


def test_an_answer_that_draws_random_numbers_the_reference_does_not_is_named(monkeypatch, capsys):
    from course_checks import naming

    # F.dropout's training defaults to True: dropout left on where the reference has none
    report = _graded(
        lambda x: torch.nn.functional.dropout(x * 2, 0.5), lambda x: x * 2, monkeypatch, capsys
    )
    assert f"This matches {naming.RANDOM}." in report


def test_randomness_is_not_named_for_a_state_nor_where_the_reference_is_random(monkeypatch, capsys):
    from course_checks import naming

    calls = iter(range(1, 10**6))  # changes at every call, seeded or not: a state, not chance
    report = _graded(lambda x: x * 2 + next(calls), lambda x: x * 2, monkeypatch, capsys)
    assert "0 of 2 checks passed" in report and naming.RANDOM not in report
    # the expected value is random itself: a wrong rate of dropout is no "random" answer
    report = _graded(
        lambda x: torch.nn.functional.dropout(x, 0.3),
        lambda x: torch.nn.functional.dropout(x, 0.5),
        monkeypatch,
        capsys,
    )
    assert "checks passed" in report and naming.RANDOM not in report


def test_right_numbers_of_another_kind_are_named_only_when_every_value_says_so(capsys):
    # an integer mask: its values pass, a property of its dtype fails
    namespace = {"mask": lambda lengths: (torch.arange(4) < lengths[:, None]).long()}
    checks = Checks("Exercise M", points=1)
    lengths = torch.tensor([2, 4])
    expected = torch.arange(4) < lengths[:, None]
    checks.close(
        "lengths 2, 4",
        eval("lambda: mask(lengths)", namespace | {"lengths": lengths}),  # noqa: S307
        expected,
    )
    checks.true(
        "boolean",
        eval(  # noqa: S307 - a test cell's code
            "lambda: mask(lengths).dtype == torch.bool",
            namespace | {"lengths": lengths, "torch": torch},
        ),
        "masks are bool",
    )
    checks.score()
    assert (
        "This matches an answer whose numbers are right, but come as torch.int64 where "
        "torch.bool is expected."
    ) in capsys.readouterr().out
    # float32 for float64 is precision, no other kind; and a wrong value elsewhere is no
    # answer whose numbers are right
    checks = Checks("Exercise P", points=1)
    checks.close("float32", lambda: torch.ones(3), torch.ones(3, dtype=torch.float64))
    checks.true("a property", lambda: False, "fails")
    checks.score()
    checks = Checks("Exercise Q", points=1)
    checks.close("ints", lambda: torch.ones(3, dtype=torch.long), torch.ones(3))
    checks.close("wrong", lambda: torch.zeros(3, dtype=torch.long), torch.ones(3))
    checks.score()
    assert "numbers are right" not in capsys.readouterr().out
