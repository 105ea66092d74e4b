"""The course on a CUDA GPU: the package's GPU tests, then the solution notebooks as a reader
runs them (every code cell in order, in a fresh process each), timed.

Run on a machine with a GPU, from the repository's root, with any Python that has PyTorch,
NumPy, Matplotlib, psutil and tqdm (no Jupyter needed):

    python benchmarks/cuda_check.py --out cuda-check [--notebooks 06 07 08 09 10]

Writes ``cuda_check.md`` and ``cuda_check.json`` to ``--out``: per notebook, the devices its
models' weights ended on, its wall time, and the first error, if any (cell number and message).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["07", "10", "08", "09", "06"]  # the capstone first

# Runs in a fresh interpreter: a notebook's code cells, in order, in one namespace, as a
# kernel would. Prints one JSON line at the end: how far it got and why it stopped.
CELL_RUNNER = r"""
import json, sys, traceback, time
cells = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
done, error = 0, None
for number, source in cells:
    try:
        exec(compile(source, f"<cell {number}>", "exec"), namespace)
    except BaseException:
        error = {"cell": number, "message": traceback.format_exc(limit=3)[-1500:]}
        break
    done += 1
import torch
models = [value for value in namespace.values() if isinstance(value, torch.nn.Module)]
devices = sorted({p.device.type for m in models for p in m.parameters()})  # where they ran
print("CELL-RUNNER " + json.dumps({"cells_run": done, "cells": len(cells), "error": error,
                                   "model_devices": devices}))
"""


def code_cells(notebook: Path) -> list[tuple[int, str]]:
    cells = json.loads(notebook.read_text())["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "code"]


def run_notebook(notebook: Path, out: Path) -> dict:
    cells_file = out / f"{notebook.stem}.cells.json"
    cells_file.write_text(json.dumps(code_cells(notebook)))
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", CELL_RUNNER, str(cells_file)],
        cwd=notebook.parent,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    (out / f"{notebook.stem}.log").write_text(done.stdout[-200_000:] + done.stderr[-50_000:])
    cells_file.unlink()
    last = [line for line in done.stdout.splitlines() if line.startswith("CELL-RUNNER ")]
    result = (
        json.loads(last[-1].removeprefix("CELL-RUNNER "))
        if last
        else {"cells_run": None, "error": {"cell": None, "message": done.stderr[-1500:]}}
    )
    return dict(notebook=notebook.stem, seconds=round(seconds, 1), **result)


def write(report: dict, out: Path) -> None:
    (out / "cuda_check.json").write_text(json.dumps(report, indent=1))
    lines = [
        f"# The course on {report['gpu'] or 'no GPU'} (PyTorch {report['torch']})",
        "",
        f"Package tests on CUDA: {' '.join(report['tests']['summary'])}",
        "",
        "| notebook | cells run | seconds | models on | first error |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in report["notebooks"]:
        error = row["error"]["message"].strip().splitlines()[-1] if row["error"] else ""
        devices = ", ".join(row.get("model_devices") or []) or "-"
        lines.append(
            f"| {row['notebook']} | {row['cells_run']} of {row.get('cells', '?')} | "
            f"{row['seconds']} | {devices} | {error} |"
        )
    (out / "cuda_check.md").write_text("\n".join(lines) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--notebooks", nargs="*", default=DEFAULT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    import torch

    report = {
        "torch": torch.__version__,
        "cuda": torch.cuda.is_available(),
        "gpu": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
    }
    tests = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--noconftest",
            "-q",
            "tests/test_cuda.py",
            "tests/test_devices.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    report["tests"] = {"exit": tests.returncode, "summary": tests.stdout.strip().splitlines()[-1:]}
    (args.out / "tests.log").write_text(tests.stdout + tests.stderr)
    report["notebooks"] = []
    write(report, args.out)
    for number in args.notebooks:
        notebook = next((ROOT / "solutions").glob(f"{number}_*/{number}_*.ipynb"))
        report["notebooks"].append(run_notebook(notebook, args.out))
        write(report, args.out)  # after each notebook: a run cut short keeps what it did
    print((args.out / "cuda_check.md").read_text())
    failed = tests.returncode or any(row["error"] for row in report["notebooks"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
