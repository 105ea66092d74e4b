"""Known wrong answers for notebook 07, warm-up scheduler."""

from __future__ import annotations

import math

import torch

__all__ = [
    "accuracies",
    "cosine_warmup",
    "learning_rates",
    "train_step",
    "transformer_lr",
]


def transformer_lr(steps: list[int], d_model: int, warmup: int) -> dict[str, torch.Tensor]:
    """Variants of the original schedule at LambdaLR's ``steps`` (counted from 0)."""

    def values(rate):
        return torch.tensor([rate(step) for step in steps], dtype=torch.float64)

    return {
        "the schedule without the d_model^-0.5 factor": values(
            lambda s: min((s + 1) ** -0.5, (s + 1) * warmup**-1.5)
        ),
        "the lecture notes' misprint, d_model^-0.5 inside the min instead of step^-0.5": values(
            lambda s: d_model**-0.5 * min(d_model**-0.5, (s + 1) * warmup**-1.5)
        ),
        "the step not counted from 1 (LambdaLR's step 0 is the paper's step 1: use step + 1)": (
            values(lambda s: d_model**-0.5 * min(max(s, 1) ** -0.5, max(s, 1) * warmup**-1.5))
        ),
        "warmup^-0.5 instead of warmup^-1.5": values(
            lambda s: d_model**-0.5 * min((s + 1) ** -0.5, (s + 1) * warmup**-0.5)
        ),
    }


def cosine_warmup(steps: list[int], warmup: int, max_iters: int) -> dict[str, torch.Tensor]:
    """Variants of the cosine warm-up factor at ``steps``."""

    def values(factor):
        return torch.tensor([factor(step) for step in steps], dtype=torch.float64)

    def cosine(t, horizon):
        return 0.5 * (1 + math.cos(math.pi * t / horizon))

    return {
        "the cosine over the warm-up steps instead of the whole run (π·t/warmup)": values(
            lambda t: cosine(t, warmup) * (t / warmup if t <= warmup else 1.0)
        ),
        "a warm-up factor off by one, (t + 1)/warmup": values(
            lambda t: cosine(t, max_iters) * ((t + 1) / warmup if t <= warmup else 1.0)
        ),
        "the cosine decay without the warm-up factor": values(lambda t: cosine(t, max_iters)),
        "cos(π·t/max_iters) without the 0.5·(1 + …) that keeps the factor between 0 and 1": (
            values(lambda t: math.cos(math.pi * t / max_iters) * (t / warmup if t <= warmup else 1))
        ),
    }


def learning_rates(factor, base_lr: float, steps: int) -> dict[str, torch.Tensor]:
    """Variants of the learning rates a LambdaLR hands to updates 0 … steps − 1."""
    return {
        "the rates one update late: read after scheduler.step(), or with scheduler.step() "
        "called before optimizer.step()": torch.tensor(
            [base_lr * factor(s + 1) for s in range(steps)], dtype=torch.float64
        ),
        "the factors themselves, never multiplied by the base learning rate": torch.tensor(
            [factor(s) for s in range(steps)], dtype=torch.float64
        ),
    }


def accuracies(generated: torch.Tensor, target: torch.Tensor) -> dict[str, torch.Tensor]:
    """Variants of (token accuracy, sequence accuracy) for (N, L) token tensors."""
    hits = (generated == target).double()
    token, sequence = hits.mean(), hits.min(dim=1).values.mean()
    return {
        "the two numbers in the opposite order (token accuracy first, then sequences)": (
            torch.stack([sequence, token])
        ),
        "a sequence counted as correct when any of its tokens is (use all, not any)": (
            torch.stack([token, hits.max(dim=1).values.mean()])
        ),
        "the number of correct tokens and sequences instead of their shares": torch.stack(
            [hits.sum(), hits.min(dim=1).values.sum()]
        ),
    }


def train_step(case, clip=None) -> dict[str, torch.Tensor]:
    """The losses known wrong training steps return over ``case``'s batches (a
    ``course_checks.training_case.StepCase``; each variant trains a fresh copy of it)."""
    import warnings

    import torch.nn.functional as F

    from transformer_course.transformer import shift_right

    def make(decoder_input, labels, order, clipped_before_step=True):
        def step(model, src, target, start, optimizer, scheduler, clip):
            logits = model(src, decoder_input(target, start))
            loss = F.cross_entropy(logits.flatten(0, 1), labels(target).flatten())
            for action in order:
                if action == "zero":
                    optimizer.zero_grad()
                elif action == "backward":
                    loss.backward()
                elif action == "clip" and clip is not None and clipped_before_step:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
                elif action == "optimizer":
                    optimizer.step()
                elif action == "scheduler":
                    scheduler.step()
            return loss.item()

        return step

    def shifted(target, start):
        return shift_right(target, start)

    def same(target):
        return target

    right = ("zero", "backward", "clip", "optimizer", "scheduler")
    variants = {
        "the decoder reads the target itself, not shifted right (each position sees the token it "
        "must predict)": make(lambda t, s: t, same, right),
        "no start token: the decoder reads target[:, :-1] and predicts target[:, 1:], so the first "
        "token is never predicted (this target has no start token: shift it right)": make(
            lambda t, s: t[:, :-1], lambda t: t[:, 1:], right
        ),
        "gradients never zeroed: optimizer.zero_grad() is missing, so each step adds up the "
        "gradients of every batch so far": make(shifted, same, right[1:]),
        "scheduler.step() before optimizer.step(): every update uses the next step's learning "
        "rate": make(shifted, same, ("zero", "backward", "clip", "scheduler", "optimizer")),
        "the scheduler never stepped: every update uses the first learning rate": make(
            shifted, same, right[:-1]
        ),
    }
    if clip is not None:
        variants[
            "gradients not clipped before optimizer.step() (clipping after the step, or "
            "not at all, changes nothing)"
        ] = make(shifted, same, right, False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's warning about the scheduler's order
        return {name: case.fresh().losses(step, clip) for name, step in variants.items()}
