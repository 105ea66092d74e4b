"""What every notebook's first cell calls: make sure this Python can run the course.

The first cell installs this package when it is missing (a fresh Colab session), with
``--no-deps`` so that the PyTorch already there is kept, and then calls :func:`ready`. Where
the course is set up (``make lab``), both do nothing and print nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

__all__ = ["MINIMUM_TORCH", "ready"]

MINIMUM_TORCH = (2, 2)
# What the notebooks import besides PyTorch: small, and safe to install with pip anywhere.
LIBRARIES = ("numpy", "matplotlib", "psutil", "tqdm")


def _torch_version(text: str) -> tuple[int, int]:
    major, minor = text.split("+")[0].split(".")[:2]
    return int(major), int(minor)


def ready() -> None:
    """Install the small libraries the notebooks use if any is missing, and check PyTorch.

    Silent when all is in place. Raises with what to do when PyTorch is missing or older than
    :data:`MINIMUM_TORCH` (it is never installed here: the right build depends on the
    machine, and Colab's own must stay).
    """
    missing = [name for name in LIBRARIES if not _found(name)]
    if missing:
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-input", *missing]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(
                f"Could not install {', '.join(missing)} with pip:\n{done.stdout}{done.stderr}"
            )
        importlib.invalidate_caches()
    wanted = ".".join(map(str, MINIMUM_TORCH))
    if not _found("torch"):
        raise ModuleNotFoundError(
            f"PyTorch is not installed for this Python ({sys.executable}). In a clone of the "
            f"course, `make lab` sets everything up; elsewhere install PyTorch {wanted} or "
            "newer (https://pytorch.org/get-started/locally/), then run this cell again."
        )
    import torch

    if _torch_version(torch.__version__) < MINIMUM_TORCH:
        raise RuntimeError(
            f"The course needs PyTorch {wanted} or newer; this Python has {torch.__version__}."
        )


def _found(module: str) -> bool:
    return importlib.util.find_spec(module) is not None
