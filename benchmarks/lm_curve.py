"""`make lm-curve`: notebook 08's language model trained for longer, with the same code.

Where does the Transformer overtake the best count-based model? The notebook trains for a
minute; this script trains the same model with the same recipe (``language_model.train``,
AdamW on the matrices, notebook 07's cosine warm-up) for 4,000 steps (or ``--seconds`` of
training, 480 by default, if that comes first: the file says how far it got),
and scores it on the held-out text every so often (at 25, 50, 100, … steps, and at the end),
exactly as the notebook scores its n-gram baselines: every character from the eighth on,
in sliding windows. The curve goes to ``transformer_course/lm_curve.csv`` (small, and
shipped with the package, so that the notebook plots it on Colab too): steps, characters
seen, epochs, training FLOPs (6·N per character), training seconds and held-out bits.

    python benchmarks/lm_curve.py                      # 4 to 9 minutes (make lm-curve)
    python benchmarks/lm_curve.py --batch-sizes 16 32  # the batch-size comparison

A run that the time limit stops is saved in a checkpoint (benchmarks/lm_curve.pt: model,
optimiser, scheduler, steps done, the curve so far): the next ``make lm-curve`` goes on
from there, exactly as if it had not stopped, until the 4,000 steps are done (``--fresh``
starts over). The file is written at the end of every invocation, and says how far it got.

The second form trains one model per batch size and seed on the same number of characters
(the same compute) and writes the held-out bits and CPU seconds of each to
benchmarks/lm_batch_size.md.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import platform
import sys
import time
from pathlib import Path

import torch

from transformer_course import corpus, language_model
from transformer_course.language_model import Batches, CharLM, evaluate_bits, train
from transformer_course.schedules import cosine_warmup

HERE = Path(__file__).resolve().parent
CURVE = HERE.parent / "transformer_course" / "lm_curve.csv"
CHECKPOINT = HERE / "lm_curve.pt"
BATCH_TABLE = HERE / "lm_batch_size.md"

# Notebook 08's model and recipe (its training cell says the same).
MODEL = {"d_model": 96, "n_heads": 4, "n_layers": 3, "max_len": 128}
BLOCK, BATCH, LR, WARMUP, WEIGHT_DECAY, CLIP = 128, 16, 3e-3, 50, 0.1, 1.0
STRIDE, FIRST = 32, 7  # held-out scoring: sliding windows, every character from the eighth


def setup(seed: int, scale: float = 1.0):
    text = corpus.load_corpus(scale=scale)
    vocab = corpus.vocabulary(text.train)
    train_ids, held_out = (corpus.encode(t, vocab) for t in (text.train, text.held_out))
    torch.manual_seed(seed)
    return train_ids, held_out, CharLM(len(vocab), **MODEL)


def optimiser(model: CharLM, steps: int, batch: int):
    optimizer = torch.optim.AdamW(
        language_model.parameter_groups(model, WEIGHT_DECAY), lr=LR, betas=(0.9, 0.99)
    )
    warmup = max(1, WARMUP * BATCH // batch)  # the same number of characters
    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_warmup(warmup, steps))


def curve(
    total: int,
    seconds: float,
    fresh: bool = False,
    checkpoint: Path = CHECKPOINT,
    seed: int = 0,
    scale: float = 1.0,
) -> list[dict]:
    """Train (or go on training) up to ``total`` steps within ``seconds``; -> the curve so far."""
    train_ids, held_out, model = setup(seed, scale)
    optimizer, scheduler = optimiser(model, total, BATCH)
    batches = Batches(train_ids, BLOCK, BATCH, seed)
    flops = language_model.flops_per_character(model)
    marks = sorted({min(total, 25 * 2**i) for i in range(20)} | {total})
    rows, done, trained = [], 0, 0.0
    if checkpoint.exists() and not fresh:
        saved = torch.load(checkpoint, weights_only=False)
        if saved["total"] == total:
            done = language_model.load_checkpoint(checkpoint, model, optimizer, scheduler)
            rows, trained = saved["rows"], saved["trained"]
            print(f"going on from the checkpoint: step {done}, {trained:.0f} s trained")
    print(
        f"{total} steps, or {seconds:.0f} s of training in this run if that comes first; "
        f"{flops / 6:,.0f} parameters multiply every character",
        flush=True,
    )
    budget_end = trained + seconds
    for mark in (m for m in marks if m > done):
        start = time.perf_counter()
        done += len(
            train(
                model,
                optimizer,
                scheduler,
                batches,
                _until(range(done, mark), start, budget_end - trained),
            )["bits"]
        )
        trained += time.perf_counter() - start
        characters = done * BATCH * BLOCK
        row = {
            "step": done,
            "characters": characters,
            "epochs": round(characters / len(train_ids), 4),
            "flops": characters * flops,
            "seconds": round(trained, 1),
            "held_out_bits": round(evaluate_bits(model, held_out, BLOCK, STRIDE, FIRST), 4),
        }
        rows.append(row)
        print(row, flush=True)
        if done < mark:  # out of time: save everything for the next invocation
            language_model.save_checkpoint(checkpoint, model, optimizer, scheduler, done)
            state = torch.load(checkpoint, weights_only=False)
            torch.save(state | {"rows": rows, "trained": trained, "total": total}, checkpoint)
            print(f"stopped at step {done} of {total}: run it again to go on ({checkpoint.name})")
            return rows
    checkpoint.unlink(missing_ok=True)
    return rows


def _until(steps, start: float, seconds: float):
    for step in steps:
        if time.perf_counter() - start > seconds:
            return
        yield step


def write_curve(rows: list[dict], steps: int, seconds: float, path: Path = CURVE) -> None:
    header = [
        "# notebook 08's model trained by benchmarks/lm_curve.py (make lm-curve)",
        f"# model {MODEL}, batch {BATCH} x {BLOCK} characters, AdamW lr {LR}, weight decay "
        f"{WEIGHT_DECAY} on matrices, warm-up {WARMUP}, clip {CLIP}",
        f"# held-out: every character from index {FIRST} on, sliding windows of {BLOCK}, "
        f"stride {STRIDE}",
        f"# {rows[-1]['step']} of {steps} steps in {seconds:.0f} s of training on {machine()}, "
        f"{load()} at the end",
    ]
    with path.open("w", newline="") as out:
        out.write("\n".join(header) + "\n")
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {path}")


def batch_sizes(sizes: list[int], seeds: list[int], characters: int) -> None:
    lines = [
        "# Batch size at the same compute",
        "",
        f"Notebook 08's model and recipe, {characters:,} training characters per run (the "
        "same FLOPs), held-out bits as the notebook scores them. Measured by "
        f"`python benchmarks/lm_curve.py --batch-sizes` on {machine()}, {load()} at the "
        "start (CPU seconds compare the runs fairly on a busy machine; wall seconds do "
        "not).",
        "",
        "| batch | steps | seed | held-out bits | CPU s | wall s |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for batch in sizes:
        for seed in seeds:
            train_ids, held_out, model = setup(seed)
            steps = characters // (batch * BLOCK)
            optimizer, scheduler = optimiser(model, steps, batch)
            cpu, wall = time.process_time(), time.perf_counter()
            train(model, optimizer, scheduler, Batches(train_ids, BLOCK, batch, seed), range(steps))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            bits = evaluate_bits(model, held_out, BLOCK, STRIDE, FIRST)
            lines.append(f"| {batch} | {steps} | {seed} | {bits:.3f} | {cpu:.0f} | {wall:.0f} |")
            print(lines[-1], flush=True)
    lines += ["", f"At the end: {load()}."]
    BATCH_TABLE.write_text("\n".join(lines) + "\n")
    print(f"wrote {BATCH_TABLE}")


def load() -> str:
    """What else the machine was doing: its load averages over 1, 5 and 15 minutes."""
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    for line in (
        Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    ):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    return (
        f"{cpu}, {os.cpu_count()} cores, "
        f"{torch.get_num_threads()} PyTorch thread(s), PyTorch {torch.__version__}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=4000, help="training steps (default 4000)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=480,
        help="stop training after this long if the steps are not done (480)",
    )
    parser.add_argument("--threads", type=int, help="PyTorch threads (default: the course's)")
    parser.add_argument("--batch-sizes", type=int, nargs="*", help="compare these instead")
    parser.add_argument("--seeds", type=int, nargs="*", default=[0, 1])
    parser.add_argument("--characters", type=int, default=BATCH * BLOCK * 1200)
    parser.add_argument("--out", type=Path, default=CURVE, help="where the curve goes")
    parser.add_argument("--fresh", action="store_true", help="ignore a saved checkpoint")
    parser.add_argument("--scale", type=float, default=1.0, help="a share of the text (tests)")
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=CHECKPOINT,
        help="where an unfinished run is kept between invocations",
    )
    args = parser.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.batch_sizes:
        batch_sizes(args.batch_sizes, args.seeds, args.characters)
        return 0
    rows = curve(args.steps, args.seconds, args.fresh, args.checkpoint, scale=args.scale)
    write_curve(rows, args.steps, rows[-1]["seconds"], args.out)
    best = min(r["held_out_bits"] for r in rows)
    print(
        f"best held-out: {best:.3f} bits per character after "
        f"{math.ceil(rows[-1]['epochs'] * 10) / 10} epochs"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
