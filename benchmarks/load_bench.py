"""`make bench-load`: the course on a busy machine. Training steps of notebooks 07 and 08 and
the grading of a class, on the machine as it is ("quiet") and under a synthetic load of four
busy processes (tests/load.py), with each one's fair share of the machine.

Training steps run the package's own code, as the notebooks do: 07's capstone
(``transformer.Transformer``, d_model 64, 2 + 2 layers, trained by ``training.train`` on
batches of 64 sequences of 16) and 08's character model (``language_model.CharLM``, d_model
96, 4 heads, 3 layers, trained by ``train_language_model`` on batches of 32 windows of 128).
Each is timed in a fresh Python with 1 thread, 2 threads (set before the package is
imported, which keeps them) and the course's choice (made by the package as it is imported,
on the machine as it is then).

Fair share: a process that competes with k other runnable ones on c cores gets c / (k + 1)
cores, so a step that needs C CPU-seconds (one thread, measured in the quiet run) takes
C (k + 1) / c seconds at best. k is observed during the timed steps (tasks running or
waiting for a CPU, from /proc/stat, less the step's own), so a machine busy with more than
the synthetic load is judged by what was really there. The grading of a class is judged
the same way, with k the synthetic load's four: its two workers' share is c / (4 + 2) cores
each, against a whole core each in the quiet run.

Prints a table and writes it to benchmarks/load.md and to docs/performance.md (between its
bench-load markers, ``docs_tables.splice``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
COURSE = HERE.parent
sys.path[:0] = [str(HERE), str(COURSE / "tests")]

import honest  # noqa: E402
from conftest import REPO  # noqa: E402
from docs_tables import splice  # noqa: E402
from load import busy, load_average  # noqa: E402

from autograder.grading import grade as pipeline  # noqa: E402
from autograder.grading import records  # noqa: E402
from autograder.grading.executors import LocalPool  # noqa: E402
from autograder.grading.limits import Limits  # noqa: E402

BUSY = 4  # the synthetic load: four processes spinning
CORES = len(os.sched_getaffinity(0))

# One notebook's training steps, in a fresh Python: argv = notebook, threads (0: the
# course's choice), steps. Prints seconds and CPU seconds per step, the threads used and
# the runnable tasks seen meanwhile.
STEP = r"""
import json, sys, threading, time
notebook, threads, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
import torch
if threads:
    torch.set_num_threads(threads)  # before the package: it keeps a count that was chosen
import transformer_course
from transformer_course.threads import use_sensible_threads
torch.manual_seed(0)
if notebook == "07":
    from transformer_course.data import SequenceTask
    from transformer_course.training import train
    from transformer_course.transformer import Transformer
    task = SequenceTask("reverse", seq_len=16, n_symbols=10)
    model = Transformer(task.vocab_size, task.vocab_size, d_model=64, n_heads=4, d_ff=128,
                        n_encoder_layers=2, n_decoder_layers=2, max_len=32)
    run = lambda n: train(model, task, n, lr=1e-3, device="cpu", progress=False)
else:
    from transformer_course.language_model import CharLM, train_language_model
    data = torch.randint(100, (100_000,))
    model = CharLM(100, d_model=96, n_heads=4, n_layers=3, max_len=256)
    run = lambda n: train_language_model(model, data, n, block_size=128, batch_size=32,
                                         progress=False)
run(2)  # warm-up
seen, done = [], threading.Event()
def watch():
    while not done.wait(0.05):
        for line in open("/proc/stat"):
            if line.startswith("procs_running"):
                seen.append(int(line.split()[1]))
watcher = threading.Thread(target=watch, daemon=True)
cpu, wall = time.process_time(), time.perf_counter()
watcher.start()
run(steps)
done.set()
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"seconds": wall / steps, "cpu": cpu / steps,
                  "threads": torch.get_num_threads(), "reason": use_sensible_threads()[1],
                  "runnable": sum(seen) / max(1, len(seen))}))
"""


def step(notebook: str, threads: int, steps: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    out = subprocess.run(
        [sys.executable, "-c", STEP, notebook, str(threads), str(steps)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=900,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def training(notebooks: dict[str, int]) -> dict:
    """{(notebook, condition, threads): measurement}; condition "quiet" or "loaded"."""
    found = {}
    for condition in ("quiet", "loaded"):
        with busy(BUSY, seconds=1200) if condition == "loaded" else _nothing():
            for notebook, steps in notebooks.items():
                for threads in (1, 2, 0):
                    found[notebook, condition, threads] = measured = step(notebook, threads, steps)
                    print(
                        f"  {notebook} {condition:6} {threads or 'course'}: "
                        f"{measured['seconds'] * 1e3:.0f} ms/step ({measured['threads']} "
                        f"threads), load {load_average()}",
                        flush=True,
                    )
    return found


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def grading(students: int) -> dict:
    """A class of notebook 01 (honest students who copy, split and re-type cells), graded
    quiet and loaded: seconds, runnable tasks seen, and whether the grades were the same."""
    found, scores = {}, {}
    names = list(honest.STUDENTS)
    for condition in ("quiet", "loaded"):
        with (
            tempfile.TemporaryDirectory() as tmp,
            busy(BUSY, seconds=1200) if condition == "loaded" else _nothing(),
        ):
            grading_folder = Path(tmp) / "grading"
            for n in range(students):
                student = names[n % len(names)]
                path = grading_folder / "submitted" / f"{n:02d}_{student}" / honest.A
                path.mkdir(parents=True)
                (path / f"{honest.A}.ipynb").write_text(json.dumps(honest.notebook(student)))
            course = pipeline.Course(REPO, grading_folder)
            pipeline.prepare_gradebooks(course)  # not timed: the same in both
            start = time.perf_counter()
            pipeline.grade_class(
                course, LocalPool(2), [honest.A], Limits(), progress=False, regrade=True
            )
            seconds = time.perf_counter() - start
            scores[condition] = {
                p.parent.parent.name: json.loads(p.read_text())["score"]
                for p in grading_folder.glob(f"autograded/*/*/{records.RESULT}")
            }
            found[condition] = {"seconds": seconds, "load": load_average()}
            print(
                f"  class of {students}, {condition}: {seconds:.0f} s, load {load_average()}",
                flush=True,
            )
    found["same"] = scores["quiet"] == scores["loaded"]
    return found


def table(steps: dict, graded: dict | None, notebooks: dict[str, int]) -> str:
    import torch

    lines = [
        f"Measured by `make bench-load` on {platform.processor() or platform.machine()}, "
        f"{CORES} cores, Python {platform.python_version()}, PyTorch {torch.__version__}; "
        f"the load: {BUSY} busy processes. Load averages (1, 5, 15 min) after each run "
        "are in the log; k is the number of other runnable tasks seen during the steps.",
        "",
        "| training step | quiet, 1 thread | quiet, 2 | quiet, course | loaded, 1 thread "
        "| loaded, 2 | loaded, course (threads) | course ÷ best of 1, 2 | k | fair share "
        "| course ÷ fair share |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for notebook in notebooks:
        q = {t: steps[notebook, "quiet", t] for t in (1, 2, 0)}
        lo = {t: steps[notebook, "loaded", t] for t in (1, 2, 0)}
        others = max(0.0, lo[1]["runnable"] - 1)
        fair = q[1]["cpu"] * (others + 1) / CORES
        best = min(lo[1]["seconds"], lo[2]["seconds"])
        ms = {
            k: f"{v['seconds'] * 1e3:.0f} ms"
            for k, v in (
                ("q1", q[1]),
                ("q2", q[2]),
                ("q0", q[0]),
                ("l1", lo[1]),
                ("l2", lo[2]),
                ("l0", lo[0]),
            )
        }
        lines.append(
            f"| {notebook} | {ms['q1']} | {ms['q2']} | {ms['q0']} ({q[0]['threads']}) "
            f"| {ms['l1']} | {ms['l2']} | {ms['l0']} ({lo[0]['threads']}) "
            f"| {lo[0]['seconds'] / best:.2f} | {others:.1f} | {fair * 1e3:.0f} ms "
            f"| {lo[0]['seconds'] / fair:.2f} |"
        )
    if graded:
        quiet, loaded = graded["quiet"]["seconds"], graded["loaded"]["seconds"]
        fair = quiet * (BUSY + 2) / CORES
        lines += [
            "",
            f"Grading a class of notebook 01 with 2 workers: {quiet:.0f} s quiet "
            f"(load {graded['quiet']['load']}), {loaded:.0f} s loaded (load "
            f"{graded['loaded']['load']}); fair share loaded {fair:.0f} s "
            f"(ratio {loaded / fair:.2f}); the same grades: "
            f"{'yes' if graded['same'] else 'NO'}.",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps-07", type=int, default=20)
    parser.add_argument("--steps-08", type=int, default=6)
    parser.add_argument("--students", type=int, default=12, help="class size (0: no grading)")
    args = parser.parse_args(argv)
    notebooks = {"07": args.steps_07, "08": args.steps_08}
    print(f"load average before: {load_average()}")
    steps = training(notebooks)
    graded = grading(args.students) if args.students else None
    text = table(steps, graded, notebooks)
    print("\n" + text)
    (HERE / "load.md").write_text(text + "\n")
    splice("bench-load", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
