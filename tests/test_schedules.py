"""The learning-rate schedules: hand-computed values, and through LambdaLR."""

from __future__ import annotations

import math

import pytest
import torch

from transformer_course.schedules import cosine_warmup, transformer_lr


def learning_rates(factor, steps, base_lr=1.0):
    """The learning rate each of ``steps`` updates uses, read from a real LambdaLR."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    rates = []
    for _ in range(steps):
        rates.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return rates


def test_transformer_lr_counts_updates_from_one_and_peaks_at_the_warmup():
    factor = transformer_lr(512, 4000)
    assert factor(0) == pytest.approx(512**-0.5 * 4000**-1.5)  # update 1: no division by zero
    assert factor(3999) == pytest.approx(6.988e-4, rel=1e-3)  # update 4000, the peak
    assert factor(3999) == pytest.approx((512 * 4000) ** -0.5)
    assert factor(99_999) == pytest.approx(512**-0.5 * 100_000**-0.5)
    assert max(factor(s) for s in range(0, 20_000, 7)) <= factor(3999)


def test_cosine_warmup_by_hand():
    factor = cosine_warmup(warmup=100, max_iters=2000)
    assert factor(0) == 0.0
    assert factor(50) == pytest.approx(0.5 * (1 + math.cos(math.pi * 50 / 2000)) * 0.5)
    assert factor(100) == pytest.approx(0.5 * (1 + math.cos(math.pi / 20)))
    assert factor(1000) == pytest.approx(0.5)
    assert factor(2000) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("factor", [transformer_lr(64, 10), cosine_warmup(10, 50)])
def test_lambda_lr_applies_the_factor_to_the_base_rate(factor):
    assert learning_rates(factor, 30, base_lr=0.5) == pytest.approx(
        [0.5 * factor(s) for s in range(30)]
    )
