"""A cell's code as Python: IPython's magics and shell escapes made into calls, and the
magics that only time or capture code read as the code they are given."""

from __future__ import annotations

# IPython magics that only time or capture the code they are given (read like plain code).
HARMLESS_MAGICS = {"time", "timeit", "capture", "matplotlib"}


def clean(source: str) -> str:
    """A cell's code as Python: IPython's magics and shell escapes made into calls, and the
    body of a ``%%time`` (or timeit, capture) cell read as the code it is; line numbers kept."""
    first, _, rest = source.lstrip().partition("\n")
    if first.startswith("%%") and first[2:].split(" ")[0] in HARMLESS_MAGICS:
        source = "\n" * (source[: len(source) - len(rest)].count("\n")) + rest
    if not any(
        line.lstrip()[:1] in ("%", "!") or line.rstrip().endswith("?")
        for line in source.splitlines()
    ):
        return source
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        blank = len(source) - len(source.lstrip("\n"))  # IPython drops leading blank lines
        return "\n" * blank + TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - without IPython, or a cell it cannot transform
        return source
