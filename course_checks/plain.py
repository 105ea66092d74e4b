"""Text a student's code made, shown where people read the grader's words.

An exception message, a warning or a printed line comes from the student's process and may
carry terminal escapes, carriage returns, right-to-left overrides or whole lines made to look
like the checks' own ("✓ ... 8 of 8 checks passed"). Shown through these functions it stays
visibly the student's: control and format characters appear as escapes, never acted on.
"""

from __future__ import annotations

import unicodedata

__all__ = ["printable", "quoted_lines"]


def _shown(ch: str) -> str:
    if ch == " " or unicodedata.category(ch)[0] not in "CZ":
        return ch
    return f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"


def printable(text: str, limit: int = 2000) -> str:
    """``text`` on one line, at most ``limit`` characters of it: line breaks, control and
    format characters shown as escapes."""
    shown = "".join(_shown(ch) for ch in text[:limit])
    return shown + "…" if len(text) > limit else shown


def quoted_lines(text: str, limit: int = 20_000) -> str:
    """What the student's code printed, each line marked as theirs (``  › ``), so that no
    printed line passes for one of the checks' own."""
    lines = text[:limit].splitlines()
    shown = "\n".join("  › " + "".join(_shown(ch) for ch in line) for line in lines)
    return shown + ("\n  › …" if len(text) > limit else "")
