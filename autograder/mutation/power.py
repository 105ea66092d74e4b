"""Grading power on one-mistake answers: does every one lose points, is its mistake named,
and is it never named wrongly?

    python -m autograder.mutation.power              # the course's sample answers
    python -m autograder.mutation.power --set blind  # blind set A, tests/blind/set_a.py
    python -m autograder.mutation.power --set tests/blind/set_b.py  # another blind set

Each answer replaces some solution cells of a source notebook and is graded by the trusted
checks with the mutants' naming on (``measure.py``), as ``make grade`` grades it.
Every test cell the answer is meant to fail is judged:

- *loses points*: it scores less than the cell's points;
- *named*: its checks name a mistake (recorded by the checks as data: the report's
  "This matches ..." line);
- *named correctly*: the report says what the answer's own description expects (the sample
  answers' phrase; the blind set's keywords, see ``blind_answers``);
- *named wrongly*: named, but not correctly.

An answer counts as named correctly when all its failing cells are, and as named wrongly
when one of them is. For a blind set, the verdicts of a reader who judged each named answer
one by one (``tests/blind/readings.json``) are counted too, for the names still as read.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from autograder.mutation import analysis, measure
from autograder.mutation.running import SECRET

ROOT = analysis.ROOT


@dataclass
class Answer:
    """One one-mistake answer: what it replaces, which test cells it must fail, and how
    to tell that a report names its mistake."""

    assignment: str
    name: str
    answers: dict[str, str]  # solution cell id -> the student's source
    cells: list[str]  # test cells that must lose points
    mistake: str  # the mistake, in the words of whoever wrote the answer
    # (the report, the names its checks recorded) -> whether they name it correctly
    judge: Callable[[str, list[str]], bool] = field(repr=False)


@dataclass
class Verdict:
    answer: Answer
    lost: bool
    named: bool
    correct: bool
    reports: dict[str, measure.Graded]

    @property
    def wrong(self) -> bool:
        return self.named and not self.correct


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None  # a .py file's: a source loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sample_answers() -> list[Answer]:
    """The course's own one-mistake answers (tests/submissions.py, WRONG and ONE_MISTAKE):
    a cell is named correctly when its report holds the phrase listed with it."""
    module = _load(ROOT / "tests" / "submissions.py", "_submissions")
    found = []
    for table in (module.WRONG, module.ONE_MISTAKE):
        for assignment, students in table.items():
            for student, (answers, expectations) in students.items():
                phrases = [p for _, p in expectations if p]
                # Without a phrase any name counts: the answer's author named nothing.
                found.append(
                    Answer(
                        assignment,
                        student,
                        answers,
                        [cell for cell, _ in expectations],
                        "; ".join(phrases) or "(no phrase)",
                        # mypy infers no lambda with a default (p: this answer's phrases)
                        lambda report, names, p=tuple(phrases): (  # type: ignore[misc]
                            all(x in report for x in p) and (bool(p) or bool(names))
                        ),
                    )
                )
    return found


def _grade(job: tuple[str, list[tuple[dict[str, str], set[str]]], bool, str]) -> list[dict]:
    """Every answer to one notebook, graded on the test cells it must fail."""
    assignment, answers, variants, secret = job
    path = ROOT / "solutions" / assignment / f"{assignment}.ipynb"
    return measure.graded_answers(path, answers, variants, secret)


def _points(assignment: str) -> dict[str, float]:
    notebook = json.loads((ROOT / "solutions" / assignment / f"{assignment}.ipynb").read_text())
    return {
        meta["grade_id"]: float(meta["points"])
        for cell in notebook["cells"]
        if (meta := cell.get("metadata", {}).get("nbgrader", {})).get("grade")
    }


def judge(
    answers: list[Answer], jobs: int = 2, variants: bool = True, secret: str = SECRET
) -> list[Verdict]:
    """Grade every answer (``variants``: as ``make grade`` does; without, as the student's
    own checks and Validate do; the hidden inputs drawn with ``secret``) and judge its
    failing cells' reports."""
    notebooks = sorted(
        {a.assignment for a in answers}, key=lambda n: -sum(a.assignment == n for a in answers)
    )  # the longest first
    jobs_of = {n: [a for a in answers if a.assignment == n] for n in notebooks}
    with ProcessPoolExecutor(jobs) as pool:
        done = dict(
            zip(
                notebooks,
                pool.map(
                    _grade,
                    [
                        (n, [(a.answers, set(a.cells)) for a in jobs_of[n]], variants, secret)
                        for n in notebooks
                    ],
                ),
                strict=True,
            )
        )
    graded = [done[a.assignment][jobs_of[a.assignment].index(a)] for a in answers]
    verdicts = []
    for answer, reports in zip(answers, graded, strict=True):
        points = _points(answer.assignment)
        if missing := [cell for cell in answer.cells if cell not in points]:
            raise ValueError(
                f"{answer.assignment} has no test cell {missing}: "
                f"{answer.name} answers a cell the notebook no longer has"
            )
        failing = [reports.get(cell, measure.Graded(None, "")) for cell in answer.cells]
        text = "\n".join(graded.report for graded in failing)
        names = [name for graded in failing for name in graded.names]
        lost = all(
            graded.score is None or graded.score < points[cell] - 1e-9
            for cell, graded in zip(answer.cells, failing, strict=True)
        )
        verdicts.append(Verdict(answer, lost, bool(names), answer.judge(text, names), reports))
    return verdicts


def figures(verdicts: list[Verdict], kept: Sequence[Verdict] = ()) -> str:
    """The figures: one-mistake answers that lose points, are named correctly, are named
    wrongly; and correct answers (``kept``) that keep full marks."""
    n = len(verdicts)
    lost = sum(v.lost for v in verdicts)
    correct = sum(v.correct for v in verdicts)
    wrong = [v for v in verdicts if v.wrong]
    text = (
        f"{n} one-mistake answers: {lost} lose points"
        f"{' (every one)' if lost == n else ''}; named correctly {correct} "
        f"({correct / max(n, 1):.0%}); named wrongly {len(wrong)}"
    )
    if kept:
        full = sum(not v.lost for v in kept)
        text += f"; {full} of {len(kept)} correct answers in other styles keep full marks"
    return text


def names_in(verdict: Verdict) -> list[str]:
    """The mistakes named on an answer's failing cells, each once, as the report prints them
    ("This matches <name>.")."""
    return list(
        dict.fromkeys(
            f"{name}."
            for cell in verdict.answer.cells
            for name in verdict.reports.get(cell, measure.Graded(None, "")).names
        )
    )


def read_figures(verdicts: list[Verdict], readings: dict[str, dict]) -> str:
    """The names as a reader judged them, one by one (``tests/blind/readings.json``: each
    answer's names with the verdict "correct", "wrong" or "vague"): a name counts only while
    it is word for word the one that was read."""
    counts = {"correct": 0, "wrong": 0, "vague": 0}
    unread = 0
    for v in verdicts:
        if not v.named:
            continue
        reading = readings.get(v.answer.name.split()[0])
        if reading is None or reading["names"] != names_in(v):
            unread += 1
        else:
            counts[reading["verdict"]] += 1
    n = len(verdicts)
    return (
        f"read one by one: named correctly {counts['correct']} "
        f"({counts['correct'] / max(n, 1):.0%}); named wrongly {counts['wrong']}; "
        f"vaguely {counts['vague']}; {unread} names not read as they are now"
    )


def details(verdicts: list[Verdict]) -> str:
    lines = []
    for v in verdicts:
        if v.lost and v.correct:
            continue
        status = "KEEPS POINTS" if not v.lost else "NAMED WRONGLY" if v.wrong else "unnamed"
        lines.append(f"- {v.answer.assignment} {v.answer.name} [{status}]: {v.answer.mistake}")
        for cell in v.answer.cells:
            graded = v.reports.get(cell, measure.Graded(None, ""))
            shown = "\n      ".join(graded.report.strip().splitlines()[-12:])
            lines.append(f"    {cell} ({graded.score}):\n      {shown}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder.mutation.power", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument(
        "--set",
        default="sample",
        help="'sample' (tests/submissions.py), "
        "'blind' (blind set A, tests/blind/set_a.py) or a blind set's file",
    )
    parser.add_argument("--only", nargs="*", default=[], help="notebook numbers or names")
    parser.add_argument(
        "--details",
        action="store_true",
        help="show the answers that are not named correctly, with their reports",
    )
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--as-student",
        action="store_true",
        help="without the grader's "
        "variants of the reference answers: what the student's own checks say",
    )
    parser.add_argument(
        "--json", type=Path, help="also write every answer's verdict and reports here"
    )
    parser.add_argument(
        "--secret",
        default=SECRET,
        help="draw the hidden checks' "
        "inputs with this secret, as grading draws a student's (a score must "
        "not depend on it)",
    )
    args = parser.parse_args(argv)
    path = BLIND / "set_a.py" if args.set == "blind" else Path(args.set)
    answers = sample_answers() if args.set == "sample" else blind_answers(path)
    kept_answers = [] if args.set == "sample" else correct_answers(path)
    if args.only:
        answers, kept_answers = (
            [a for a in group if any(a.assignment.startswith(s) for s in args.only)]
            for group in (answers, kept_answers)
        )
    verdicts = judge(
        answers + kept_answers, args.jobs, variants=not args.as_student, secret=args.secret
    )
    verdicts, kept = verdicts[: len(answers)], verdicts[len(answers) :]
    if args.details:
        print(details(verdicts))
        for v in kept:
            if v.lost:
                print(f"- {v.answer.assignment} {v.answer.name} [A CORRECT ANSWER LOSES POINTS]")
    print(figures(verdicts, kept))
    readings = json.loads(READINGS.read_text()) if READINGS.exists() else {}
    if path.stem in readings and args.set != "sample":
        print(read_figures(verdicts, readings[path.stem]))
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        "notebook": v.answer.assignment,
                        "name": v.answer.name,
                        "mistake": v.answer.mistake,
                        "lost": v.lost,
                        "named": v.named,
                        "correct": v.correct,
                        "reports": {cell: graded._asdict() for cell, graded in v.reports.items()},
                    }
                    for v in verdicts + kept
                ],
                indent=1,
            )
        )
    return (
        0 if all(v.lost and not v.wrong for v in verdicts) and not any(v.lost for v in kept) else 1
    )


BLIND = ROOT / "tests" / "blind"
# A blind reader's verdict on each named answer of a set, for the names it read
READINGS = BLIND / "readings.json"


def _plain(name: str) -> str:
    """A named mistake as plain text (no code quotes, ASCII minus signs), as a reader would
    read it."""
    return name.replace("`", "").replace("−", "-")


def blind_answers(path: Path = BLIND / "set_a.py") -> list[Answer]:
    """A blind set's one-mistake answers (its ``ANSWERS``): a report names the mistake
    correctly when one of its "This matches ..." lines matches one of the answer's keywords,
    which any correct description of the mistake matches."""
    module = _load(path, f"_blind_{path.stem}")
    found = []
    for number, entry in enumerate(module.ANSWERS):
        if entry["correct"]:
            continue
        patterns = [re.compile(k, re.IGNORECASE) for k in entry["keywords"]]
        found.append(
            Answer(
                entry["notebook"],
                f"#{number} ({entry['kind']})",
                {entry["cell"]: entry["code"]},
                [f"{entry['cell'].split('_')[0]}_tests"],
                entry["mistake"],
                # mypy infers no lambda with a default (p: this answer's patterns)
                lambda report, names, p=tuple(patterns): any(  # type: ignore[misc]
                    x.search(_plain(name)) for x in p for name in names
                ),
            )
        )
    return found


def correct_answers(path: Path = BLIND / "set_a.py") -> list[Answer]:
    """A blind set's correct answers in other styles: each must keep full marks."""
    module = _load(path, f"_blind_{path.stem}")
    return [
        Answer(
            e["notebook"],
            f"#{n} (correct)",
            {e["cell"]: e["code"]},
            [f"{e['cell'].split('_')[0]}_tests"],
            "",
            lambda report, names: True,
        )
        for n, e in enumerate(module.ANSWERS)
        if e["correct"]
    ]


if __name__ == "__main__":
    sys.exit(main())
