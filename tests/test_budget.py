"""transformer_course.budget: a loop stops at its step count or its time, whichever first;
training.train and TrainingRun keep to it."""

from __future__ import annotations

import time

import pytest
import torch

from transformer_course.budget import Budget
from transformer_course.data import SequenceTask
from transformer_course.training import TrainingRun, train
from transformer_course.transformer import Transformer


def test_all_steps_run_within_the_time():
    budget = Budget(steps=5, seconds=60, progress=False)
    assert list(budget) == [0, 1, 2, 3, 4]
    assert budget.done == 5 and not budget.out_of_time
    assert budget.summary().startswith("5 of 5 steps in")


def test_the_time_budget_stops_a_slow_loop_and_says_so():
    budget = Budget(steps=1000, seconds=0.2, progress=False)
    for _ in budget:
        time.sleep(0.05)
    assert budget.out_of_time and 2 <= budget.done < 10
    assert 0.2 <= budget.elapsed < 1.0
    assert f"{budget.done} of 1000 steps" in budget.summary()
    assert "budget ran out first" in budget.summary()


def test_a_loop_left_early_counts_the_steps_it_finished():
    budget = Budget(steps=10, progress=False)
    for step in budget:
        if step == 3:
            break
    assert budget.done == 3 and not budget.out_of_time


def test_seeds_can_be_counted_too():
    budget = Budget(steps=3, progress=False, unit="seeds")
    assert list(budget) == [0, 1, 2]
    assert budget.summary().startswith("3 of 3 seeds in")


TASK = SequenceTask("reverse", seq_len=4, n_symbols=5)


def tiny_model(seed=0):
    torch.manual_seed(seed)
    return Transformer(
        TASK.vocab_size,
        TASK.vocab_size,
        d_model=16,
        n_heads=2,
        d_ff=32,
        n_encoder_layers=1,
        n_decoder_layers=1,
        max_len=8,
    )


@pytest.mark.slow
def test_train_stops_at_its_time_budget_and_keeps_the_steps_it_ran():
    budget = Budget(steps=100_000, seconds=0.5, progress=False)
    history = train(tiny_model(), TASK, budget, batch_size=8, device="cpu")
    assert budget.out_of_time and 0 < budget.done < 100_000
    assert len(history["loss"]) == len(history["lr"]) == budget.done
    steps = train(tiny_model(), TASK, 3, batch_size=8, device="cpu", progress=False)["loss"]
    assert len(steps) == 3


def test_runs_that_take_their_steps_in_turn_train_as_train_does():
    schedule = [lambda step: min(1.0, (step + 1) / 3), lambda step: 0.9**step]
    runs = [
        TrainingRun(
            tiny_model(seed),
            TASK,
            batch_size=8,
            lr=1e-2,
            schedule=schedule[seed],
            seed=seed,
            device="cpu",
        )
        for seed in (0, 1)
    ]
    for _ in range(4):
        for run in runs:
            run.step()
    for seed, run in enumerate(runs):
        alone = train(
            tiny_model(seed),
            TASK,
            4,
            batch_size=8,
            lr=1e-2,
            schedule=schedule[seed],
            seed=seed,
            device="cpu",
            progress=False,
        )
        assert run.history == alone
