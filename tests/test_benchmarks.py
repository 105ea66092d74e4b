"""The benchmark scripts work (at tiny sizes); their numbers are for `make bench`, not tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import attention_kernels
import loop_vs_matrix
import pytest


@pytest.mark.slow
def test_every_attention_case_runs_in_its_own_process_and_prints_json():
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536")
    command = [sys.executable, str(REPO / "benchmarks" / "attention_kernels.py"), "16", "2"]
    output = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    results = json.loads(output)
    assert [r["implementation"] for r in results] == list(attention_kernels.cases(8))
    assert all(r["median_ms"] > 0 and r["peak_mib"] >= 0 for r in results)


def test_peak_memory_sees_a_large_temporary():
    import torch

    rise = attention_kernels.peak_rise_mib(lambda: torch.ones(64, 2**20).sum())  # 256 MiB
    assert rise > 200


def test_loop_and_matrix_agree_and_are_timed():
    rows = loop_vs_matrix.measure(lengths=(4, 8), repeats=1)
    assert [r["seq_len"] for r in rows] == [4, 8]
    assert all(r["loop_ms"] > 0 and r["matrix_ms"] > 0 for r in rows)


def test_the_synthetic_class_mixes_correct_partial_and_broken_submissions(tmp_path):
    import grade_bench

    kinds = grade_bench.build_class(tmp_path, 20, ["01_vector_attention"])
    assert sorted(kinds.values()) == sorted(grade_bench.MIX)
    files = {student: (tmp_path / student / a / f"{a}.ipynb").read_text() for (student, a) in kinds}
    broken = [s for (s, _), kind in kinds.items() if kind == "malformed"]
    for student, text in files.items():
        if student in broken:
            with pytest.raises(json.JSONDecodeError):
                json.loads(text)
        else:
            assert json.loads(text)["cells"]


def test_the_class_is_graded_in_two_halves_that_hold_every_student_once(tmp_path):
    """make bench-grade's two halves (pipeline, plain, plain, pipeline): each student in
    exactly one, the first half as large as the second or one larger."""
    import grade_bench

    kinds = grade_bench.build_class(tmp_path / "class", 5, ["01_vector_attention"])
    first, second = grade_bench.halves(tmp_path / "class", tmp_path / "halves")
    students = [sorted(p.name for p in half.iterdir()) for half in (first, second)]
    assert [len(s) for s in students] == [3, 2]
    assert sorted(students[0] + students[1]) == sorted(student for student, _ in kinds)
    for student in students[1]:
        path = f"{student}/01_vector_attention/01_vector_attention.ipynb"
        assert (second / path).read_bytes() == (tmp_path / "class" / path).read_bytes()


@pytest.mark.slow
def test_the_long_language_model_run_stops_at_its_time_and_goes_on_exactly(tmp_path):
    """make lm-curve at a tiny size: stopped by its time limit, then resumed from its
    checkpoint, it ends where an uninterrupted run ends."""

    def run(out, *extra):
        command = [
            sys.executable,
            str(REPO / "benchmarks" / "lm_curve.py"),
            "--threads",
            "1",
            "--steps",
            "12",
            "--scale",
            "0.05",
            "--out",
            str(out),
            "--checkpoint",
            str(tmp_path / f"{out.stem}.pt"),
            *extra,
        ]
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=600)
        return [line.split(",") for line in out.read_text().splitlines() if line[0].isdigit()]

    straight = run(tmp_path / "straight.csv", "--seconds", "600")
    stopped = run(tmp_path / "stopped.csv", "--seconds", "0.5")
    assert (tmp_path / "stopped.pt").exists() and int(stopped[-1][0]) < 12
    resumed = run(tmp_path / "stopped.csv", "--seconds", "600")
    assert not (tmp_path / "stopped.pt").exists()
    assert resumed[-1][0] == straight[-1][0] == "12"
    assert resumed[-1][-1] == straight[-1][-1]  # the same held-out bits, to 4 decimals
