"""Notebook 01's loop (one query at a time) against the matrix form, for growing T."""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F

from transformer_course.attention import attend_one, explicit_attention

D_K = 64


def loop_attention(Q, K, V):
    return torch.stack([attend_one(q, K, V) for q in Q])


def best_ms(fn, *args, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - start)
    return 1e3 * min(times)


def measure(lengths=(16, 64, 256, 1024, 2048), repeats: int = 7) -> list[dict]:
    generator = torch.Generator().manual_seed(0)
    rows = []
    with torch.inference_mode():
        for seq_len in lengths:
            Q, K, V = torch.randn(3, seq_len, D_K, generator=generator)
            reference = F.scaled_dot_product_attention(Q, K, V)
            row = {"seq_len": seq_len}
            for name, fn in [
                ("loop", loop_attention),
                ("matrix", lambda q, k, v: explicit_attention(q, k, v)[0]),
                ("sdpa", F.scaled_dot_product_attention),
            ]:
                assert torch.allclose(fn(Q, K, V), reference, atol=1e-5), name
                row[f"{name}_ms"] = best_ms(fn, Q, K, V, repeats=repeats)
            rows.append(row)
    return rows
