"""The benchmark scripts work (at tiny sizes); their numbers are for `make bench`, not tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import attention_kernels  # noqa: E402
import loop_vs_matrix  # noqa: E402
import pytest  # noqa: E402


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
    files = {student: (tmp_path / student / a / f"{a}.ipynb").read_text()
             for (student, a) in kinds}
    broken = [s for (s, _), kind in kinds.items() if kind == "malformed"]
    for student, text in files.items():
        if student in broken:
            with pytest.raises(json.JSONDecodeError):
                json.loads(text)
        else:
            assert json.loads(text)["cells"]
