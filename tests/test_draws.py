"""Hidden checks draw new inputs for every student (the grader's secret is mixed into their
seeds), so a score must not depend on the draw: a right answer passes on every draw, a wrong
one fails on every draw. The secrets here are draws on which a check once broke that rule."""

from __future__ import annotations

from pathlib import Path

import honest
import pytest

from autograder.mutation import measure, power

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


def graded(notebook: str, secret: str, answers: dict[str, str]) -> dict:
    path = next(SOLUTIONS.glob(f"{notebook}*/{notebook}*.ipynb"))
    return {
        cell: graded.score
        for cell, graded in measure.feedback(path, answers, variants=False, secret=secret).items()
    }


# In float32, two scores in the thousands that lie within ~0.1 of each other round
# differently in two correct orders of summation: the reference failed "every score below
# −1000" on the first draw and "scores in the thousands" on the second.
@pytest.mark.slow
@pytest.mark.parametrize(
    "secret",
    [
        "eaf5c033a5cd95e71cf3d1797e0750ea92484194aef4259cbb2b92c3c87868fa",
        "3f98e0eec2f7c23feee133ea6e883110ed9140c051080deb6710b0e79f5904a6",
    ],
)
def test_tiled_attentions_reference_passes_the_extreme_draws(secret):
    assert graded("10", secret, {})["ex2_tests"] == 3


# Scores left unscaled passed the check of two tokens on these draws, where the softmax
# saturated with and without the 1/√D.
@pytest.mark.parametrize(
    "secret",
    [
        "3680b51007dc9cdb3aec1912fb8b097c65828163754c33a23e9d828a992e3a1c",
        "e88ef8418184c08f767e41a32409d2934df2436944b1eba3a1779743e80f54a9",
    ],
)
def test_an_unscaled_score_fails_self_attention_on_every_draw(secret):
    assert graded("01", secret, {"ex2_score": honest.WRONG_SCORE})["ex6_tests"] == 0


# One-mistake answers whose score changed with the secret (`power --secret`) before their
# checks built cases that hold on every draw: a saturated softmax, a decoding case assumed
# from a seed, a single confident prediction, rows whose maximum happened to be new.
DRAWN = [  # (set, notebook, answer, two secrets on which its score once differed)
    ("sample", "06_decoder", "first_position", ("mutation-analysis", "5e3b1c0a9d7f")),
    ("sample", "08_language_model", "nats", ("mutation-analysis", "5e3b1c0a9d7f")),
    ("set_c", "10_attention_at_scale", "#36 (state)", ("mutation-analysis", "77c1d2e3f4a5")),
    ("set_c", "10_attention_at_scale", "#41 (scale)", ("mutation-analysis", "8a21f4e6c3b0")),
]


@pytest.mark.slow
@pytest.mark.parametrize("source, notebook, name, secrets", DRAWN, ids=[d[2] for d in DRAWN])
def test_a_wrong_answer_scores_the_same_on_every_draw(source, notebook, name, secrets):
    answers = (
        power.sample_answers()
        if source == "sample"
        else power.blind_answers(power.BLIND / f"{source}.py")
    )
    answer = next(a for a in answers if a.assignment == notebook and a.name == name)
    scores = {}
    for secret in secrets:  # the score only: without the variants that name mistakes
        verdict = power.judge([answer], jobs=1, variants=False, secret=secret)[0]
        scores[secret] = {cell: graded.score for cell, graded in verdict.reports.items()}
    assert len({tuple(sorted(s.items())) for s in scores.values()}) == 1, scores
