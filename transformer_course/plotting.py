"""Plots the notebooks share: attention maps and weight bars."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import torch

__all__ = ["attention_heatmap"]


def attention_heatmap(
    weights: torch.Tensor,
    query_labels: Sequence[str] | None = None,
    key_labels: Sequence[str] | None = None,
    ax: plt.Axes | None = None,
    title: str = "attention weights",
    annotate: bool = True,
) -> plt.Axes:
    """Draw a (T, S) weight matrix: one row per query, one column per key.

    Each row sums to 1, so the colour scale is fixed to [0, 1] and maps compare across plots.
    """
    weights = weights.detach().to("cpu", torch.float64)
    if ax is None:
        _, ax = plt.subplots(figsize=(1 + 0.7 * weights.shape[1], 0.8 + 0.6 * weights.shape[0]))
    image = ax.imshow(weights.numpy(), cmap="viridis", vmin=0.0, vmax=1.0)
    ax.set_xticks(
        range(weights.shape[1]), key_labels or [f"k{j + 1}" for j in range(weights.shape[1])]
    )
    ax.set_yticks(
        range(weights.shape[0]), query_labels or [f"q{i + 1}" for i in range(weights.shape[0])]
    )
    ax.set_xlabel("key (attended to)")
    ax.set_ylabel("query (attending)")
    ax.set_title(title)
    if annotate:
        for i in range(weights.shape[0]):
            for j in range(weights.shape[1]):
                value = float(weights[i, j])
                ax.text(
                    j,
                    i,
                    f"{value:.2f}",
                    ha="center",
                    va="center",
                    color="black" if value > 0.6 else "white",
                    fontsize=9,
                )
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="attention weight")
    return ax
