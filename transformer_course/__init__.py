"""Helpers for the Transformer course.

Importing the package sets PyTorch's CPU thread count to suit this machine: no more threads
than the cores this process may use (``transformer_course.threads``). Without PyTorch it
still imports, so that ``transformer_course.setup.ready()`` can say what to install.
"""

import importlib.util

if importlib.util.find_spec("torch") is not None:
    from transformer_course.threads import use_sensible_threads

    use_sensible_threads()
