"""The course's choice of PyTorch's CPU threads (transformer_course/threads.py): the cores this
process can get now, and never a count someone chose."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from transformer_course import threads


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A quiet machine with no thread settings: 4 usable logical CPUs, 2 physical cores, no
    control group limit."""
    for name in ("OMP_NUM_THREADS", "CPU_LIMIT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(threads, "OWN_CGROUPS", tmp_path / "none")
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 4)
    monkeypatch.setattr(threads, "busy_elsewhere", lambda *a, **k: 0.0)
    psutil = pytest.importorskip("psutil")
    monkeypatch.setattr(psutil, "cpu_count", lambda logical=True: 4 if logical else 2)
    return monkeypatch


def test_physical_cores_not_hyperthreads(machine):
    assert threads.sensible_threads() == (2, "2 cores: physical cores this process may use")


def test_omp_num_threads_wins(machine):
    machine.setenv("OMP_NUM_THREADS", "1")
    assert threads.sensible_threads() == (1, "OMP_NUM_THREADS says so")


def test_a_jupyterhub_limit_caps_it(machine):
    machine.setenv("CPU_LIMIT", "1.5")
    assert threads.sensible_threads() == (1, "1 core: this server's CPU limit (CPU_LIMIT=1.5)")


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_a_container_quota_caps_it(machine, tmp_path, version):
    root = tmp_path / "cgroup"
    if version == "v2":
        (root / "kube" / "pod").mkdir(parents=True)
        (root / "kube" / "cpu.max").write_text("150000 100000\n")  # a parent's quota counts
        (root / "kube" / "pod" / "cpu.max").write_text("max 100000\n")
        membership = "0::/kube/pod\n"
    else:
        (root / "cpu,cpuacct" / "pod").mkdir(parents=True)
        (root / "cpu,cpuacct" / "pod" / "cpu.cfs_quota_us").write_text("50000\n")
        (root / "cpu,cpuacct" / "pod" / "cpu.cfs_period_us").write_text("100000\n")
        membership = "4:memory:/pod\n3:cpu,cpuacct:/pod\n"
    (tmp_path / "membership").write_text(membership)
    machine.setattr(threads, "CGROUPS", root)
    machine.setattr(threads, "OWN_CGROUPS", tmp_path / "membership")
    quota = 1.5 if version == "v2" else 0.5
    assert threads.sensible_threads() == (1, f"1 core: this container's CPU quota ({quota:g} CPUs)")


def test_cores_other_programs_keep_busy_are_left_to_them(machine):
    machine.setattr(threads, "busy_elsewhere", lambda *a, **k: 3.1)  # 0.9 of 4 CPUs free
    threads_, reason = threads.sensible_threads()
    assert threads_ == 1 and "3.1 of them kept busy by other programs right now" in reason
    machine.setattr(threads, "busy_elsewhere", lambda *a, **k: 2.4)  # 1.6 free: still two
    assert threads.sensible_threads()[0] == 2


def test_busy_programs_are_seen():
    cpus = threads._allowed_cpus()
    if len(cpus) < 2:
        pytest.skip("one CPU")
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        time.sleep(0.3)
        busy = threads.busy_elsewhere(seconds=0.5)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    assert busy is not None and busy >= 1.5, busy


def run(code: str, **env: str) -> str:
    env = {"PATH": os.environ.get("PATH", ""), **env}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.mark.slow
def test_importing_the_package_applies_it_and_keeps_openmp_from_spinning():
    # PyTorch alone would start one thread per CPU; the limit says one.
    code = (
        "import os, transformer_course, torch; "
        "print(torch.get_num_threads(), os.environ.get('OMP_WAIT_POLICY'))"
    )
    assert run(code, CPU_LIMIT="1") == "1 PASSIVE"
    assert run(code, CPU_LIMIT="1", OMP_WAIT_POLICY="ACTIVE") == "1 ACTIVE"


@pytest.mark.slow
def test_a_count_the_student_chose_is_never_overridden():
    before = (
        "import torch; torch.set_num_threads(1); import transformer_course; "
        "print(torch.get_num_threads())"
    )
    after = (
        "import torch, transformer_course; from transformer_course.budget import Budget; "
        "torch.set_num_threads(1); list(Budget(2, progress=False)); "
        "print(torch.get_num_threads(), transformer_course.threads.use_sensible_threads()[1])"
    )
    assert run(before, CPU_LIMIT="8") == "1"
    assert (
        run(after, CPU_LIMIT="8") == "1 you chose it (torch.set_num_threads); the course "
        "leaves it alone"
    )
