"""Text every Python installation has: the standard library's own source files, as characters.

Notebook 08 trains a character-level language model on real code without downloading
anything. The text is a fixed list of standard-library modules, read in this order, so that
the same Python version gives the same characters on every machine (another version gives
slightly different files, and slightly different numbers). The training and held-out files
are different modules: the held-out score measures code the model has never read.

A vocabulary is the sorted distinct characters of the training text after ``UNKNOWN``, which
stands for any character the training text does not contain.
"""

from __future__ import annotations

import sysconfig
import warnings
from dataclasses import dataclass
from pathlib import Path

import torch

__all__ = [
    "HELD_OUT_FILES",
    "TRAINING_FILES",
    "UNKNOWN",
    "Corpus",
    "decode",
    "encode",
    "load_corpus",
    "random_windows",
    "vocabulary",
]

UNKNOWN = "\ufffd"  # "�": any character the vocabulary does not hold

# Modules present in CPython 3.11 to 3.13, about 1.4 million characters together.
TRAINING_FILES = (
    "argparse.py", "ast.py", "calendar.py", "collections/__init__.py", "contextlib.py",
    "csv.py", "dataclasses.py", "difflib.py", "enum.py", "fractions.py", "functools.py",
    "gettext.py", "heapq.py", "inspect.py", "json/decoder.py", "json/encoder.py",
    "logging/__init__.py", "operator.py", "pathlib.py", "pprint.py", "queue.py", "random.py",
    "sched.py", "shlex.py", "shutil.py", "string.py", "tempfile.py", "threading.py",
    "timeit.py", "tokenize.py", "traceback.py", "typing.py", "uuid.py", "warnings.py",
    "weakref.py",
)  # fmt: skip
# Code the model never trains on: its bits per character are the notebook's score.
HELD_OUT_FILES = ("statistics.py", "textwrap.py", "glob.py", "copy.py")
MINIMUM_CHARACTERS = 200_000  # below this, the numbers of the notebook would mean little


@dataclass
class Corpus:
    """Training and held-out text, and where they came from."""

    train: str
    held_out: str
    folder: Path
    missing: tuple[str, ...] = ()


def stdlib_folder() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def _read(folder: Path, names) -> tuple[str, list[str]]:
    texts, missing = [], []
    for name in names:
        path = folder / name
        if path.is_file():
            texts.append(path.read_text(encoding="utf-8", errors="replace"))
        else:
            missing.append(name)
    return "\n".join(texts), missing


def load_corpus(folder: Path | str | None = None, scale: float = 1.0) -> Corpus:
    """The course's text from ``folder`` (default: this Python's standard library).

    ``scale`` < 1 keeps that share of each part (a quick run). Missing files are skipped with
    a warning; too little text in all raises, saying which files were looked for and where.
    """
    folder = Path(folder) if folder is not None else stdlib_folder()
    train, missing_train = _read(folder, TRAINING_FILES)
    held_out, missing_held = _read(folder, HELD_OUT_FILES)
    missing = tuple(missing_train + missing_held)
    if len(train) < MINIMUM_CHARACTERS or not held_out:
        raise FileNotFoundError(
            f"The standard library's sources in {folder} hold too little of the course's text "
            f"({len(train):,} training characters; {len(missing)} of "
            f"{len(TRAINING_FILES) + len(HELD_OUT_FILES)} files missing). Some Python "
            "installations ship compiled files only: use one with its .py sources (Colab, the "
            "course's .venv and python.org's installers have them), or pass folder= a copy."
        )
    if missing:
        warnings.warn(f"not in {folder}, skipped: {', '.join(missing)}", stacklevel=2)
    if scale < 1:
        train, held_out = train[: int(len(train) * scale)], held_out[: int(len(held_out) * scale)]
    return Corpus(train, held_out, folder, missing)


def vocabulary(text: str) -> list[str]:
    """``UNKNOWN`` followed by the distinct characters of ``text``, sorted."""
    return [UNKNOWN] + sorted(set(text) - {UNKNOWN})


def encode(text: str, vocab: list[str]) -> torch.Tensor:
    """(len(text),) int64 indices into ``vocab``; characters not in it become ``UNKNOWN`` (0)."""
    index = {char: i for i, char in enumerate(vocab)}
    return torch.tensor([index.get(char, 0) for char in text], dtype=torch.long)


def decode(ids: torch.Tensor, vocab: list[str]) -> str:
    """The text of a 1-D tensor (or list) of indices."""
    return "".join(vocab[i] for i in torch.as_tensor(ids).tolist())


def random_windows(
    data: torch.Tensor, block_size: int, batch_size: int, generator: torch.Generator | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """``batch_size`` random windows of ``data`` (1-D): inputs (B, T) and targets (B, T), the
    same windows shifted one character on, so that targets[:, t] follows inputs[:, t].

    Starts are drawn with ``torch.randint(len(data) - block_size, (batch_size,))``: every
    window and its target lie inside ``data``.
    """
    starts = torch.randint(len(data) - block_size, (batch_size,), generator=generator)
    offsets = torch.arange(block_size)
    rows = starts[:, None] + offsets  # (B, T)
    return data[rows], data[rows + 1]
