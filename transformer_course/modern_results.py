"""Notebook 09's measured comparison: ``make modern-runs`` (benchmarks/modern_decoder.py, about
50 minutes) writes it to ``modern_results.json`` beside this module, which ships with the
package (so that Colab has it too); do not edit that file by hand.

``RESULTS`` (``load_modern_results()``, read once at import) is a dict:

``recipe``
    the training recipe: ``steps``, ``block_size``, ``batch_size`` (ints), ``lr``, ``warmup``.
``size``
    the models' size: ``d_model``, ``n_heads``, ``n_layers`` (notebook 08's model).
``long``, ``bin``, ``curve_every``
    ints: the window length of ``bits_by_position`` (512, four times the trained context),
    the positions averaged into each of its points (16), and the training steps averaged
    into each point of ``curve`` (20).
``runs``
    {model name: {seed: run}}, the names in the order the notebook plots them ("08 model",
    "+ RMSNorm", "+ rotary", "+ SwiGLU", "+ GQA (2 kv heads)", "modern (all four)"), the
    seeds strings ("0", "1", "2"). A run holds ``parameters`` (int), ``held_out_bits``
    (float, bits per character on the held-out text), ``curve`` (ceil(steps / curve_every)
    floats: the training batches' bits per character, each the mean of ``curve_every``
    steps), ``bits_by_position`` (long / bin floats: held-out bits per character by
    position in windows of ``long``, each the mean of ``bin`` positions), ``seconds``
    (float, the run's training time) and, for the models with layer norm,
    ``mean_share_at_norms`` (float: μ² / mean(x²) at the norms' inputs, see the benchmark).
``machine``
    str: the Python, PyTorch and thread count of the runs.
``seconds_per_step``
    {model name: float}: the median seconds of one training step, the models interleaved.
"""

from __future__ import annotations

import json
from pathlib import Path

PATH = Path(__file__).with_name("modern_results.json")


def load_modern_results(path: Path | str = PATH) -> dict:
    """The comparison as ``make modern-runs`` wrote it (see the module's docstring)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


RESULTS = load_modern_results()
