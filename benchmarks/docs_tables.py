"""Generated tables in the documentation: one helper for every benchmark that writes one.

A benchmark writes its table between two marker comments of a markdown page, by default
docs/performance.md:

    <!-- bench-grade:start -->
    ... replaced on every run ...
    <!-- bench-grade:end -->

Everything outside the markers is the page's own text and stays as written. A page without
the markers is an error, not a silent skip: the table would be lost without a word.
"""

from __future__ import annotations

from pathlib import Path

COURSE = Path(__file__).resolve().parent.parent
PERFORMANCE = COURSE / "docs" / "performance.md"


def markers(name: str) -> tuple[str, str]:
    """The comments that open and close the table called ``name`` (``bench``, ``bench-load``)."""
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def splice(name: str, text: str, page: Path = PERFORMANCE) -> None:
    """Put ``text`` between the markers of ``name`` in ``page``, in place of what was there."""
    start, end = markers(name)
    content = page.read_text()
    if (
        content.count(start) != 1
        or content.count(end) != 1
        or content.index(start) > content.index(end)
    ):
        raise ValueError(
            f"{page} needs the lines {start} and {end}, once each and in that "
            f"order, for the table of {name}"
        )
    before, rest = content.split(start)
    after = rest.split(end)[1]
    page.write_text(before + start + "\n" + text.strip("\n") + "\n" + end + after)
