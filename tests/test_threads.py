"""The course's choice of PyTorch's CPU threads (transformer_course/threads.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from transformer_course import threads


@pytest.fixture
def machine(monkeypatch):
    """A machine with no thread settings: 4 usable logical CPUs, 2 physical cores."""
    for name in ("OMP_NUM_THREADS", "CPU_LIMIT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(threads, "_cgroup_cpus", lambda: None)
    monkeypatch.setattr(threads.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    monkeypatch.setattr(threads.os, "cpu_count", lambda: 4)
    psutil = pytest.importorskip("psutil")
    monkeypatch.setattr(psutil, "cpu_count", lambda logical=True: 4 if logical else 2)
    return monkeypatch


def test_physical_cores_not_hyperthreads(machine):
    assert threads.sensible_threads() == (2, "2 physical cores available")


def test_omp_num_threads_wins(machine):
    machine.setenv("OMP_NUM_THREADS", "1")
    assert threads.sensible_threads() == (1, "OMP_NUM_THREADS says so")


def test_a_jupyterhub_or_container_limit_caps_it(machine):
    machine.setenv("CPU_LIMIT", "1.5")
    assert threads.sensible_threads()[0] == 1
    machine.delenv("CPU_LIMIT")
    machine.setattr(threads, "_cgroup_cpus", lambda: 0.5)
    assert threads.sensible_threads() == (1, "this container's CPU quota (0.5 CPUs)")


def test_importing_the_package_applies_it():
    # PyTorch alone would start one thread per logical core; the limit says one.
    code = "import torch, transformer_course; print(torch.get_num_threads())"
    env = {"CPU_LIMIT": "1", "PATH": ""}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "1"
