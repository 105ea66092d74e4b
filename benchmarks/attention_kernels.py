"""Time and peak memory of every attention implementation at one size, in a fresh process.

    python benchmarks/attention_kernels.py SEQ_LEN [REPEATS]  ->  one JSON line

Run by benchmarks/run.py, one process per sequence length. Peak
memory is the rise of the process's resident set (VmHWM after a reset, minus VmRSS before the
call); run.py sets MALLOC_MMAP_THRESHOLD_ so that freed tensors go back to the system and the
rise reflects what the call itself allocated. Linux only.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time

import torch
import torch.nn.functional as F

from transformer_course.attention import explicit_attention, scaled_dot_product_attention
from transformer_course.multihead import MultiHeadAttention, to_torch

BATCH, N_HEADS, D_MODEL = 8, 8, 512
D_HEAD = D_MODEL // N_HEADS
PEAK_REPEATS = 3


def _status_mib(key: str) -> float:
    text = open("/proc/self/status").read()
    return int(re.search(rf"{key}:\s+(\d+) kB", text).group(1)) / 1024


def peak_rise_mib(fn) -> float:
    """How far the resident memory rises above its current level while ``fn()`` runs."""
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")  # reset the high-water mark VmHWM to the current VmRSS
    before = _status_mib("VmRSS")
    fn()
    return _status_mib("VmHWM") - before


def cases(seq_len: int) -> dict:
    """Every implementation as a zero-argument callable on inputs of length ``seq_len``."""
    generator = torch.Generator().manual_seed(0)
    q, k, v = torch.randn(3, BATCH, N_HEADS, seq_len, D_HEAD, generator=generator)
    x = torch.randn(BATCH, seq_len, D_MODEL, generator=generator)
    torch.manual_seed(0)
    package_mha = MultiHeadAttention(D_MODEL, N_HEADS).eval()
    torch_mha = to_torch(package_mha).eval()  # the same weights
    return {
        "F.scaled_dot_product_attention": lambda: F.scaled_dot_product_attention(q, k, v),
        "package attention": lambda: scaled_dot_product_attention(q, k, v),
        "package explicit attention": lambda: explicit_attention(q, k, v),
        "nn.MultiheadAttention": lambda: torch_mha(x, x, x, need_weights=False),
        "package MultiHeadAttention": lambda: package_mha(x),
    }


def measure(seq_len: int, repeats: int) -> list[dict]:
    """Every implementation at one size. Repetitions are interleaved (A, B, C, A, B, C, ...),
    so a slow moment of the machine is shared by all of them instead of skewing one ratio."""
    functions = cases(seq_len)
    times = {name: [] for name in functions}
    peaks = {name: [] for name in functions}
    with torch.inference_mode():
        for fn in functions.values():
            fn()  # warm-up: first-call allocations and kernel selection
        for _ in range(PEAK_REPEATS):  # page-level noise is about 0.1 MiB: take a median
            for name, fn in functions.items():
                peaks[name].append(peak_rise_mib(fn))
        for _ in range(repeats):
            for name, fn in functions.items():
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    return [
        {
            "implementation": name,
            "seq_len": seq_len,
            "median_ms": 1e3 * statistics.median(times[name]),
            "peak_mib": statistics.median(peaks[name]),
            "repeats": repeats,
        }
        for name in functions
    ]


if __name__ == "__main__":
    length = int(sys.argv[1])
    print(json.dumps(measure(length, repeats=int(sys.argv[2]) if len(sys.argv) > 2 else 5)))
