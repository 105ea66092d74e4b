"""Draw the figures the notebooks show. Run with `make images`; each figure is a PNG here.

Figures are drawn from code, so they can be changed and regenerated, never hand-edited.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent

COLOURS = {
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "black": (0, 0, 0),
    "white": (255, 255, 255),
}


def soft_lookup(path: Path) -> None:
    """The colour table looked up softly: "orange" takes half of red and half of yellow."""
    weights = {"red": 0.5, "yellow": 0.5}
    blend = [sum(weights.get(name, 0) * rgb[i] for name, rgb in COLOURS.items()) for i in range(3)]

    fig, ax = plt.subplots(figsize=(9, 3.3))
    ax.set_xlim(-1.7, len(COLOURS) + 1.8)
    ax.set_ylim(-1.45, 1.45)
    ax.axis("off")
    for x, (name, rgb) in enumerate(COLOURS.items()):
        w = weights.get(name, 0.0)
        ax.add_patch(
            plt.Rectangle((x - 0.4, 0.25), 0.8, 0.8, color=[c / 255 for c in rgb], ec="0.3", lw=1)
        )
        ax.text(x, 1.2, f"key: {name}", ha="center", fontsize=9)
        ax.text(x, 0.1, f"value\n{rgb}", ha="center", va="top", fontsize=8, color="0.25")
        ax.add_patch(plt.Rectangle((x - 0.25, -1.2), 0.5, 0.9 * w + 0.004, color="tab:blue"))
        ax.text(
            x,
            -1.35,
            f"weight {w:g}",
            ha="center",
            va="top",
            fontsize=8.5,
            color="tab:blue" if w else "0.5",
        )
    ax.text(
        -0.6,
        -0.75,
        'weights for\nthe query\n"orange"',
        fontsize=9,
        color="tab:blue",
        ha="right",
        va="center",
    )
    right = len(COLOURS) + 1.1
    ax.annotate(
        "",
        xy=(right - 0.55, 0.65),
        xytext=(len(COLOURS) - 0.3, 0.65),
        arrowprops={"arrowstyle": "->", "lw": 1.5},
    )
    ax.add_patch(
        plt.Rectangle(
            (right - 0.45, 0.25), 0.9, 0.8, color=[c / 255 for c in blend], ec="0.3", lw=1
        )
    )
    ax.text(right, 1.2, "weighted sum", ha="center", fontsize=9)
    ax.text(
        right, 0.1, f"({blend[0]:g}, {blend[1]:g}, {blend[2]:g})", ha="center", va="top", fontsize=8
    )
    ax.text(right, -0.5, "0.5 · red\n+ 0.5 · yellow", ha="center", va="center", fontsize=9)
    fig.suptitle(
        "A soft lookup: the answer is a blend of values, weighted by how well each key matches",
        fontsize=10.5,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


FIGURES = {"soft_lookup.png": soft_lookup}


def main(out_dir: Path = HERE) -> None:
    for name, draw in FIGURES.items():
        draw(out_dir / name)
        print(f"wrote {out_dir / name}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
