"""A small training loop for the encoder–decoder on a toy task, and its evaluation.

Training is teacher-forced (one pass over the whole shifted target); evaluation decodes
greedily, as the model would be used, and counts correct tokens and correct sequences.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from tqdm.auto import tqdm

from .data import SequenceTask
from .transformer import Transformer, greedy_decode, shift_right

__all__ = ["default_device", "evaluate", "train"]


def default_device() -> torch.device:
    """CUDA when a GPU is present, else the CPU: the same code runs on both."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(
    model: Transformer,
    task: SequenceTask,
    steps: int,
    batch_size: int = 64,
    lr: float = 1e-3,
    schedule: Callable[[int], float] | None = None,
    clip: float = 1.0,
    seed: int = 0,
    device: torch.device | str | None = None,
    progress: bool = True,
) -> dict[str, list[float]]:
    """Train with Adam on fresh random batches; returns the history per step.

    ``schedule``, if given, is a ``LambdaLR`` factor: the learning rate at step s is
    ``lr * schedule(s)``. Gradients are clipped to norm ``clip`` (None: no clipping).
    History: ``loss``, ``lr``, ``accuracy`` (teacher-forced token accuracy of the batch).
    """
    device = torch.device(device) if device is not None else default_device()
    model.to(device).train()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98), eps=1e-9)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule or (lambda step: 1.0))
    generator = torch.Generator().manual_seed(seed)
    history: dict[str, list[float]] = {"loss": [], "lr": [], "accuracy": []}
    bar = tqdm(range(steps), desc="training", disable=not progress, mininterval=0.5)
    for _ in bar:
        src, target = task.batch(batch_size, generator, device)
        logits = model(src, shift_right(target, task.start))  # (B, T, vocab)
        loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        history["lr"].append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
        history["loss"].append(loss.item())
        history["accuracy"].append((logits.argmax(-1) == target).float().mean().item())
        bar.set_postfix(loss=f"{history['loss'][-1]:.3f}", refresh=False)
    model.eval()
    return history


@torch.no_grad()
def evaluate(
    model: Transformer,
    task: SequenceTask,
    src: torch.Tensor,
    target: torch.Tensor,
    batch_size: int = 1000,
) -> dict[str, float]:
    """Greedy decoding on held-out examples: the share of correct tokens and of sequences.

    src (N, seq_len), target (N, seq_len + 1), as ``task.dataset`` makes them.
    """
    model.eval()
    device = next(model.parameters()).device
    correct_tokens = correct_sequences = 0
    for begin in range(0, len(src), batch_size):
        s, t = src[begin : begin + batch_size].to(device), target[begin : begin + batch_size]
        generated = greedy_decode(model, s, task.start, task.end, max_len=t.shape[1])[:, 1:]
        # Generation stops once every sequence has ended: pad the rest with the end token.
        generated = F.pad(generated, (0, t.shape[1] - generated.shape[1]), value=task.end)
        hits = generated.cpu() == t
        correct_tokens += int(hits.sum())
        correct_sequences += int(hits.all(dim=1).sum())
    return {
        "token_accuracy": correct_tokens / target.numel(),
        "sequence_accuracy": correct_sequences / len(target),
    }
