"""Running a solution notebook's cells in this process as grading runs them, and trying an
answer in a fork of that run: what the mutation analysis (``analysis.py``), its measurements
of answers (``measure.py``) and its test of equivalence (``equivalence.py``) share.
"""

from __future__ import annotations

import contextlib
import io
import json
import linecache
import os
import select
import signal
import warnings
from pathlib import Path

import torch

SECRET = "mutation-analysis"  # the hidden checks' inputs drawn with this, as for a student
TIME_LIMIT = 30  # seconds for one mutant's checks


@contextlib.contextmanager
def as_graded(folder: Path):
    """Run a notebook's cells as nbgrader would (quick mode, no display), in its folder, with
    one thread (forks of a process with a thread pool may hang); all put back afterwards."""
    saved_env = {
        k: os.environ.get(k) for k in ("NBGRADER_EXECUTION", "MPLBACKEND", "OMP_NUM_THREADS")
    }
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
def quiet():
    with (
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(io.StringIO()),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        yield


def in_fork(work, timeout: float):
    """``work()`` in a forked child: its JSON-able result, or ``{"error": ...}``."""
    read, write = os.pipe()
    payload: str | None  # the child's JSON; in the parent None when none came in time
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


def cell_file(grade_id: str | None, text: str) -> str:
    """A file name for a notebook cell, with its lines where tracebacks find them, as
    IPython keeps a cell's (so an error names the student's line, as when grading)."""
    name = f"<ipython-input-{grade_id or 'cell'}>"
    linecache.cache[name] = (len(text), None, text.splitlines(keepends=True), name)
    return name
