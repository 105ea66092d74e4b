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

__all__ = ["TrainingRun", "accuracies", "default_device", "evaluate", "train", "train_step"]


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


class TrainingRun:
    """One model in training: Adam, a ``LambdaLR`` schedule and its own stream of fresh random
    batches. Each ``step()`` makes one update; ``history`` keeps what happened at every step.

    Several runs can take their steps in turn, so that a time budget cuts them all at the same
    step (notebook 07 compares nine that way). ``schedule``, if given, is a ``LambdaLR``
    factor: the learning rate at step s is ``lr * schedule(s)``. Gradients are clipped to norm
    ``clip`` (None: no clipping). ``step``, if given, replaces ``train_step`` (same arguments,
    returns the loss): a learner's own. History: ``loss``, ``lr``, and with the package's step
    ``accuracy`` (teacher-forced token accuracy of the batch).
    """

    def __init__(
        self,
        model: Transformer,
        task: SequenceTask,
        batch_size: int = 64,
        lr: float = 1e-3,
        schedule: Callable[[int], float] | None = None,
        clip: float | None = 1.0,
        seed: int = 0,
        device: torch.device | str | None = None,
        step: Callable[..., float] | None = None,
    ):
        self.device = torch.device(device) if device is not None else default_device()
        self.model = model.to(self.device).train()
        self.task, self.batch_size, self.clip = task, batch_size, clip
        self.own_step = step  # a learner's train_step, or None for the package's
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98), eps=1e-9)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer, schedule or (lambda step: 1.0)
        )
        self.generator = torch.Generator().manual_seed(seed)
        self.history: dict[str, list[float]] = {"loss": [], "lr": []}
        if step is None:
            self.history["accuracy"] = []

    def step(self) -> float:
        """One update on a fresh batch; returns its loss (before the update)."""
        src, target = self.task.batch(self.batch_size, self.generator, self.device)
        self.history["lr"].append(self.optimizer.param_groups[0]["lr"])
        if self.own_step is None:
            loss, logits = _step(
                self.model, src, target, self.task.start, self.optimizer, self.scheduler, self.clip
            )
            self.history["accuracy"].append((logits.argmax(-1) == target).float().mean().item())
        else:
            loss = float(
                self.own_step(
                    self.model,
                    src,
                    target,
                    self.task.start,
                    self.optimizer,
                    self.scheduler,
                    self.clip,
                )
            )
        self.history["loss"].append(loss)
        return loss


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
    The other arguments and the history are those of ``TrainingRun``.
    """
    run = TrainingRun(model, task, batch_size, lr, schedule, clip, seed, device, step)
    budget = steps if isinstance(steps, Budget) else Budget(steps, progress=progress)
    for _ in budget:
        budget.show(loss=f"{run.step():.3f}")
    model.eval()
    return run.history


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
        pieces.append(
            F.pad(generated, (0, target.shape[1] - generated.shape[1]), value=task.end).cpu()
        )
    token_accuracy, sequence_accuracy = score(torch.cat(pieces), target)
    return {"token_accuracy": float(token_accuracy), "sequence_accuracy": float(sequence_accuracy)}
