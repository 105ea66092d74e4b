"""The blind answer sets graded as `make grade` grades them (autograder/mutation/power.py):
every one-mistake answer loses points (but the ones known to keep them), every correct
answer in another style keeps full marks, and the feedback names as many mistakes as when
last measured (docs/feedback.md, "Naming, measured on answers written blind"), no more of
them wrongly. Naming has a budget of CPU seconds (course_checks/naming.py, VARIANT_SECONDS),
so a slower machine may name two less, or one wrongly: the margins allow for that, not for a
regression."""

from __future__ import annotations

import pytest

from autograder.mutation import power

# Each set graded in a pool of processes, its mistakes named: a minute or more a set.
pytestmark = pytest.mark.slow

# set -> (answers that keep their points, named correctly, named wrongly) when last measured;
# set C's keeper returns float32 for float64 inputs, which every check compares by value;
# set D's returns notebook 07's accuracy as a 0-d tensor, which the course accepts; set E,
# measured as it came in round 5 (160 and 4), was tuned on in round 6; set F was measured
# once as it came in round 6 and never tuned on
MEASURED = {
    "set_a": (0, 163, 13),
    "set_b": (0, 129, 8),
    "set_c": (1, 46, 1),
    "set_d": (1, 67, 5),
    "set_e": (0, 162, 3),
    "set_f": (0, 70, 2),
}


# The names are held to their figures on the sets that cover every notebook; sets A to C are
# graded for their points only, without the grader's naming (`python -m
# autograder.mutation.power --set tests/blind/set_a.py` measures their names), and the two
# largest, A and B, which the checks were tuned on and sets D to F cover again, on every
# other answer: the same half each run, so that the suite stays well under 30 minutes.
NAMED_ON = {"set_d", "set_e", "set_f"}
HALVED = {"set_a", "set_b"}


@pytest.mark.parametrize("name", MEASURED)
def test_a_blind_set_loses_points_keeps_marks_and_is_named_as_measured(name):
    path = power.BLIND / f"{name}.py"
    answers, kept = power.blind_answers(path), power.correct_answers(path)
    if name in HALVED:
        answers, kept = answers[::2], kept[::2]
    verdicts = power.judge(answers + kept, jobs=1, variants=name in NAMED_ON)
    verdicts, kept = verdicts[: len(answers)], verdicts[len(answers) :]
    keepers, named, wrong = MEASURED[name]
    assert len([v.answer.name for v in verdicts if not v.lost]) <= keepers  # mistakes cost
    assert [v.answer.name for v in kept if v.lost] == []  # no right answer does
    if name in NAMED_ON:
        # Measured as MEASURED says, to the answer, in each of three runs on a 2-core machine
        # that other work kept at a load of 5 to 8 (D 67 and 5, E 162 and 3, F 69 and 2), and
        # this test passed at a load of 10 to 14: two names fewer (1 to 3% of a set) or one
        # wrong name more is a slower machine's margin.
        figures = power.figures(verdicts, kept)
        assert sum(v.correct for v in verdicts) >= named - 2, figures
        assert sum(v.wrong for v in verdicts) <= wrong + 1, figures
