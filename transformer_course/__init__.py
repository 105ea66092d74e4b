"""Helpers for the Transformer course.

Importing the package sets PyTorch's CPU thread count to suit this machine: no more threads
than the cores this process may use (``transformer_course.threads``).
"""

from transformer_course.threads import use_sensible_threads

use_sensible_threads()
