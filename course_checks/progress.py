"""The self-check command's ``--progress``: over several notebooks, a table with a bar of
each notebook's points, and a chart of them (matplotlib, imported only when it draws).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from course_checks.headless import NotebookResult
from course_checks.scoreboard import (
    ERROR,
    FAILED,
    NOT_ATTEMPTED,
    NOT_RUN,
    PASSED,
    _number,
)


def progress_table(checked: Sequence[NotebookResult]) -> str:
    """One line per notebook, with a bar of its points: █ earned, ░ still to earn."""
    width = max([len("notebook")] + [len(nb.name) for nb in checked])
    lines = [f"  {'notebook':<{width}}  points   passed  failed  to do   progress"]
    total_earned = total_points = 0.0
    for nb in checked:
        earned = sum(r.earned for r in nb.results)
        points = sum(r.points for r in nb.results)
        total_earned, total_points = total_earned + earned, total_points + points
        passed = sum(r.status == PASSED for r in nb.results)
        failed = sum(r.status in (FAILED, ERROR) for r in nb.results)
        todo = len(nb.results) - passed - failed
        filled = round(20 * earned / points) if points else 0
        bar = "█" * filled + "░" * (20 - filled)
        score = f"{_number(earned)}/{_number(points)}"
        note = f"  ({nb.problem})" if nb.problem else ""
        lines.append(
            f"  {nb.name:<{width}}  {score:<7}  {passed:>6}  {failed:>6}  {todo:>5}   {bar}{note}"
        )
    share = f"{100 * total_earned / total_points:.0f} %" if total_points else "—"
    lines.append(
        f"  {'all':<{width}}  {_number(total_earned)}/{_number(total_points)} points ({share})"
    )
    return "\n".join(lines)


def progress_chart(checked: Sequence[NotebookResult], path: Path) -> Path:
    """Save a bar chart of points per notebook: passed, failed, not yet attempted."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [nb.name for nb in checked][::-1]
    rows = checked[::-1]

    def points_where(nb: NotebookResult, statuses: tuple[str, ...]) -> float:
        return sum(r.points for r in nb.results if r.status in statuses)

    passed = [points_where(nb, (PASSED,)) for nb in rows]
    # Points of a failed exercise are split: what it earned, and what it still misses.
    partial = [sum(r.earned for r in nb.results if r.status == FAILED) for nb in rows]
    failed = [points_where(nb, (FAILED, ERROR)) - p for nb, p in zip(rows, partial, strict=True)]
    todo = [points_where(nb, (NOT_ATTEMPTED, NOT_RUN)) for nb in rows]

    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) + 1.4))
    left = [0.0] * len(rows)
    for values, label, colour in [
        (passed, "passed", "#2e9e4f"),
        (partial, "partly earned (failed exercise)", "#9bd3a8"),
        (failed, "failed", "#d9534f"),
        (todo, "not attempted", "#d0d0d0"),
    ]:
        ax.barh(names, values, left=left, color=colour, label=label, height=0.6)
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax.set_xlabel("points")
    earned = sum(r.earned for nb in checked for r in nb.results)
    total = sum(r.points for nb in checked for r in nb.results)
    ax.set_title(f"Your progress: {_number(earned)} of {_number(total)} points", pad=26)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
