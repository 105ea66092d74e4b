"""Helpers for the Transformer course.

Importing the package sets PyTorch's CPU thread count to suit this machine as it is now: no
more threads than the cores this process can get, and a count you chose is kept
(``transformer_course.threads``). Imported before PyTorch, it also lets OpenMP's waiting
threads sleep instead of spinning. Without PyTorch it still imports, so that
``transformer_course.setup.ready()`` can say what to install.
"""

import importlib.util
import os
import sys

if "torch" not in sys.modules:  # read by OpenMP when PyTorch loads it, and only then
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

if importlib.util.find_spec("torch") is not None:
    from transformer_course.threads import use_sensible_threads

    use_sensible_threads()
