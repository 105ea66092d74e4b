"""Mutation analysis: how many one-mistake answers do an exercise's checks catch?

For every exercise of a solution notebook, each mutant of the reference answer
(``autograder/mutation/mutants.py``) replaces it, and the exercise's test cell runs, visible and
hidden checks, exactly as the trusted checker runs it when grading (hidden inputs drawn
from a secret). A mutant is *killed* when it loses points. One that keeps full marks is
then run beside the reference on many random inputs shaped like the ones the checks pass
(tensors redrawn at scales up to 10⁴, masks and integers redrawn): if the two never
differ, the mutant is *equivalent* (the same function written differently) and is listed
but not counted; otherwise it *survives*, a hole in the checks.

A survivor may be justified next to its checks, in the test cell, with a comment
``# mutant "<its description>": <why it may pass>``; it is then listed, not counted.

    python -m autograder.mutation                 # every notebook, the full table
    python -m autograder.mutation 02 05 --sample 8   # some notebooks, 8 mutants per exercise

Each notebook runs in one process: its cells run once, in order, and every mutant runs in
a fork of that process, so a mutant that hangs or changes shared state harms nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from autograder.mutation.equivalence import equivalent
from autograder.mutation.measure import run_checks
from autograder.mutation.mutants import NEVER_EQUIVALENT, Mutant, defined_names, mutants
from autograder.mutation.running import SECRET, TIME_LIMIT, as_graded, in_fork, quiet
from autograder.mutation.variants import (
    VariantAnswers,
    code_cells,
    solution_cells,
    title,
)
from autograder.trusted.checker import Checker
from course_checks import context
from course_checks.context import GradingContext

ROOT = Path(__file__).resolve().parents[2]
GOAL = 0.99
JUSTIFIED = re.compile(r'#\s*mutant\s+"([^"]+)"\s*:')


@dataclass
class Exercise:
    """An exercise of a notebook: its solution cell(s), its test cell, its results."""

    name: str  # the test cell's title, "Exercise 3 · attention"
    test_id: str
    points: float
    solution: str = ""
    names: list[str] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    equivalent: list[str] = field(default_factory=list)
    justified: list[str] = field(default_factory=list)
    survivors: list[str] = field(default_factory=list)
    # Killed mutants whose checks got wrong values (not errors, which speak for themselves),
    # and how many of those the feedback names.
    wrong_values: int = 0
    named: int = 0

    @property
    def counted(self) -> int:
        return len(self.killed) + len(self.survivors)

    @property
    def score(self) -> float:
        return len(self.killed) / self.counted if self.counted else 1.0


class NotebookAnalysis:
    """Runs one solution notebook once, analysing each exercise when its test cell comes."""

    def __init__(self, path: Path, sample: int | None = None, seed: int = 0):
        self.path = path
        self.notebook = json.loads(path.read_text())
        self.sample = sample
        self.rng = random.Random(f"{path.stem}:{seed}")
        self.exercises: list[Exercise] = []

    def run(self) -> list[Exercise]:
        solutions = solution_cells(self.notebook)
        self.variants = VariantAnswers(self.notebook)
        namespace: dict = {"__name__": "__main__"}
        with as_graded(self.path.parent):
            self._run_cells(namespace, solutions)
        return self.exercises

    def _run_cells(self, namespace: dict, solutions: dict[str, str]) -> None:
        for grade_id, meta, text in code_cells(self.notebook):
            if meta.get("grade") and grade_id in solutions:
                exercise = Exercise(
                    title(text, grade_id),
                    grade_id,
                    float(meta["points"]),
                    solutions[grade_id],
                    defined_names(solutions[grade_id]),
                )
                self._analyse(exercise, text, namespace, mutants(exercise.solution))
                self.exercises.append(exercise)
            with quiet():
                exec(compile(text, f"<{grade_id or 'cell'}>", "exec"), namespace)  # noqa: S102

    def _analyse(self, exercise: Exercise, test: str, namespace: dict, found: list[Mutant]) -> None:
        justified = set(JUSTIFIED.findall(test))

        def checks_with(source: str | None):
            def work():
                space = dict(namespace)
                # a mutant of the reference reaches nothing refused: it rewrites operators,
                # numbers and arguments (mutants.py); naming is as when grading
                with quiet(), context.grading(GradingContext(self.variants), fresh=False):
                    if source is not None:
                        exec(compile(source, "<mutant>", "exec"), space)  # noqa: S102
                    checker = Checker(None, SECRET)
                    checker.namespace = space
                    text, value, failure, named = run_checks(checker, test)
                full = (
                    failure is None
                    and isinstance(value, (int, float))
                    and value >= exercise.points - 1e-9
                )
                return {
                    "full": bool(full),
                    "score": value if failure is None else None,
                    "named": bool(named),
                    "report": text[-600:],
                    "wrong_values": not re.search(r"raised |in place|not a tensor|but is a", text),
                }

            return work

        reference = in_fork(checks_with(None), TIME_LIMIT)
        if not reference.get("full"):
            raise RuntimeError(
                f"{self.path.name}: the reference answer to {exercise.name} "
                f"does not get full marks:\n{reference}"
            )
        self.variants(exercise.name)  # built once here, not in every fork
        if self.sample is not None and len(found) > self.sample:
            found = self.rng.sample(found, self.sample)
        for mutant in found:
            result = in_fork(checks_with(mutant.source), TIME_LIMIT)
            if not result.get("full"):
                exercise.killed.append(mutant.description)
                if result.get("wrong_values"):
                    exercise.wrong_values += 1
                    exercise.named += bool(result.get("named"))
            elif mutant.description in justified:
                exercise.justified.append(mutant.description)
            elif mutant.kind not in NEVER_EQUIVALENT and in_fork(
                lambda m=mutant: {"same": equivalent(namespace, exercise.names, test, m.source)},
                TIME_LIMIT * 4,
            ).get("same"):
                exercise.equivalent.append(mutant.description)
            else:
                exercise.survivors.append(mutant.description)


# --- the table ----------------------------------------------------------------------------


def analyse(path: str, sample: int | None = None) -> list[dict]:
    exercises = NotebookAnalysis(Path(path), sample).run()
    return [vars(e) | {"score": e.score, "counted": e.counted} for e in exercises]


def table(notebook: str, rows: list[dict]) -> str:
    lines = [
        f"## {notebook}",
        "",
        "| exercise | mutants | killed | equivalent | justified | survivors | score | named |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        total = len(r["killed"]) + len(r["equivalent"]) + len(r["justified"]) + len(r["survivors"])
        flag = "" if r["score"] >= GOAL else " ✗"
        named = f"{r['named'] / r['wrong_values']:.0%}" if r["wrong_values"] else "–"
        lines.append(
            f"| {r['name']} | {total} | {len(r['killed'])} | {len(r['equivalent'])} | "
            f"{len(r['justified'])} | {len(r['survivors'])} | {r['score']:.0%}{flag} | "
            f"{named} |"
        )
    for r in rows:
        for label, key in (
            ("survives", "survivors"),
            ("equivalent", "equivalent"),
            ("justified", "justified"),
        ):
            for description in r[key]:
                lines.append(f"- {r['name']}, {label}: an answer that {description}")
    return "\n".join(lines)


def notebooks(selection: list[str]) -> list[Path]:
    found = sorted((ROOT / "solutions").glob("[0-9][0-9]_*/[0-9][0-9]_*.ipynb"))
    if selection:
        found = [p for p in found if any(p.stem.startswith(s) for s in selection)]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m autograder.mutation", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("notebooks", nargs="*", help="notebook numbers or names (default: all)")
    parser.add_argument("--sample", type=int, help="at most this many mutants per exercise")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    paths = notebooks(args.notebooks)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = dict(
            zip(
                (p.stem for p in paths),
                pool.map(analyse, map(str, paths), [args.sample] * len(paths)),
                strict=True,
            )
        )
    rows = [r for notebook in results.values() for r in notebook]
    below = [r["name"] for r in rows if r["score"] < GOAL]
    for name, notebook in results.items():
        print(table(name, notebook) + "\n")
    killed = sum(len(r["killed"]) for r in rows)
    counted = sum(r["counted"] for r in rows)
    print(
        f"{len(rows)} exercises, {sum(len(r['killed']) + len(r['equivalent']) + len(r['justified']) + len(r['survivors']) for r in rows)} "  # noqa: E501
        f"mutants: {killed} of {counted} non-equivalent killed ({killed / max(counted, 1):.1%}),"
        f" {sum(len(r['equivalent']) for r in rows)} equivalent, "
        f"{sum(len(r['justified']) for r in rows)} justified; feedback names "
        f"{sum(r['named'] for r in rows)} of {sum(r['wrong_values'] for r in rows)} killed "
        "mutants that return wrong values; "
        f"{len(rows) - len(below)} of {len(rows)} exercises at ≥ {GOAL:.0%} "
        f"({time.perf_counter() - started:.0f} s)"
    )
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if below:
        print("Below the goal: " + ", ".join(below), file=sys.stderr)
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
