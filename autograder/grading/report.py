"""The class report: grades CSV, a summary per assignment and exercise, a score plot."""

from __future__ import annotations

import csv
import html
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from course_checks.plain import printable
from course_checks.selfcheck import NOT_ATTEMPTED


def diagnoses(result: dict) -> dict[str, str]:
    """The mistake the checks named, per test cell: grade_id -> "an answer that ..."."""
    return {cell: o["named"] for cell, o in result.get("outcomes", {}).items() if o.get("named")}


def untouched(result: dict) -> bool:
    """Whether every test cell found its answer still the stub."""
    outcomes = result.get("outcomes", {}).values()
    return bool(outcomes) and all(o.get("status") == NOT_ATTEMPTED for o in outcomes)


def _text(text: str) -> str:
    """Student-made text (a name, a message quoting their code) as plain text in Markdown,
    in a table's cell too."""
    return (
        html.escape(printable(text, 10_000), quote=False)
        .replace("*", "\\*")
        .replace("`", "'")
        .replace("|", "\\|")
        .replace("[", "\\[")
    )


def _cell(text: str) -> str:
    """Student-made text for a CSV cell that no spreadsheet evaluates as a formula."""
    text = printable(text, 10_000)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _rounded(value):
    """Points to two decimals (3.4299999999999997 -> 3.43); anything else as it is."""
    return round(value, 2) if isinstance(value, float) else value


def _titles(results: list[dict]) -> dict[tuple[str, str], str]:
    """(assignment, grade_id) -> the exercise's title, as its checks named it."""
    return {
        (r["assignment"], cell): o["exercise"]
        for r in results
        for cell, o in r.get("outcomes", {}).items()
        if o.get("exercise")
    }


def _histogram(scores: list[float], maximum: float, bins: int = 5) -> str:
    counts = Counter(min(int(s / maximum * bins), bins - 1) if maximum else 0 for s in scores)
    rows = []
    for b in range(bins):
        low, high = maximum * b / bins, maximum * (b + 1) / bins
        rows.append(f"  {low:5.1f}–{high:5.1f} | {'█' * counts[b]} {counts[b]}")
    return "\n".join(rows)


# Events that say how a notebook's cells were put right before grading: nothing to look at.
PUT_RIGHT = {"cells", "order"}


def _put_right(result: dict) -> list[dict]:
    return [e for e in result.get("events", []) if e.get("kind") in PUT_RIGHT]


def _needs_a_look(result: dict) -> list[dict]:
    return [e for e in result.get("events", []) if e.get("kind") not in PUT_RIGHT]


def summary(results: list[dict]) -> str:
    by_assignment = defaultdict(list)
    for r in results:
        by_assignment[r["assignment"]].append(r)
    names = _titles(results)
    lines = []
    for assignment, rows in sorted(by_assignment.items()):
        # A student the grader failed on, with no earlier grade, has no score to count.
        scores = [r["score"] for r in rows if "score" in r] or [0]
        maximum = _rounded(max(r.get("max_score", 0) for r in rows))
        median = _rounded(statistics.median(scores))
        lines.append(
            f"## {assignment}: {len(rows)} students, mean {statistics.mean(scores):.2f}"
            f" of {maximum:g} (median {median:g})"
        )
        lines.append("")
        lines.append("```")
        lines.append(_histogram(scores, maximum))
        lines.append("```")
        lines.append("")
        lines.append("| exercise | title | full marks | most common diagnosed mistake |")
        lines.append("| --- | --- | ---: | --- |")
        exercises = sorted({e for r in rows for e in r.get("exercises", {})})
        for exercise in exercises:
            full = sum(
                1
                for r in rows
                if (s := r.get("exercises", {}).get(exercise))
                and s[0] is not None
                and s[0] >= s[1] > 0
            )
            mistakes = Counter(named for r in rows if (named := diagnoses(r).get(exercise)))
            common = (
                f"{_text(mistakes.most_common(1)[0][0])} ({mistakes.most_common(1)[0][1]})"
                if mistakes
                else "–"
            )
            title = _text(names.get((assignment, exercise), "–"))
            lines.append(f"| {_text(exercise)} | {title} | {full / len(rows):.0%} | {common} |")
        if blank := sorted(_text(r["student"]) for r in rows if untouched(r)):
            lines.append("")
            lines.append(
                f"Untouched submissions, every answer still the stub ({len(blank)}): "
                + ", ".join(blank)
            )
        problems = [r for r in rows if r["status"] != "graded" or _needs_a_look(r)]
        if problems:
            lines.append("")
            lines.append("Submissions that need a look:")
            for r in sorted(problems, key=lambda r: r["student"]):
                notes = [r["reason"]] if r["reason"] else []
                notes += [e["message"] for e in _needs_a_look(r)]
                lines.append(
                    f"- **{_text(r['student'])}** ({r['status']}): " + _text("; ".join(notes))
                )
        if put_right := [r for r in rows if _put_right(r)]:
            lines.append("")
            lines.append(
                "Cells put right before grading (each graded on what its answers are "
                "worth; the student's feedback says the same):"
            )
            for r in sorted(put_right, key=lambda r: r["student"]):
                lines.append(
                    f"- **{_text(r['student'])}**: "
                    + _text("; ".join(e["message"] for e in _put_right(r)))
                )
        lines.append("")
    return "\n".join(lines)


def write_csv(path: Path, results: list[dict]) -> None:
    exercises = sorted({(r["assignment"], e) for r in results for e in r.get("exercises", {})})
    names = _titles(results)
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(
            ["student", "assignment", "score", "max_score", "status", "notes"]
            + [f"{a}:{e} ({names[a, e]})" if (a, e) in names else f"{a}:{e}" for a, e in exercises]
        )
        for r in sorted(results, key=lambda r: (r["assignment"], r["student"])):
            notes = "; ".join(
                ([r["reason"]] if r["reason"] else []) + [e["message"] for e in r.get("events", [])]
            )
            cells = [
                _rounded((r.get("exercises", {}).get(e) or [""])[0]) if a == r["assignment"] else ""
                for a, e in exercises
            ]
            writer.writerow(
                [
                    _cell(r["student"]),
                    r["assignment"],
                    _rounded(r.get("score", "")),
                    _rounded(r.get("max_score", "")),
                    r["status"],
                    _cell(notes),
                ]
                + cells
            )


def plot(path: Path, results: list[dict]) -> None:
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    by_assignment = defaultdict(list)
    for r in results:
        by_assignment[r["assignment"]].append(r)
    names = sorted(by_assignment)
    fig, axes = plt.subplots(1, len(names), figsize=(3 * len(names), 2.8), squeeze=False)
    for ax, name in zip(axes[0], names, strict=True):
        rows = by_assignment[name]
        maximum = _rounded(max(r.get("max_score", 0) for r in rows)) or 1
        scores = [r["score"] for r in rows if "score" in r] or [0]
        ax.hist(scores, bins=10, range=(0, maximum), color="#4c72b0", edgecolor="white")
        mean = statistics.mean(scores)
        ax.axvline(mean, color="#c44e52", linestyle="--", label=f"mean {mean:.1f}")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # whole students
        ax.set_title(name, fontsize=9)
        ax.set_xlabel(f"score (of {maximum:g})")
        ax.legend(fontsize=8, frameon=False)
    axes[0][0].set_ylabel("students")
    fig.suptitle("Score distribution")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plain(markdown: str) -> str:
    """The summary for a terminal: no code fences, headings and bold as plain text."""
    lines = [line for line in markdown.splitlines() if line.strip() != "```"]
    return "\n".join(line.removeprefix("## ").replace("**", "") for line in lines)


def write(course, results: list[dict], notes: Sequence[str] = ()) -> str:
    """grades.csv, report.md and score_distribution.png in the grading folder; the summary,
    after ``notes`` on the whole run (kernels that ran unwalled, say)."""
    text = "".join(f"**{note}**\n\n" for note in notes) + summary(results)
    if not results:
        return "\n".join([*notes, "Nothing was graded."])
    write_csv(course.grading / "grades.csv", results)
    (course.grading / "report.md").write_text("# Grading report\n\n" + text)
    plot(course.grading / "score_distribution.png", results)
    return (
        text + f"\nWritten: {course.grading / 'grades.csv'}, report.md, "
        "score_distribution.png; feedback in feedback/."
    )
