"""Notebook 09's measured comparison (`make modern-runs`): the JSON shipped with the package
holds what the notebook's cells and plots read, and benchmarks/modern_decoder.py writes a
file that the loader reads back and that a later run goes on from (at a tiny size)."""

from __future__ import annotations

import importlib.util
import json
import math

import pytest
import torch
from conftest import REPO

from transformer_course import corpus, modern_results
from transformer_course.modern_results import RESULTS, load_modern_results

NAMES = ["08 model", "+ RMSNorm", "+ rotary", "+ SwiGLU", "+ GQA (2 kv heads)", "modern (all four)"]


def benchmark():
    spec = importlib.util.spec_from_file_location(
        "modern_decoder", REPO / "benchmarks" / "modern_decoder.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def assert_holds_what_notebook_09_reads(results: dict, seeds: int) -> None:
    """Every field the notebook's cells read, of the types and lengths they assume."""
    recipe = results["recipe"]
    assert all(isinstance(recipe[k], int) for k in ("steps", "block_size", "batch_size", "warmup"))
    assert finite(recipe["lr"])
    assert all(isinstance(results["size"][k], int) for k in ("d_model", "n_heads", "n_layers"))
    assert all(
        isinstance(results[k], int) and results[k] > 0 for k in ("long", "bin", "curve_every")
    )
    assert results["long"] % results["bin"] == 0
    assert isinstance(results["machine"], str) and "PyTorch" in results["machine"]
    runs = results["runs"]
    assert list(runs) == NAMES  # the notebook's colours and rows follow this order
    assert list(results["seconds_per_step"]) == NAMES
    assert all(finite(t) and t > 0 for t in results["seconds_per_step"].values())
    curve_points = math.ceil(recipe["steps"] / results["curve_every"])
    for name, by_seed in runs.items():
        assert list(by_seed) == [str(seed) for seed in range(seeds)], name
        for seed, run in by_seed.items():
            where = f"{name}, seed {seed}"
            assert isinstance(run["parameters"], int) and run["parameters"] > 0, where
            assert finite(run["held_out_bits"]) and run["held_out_bits"] > 0, where
            assert finite(run["seconds"]) and run["seconds"] >= 0, where  # 0.0 at a tiny size
            assert len(run["curve"]) == curve_points, where
            assert len(run["bits_by_position"]) == results["long"] // results["bin"], where
            assert all(finite(b) and b > 0 for b in run["curve"] + run["bits_by_position"]), where
            # measured at layer norms: every model that keeps them (the 08 model, section 2)
            has_layer_norm = name not in ("+ RMSNorm", "modern (all four)")
            assert ("mean_share_at_norms" in run) == has_layer_norm, where
            if has_layer_norm:
                assert finite(run["mean_share_at_norms"]) and 0 <= run["mean_share_at_norms"] < 1
        # the same model has the same parameters whatever the seed
        assert len({run["parameters"] for run in by_seed.values()}) == 1, name


def test_the_comparison_shipped_with_the_package_holds_what_notebook_09_plots():
    assert modern_results.PATH.name == "modern_results.json"
    assert modern_results.PATH.parent == REPO / "transformer_course"
    assert load_modern_results() == RESULTS
    assert_holds_what_notebook_09_reads(RESULTS, seeds=3)
    benchmark_ = benchmark()
    assert RESULTS["recipe"] == benchmark_.RECIPE and RESULTS["size"] == benchmark_.SIZE
    assert (RESULTS["long"], RESULTS["bin"], RESULTS["curve_every"]) == (
        benchmark_.LONG,
        benchmark_.BIN,
        benchmark_.CURVE_EVERY,
    )
    # The notebook's plots and sentences: the held-out dots inside its x-axis (2.2–2.75); the
    # bits by position on both sides of the trained context (0–127, 256–511); and the rotary
    # and modern models' mean training curves reaching the 08 model's final point.
    runs = RESULTS["runs"]
    assert all(
        2.2 < run["held_out_bits"] < 2.75 for by_seed in runs.values() for run in by_seed.values()
    )
    assert RESULTS["long"] >= 256 + RESULTS["bin"]
    mean_curves = {
        name: torch.tensor([run["curve"] for run in runs[name].values()]).mean(0) for name in runs
    }
    final_08 = mean_curves["08 model"][-1]
    for name in ("+ rotary", "modern (all four)"):
        assert (mean_curves[name] <= final_08).any(), name


@pytest.mark.slow  # trains the six models for a few steps
def test_the_benchmark_writes_json_that_reads_back_and_a_later_run_goes_on(tmp_path, monkeypatch):
    """`make modern-runs` at a tiny size (a few steps, a fiftieth of the text, windows of 32):
    its file loads as the package loads the shipped one, holds what the notebook reads, and a
    second run with more seeds keeps the first run's results and adds the new seed's."""
    bench = benchmark()
    monkeypatch.setattr(
        bench, "RECIPE", dict(steps=5, block_size=16, batch_size=2, lr=3e-3, warmup=2)
    )
    monkeypatch.setattr(bench, "LONG", 32)
    monkeypatch.setattr(bench, "CURVE_EVERY", 2)
    real = corpus.load_corpus
    monkeypatch.setattr(corpus, "load_corpus", lambda: real(scale=0.02))
    out = tmp_path / "results.json"
    threads = torch.get_num_threads()
    try:
        bench.main(["--seeds", "1", "--threads", "1", "--out", str(out)])
        first = load_modern_results(out)
        assert first["recipe"] == bench.RECIPE and first["long"] == 32
        assert_holds_what_notebook_09_reads(first, seeds=1)
        assert len(first["runs"]["08 model"]["0"]["curve"]) == 3  # ceil(5 / 2)
        assert bench.saved(out) == first
        bench.main(["--seeds", "2", "--threads", "1", "--out", str(out)])
    finally:
        torch.set_num_threads(threads)
    second = load_modern_results(out)
    assert_holds_what_notebook_09_reads(second, seeds=2)
    assert all(second["runs"][name]["0"] == first["runs"][name]["0"] for name in NAMES)
    assert not list(tmp_path.glob("*.partial"))
    # Another recipe starts afresh rather than mixing runs.
    monkeypatch.setattr(bench, "RECIPE", bench.RECIPE | {"steps": 6})
    assert bench.saved(out) == {}
    assert bench.saved(tmp_path / "none.json") == {}


def test_the_writer_round_trips_the_shipped_record_byte_for_byte(tmp_path):
    bench = benchmark()
    copy = tmp_path / "copy.json"
    bench.write(RESULTS, copy)
    assert copy.read_bytes() == modern_results.PATH.read_bytes()
    loaded = load_modern_results(copy)
    assert loaded == RESULTS
    assert json.dumps(loaded) == json.dumps(RESULTS)  # key order and int/float kept


@pytest.mark.parametrize("missing", ["held_out_bits", "curve"])
def test_the_structure_check_catches_a_missing_field(missing):
    broken = json.loads(json.dumps(RESULTS))
    del broken["runs"]["+ rotary"]["1"][missing]
    with pytest.raises(KeyError):
        assert_holds_what_notebook_09_reads(broken, seeds=3)
