"""Known wrong answers for notebook 05, encoder."""

from __future__ import annotations

import torch

__all__ = [
    "encoder_block",
    "feed_forward",
    "layer_norm",
    "pre_norm_block",
]


def layer_norm(
    x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = 1e-5
) -> dict[str, torch.Tensor]:
    """Variants of layer normalisation over the last axis of x (..., d_model)."""

    def normalise(dims, unbiased=False, eps_inside=True, g=gamma, b=beta):
        mean = x.mean(dim=dims, keepdim=True)
        var = x.var(dim=dims, keepdim=True, unbiased=unbiased)
        std = (var + eps).sqrt() if eps_inside else var.sqrt() + eps
        return (x - mean) / std * g + b

    variants = {
        "the unbiased variance (dividing by d_model − 1, torch.var's default) instead of the "
        "mean of squared deviations": normalise(-1, unbiased=True),
        "ε added to the standard deviation instead of inside the square root": normalise(
            -1, eps_inside=False
        ),
        "γ and β swapped": normalise(-1, g=beta, b=gamma),
        "the normalised values without γ and β": normalise(-1, g=1.0, b=0.0),
    }
    if x.dim() >= 2:
        variants[
            "statistics over the tokens (a batch-norm-like axis) instead of over each "
            "token's features"
        ] = normalise(-2)
    return variants


def feed_forward(
    x: torch.Tensor, W1: torch.Tensor, b1: torch.Tensor, W2: torch.Tensor, b2: torch.Tensor
) -> dict[str, torch.Tensor]:
    """Variants of Linear -> ReLU -> Linear with PyTorch's weight layout (out, in)."""
    hidden = x @ W1.T + b1
    return {
        "the two layers without the ReLU between them": hidden @ W2.T + b2,
        "a ReLU after the second layer as well": torch.relu(torch.relu(hidden) @ W2.T + b2),
        "the ReLU before the first layer instead of between the layers": torch.relu(x) @ W1.T @ W2.T
        + b1 @ W2.T
        + b2,
    }


def encoder_block(x: torch.Tensor, attend, feed, norm1, norm2) -> dict[str, torch.Tensor]:
    """Variants of the post-norm encoder block; ``attend(x)`` and ``feed(x)`` are the sublayers."""
    with torch.no_grad():
        h = norm1(x + attend(x))
        pre = x + attend(norm1(x))
        no_residual = norm1(attend(x))
        after_norm = norm1(attend(x)) + x
        return {
            "pre-norm (each sublayer sees a normalised input) instead of post-norm": pre
            + feed(norm2(pre)),
            "the sublayers without their residual connections": norm2(feed(no_residual)),
            "the residual added after the norm, norm(sublayer(x)) + x": norm2(feed(after_norm))
            + after_norm,
            "the two layer norms swapped": norm1(norm2(x + attend(x)) + feed(norm2(x + attend(x)))),
            "the attention sublayer only (the feed-forward sublayer missing)": h,
        }


def pre_norm_block(x: torch.Tensor, attend, feed, norm1, norm2) -> dict[str, torch.Tensor]:
    """Variants of the pre-norm encoder block, h = x + attend(norm1(x)), h + feed(norm2(h));
    ``attend(x)`` and ``feed(x)`` are the sublayers."""
    with torch.no_grad():
        h = x + attend(norm1(x))
        post = norm1(x + attend(x))
        normalised = norm1(x)
        from_normalised = normalised + attend(normalised)
        normalised_again = norm2(from_normalised)
        swapped = x + attend(norm2(x))
        return {
            "post-norm (the norm after each residual addition, as in exercise 3) instead of "
            "pre-norm": norm2(post + feed(post)),
            "the residual taken from the normalised input, LN(x) + MHA(LN(x)), instead of from "
            "x itself": normalised_again + feed(normalised_again),
            "one norm (norm1) used for both sublayers": h + feed(norm1(h)),
            "the two layer norms swapped": swapped + feed(norm1(swapped)),
            "the feed-forward sublayer reading x instead of h, the output of the attention step": h
            + feed(norm2(x)),
            "the feed-forward's output added to x instead of to h": x + feed(norm2(h)),
            "a layer norm at the end of the block (a pre-norm block returns the stream "
            "unnormalised; only the stack ends with a norm)": norm2(h + feed(norm2(h))),
            "the sublayers without their residual connections": feed(norm2(attend(norm1(x)))),
            "the attention sublayer only (the feed-forward sublayer missing)": h,
        }
