"""Notebook 09's comparison: decoders trained side by side on the same batches, and scored
by position.

``train_for`` trains several models with one recipe (AdamW, linear warm-up, cosine decay)
for as long as a ``Budget`` lasts, every batch a step of each, so that all of them see the
same characters and stop after the same number of steps. ``bits_by_position`` scores a model
at each position of consecutive windows, which may be longer than those it trained on.
``make modern-runs`` (benchmarks/modern_decoder.py) runs them for modern_results.json.

Shapes: data 1-D int64 indices; models (B, T) -> (B, T, vocab_size).
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .budget import Budget
from .corpus import random_windows
from .lm_training import bits_per_character

__all__ = ["bits_by_position", "train_for"]


def train_for(
    models: dict[str, nn.Module],
    data: torch.Tensor,
    budget: Budget,
    block_size: int = 128,
    batch_size: int = 32,
    lr: float = 3e-3,
    warmup: int = 50,
    clip: float = 1.0,
    seed: int = 0,
) -> dict[str, list[float]]:
    """Train the ``models`` side by side with notebook 09's recipe (AdamW, linear warm-up,
    cosine decay to 0 at ``budget.steps``) for as long as the ``budget`` lasts: every step
    draws one batch of windows and takes one step of each model on it, so all of them see
    the same characters and stop after the same number of steps, whatever the machine.
    -> each model's batch bits per character, step by step."""
    optimizers, schedulers = {}, {}
    steps = budget.steps

    def factor(step: int) -> float:
        return min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))

    for name, model in models.items():
        model.train()
        optimizers[name] = torch.optim.AdamW(
            model.parameters(), lr=lr, betas=(0.9, 0.99), weight_decay=0.01
        )
        schedulers[name] = torch.optim.lr_scheduler.LambdaLR(optimizers[name], factor)
    generator = torch.Generator().manual_seed(seed)
    bits: dict[str, list[float]] = {name: [] for name in models}
    for _ in budget:
        inputs, targets = random_windows(data, block_size, batch_size, generator)
        for name, model in models.items():
            device = next(model.parameters()).device
            loss = bits_per_character(model(inputs.to(device)), targets.to(device))
            optimizers[name].zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
            optimizers[name].step()
            schedulers[name].step()
            bits[name].append(loss.item())
    for model in models.values():
        model.eval()
    return bits


@torch.no_grad()
def bits_by_position(
    model: nn.Module, data: torch.Tensor, length: int, batch_size: int = 16
) -> torch.Tensor:
    """Bits per character at each position 0 … length−1 of consecutive windows of ``data``,
    averaged over the windows -> (length,). Position t is predicted from t + 1 characters."""
    model.eval()
    device = next(model.parameters()).device
    n = (len(data) - 1) // length
    if n == 0:
        raise ValueError(f"{len(data)} characters hold no window of {length} and its target")
    inputs = data[: n * length].view(n, length)
    targets = data[1 : n * length + 1].view(n, length)
    total = torch.zeros(length, dtype=torch.float64)
    for first in range(0, n, batch_size):
        x, y = inputs[first : first + batch_size].to(device), targets[first : first + batch_size]
        logits = model(x).float().cpu()
        nats = F.cross_entropy(logits.transpose(1, 2), y, reduction="none")  # (b, length)
        total += nats.double().sum(dim=0)
    return (total / n / math.log(2)).float()
