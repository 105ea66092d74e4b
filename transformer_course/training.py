"""A small training loop for the encoder–decoder on a toy task, and its evaluation.

Training is teacher-forced (one pass over the whole shifted target); evaluation decodes
greedily, as the model would be used, and counts correct tokens and correct sequences.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F

from .budget import Budget
from .data import SequenceTask
from .transformer import Transformer, greedy_decode, shift_right

__all__ = ["accuracies", "default_device", "evaluate", "train", "train_step"]


def default_device() -> torch.device:
    """CUDA when a GPU is present, else the CPU: the same code runs on both."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_step(
    model: Transformer,
    src: torch.Tensor,
    target: torch.Tensor,
    start_token: int,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    clip: float | None = None,
) -> float:
    """One teacher-forced update; returns the batch's loss (before the update) as a float.

    src (B, S) and target (B, T) long: the decoder reads the target shifted right (start
    token first), every position is scored by cross-entropy against the target, then:
    zero the old gradients, backward, clip to norm ``clip`` (None: no clipping), the
    optimiser's step with the current learning rate, and last the scheduler's step.
    """
    return _step(model, src, target, start_token, optimizer, scheduler, clip)[0]


def _step(model, src, target, start_token, optimizer, scheduler, clip):
    logits = model(src, shift_right(target, start_token))  # (B, T, vocab)
    loss = F.cross_entropy(logits.flatten(0, 1), target.flatten())
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    if clip is not None:
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
    scheduler.step()
    return loss.item(), logits.detach()


def train(
    model: Transformer,
    task: SequenceTask,
    steps: int | Budget,
    batch_size: int = 64,
    lr: float = 1e-3,
    schedule: Callable[[int], float] | None = None,
    clip: float | None = 1.0,
    seed: int = 0,
    device: torch.device | str | None = None,
    progress: bool = True,
    step: Callable[..., float] | None = None,
) -> dict[str, list[float]]:
    """Train with Adam on fresh random batches; returns the history per step.

    ``steps`` is a number of steps, or a ``Budget``: a number of steps and a time limit,
    whichever comes first (then ``len(history["loss"])`` is the number of steps run, the
    budget's ``summary()`` says how far it got, and its own ``progress`` decides the bar).
    ``schedule``, if given, is a ``LambdaLR`` factor: the learning rate at step s is
    ``lr * schedule(s)``. Gradients are clipped to norm ``clip`` (None: no clipping).
    ``step``, if given, replaces ``train_step`` (same arguments, returns the loss): a
    learner's own. History: ``loss``, ``lr``, and with the package's step ``accuracy``
    (teacher-forced token accuracy of the batch).
    """
    device = torch.device(device) if device is not None else default_device()
    model.to(device).train()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98), eps=1e-9)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule or (lambda step: 1.0))
    generator = torch.Generator().manual_seed(seed)
    history: dict[str, list[float]] = {"loss": [], "lr": []}
    if step is None:
        history["accuracy"] = []
    budget = steps if isinstance(steps, Budget) else Budget(steps, progress=progress)
    for _ in budget:
        src, target = task.batch(batch_size, generator, device)
        history["lr"].append(optimizer.param_groups[0]["lr"])
        if step is None:
            loss, logits = _step(model, src, target, task.start, optimizer, scheduler, clip)
            history["accuracy"].append((logits.argmax(-1) == target).float().mean().item())
        else:
            loss = float(step(model, src, target, task.start, optimizer, scheduler, clip))
        history["loss"].append(loss)
        budget.show(loss=f"{loss:.3f}")
    model.eval()
    return history


def accuracies(generated: torch.Tensor, target: torch.Tensor) -> tuple[float, float]:
    """(N, L) token tensors -> (share of equal tokens, share of entirely equal rows)."""
    hits = generated == target
    return hits.float().mean().item(), hits.all(dim=1).float().mean().item()


@torch.no_grad()
def evaluate(
    model: Transformer,
    task: SequenceTask,
    src: torch.Tensor,
    target: torch.Tensor,
    batch_size: int = 1000,
    score: Callable[[torch.Tensor, torch.Tensor], tuple[float, float]] = accuracies,
) -> dict[str, float]:
    """Greedy decoding on held-out examples: the share of correct tokens and of sequences.

    src (N, seq_len), target (N, seq_len + 1), as ``task.dataset`` makes them; ``score``
    turns the generated tokens and the targets into the two shares (``accuracies``).
    """
    model.eval()
    device = next(model.parameters()).device
    pieces = []
    for begin in range(0, len(src), batch_size):
        s = src[begin : begin + batch_size].to(device)
        generated = greedy_decode(model, s, task.start, task.end, max_len=target.shape[1])[:, 1:]
        # Generation stops once every sequence has ended: pad the rest with the end token.
        pieces.append(F.pad(generated, (0, target.shape[1] - generated.shape[1]),
                            value=task.end).cpu())
    token_accuracy, sequence_accuracy = score(torch.cat(pieces), target)
    return {"token_accuracy": float(token_accuracy), "sequence_accuracy": float(sequence_accuracy)}
