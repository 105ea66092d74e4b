"""autograder/grading/executors.py: every job ends within its limit, and one job that does not
finish (it hangs, it kills its worker) costs the class nothing but its own result."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from autograder.grading.executors import LocalPool


def work(job: str):
    """A job as a grading worker may meet one: done, held forever (with a child process of
    its own, as kernels are), or the worker killed under it."""
    if job.startswith("hang"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        with open(job.split(":", 1)[1], "w") as out:
            out.write(str(child.pid))
        while True:
            time.sleep(1)
    if job == "die":
        os._exit(9)
    return f"{job} done"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not open(f"/proc/{pid}/stat").read().split(") ")[1].startswith("Z")


@pytest.mark.slow
def test_a_job_over_its_limit_is_stopped_with_what_it_started_and_the_rest_are_done(tmp_path):
    pid_file = tmp_path / "child"
    jobs = ["a", f"hang:{pid_file}", "b", "die", "c", "d"]
    started = time.monotonic()
    results = list(
        LocalPool(2).run(
            work,
            jobs,
            limit=lambda job: 6.0,
            stopped=lambda job, why: f"{job.split(':')[0]}: {why}",
        )
    )
    assert time.monotonic() - started < 60
    assert sorted(results) == sorted(
        [
            "a done",
            "b done",
            "c done",
            "d done",
            "die: the grading process died while grading it",
            "hang: grading it took longer than its limit of 6 s; it was stopped",
        ]
    )
    deadline = time.monotonic() + 10
    while alive(int(pid_file.read_text())) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(int(pid_file.read_text())), "the hung job's child outlived it"


@pytest.mark.slow
def test_one_at_a_time_keeps_the_limit():
    started = time.monotonic()
    results = list(
        LocalPool(2).alone(
            work, ["hang:/dev/null", "a"], limit=lambda job: 4.0, stopped=lambda job, why: "stopped"
        )
    )
    assert results == ["stopped", "a done"]
    assert time.monotonic() - started < 40


@pytest.mark.slow
def test_no_temporary_file_outlives_the_run(tmp_path, monkeypatch):
    """A grading server runs class after class: whatever a worker leaves in the temporary
    folder goes with it, whether it ended by itself or was stopped."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    results = list(
        LocalPool(2).run(
            leaves_a_file,
            ["a", "hang:/dev/null", "b"],
            limit=lambda job: 5.0,
            stopped=lambda job, why: "stopped",
        )
    )
    assert sorted(results) == ["a done", "b done", "stopped"]
    assert not list(tmp_path.iterdir())


def leaves_a_file(job: str):
    import tempfile

    tempfile.mkstemp(prefix="left-behind-")
    return work(job)


def test_workers_die_with_the_command_that_started_them(tmp_path):
    """The grading command killed outright (its process group, as a terminal's kill does):
    its workers, in process groups of their own, do not grade on as orphans."""
    import signal
    import textwrap

    pid_file = tmp_path / "child"
    script = tmp_path / "run.py"
    script.write_text(
        textwrap.dedent(f"""
        import sys
        sys.path[:0] = {sys.path!r}
        from test_executors import work
        from autograder.grading.executors import LocalPool
        if __name__ == "__main__":
            for _ in LocalPool(1).run(work, ["hang:{pid_file}"]):
                pass
    """)
    )
    run = subprocess.Popen([sys.executable, str(script)], start_new_session=True)
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.2)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    child = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(child)
