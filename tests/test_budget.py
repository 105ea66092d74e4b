"""transformer_course.budget: a loop stops at its step count or its time, whichever first."""

from __future__ import annotations

import time

from transformer_course.budget import Budget


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
