"""`make bench`: how fast the course runs and how close the package is to PyTorch's kernels.

Writes benchmarks/results.md and benchmarks/*.png, puts the same tables in docs/performance.md
(between its bench markers, ``docs_tables.splice``), and prints them. Takes a few minutes on a
2-core machine.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import course_execution  # noqa: E402
import loop_vs_matrix  # noqa: E402
from attention_kernels import BATCH, D_MODEL, N_HEADS  # noqa: E402
from docs_tables import splice  # noqa: E402

SEQ_LENS = (128, 512, 2048)
REPEATS = {128: 20, 512: 10, 2048: 5}
CORE = ("F.scaled_dot_product_attention", "package attention", "package explicit attention")
MODULES = ("nn.MultiheadAttention", "package MultiHeadAttention")
NOTEBOOK_RUNS = 3


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    threads = torch.get_num_threads()
    return (
        f"{cpu}, {os.cpu_count()} cores ({threads} PyTorch threads), "
        f"Python {platform.python_version()}, PyTorch {torch.__version__}"
    )


def kernel_results() -> dict:
    """{(implementation, T): measurement}, one process per sequence length."""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="65536")  # freed tensors go back to the OS
    results = {}
    for seq_len in SEQ_LENS:
        command = [
            sys.executable,
            str(HERE / "attention_kernels.py"),
            str(seq_len),
            str(REPEATS[seq_len]),
        ]
        line = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        for result in json.loads(line.stdout):
            results[result["implementation"], seq_len] = result
            print(
                f"  {result['implementation']:32s} T={seq_len:5d}: "
                f"{result['median_ms']:8.1f} ms, peak +{result['peak_mib']:.0f} MiB",
                flush=True,
            )
    return results


def ok(flag: bool) -> str:
    return "✓" if flag else "✗"


def kernel_tables(results: dict) -> str:
    lines = [
        f"Attention core: batch {BATCH}, {N_HEADS} heads, d_head {D_MODEL // N_HEADS}, float32, "
        "forward, median time; peak = rise of resident memory during one call.",
        "",
        "| T | SDPA ms | package ms | ratio (goal ≤ 1.05) | explicit ms | ratio | SDPA peak MiB "
        "| package peak MiB | ratio (goal ≤ 1.05) | explicit peak MiB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for t in SEQ_LENS:
        sdpa, pkg, exp = (results[name, t] for name in CORE)
        time_ratio = pkg["median_ms"] / sdpa["median_ms"]
        mem_ratio = pkg["peak_mib"] / sdpa["peak_mib"]
        lines.append(
            f"| {t} | {sdpa['median_ms']:.1f} | {pkg['median_ms']:.1f} | {time_ratio:.2f} "
            f"{ok(time_ratio <= 1.05)} | {exp['median_ms']:.1f} | "
            f"{exp['median_ms'] / sdpa['median_ms']:.1f}× | {sdpa['peak_mib']:.0f} | "
            f"{pkg['peak_mib']:.0f} | {mem_ratio:.2f} {ok(mem_ratio <= 1.05)} | "
            f"{exp['peak_mib']:.0f} |"
        )
    lines += [
        "",
        f"Multi-head module: batch {BATCH}, d_model {D_MODEL}, {N_HEADS} heads, eval mode, same "
        "weights in both.",
        "",
        "| T | nn.MultiheadAttention ms | package ms | speed-up (goal ≥ 1.3 at T ≥ 512, ≥ 1 "
        "always) | nn.MultiheadAttention peak MiB | package peak MiB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for t in SEQ_LENS:
        torch_mha, pkg = (results[name, t] for name in MODULES)
        speedup = torch_mha["median_ms"] / pkg["median_ms"]
        goal = speedup >= (1.3 if t >= 512 else 1.0)
        lines.append(
            f"| {t} | {torch_mha['median_ms']:.1f} | {pkg['median_ms']:.1f} | {speedup:.2f} "
            f"{ok(goal)} | {torch_mha['peak_mib']:.0f} | {pkg['peak_mib']:.0f} |"
        )
    lines += [
        "",
        "How to read it: the package's attention is `F.scaled_dot_product_attention` behind one "
        "Python call, so its ratios are 1 up to measurement noise. The explicit path (the one "
        "that returns weights for plots) keeps three (B, H, T, T) tensors at once — scores, "
        "exponentials, weights — which is its memory column; it refuses sizes that would not fit "
        "in free memory. `nn.MultiheadAttention`'s peak grows with T² like the explicit path: on "
        "the CPU its attention core materialises the weights, while the package's module hands "
        "the core to the fused kernel — hence the speed-up.",
    ]
    return "\n".join(lines)


def notebook_table() -> str:
    floor = course_execution.median_seconds(None, NOTEBOOK_RUNS, grading=False)
    lines = [
        f"Solution notebooks executed headless (nbclient), median of {NOTEBOOK_RUNS} runs. "
        f"Floor (kernel start + `import torch` + the package): {floor:.2f} s.",
        "",
        "| notebook | as a student runs it (s) | ratio to floor | under nbgrader (s) "
        "| ratio to floor |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    totals = [0.0, 0.0]
    for path in course_execution.solution_notebooks():
        student = course_execution.median_seconds(path, NOTEBOOK_RUNS, grading=False)
        grading = course_execution.median_seconds(path, NOTEBOOK_RUNS, grading=True)
        totals[0] += student
        totals[1] += grading
        print(f"  {path.stem}: {student:.1f} s, under nbgrader {grading:.1f} s", flush=True)
        lines.append(
            f"| {path.stem} | {student:.1f} | {student / floor:.1f}× | {grading:.1f} | "
            f"{grading / floor:.1f}× |"
        )
    lines.append(f"| **total** | {totals[0]:.1f} | | {totals[1]:.1f} | |")
    return "\n".join(lines)


def loop_table_and_plot(rows: list[dict]) -> str:
    lines = [
        "Notebook 01's loop (one query at a time) against the matrix form, d_k 64, best of 7.",
        "",
        "| T | loop ms | matrix ms | SDPA ms | loop / matrix |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['seq_len']} | {r['loop_ms']:.2f} | {r['matrix_ms']:.2f} | {r['sdpa_ms']:.2f} | "
            f"{r['loop_ms'] / r['matrix_ms']:.1f}× |"
        )
    fig, ax = plt.subplots(figsize=(6, 3.8))
    lengths = [r["seq_len"] for r in rows]
    for key, label in [
        ("loop_ms", "loop over queries"),
        ("matrix_ms", "matrix form"),
        ("sdpa_ms", "F.scaled_dot_product_attention"),
    ]:
        ax.loglog(lengths, [r[key] for r in rows], "o-", label=label)
    ax.set_xscale("log", base=2)
    ax.set_xticks(lengths, [str(t) for t in lengths])
    ax.set_xlabel("sequence length T")
    ax.set_ylabel("ms (best of 7)")
    ax.set_title("Loop vs matrix form (d_k = 64)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(HERE / "loop_vs_matrix.png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    return "\n".join(lines + ["", "![loop vs matrix](benchmarks/loop_vs_matrix.png)"])


def kernel_plot(results: dict) -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    for name in CORE + MODULES:
        left.loglog(SEQ_LENS, [results[name, t]["median_ms"] for t in SEQ_LENS], "o-", label=name)
        right.loglog(
            SEQ_LENS, [max(results[name, t]["peak_mib"], 0.1) for t in SEQ_LENS], "o-", label=name
        )
    for ax, label in [(left, "median ms"), (right, "peak rise (MiB)")]:
        ax.set_xscale("log", base=2)
        ax.set_xticks(SEQ_LENS, [str(t) for t in SEQ_LENS])
        ax.set_xlabel("sequence length T")
        ax.set_ylabel(label)
    left.set_title("Forward time")
    right.set_title("Peak memory")
    left.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(HERE / "attention_kernels.png", dpi=110, metadata={"Software": None})
    plt.close(fig)


def main() -> None:
    print("Course execution...", flush=True)
    course = notebook_table()
    print("Attention kernels...", flush=True)
    kernels = kernel_results()
    kernel_plot(kernels)
    print("Loop vs matrix...", flush=True)
    loops = loop_table_and_plot(loop_vs_matrix.measure())
    section = "\n\n".join(
        [
            f"Measured by `make bench` on {machine()}.",
            "### Course execution\n\n" + course,
            "### Attention kernels\n\n"
            + kernel_tables(kernels)
            + "\n\n![attention kernels](benchmarks/attention_kernels.png)",
            "### Loop vs matrix\n\n" + loops,
        ]
    )
    (HERE / "results.md").write_text(
        "# Benchmark results\n\n" + section.replace("(benchmarks/", "(") + "\n"
    )
    # Figures are linked from the section's own page: docs/ is a folder beside benchmarks/.
    splice("bench", section.replace("](benchmarks/", "](../benchmarks/"))
    print()
    print(section)


if __name__ == "__main__":
    main()
