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
import contextlib
import io
import json
import linecache
import math
import os
import random
import re
import select
import signal
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import torch

from autograder.mutation.context import MeasuredNotebook
from autograder.mutation.mutants import NEVER_EQUIVALENT, Mutant, defined_names, mutants
from autograder.mutation.variants import (
    VariantAnswers,
    code_cells,
    solution_cells,
    title,
)
from autograder.trusted.checker import Checker
from course_checks import context, selfcheck
from course_checks.context import GradingContext

ROOT = Path(__file__).resolve().parents[2]
GOAL = 0.99
SECRET = "mutation-analysis"
TIME_LIMIT = 30  # seconds for one mutant's checks
SCALES = (1.0, 1.0, 3.0, 10.0, 100.0, 1e4)
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


@contextlib.contextmanager
def _as_graded(folder: Path):
    """Run a notebook's cells as nbgrader would (quick mode, no display), in its folder, with
    one thread (forks of a process with a thread pool may hang); all put back afterwards."""
    saved_env = {k: os.environ.get(k) for k in ("NBGRADER_EXECUTION", "MPLBACKEND",
                                                 "OMP_NUM_THREADS")}
    threads = torch.get_num_threads()
    os.environ.update(NBGRADER_EXECUTION="autograde", MPLBACKEND="agg", OMP_NUM_THREADS="1")
    torch.set_num_threads(1)
    try:
        with contextlib.chdir(folder):
            yield
    finally:
        torch.set_num_threads(threads)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@contextlib.contextmanager
def _quiet():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _in_fork(work, timeout: float):
    """``work()`` in a forked child: its JSON-able result, or ``{"error": ...}``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read)
        try:
            payload = json.dumps(work())
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            payload = json.dumps({"error": f"{type(error).__name__}: {error}"})
        with os.fdopen(write, "w") as out:
            out.write(payload)
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        ready, _, _ = select.select([pipe], [], [], timeout)
        payload = pipe.read() if ready else None  # the child writes once, then exits
    if payload is None:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    try:
        return json.loads(payload) if payload is not None else {"error": "timed out"}
    except json.JSONDecodeError:
        return {"error": "the mutant's process died"}


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
        with _as_graded(self.path.parent):
            self._run_cells(namespace, solutions)
        return self.exercises

    def _run_cells(self, namespace: dict, solutions: dict[str, str]) -> None:
        for grade_id, meta, text in code_cells(self.notebook):
            if meta.get("grade") and grade_id in solutions:
                exercise = Exercise(title(text, grade_id), grade_id, float(meta["points"]),
                                    solutions[grade_id], defined_names(solutions[grade_id]))
                self._analyse(exercise, text, namespace, mutants(exercise.solution))
                self.exercises.append(exercise)
            with _quiet():
                exec(compile(text, f"<{grade_id or 'cell'}>", "exec"), namespace)  # noqa: S102

    def _analyse(self, exercise: Exercise, test: str, namespace: dict,
                 found: list[Mutant]) -> None:
        justified = set(JUSTIFIED.findall(test))

        def checks_with(source: str | None):
            def work():
                space = dict(namespace)
                # a mutant of the reference reaches nothing refused: it rewrites operators,
                # numbers and arguments (mutants.py); naming is as when grading
                with _quiet(), context.grading(GradingContext(self.variants), fresh=False):
                    if source is not None:
                        exec(compile(source, "<mutant>", "exec"), space)  # noqa: S102
                    checker = Checker(None, SECRET)
                    checker.namespace = space
                    text, value, failure, named = _run_checks(checker, test)
                full = failure is None and isinstance(value, (int, float)) \
                    and value >= exercise.points - 1e-9
                return {"full": bool(full), "score": value if failure is None else None,
                        "named": bool(named), "report": text[-600:],
                        "wrong_values": not re.search(r"raised |in place|not a tensor|but is a",
                                                      text)}
            return work

        reference = _in_fork(checks_with(None), TIME_LIMIT)
        if not reference.get("full"):
            raise RuntimeError(f"{self.path.name}: the reference answer to {exercise.name} "
                               f"does not get full marks:\n{reference}")
        self.variants(exercise.name)  # built once here, not in every fork
        if self.sample is not None and len(found) > self.sample:
            found = self.rng.sample(found, self.sample)
        for mutant in found:
            result = _in_fork(checks_with(mutant.source), TIME_LIMIT)
            if not result.get("full"):
                exercise.killed.append(mutant.description)
                if result.get("wrong_values"):
                    exercise.wrong_values += 1
                    exercise.named += bool(result.get("named"))
            elif mutant.description in justified:
                exercise.justified.append(mutant.description)
            elif mutant.kind not in NEVER_EQUIVALENT and _in_fork(
                    lambda m=mutant: {"same": equivalent(namespace, exercise, test, m.source)},
                    TIME_LIMIT * 4).get("same"):
                exercise.equivalent.append(mutant.description)
            else:
                exercise.survivors.append(mutant.description)


class Graded(NamedTuple):
    """One test cell's result for one answer: the score (None when the cell crashed), the
    report as printed, and the mistakes its checks named, as the checks recorded them
    (``course_checks/selfcheck.py``), never read back from the report."""

    score: float | None
    report: str
    names: tuple[str, ...] = ()


def _run_checks(checker: Checker, test: str) -> tuple[str, object, BaseException | None,
                                                      tuple[str, ...]]:
    """``checker.run(test)``, and the mistakes its checks named, from their records."""
    before = {id(result) for result in selfcheck.results()}
    report, value, failure = checker.run(test)
    names = tuple(r.named for r in selfcheck.results() if id(r) not in before and r.named)
    return report, value, failure, names


def feedback(path: Path, answers: dict[str, str], variants: bool = True,
             secret: str = SECRET) -> dict[str, Graded]:
    """What a submission gets from the trusted checks, in the grading context ``make grade``
    gives them (mutation/context.py: mutants naming included with ``variants``; without, what
    the student's own checks say), without nbgrader: ``answers`` replace solution cells by
    grade id; the hidden inputs drawn with ``secret``."""
    reference = json.loads(path.read_text())
    notebook = _with_answers(json.loads(json.dumps(reference)), answers)
    measured = MeasuredNotebook(notebook, path, VariantAnswers(reference) if variants else None)
    checker = Checker(None, secret)
    reports: dict[str, Graded] = {}
    with _as_graded(path.parent), context.grading(measured.context):
        for grade_id, meta, text in code_cells(notebook):
            if meta.get("grade"):
                measured.at(text)
                report, value, failure, names = _run_checks(checker, text)
                reports[grade_id] = Graded(None if failure else value, report, names)
                continue
            with _quiet(), contextlib.suppress(Exception):  # a broken answer shows in its checks
                exec(compile(text, _cell_file(grade_id, text), "exec"),  # noqa: S102
                     checker.namespace)
    return reports


def _with_answers(notebook: dict, answers: dict[str, str]) -> dict:
    """``notebook`` with ``answers`` in place of the solution cells of the same grade id."""
    for cell in notebook["cells"]:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
    return notebook


def graded_answers(path: Path, answers: list[tuple[dict[str, str], set[str]]],
                   variants: bool = True, secret: str = SECRET) -> list[dict[str, Graded]]:
    """Like ``feedback`` for many answers to one notebook at once: each answer (its cells
    by grade id) is graded on the test cells named with it. The notebook runs once, and at
    each of those test cells the answer runs in a fork, its cells and every cell after them
    replayed (as the mutants run), so an answer costs its own checks, not the notebook."""
    notebook = json.loads(path.read_text())
    variant_answers = VariantAnswers(notebook) if variants else None
    checker = Checker(None, secret)
    results: list[dict] = [{} for _ in answers]
    passing: list[dict[str, bool]] = [{} for _ in answers]  # exercise -> passed, per answer
    ran: list[tuple[str | None, str]] = []  # the cells run so far, but the test cells
    with _as_graded(path.parent), context.grading(GradingContext(variant_answers)):
        for grade_id, meta, text in code_cells(notebook):
            if not meta.get("grade"):
                ran.append((grade_id, text))
                with _quiet(), contextlib.suppress(Exception):
                    exec(compile(text, _cell_file(grade_id, text), "exec"),  # noqa: S102
                         checker.namespace)
                continue
            if variant_answers is not None:
                variant_answers(title(text, grade_id))  # built once, not per fork
            for index, (answer, tests) in enumerate(answers):
                starts = [i for i, (cell, _) in enumerate(ran) if cell in answer]
                if grade_id in tests and starts:
                    measured = MeasuredNotebook(
                        _with_answers(json.loads(json.dumps(notebook)), answer), path,
                        variant_answers)
                    graded = _in_fork(lambda a=answer, c=ran[starts[0]:], t=text, i=index,
                                      m=measured: _graded(checker, m, c, a, t, passing[i]),
                                      TIME_LIMIT * 4)
                    results[index][grade_id] = Graded(graded.get("score"),
                                                      graded.get("report", str(graded)),
                                                      tuple(graded.get("names", ())))
                    passing[index][title(text, grade_id)] = graded.get("passed", False)
            checker.run(text)  # the reference's own checks: later notes see them pass
    return results


def _graded(checker: Checker, measured: MeasuredNotebook, cells: list, answer: dict[str, str],
            test: str, passing: dict[str, bool]) -> dict:
    """In a fork: ``answer``'s cells in place of the reference's, the cells after them run
    again, then the test cell, in the answer's grading context, with the answer's earlier
    exercises ``passing`` or not (as its own notebook's self-check knows them); the score
    (None when it crashed), the report, what it named, and whether every check passed."""
    with context.grading(measured.context, fresh=False):
        for exercise, passed in passing.items():
            selfcheck.record(exercise, 1.0, float(passed), [("", None if passed else "failed")])
        for grade_id, text in cells:
            source = answer.get(grade_id, text)
            with _quiet(), contextlib.suppress(Exception):
                exec(compile(source, _cell_file(grade_id, source), "exec"),  # noqa: S102
                     checker.namespace)
        measured.at(test)
        report, value, failure, names = _run_checks(checker, test)
        result = selfcheck.results()[-1] if selfcheck.results() else None
    return {"score": None if failure else value, "report": report, "names": names,
            "passed": bool(result and result.status == selfcheck.PASSED)}


def _cell_file(grade_id: str | None, text: str) -> str:
    """A file name for a notebook cell, with its lines where tracebacks find them, as
    IPython keeps a cell's (so an error names the student's line, as when grading)."""
    name = f"<ipython-input-{grade_id or 'cell'}>"
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    return name


# --- equivalence on random inputs ------------------------------------------------------------


def _clone(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v) for v in value)
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    return value


def _perturb(value, generator, scale: float, nudge_ints: bool):
    """Random inputs like ``value``: same types, shapes, dtypes and devices."""
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bool:
            return torch.rand(value.shape, generator=generator) < 0.7
        if value.is_floating_point():
            return (torch.randn(value.shape, generator=generator, dtype=value.dtype) * scale
                    ).to(value.device)
        if value.numel():
            low, high = int(value.min()), int(value.max())
            return torch.randint(low, high + 1, value.shape, generator=generator,
                                 dtype=value.dtype)
        return value.clone()
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and nudge_ints:
        return int(torch.randint(max(0, value // 2), 2 * value + 3, (), generator=generator))
    if isinstance(value, float) and nudge_ints:
        return value * float(torch.rand((), generator=generator) * 2)
    if isinstance(value, (list, tuple)):
        return type(value)(_perturb(v, generator, scale, nudge_ints) for v in value)
    if isinstance(value, dict):
        return {k: _perturb(v, generator, scale, nudge_ints) for k, v in value.items()}
    return value


def same(a, b, rtol: float = 1e-4) -> bool:
    """Equal results: tensors close (NaN equal to NaN), numbers close, containers alike."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) \
                or a.shape != b.shape:
            return False
        if a.dtype == torch.bool or b.dtype == torch.bool:
            return a.dtype == b.dtype and bool(torch.equal(a, b))
        return bool(torch.allclose(a.detach().cpu().double(), b.detach().cpu().double(),
                                   rtol=rtol, atol=1e-6, equal_nan=True))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-6,
                                                                 abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, rtol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], rtol) for k in a)
    return type(a) is type(b)


def _recorded_calls(namespace: dict, exercise: Exercise, test: str) -> list[tuple]:
    """(name, constructor args or None, args, kwargs) for every call the checks make."""
    calls: list[tuple] = []
    space = dict(namespace)
    for name in exercise.names:
        target = namespace[name]
        if isinstance(target, type):
            class Recorder(target):  # instances remember how they were made
                def __init__(self, *args, _target=target, _name=name, **kwargs):
                    self._made = (_clone(args), _clone(kwargs))
                    super().__init__(*args, **kwargs)

                def forward(self, *args, _name=name, **kwargs):
                    calls.append((_name, self._made, _clone(args), _clone(kwargs)))
                    return super().forward(*args, **kwargs)
            space[name] = Recorder
        else:
            def recorder(*args, _target=target, _name=name, **kwargs):
                calls.append((_name, None, _clone(args), _clone(kwargs)))
                return _target(*args, **kwargs)
            space[name] = recorder
    checker = Checker(None, SECRET)
    checker.namespace = space
    with _quiet(), torch.no_grad():
        checker.run(test)
    return calls[:200]


def _outcome(function, made, args, kwargs):
    try:
        with _quiet():
            if made is None:
                return "ok", function(*args, **kwargs)
            torch.manual_seed(0)
            module = function(*made[0], **made[1])
            return "ok", (module(*args, **kwargs), dict(module.state_dict()))
    except Exception as error:  # noqa: BLE001 - a raising answer is an answer
        return "raised", type(error).__name__


def equivalent(namespace: dict, exercise: Exercise, test: str, source: str) -> bool:
    """Whether the mutant in ``source`` and the reference agree on random inputs."""
    calls = _recorded_calls(namespace, exercise, test)
    space = dict(namespace)
    with _quiet():
        exec(compile(source, "<mutant>", "exec"), space)  # noqa: S102
    generator = torch.Generator().manual_seed(0)
    compared = 0
    for name, made, args, kwargs in calls:
        for trial, scale in enumerate(SCALES):
            nudge = trial % 2 == 1
            new_args = _perturb(args, generator, scale, nudge)
            new_kwargs = _perturb(kwargs, generator, scale, nudge)
            status, expected = _outcome(namespace[name], made, _clone(new_args),
                                        _clone(new_kwargs))
            if status != "ok":
                continue  # inputs the exercise does not define
            status, got = _outcome(space[name], made, _clone(new_args), _clone(new_kwargs))
            # Large inputs are there to reveal overflow (inf, NaN), not rounding: two ways
            # of writing the same formula round differently when the numbers are huge.
            if status != "ok" or not same(got, expected, rtol=1e-4 * scale):
                return False
            compared += 1
    return compared > 0


# --- the table ----------------------------------------------------------------------------


def analyse(path: str, sample: int | None = None) -> list[dict]:
    exercises = NotebookAnalysis(Path(path), sample).run()
    return [vars(e) | {"score": e.score, "counted": e.counted} for e in exercises]


def table(notebook: str, rows: list[dict]) -> str:
    lines = [f"## {notebook}", "",
             "| exercise | mutants | killed | equivalent | justified | survivors | score | named |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        total = len(r["killed"]) + len(r["equivalent"]) + len(r["justified"]) \
            + len(r["survivors"])
        flag = "" if r["score"] >= GOAL else " ✗"
        named = f"{r['named'] / r['wrong_values']:.0%}" if r["wrong_values"] else "–"
        lines.append(f"| {r['name']} | {total} | {len(r['killed'])} | {len(r['equivalent'])} | "
                     f"{len(r['justified'])} | {len(r['survivors'])} | {r['score']:.0%}{flag} | "
                     f"{named} |")
    for r in rows:
        for label, key in (("survives", "survivors"), ("equivalent", "equivalent"),
                           ("justified", "justified")):
            for description in r[key]:
                lines.append(f"- {r['name']}, {label}: an answer that {description}")
    return "\n".join(lines)


def notebooks(selection: list[str]) -> list[Path]:
    found = sorted((ROOT / "solutions").glob("[0-9][0-9]_*/[0-9][0-9]_*.ipynb"))
    if selection:
        found = [p for p in found if any(p.stem.startswith(s) for s in selection)]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.mutation",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebook numbers or names (default: all)")
    parser.add_argument("--sample", type=int, help="at most this many mutants per exercise")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    paths = notebooks(args.notebooks)
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = dict(zip((p.stem for p in paths),
                           pool.map(analyse, map(str, paths), [args.sample] * len(paths)),
                           strict=True))
    rows = [r for notebook in results.values() for r in notebook]
    below = [r["name"] for r in rows if r["score"] < GOAL]
    for name, notebook in results.items():
        print(table(name, notebook) + "\n")
    killed = sum(len(r["killed"]) for r in rows)
    counted = sum(r["counted"] for r in rows)
    print(f"{len(rows)} exercises, {sum(len(r['killed']) + len(r['equivalent']) + len(r['justified']) + len(r['survivors']) for r in rows)} "  # noqa: E501
          f"mutants: {killed} of {counted} non-equivalent killed ({killed / max(counted, 1):.1%}),"
          f" {sum(len(r['equivalent']) for r in rows)} equivalent, "
          f"{sum(len(r['justified']) for r in rows)} justified; feedback names "
          f"{sum(r['named'] for r in rows)} of {sum(r['wrong_values'] for r in rows)} killed "
          "mutants that return wrong values; "
          f"{len(rows) - len(below)} of {len(rows)} exercises at ≥ {GOAL:.0%} "
          f"({time.perf_counter() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if below:
        print("Below the goal: " + ", ".join(below), file=sys.stderr)
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
