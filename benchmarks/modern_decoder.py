"""`make modern-runs`: notebook 09's comparison of the 08 decoder and the modern one.

Trains notebook 08's character model (its size; 820 steps of 32 windows of 128 characters,
AdamW 3e-3 with weight decay 0.01, warm-up 50, cosine decay: notebook 08's learning rate and
schedule, twice its batch) once with its 2017 parts, once with each
modern part swapped in on its own, and once with all of them, for three seeds each; the
same seed gives every model the same training windows, in the same order.
For each run it keeps the held-out bits per character, the training curve, and the bits per
character by position in windows of 512 on the held-out text, four times the trained context.
Then it times one training step of each model, interleaved, on the same batch.

The results go to transformer_course/modern_results.json (package data, read by
transformer_course/modern_results.py, whose docstring describes the fields), which notebook
09 plots; a run already in that file (same recipe) is not repeated, so an interrupted run
can go on. On a 2-core machine with one PyTorch thread each training run takes 2–3 minutes:
about 50 in all.

    python benchmarks/modern_decoder.py [--seeds 3] [--threads 1] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from transformer_course import corpus, modern  # noqa: E402
from transformer_course.budget import Budget  # noqa: E402
from transformer_course.language_model import bits_per_character, evaluate_bits  # noqa: E402

OUT = ROOT / "transformer_course" / "modern_results.json"
SIZE = dict(d_model=96, n_heads=4, n_layers=3)  # notebook 08's model
RECIPE = dict(steps=820, block_size=128, batch_size=32, lr=3e-3, warmup=50)
LONG = 512  # windows for bits by position: 4 × the trained context
BIN = 16  # positions per point of the length-generalisation curve
CURVE_EVERY = 20  # training steps per point of the stored training curve
OLD = dict(norm="layer", feed_forward="relu", positions="learned")
CONFIGS = {
    "08 model": OLD,
    "+ RMSNorm": OLD | {"norm": "rms"},
    "+ rotary": OLD | {"positions": "rotary"},
    "+ SwiGLU": OLD | {"feed_forward": "swiglu"},
    "+ GQA (2 kv heads)": OLD | {"n_kv_heads": 2},
    "modern (all four)": {"n_kv_heads": 2},
}


def build(name: str, vocab_size: int, seed: int) -> modern.ModernLM:
    torch.manual_seed(seed)
    return modern.ModernLM(vocab_size, **SIZE, max_len=LONG, **CONFIGS[name])


@torch.no_grad()
def mean_share(model: modern.ModernLM, data: torch.Tensor) -> float:
    """At the inputs of every layer norm, over held-out windows: the mean over tokens of
    μ² / mean(x²), the share of a vector's mean square that its mean makes up — what
    subtracting the mean (which RMSNorm leaves out) removes."""
    shares = []
    hooks = [
        m.register_forward_pre_hook(
            lambda _, args: shares.append(
                (args[0].mean(-1) ** 2 / args[0].pow(2).mean(-1)).mean().item()
            )
        )
        for m in model.modules()
        if isinstance(m, torch.nn.LayerNorm)
    ]
    n = (len(data) - 1) // RECIPE["block_size"]
    model(data[: min(n, 64) * RECIPE["block_size"]].view(-1, RECIPE["block_size"]))
    for hook in hooks:
        hook.remove()
    return statistics.mean(shares)


def run(name: str, seed: int, train: torch.Tensor, held_out: torch.Tensor, vocab_size: int):
    model = build(name, vocab_size, seed)
    start = time.perf_counter()
    bits = modern.train_for(
        {name: model},
        train,
        Budget(RECIPE["steps"], desc=f"{name}, seed {seed}"),
        RECIPE["block_size"],
        RECIPE["batch_size"],
        RECIPE["lr"],
        RECIPE["warmup"],
        seed=seed,
    )[name]
    seconds = time.perf_counter() - start
    by_position = modern.bits_by_position(model, held_out, LONG)
    result = {
        "parameters": sum(p.numel() for p in model.parameters()),
        "held_out_bits": round(evaluate_bits(model, held_out, RECIPE["block_size"]), 4),
        "curve": [
            round(statistics.mean(bits[i : i + CURVE_EVERY]), 3)
            for i in range(0, len(bits), CURVE_EVERY)
        ],
        "bits_by_position": [round(x, 3) for x in by_position.view(-1, BIN).mean(1).tolist()],
        "seconds": round(seconds, 1),
    }
    if CONFIGS[name].get("norm", "rms") == "layer":
        result["mean_share_at_norms"] = round(mean_share(model, held_out), 4)
    return result


def step_times(vocab_size: int, train: torch.Tensor, rounds: int = 15) -> dict[str, float]:
    """Median seconds per training step (forward, backward, AdamW), the models interleaved
    so that a busy machine slows them alike."""
    models = {name: build(name, vocab_size, 0) for name in CONFIGS}
    optimizers = {name: torch.optim.AdamW(m.parameters(), 1e-3) for name, m in models.items()}
    x, y = corpus.random_windows(
        train, RECIPE["block_size"], RECIPE["batch_size"], torch.Generator().manual_seed(0)
    )
    times = {name: [] for name in models}
    for round_ in range(rounds + 2):
        for name, model in models.items():
            start = time.perf_counter()
            loss = bits_per_character(model(x), y)
            optimizers[name].zero_grad()
            loss.backward()
            optimizers[name].step()
            if round_ >= 2:  # the first rounds warm up
                times[name].append(time.perf_counter() - start)
    return {name: round(statistics.median(t), 4) for name, t in times.items()}


def saved(path: Path | None = None) -> dict:
    """The results in ``path`` (default ``OUT``) if they were run with this recipe and size,
    else {}."""
    path = path or OUT
    if not path.exists():
        return {}
    results = json.loads(path.read_text(encoding="utf-8"))
    same = results.get("recipe") == RECIPE and results.get("size") == SIZE
    return results if same else {}


def write(results: dict, path: Path | None = None) -> None:
    """``results`` as JSON in ``path`` (default ``OUT``), replaced whole: a run stopped while
    writing leaves the previous file."""
    path = path or OUT
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--out",
        type=Path,
        default=OUT,
        help="the JSON file to write (and to go on from); default: %(default)s",
    )
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    text = corpus.load_corpus()
    vocab = corpus.vocabulary(text.train)
    train = corpus.encode(text.train, vocab)
    held_out = corpus.encode(text.held_out, vocab)
    results = saved(args.out) or {
        "recipe": RECIPE,
        "size": SIZE,
        "long": LONG,
        "bin": BIN,
        "curve_every": CURVE_EVERY,
        "runs": {},
    }
    results["machine"] = (
        f"{platform.python_version()} (Python), PyTorch {torch.__version__}, "
        f"{args.threads} thread(s)"
    )
    for seed in range(args.seeds):
        for name in CONFIGS:
            runs = results["runs"].setdefault(name, {})
            if str(seed) in runs:
                continue
            runs[str(seed)] = run(name, seed, train, held_out, len(vocab))
            print(
                f"{name}, seed {seed}: {runs[str(seed)]['held_out_bits']:.4f} bits per "
                f"character held out ({runs[str(seed)]['seconds']:.0f} s)",
                flush=True,
            )
            write(results, args.out)
    results["seconds_per_step"] = step_times(len(vocab), train)
    write(results, args.out)
    out = args.out.resolve()
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")


if __name__ == "__main__":
    main()
