"""Sampling from a language model: the next index from a row of logits, and a text from a
prompt.

Temperature divides the logits (0 is greedy: the argmax); ``top_k`` keeps the k largest and
``top_p`` the nucleus, the fewest most likely tokens whose probabilities reach p; then one
index is drawn from the softmax of what is left. ``generate`` appends one sampled character
at a time, each from the logits of the text so far, with a ``KVCache`` or without.

Shapes: logits (B, V) for a step, (..., V) for ``top_p_filter``; texts (B, T) int64.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import torch

from .kv_cache import KVCache

if TYPE_CHECKING:  # only named in a signature: language_model imports this module
    from .language_model import CharLM

__all__ = ["generate", "sample_next", "top_p_filter"]


def top_p_filter(logits: torch.Tensor, p: float) -> torch.Tensor:
    """Nucleus (top-p) filtering: logits (..., V), 0 < p <= 1 -> a new tensor of the same
    shape and dtype, each row's nucleus kept and every other logit set to -inf.

    A row's **nucleus** is the smallest set of its most likely tokens whose probabilities
    (the softmax of the row) add up to at least ``p``: sorted from the most likely down, a
    token is kept while the probability of the tokens before it is still below ``p``. The
    most likely token is always kept (nothing comes before it), the token whose probability
    carries the sum to ``p`` or past it is kept, and every token after it goes. Where the sum
    reaches ``p`` exactly, the nucleus ends there. ``p = 1`` keeps every token, but for any
    whose probability is lost to rounding in the sum of those before it. Ties are broken by
    the sort, so of tokens of equal probability on the nucleus's edge either may stay. Apply a
    temperature before, not after: the nucleus is a set of the distribution drawn from.

        sorted, order = sort(logits, descending)      probabilities = softmax(sorted)
        before = cumsum(probabilities) - probabilities    drop where before >= p
        back to the original order: each sorted entry to position order[j]
    """
    if not 0 < p <= 1:
        raise ValueError(f"p must be in (0, 1], not {p}")
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    before = probs.cumsum(dim=-1) - probs  # the probability of the tokens above each one
    kept = sorted_logits.masked_fill(before >= p, float("-inf"))
    return torch.empty_like(logits).scatter(-1, order, kept)


def sample_next(
    logits: torch.Tensor,
    temperature: float = 1.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
    top_p: float | None = None,
) -> torch.Tensor:
    """One index per row of ``logits`` (B, V) -> (B,) int64.

    Temperature 0 is greedy (the argmax). Otherwise the logits are divided by the
    temperature, all but the ``top_k`` largest set to -inf (if given), all but the nucleus of
    probability ``top_p`` set to -inf (if given, ``top_p_filter``), and one index drawn from
    their softmax with ``torch.multinomial``.
    """
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None and top_k < logits.shape[-1]:
        kth = logits.topk(top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if top_p is not None:
        logits = top_p_filter(logits, top_p)
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


@torch.no_grad()
def generate(
    model: CharLM,
    prompt: torch.Tensor,
    n_new: int,
    temperature: float = 1.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
    use_cache: bool = True,
    top_p: float | None = None,
) -> torch.Tensor:
    """prompt (B, T0) -> (B, T0 + n_new): ``n_new`` sampled characters appended
    (``sample_next`` with ``temperature``, ``top_k`` and ``top_p``).

    With ``use_cache`` the prompt is run once (the *prefill*), then each step feeds one
    character and reuses the stored keys and values (*decode*); without, each step runs the
    whole text so far (the last ``max_len`` characters).
    """
    model.eval()
    idx = prompt
    if use_cache:
        if prompt.shape[1] + n_new > model.max_len:
            raise ValueError(f"prompt + n_new exceed max_len = {model.max_len}")
        cache = KVCache(len(model.blocks), capacity=prompt.shape[1] + n_new)
        logits = model.step(prompt, cache)[:, -1]
        for _ in range(n_new):
            nxt = sample_next(logits, temperature, top_k, generator, top_p)
            idx = torch.cat([idx, nxt[:, None]], dim=1)
            logits = model.step(nxt[:, None], cache)[:, -1]
        return idx
    for _ in range(n_new):
        logits = model(idx[:, -model.max_len :])[:, -1]
        nxt = sample_next(logits, temperature, top_k, generator, top_p)
        idx = torch.cat([idx, nxt[:, None]], dim=1)
    return idx
