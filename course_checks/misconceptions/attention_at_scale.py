"""Known wrong answers for notebook 10, attention at scale (the online softmax, tiled
attention, the backward pass by hand).

Answers that return several tensors are checked one tensor at a time, so each function here
returns ``{description: tuple}`` and the checks pick the element they compare.

The notebook's names, gathered from its parts: ``tiling`` (the causal loops' slips, as the
family ``Tiling``), ``tiled_forward`` (the online softmax, tiled attention), ``backward_pass``
(by hand, and tiled) and ``autograd_function`` (the Functions that put them together).
"""

from __future__ import annotations

from .autograd_function import (
    FORWARD_WITHOUT_CAUSAL,
    MASK_AFTER_SOFTMAX,
    attention_function,
    attention_output,
    ignores_causal,
)
from .backward_pass import (
    JACOBIAN_HALF,
    NO_SCALE,
    NO_SCALE_DK,
    NO_SCALE_DQ,
    attention_backward,
    flash_backward,
)
from .tiled_forward import online_softmax_step, tiled_attention
from .tiling import (
    BOUNDS,
    HIDDEN,
    LEFT,
    NEG_INF,
    NO_DIAGONAL,
    RIGHT_SKIP,
    Tiling,
    tiling_slips,
)

__all__ = [
    "BOUNDS",
    "FORWARD_WITHOUT_CAUSAL",
    "HIDDEN",
    "JACOBIAN_HALF",
    "LEFT",
    "MASK_AFTER_SOFTMAX",
    "NEG_INF",
    "NO_DIAGONAL",
    "NO_SCALE",
    "NO_SCALE_DK",
    "NO_SCALE_DQ",
    "RIGHT_SKIP",
    "Tiling",
    "attention_backward",
    "attention_function",
    "attention_output",
    "flash_backward",
    "ignores_causal",
    "online_softmax_step",
    "tiled_attention",
    "tiling_slips",
]
