"""Training the character language model, and scoring it in bits per character.

The loss is the cross-entropy in bits (``bits_per_character``). ``train`` is notebook 08's
loop; its batches come from ``Batches``, which draws the same windows for the same step, so
that a run resumed from a checkpoint (``save_checkpoint``, ``load_checkpoint``) goes on as if
it had never stopped. ``train_language_model`` is the recipe around it (AdamW, cosine
warm-up), ``evaluate_bits`` the held-out score. ``make lm-curve`` trains longer with the same
code: its cost is ``flops_per_character``, its curve ``training_curve`` (lm_curve.csv).

Shapes: data 1-D int64 indices; batches (B, T) inputs and targets; logits (B, T, V).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import torch
import torch.nn as nn
import torch.nn.functional as F

from .adamw import parameter_groups
from .corpus import random_windows
from .progress import progress_bar
from .schedules import cosine_warmup

if TYPE_CHECKING:  # only named in signatures: language_model imports this module
    from .language_model import CharLM

__all__ = [
    "Batches",
    "bits_per_character",
    "evaluate_bits",
    "flops_per_character",
    "load_checkpoint",
    "save_checkpoint",
    "train",
    "train_language_model",
    "training_curve",
]


def bits_per_character(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy in bits: logits (..., V), targets (...) int64 -> () tensor."""
    return F.cross_entropy(logits.flatten(0, -2), targets.flatten()) / math.log(2)


class Batches:
    """``batches(step)`` -> (inputs, targets) (B, T): ``batch_size`` random windows of
    ``data``, drawn from a generator seeded by ``seed`` and the step. The same step always
    gets the same batch, so a run resumed from a checkpoint sees the batches it would have
    seen without stopping."""

    def __init__(
        self,
        data: torch.Tensor,
        block_size: int,
        batch_size: int,
        seed: int = 0,
        device: torch.device | str = "cpu",
    ):
        self.data, self.block_size, self.batch_size = data, block_size, batch_size
        self.seed, self.device = seed, device

    def __call__(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        generator = torch.Generator().manual_seed(self.seed * 1_000_003 + step)
        inputs, targets = random_windows(self.data, self.block_size, self.batch_size, generator)
        return inputs.to(self.device), targets.to(self.device)


def train(
    model: nn.Module,
    optimizer,
    scheduler,
    batches: Callable,
    steps: Iterable[int],
    evaluate: Callable | None = None,
    every: int = 100,
    clip: float = 1.0,
) -> dict:
    """The training loop (notebook 08's exercise). For each step number in ``steps`` (a
    range, or a ``Budget`` that also stops at a time limit): ``batches(step)``, the loss in
    bits per character, zero the gradients, backward, clip their norm to ``clip``, the
    optimiser's step, the scheduler's step. After each update that completes a multiple of
    ``every`` steps, ``evaluate(model)`` (if given) is recorded.

    -> {"bits": [each step's training loss, a float], "held_out": [(steps done, evaluate's
    value), ...]}
    """
    history: dict[str, list] = {"bits": [], "held_out": []}
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history


def save_checkpoint(path, model: nn.Module, optimizer, scheduler, step: int) -> None:
    """Everything a resumed run needs: the weights, the optimiser's moments, the schedule's
    position and the number of steps done."""
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
        },
        path,
    )


def load_checkpoint(path, model: nn.Module, optimizer, scheduler) -> int:
    """Restore a checkpoint into these (freshly made) objects; -> the steps it had done."""
    state = torch.load(path, weights_only=True)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    return state["step"]


def flops_per_character(model: CharLM) -> int:
    """Training FLOPs per character, 6·N (forward 2·N, backward 4·N), where N counts the
    parameters every character multiplies: all but the position embedding (a lookup). The
    attention scores' own work, about 6·n_layers·T·d_model more, is left out."""
    position = model.position_embedding.weight.numel()
    return 6 * (sum(p.numel() for p in model.parameters()) - position)


def training_curve() -> dict[str, list]:
    """The held-out curve of ``make lm-curve`` (benchmarks/lm_curve.py: notebook 08's model
    trained longer with the same code): {column: values} for ``step``, ``characters``,
    ``epochs``, ``flops``, ``seconds`` and ``held_out_bits``, and ``notes``, the file's
    comment lines (what was run, on what machine)."""
    lines = Path(__file__).with_name("lm_curve.csv").read_text().splitlines()
    notes = [line[1:].strip() for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    columns = {name: [float(row[name]) for row in rows] for name in rows[0]}
    return columns | {"notes": notes}


def train_language_model(
    model: CharLM,
    data: torch.Tensor,
    steps: int,
    block_size: int = 128,
    batch_size: int = 32,
    lr: float = 3e-3,
    warmup: int = 50,
    clip: float = 1.0,
    seed: int = 0,
    progress: bool = True,
    weight_decay: float = 0.1,
) -> dict[str, list[float]]:
    """Train on random windows of ``data`` (1-D indices) with ``train``, AdamW
    (``parameter_groups``) and notebook 07's cosine warm-up (``warmup`` steps, then a cosine
    decay to 0); returns the history per step: ``bits`` (the batch's bits per character) and
    ``lr``."""
    device = next(model.parameters()).device
    model.train()
    optimizer = torch.optim.AdamW(parameter_groups(model, weight_decay), lr=lr, betas=(0.9, 0.99))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_warmup(warmup, steps))
    batches = Batches(data, block_size, batch_size, seed, device)
    history: dict[str, list[float]] = {"bits": [], "lr": []}
    for step in progress_bar(range(steps), "training", disable=not progress, mininterval=1.0):
        history["lr"].append(optimizer.param_groups[0]["lr"])
        history["bits"] += train(model, optimizer, scheduler, batches, [step], clip=clip)["bits"]
    model.eval()
    return history


@torch.no_grad()
def evaluate_bits(
    model: nn.Module,
    data: torch.Tensor,
    block_size: int = 128,
    stride: int | None = None,
    first: int = 1,
    batch_size: int = 64,
) -> float:
    """Bits per character over ``data[first:]``, each character predicted from the ones
    before it inside a window of ``block_size``.

    ``stride`` None: consecutive windows that do not overlap; a character at offset i of its
    window is predicted from the i before it (0 for the first of each window). ``stride`` s <
    ``block_size``: windows s apart, each scoring only the characters no earlier window
    scored, so that every character after the first window has at least ``block_size`` - s
    before it, at block_size / s times the work. The model's train/eval mode is restored.
    """
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    n = len(data)
    size = min(block_size, n - 1)
    stride = size if stride is None else stride
    starts = list(range(0, n - size, stride))
    if starts[-1] + size < n - 1:  # one last window, flush with the end
        starts.append(n - 1 - size)
    # window w scores targets data[lo + 1 .. w + size], those after the ones scored before
    lows, covered = [], first - 1
    for w in starts:
        lows.append(max(covered, w))
        covered = max(covered, w + size)
    total, count = 0.0, 0
    for i in range(0, len(starts), batch_size):
        chunk = torch.tensor(starts[i : i + batch_size])
        rows = chunk[:, None] + torch.arange(size)
        logits = model(data[rows].to(device))
        log_p = -torch.log_softmax(logits.double(), -1).gather(
            -1, data[rows + 1].to(device)[..., None]
        )[..., 0]
        targets = rows + 1
        scored = targets > torch.tensor(lows[i : i + batch_size])[:, None]
        total += log_p[scored.to(device)].sum().item()
        count += int(scored.sum())
    model.train(was_training)
    return total / count / math.log(2)
