"""Known wrong answers for notebook 08, a character language model."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from transformer_course.decoder import causal_mask

__all__ = [
    "adamw_steps",
    "attend_with_cache",
    "bits_per_character",
    "encode",
    "lm_logits",
    "random_windows",
    "sample_distribution",
    "top_p_filter",
    "train_history",
]


def encode(text: str, vocab: list[str]) -> dict[str, torch.Tensor]:
    """Variants of the indices of ``text`` (every character of it in ``vocab``)."""
    right = [vocab.index(c) for c in text]
    return {
        "indices counted from 1 (the unknown entry at index 0 left out of the count)": (
            torch.tensor([i + 1 for i in right])
        ),
        "indices into the vocabulary without its unknown entry in front": (
            torch.tensor([i - 1 for i in right])
        ),
        "the characters' code points (ord) instead of their indices in the vocabulary": (
            torch.tensor([ord(c) for c in text])
        ),
    }


def random_windows(
    data: torch.Tensor, block_size: int, batch_size: int, seed: int
) -> dict[str, tuple[torch.Tensor, torch.Tensor]]:
    """Variants of ``(inputs, targets)`` drawn with ``torch.Generator().manual_seed(seed)``."""
    n, t = len(data), block_size

    def windows(high: int, shift: int):
        starts = torch.randint(high, (batch_size,), generator=torch.Generator().manual_seed(seed))
        rows = starts[:, None] + torch.arange(t)
        return data[rows.clamp(max=n - 1)], data[(rows + shift).clamp(0, n - 1)]

    x, _ = windows(n - t, 1)
    return {
        "targets equal to the inputs, not shifted by one character": (x, x),
        "targets shifted the wrong way (the character before, not after)": windows(n - t, -1),
        "targets shifted by two characters": windows(n - t, 2),
        "starts drawn from len(data) - block_size + 1 values: a window's target can fall past "
        "the end": windows(n - t + 1, 1),
    }


def lm_logits(
    idx: torch.Tensor, token_embedding, position_embedding, blocks, final_norm
) -> dict[str, torch.Tensor]:
    """Variants of the model's logits (B, T, V) with these pieces."""
    T = idx.shape[1]
    positions = torch.arange(T)

    causal = causal_mask(T)

    def run(x, mask=causal, norm=True):
        for block in blocks:
            x = block(x, mask)[0]
        return (final_norm(x) if norm else x) @ token_embedding.weight.T

    tokens = token_embedding(idx)
    with torch.no_grad():
        return {
            "the model without a causal mask: every character sees the ones after it": run(
                tokens + position_embedding(positions), mask=None
            ),
            "the model without position embeddings": run(tokens),
            "the model without the final layer norm": run(
                tokens + position_embedding(positions), norm=False
            ),
            "positions counted from 1": run(tokens + position_embedding(positions + 1))
            if T < position_embedding.num_embeddings
            else run(tokens),
            "the causal mask inverted (True above the diagonal: each character sees only the "
            "ones after it)": run(tokens + position_embedding(positions), mask=~causal),
            "a causal mask that hides the diagonal too (no character sees itself)": run(
                tokens + position_embedding(positions),
                mask=causal_mask(T).tril(-1)
                | torch.eye(T, dtype=torch.bool).logical_and(torch.arange(T)[:, None] == 0),
            ),
        }


def bits_per_character(logits: torch.Tensor, targets: torch.Tensor) -> dict[str, torch.Tensor]:
    flat, wanted = logits.flatten(0, -2), targets.flatten()
    nats = F.cross_entropy(flat, wanted)
    return {
        "the cross-entropy in nats (natural log): divide by ln 2 for bits": nats,
        "the cross-entropy with log10: bits need log2": nats / math.log(10),
        "the sum over characters instead of the mean": F.cross_entropy(
            flat, wanted, reduction="sum"
        )
        / math.log(2),
        "probabilities passed to cross_entropy, which expects logits (softmax applied twice)": (
            F.cross_entropy(torch.softmax(flat, -1), wanted) / math.log(2)
        ),
    }


def sample_distribution(
    logits: torch.Tensor, temperature: float, top_k: int | None
) -> dict[str, torch.Tensor]:
    """Variants of the distribution (V,) that ``sample_next`` draws from for one row."""

    def keep_top(scores, k, largest=True):
        if k is None:
            return scores
        kept = scores.topk(k, largest=largest).indices
        return torch.full_like(scores, float("-inf")).index_copy(0, kept, scores[kept])

    return {
        "logits multiplied by the temperature instead of divided": torch.softmax(
            keep_top(logits * temperature, top_k), -1
        ),
        "the temperature ignored": torch.softmax(keep_top(logits, top_k), -1),
        "top-k keeping the k smallest logits instead of the k largest": torch.softmax(
            keep_top(logits / temperature, top_k, largest=False), -1
        )
        if top_k is not None
        else torch.softmax(logits / temperature, -1),
        "top-k ignored": torch.softmax(logits / temperature, -1),
    }


def top_p_filter(logits: torch.Tensor, p: float) -> dict[str, torch.Tensor]:
    """Variants of the nucleus-filtered logits (B, V): each row's nucleus of probability ``p``
    kept, the other logits -inf (computed in the dtype of ``logits``, as an answer would)."""
    inf = float("-inf")
    sorted_logits, order = logits.sort(dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    up_to = probs.cumsum(dim=-1)  # the probability up to each token, its own included
    before = up_to - probs
    top = torch.arange(logits.shape[-1]) == 0

    def back(sorted_values):  # each sorted entry back to where its token was
        return torch.empty_like(logits).scatter(-1, order, sorted_values)

    def dropping(drop):
        return back(sorted_logits.masked_fill(drop, inf))

    exps = sorted_logits.exp()  # inf for a logit over ~89 (float32) or ~710 (float64)
    unshifted = exps / exps.sum(dim=-1, keepdim=True)  # inf / inf: NaN, never >= p
    rising, rising_order = logits.sort(dim=-1)
    rising_probs = torch.softmax(rising, dim=-1)
    rising_drop = rising_probs.cumsum(dim=-1) - rising_probs >= p
    return {
        "a nucleus that stops before the token that carries the sum to p: a token kept only "
        "when the probability up to it, its own included, is at most p (compare the "
        "probability of the tokens before it)": dropping((up_to > p) & ~top),
        "a nucleus that stops before the token that carries the sum to p, and before one "
        "that brings it to exactly p: a token kept only when the probability up to it, its "
        "own included, is below p (compare the probability of the tokens before it)": dropping(
            (up_to >= p) & ~top
        ),
        "a token kept only when the probability up to it, its own included, is at most p, "
        "without keeping the top token: the token that carries the sum to p is dropped, and "
        "a row whose top token alone holds more than p keeps nothing": dropping(up_to > p),
        "a token dropped only when the probability before it is more than p, not when it "
        "equals p: where the sum reaches p exactly, one token too many is kept": dropping(
            before > p
        ),
        "the tokens sorted from the least likely up (ascending) instead of from the most "
        "likely down": torch.empty_like(logits).scatter(
            -1, rising_order, rising.masked_fill(rising_drop, inf)
        ),
        "a cumulative sum over the sorted logits instead of their probabilities (the "
        "softmax of the row)": dropping(sorted_logits.cumsum(dim=-1) - sorted_logits >= p),
        "the filtered logits left in sorted order, most likely first, instead of put back at "
        "their tokens' places": sorted_logits.masked_fill(before >= p, inf),
        "the sorted entries put back with gather(-1, order), which undoes no sort: "
        "scatter(-1, order, ·) writes entry j to position order[j]": sorted_logits.masked_fill(
            before >= p, inf
        ).gather(-1, order),
        "a mask made in sorted order applied to the logits in their original order, "
        "without putting it back": logits.masked_fill(before >= p, inf),
        "the nucleus's probabilities (0 elsewhere) instead of its logits (-inf elsewhere)": back(
            probs.masked_fill(before >= p, 0.0)
        ),
        "probabilities computed as exp(logits) / their sum without taking the largest logit "
        "away first: exp overflows to inf, the probabilities become NaN and nothing is "
        "dropped": dropping(unshifted.cumsum(dim=-1) - unshifted >= p),
    }


def _adamw_update(*flaws):
    """An AdamW update of one tensor with ``flaws``; ``adamw_step``'s arguments and result."""

    def update(param, grad, m, v, step, lr, betas, eps, weight_decay):
        beta1, beta2 = reversed(betas) if "betas swapped" in flaws else betas
        if "L2" in flaws:
            grad = grad + weight_decay * param
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        t = step + 1 if "step + 1" in flaws else step
        m_hat = m if "no correction" in flaws or "v only" in flaws else m / (1 - beta1**t)
        v_hat = v if "no correction" in flaws or "m only" in flaws else v / (1 - beta2**t)
        if "eps inside" in flaws:
            root = (v_hat + eps).sqrt()
        elif "no root" in flaws:
            root = v_hat + eps
        else:
            root = v_hat.sqrt() + eps
        shrink = 0.0 if "L2" in flaws else weight_decay if "no lr" in flaws else lr * weight_decay
        if "decay after" in flaws:
            return (param - lr * m_hat / root) * (1 - shrink), m, v
        return param * (1 - shrink) - lr * m_hat / root, m, v

    return update


_ADAMW_FLAWS = {
    "Adam with an L2 penalty instead of AdamW: weight_decay·param added to the gradient "
    "(torch.optim.Adam's weight decay, which the moments then rescale), not lr·weight_decay·"
    "param taken from the parameter beside the update": ("L2",),
    "no bias correction: m and v used as they are, not divided by 1 − β₁^step and "
    "1 − β₂^step (the first updates come out too small, or too large where v is corrected "
    "and m is not)": ("no correction",),
    "the bias correction of m only (v used uncorrected)": ("m only",),
    "the bias correction of v only (m used uncorrected)": ("v only",),
    "eps inside the square root, √(v̂ + eps), instead of added to it, √v̂ + eps": ("eps inside",),
    "v̂ + eps without the square root: m̂ divided by the second moment, not its root": ("no root",),
    "bias corrections with step + 1 (the step counted from 0) instead of the step number "
    "given, 1 for the first update": ("step + 1",),
    "the weight decay applied after the update, to the updated parameter, instead of to the "
    "parameter as it was": ("decay after",),
    "the weight decay without the learning rate: param·(1 − weight_decay) instead of "
    "param·(1 − lr·weight_decay)": ("no lr",),
    "the betas swapped: β₂ for the gradient's average and β₁ for its square's": ("betas swapped",),
}


def adamw_steps(
    case: dict,
    first: int,
    lr: float,
    betas: tuple[float, float],
    eps: float,
    weight_decay: float,
    part: str = "param",
) -> dict[str, torch.Tensor]:
    """What known wrong AdamW updates give over a run: ``case`` holds ``param``, the
    moments ``m`` and ``v`` after ``first - 1`` updates, and ``grads`` (steps, *shape), one
    gradient per update; -> {description: ``part`` ("param", "m" or "v") after each update,
    stacked (steps, *shape)}."""
    found = {}
    for description, flaws in _ADAMW_FLAWS.items():
        update = _adamw_update(*flaws)
        param, m, v, values = case["param"], case["m"], case["v"], []
        for i, grad in enumerate(case["grads"]):
            param, m, v = update(param, grad, m, v, first + i, lr, betas, eps, weight_decay)
            values.append({"param": param, "m": m, "v": v}[part])
        found[description] = torch.stack(values)
    return found


def attend_with_cache(steps, chunks) -> dict[str, torch.Tensor]:
    """Variants of the outputs (B, H, T, d) of cached attention over ``steps`` = (q, k, v),
    each (B, H, T, d), fed in ``chunks`` of positions (a prompt, then more), T = sum(chunks)."""
    q, k, v = steps
    T = q.shape[-2]
    scale = q.shape[-1] ** -0.5
    rows, columns = torch.arange(T)[:, None], torch.arange(T)
    starts = torch.cumsum(torch.tensor([0, *chunks]), 0)[:-1]
    start_of = torch.repeat_interleave(starts, torch.tensor(chunks))  # each query's chunk start
    causal = causal_mask(T)
    same_chunk = start_of[:, None] == start_of[None, :]
    stored = columns < start_of[:, None]  # keys of earlier chunks

    def attend(mask, scale=scale, keys=k, values=v):
        scores = (q @ keys.transpose(-2, -1)) * scale
        return torch.softmax(scores.masked_fill(~mask, float("-inf")), -1) @ values

    variants = {
        "attention to the new characters only: the cache is never read": attend(
            causal & same_chunk
        ),
        "no causal mask among the new characters: in a chunk of several, each sees the ones "
        "after it": attend(stored | same_chunk),
        "a mask built for the new queries alone (tril() without the offset of the stored "
        "length): new character i sees only keys 0 … i": attend(
            columns <= rows - start_of[:, None]
        ),
        "scores not divided by √d_head": attend(causal, scale=1.0),
    }
    if len(chunks) > 1 and max(chunks[1:]) > 1:
        first = start_of[:, None] == 0
        variants[
            "the causal mask applied on the first call only: a later chunk of several new "
            "characters sees its own future"
        ] = attend(torch.where(first, causal, stored | same_chunk))
    return variants


_HISTORIES: dict[tuple, dict[str, dict]] = {}  # the variants' histories, by case and run


def train_history(
    case, part: str, steps=None, every: int = 2, clip: float = 1.0, evaluate: bool = True
) -> dict[str, torch.Tensor]:
    """What known wrong training loops return as ``part`` of their history ("bits": the
    training losses, "held_out": the (step, bits) pairs), each run on a fresh copy of ``case``
    (a ``course_checks.lm_training_case.LoopCase``)."""
    run = (case.key, repr(steps), every, clip, evaluate)
    if run not in _HISTORIES:
        _HISTORIES.clear()  # one run's at a time: checks ask for its two parts in turn
        _HISTORIES[run] = _flawed_histories(case, steps, every, clip, evaluate)
    return {
        description: torch.tensor(history[part], dtype=torch.float64)
        for description, history in _HISTORIES[run].items()
    }


def _flawed_histories(case, steps, every, clip, evaluate) -> dict[str, dict]:
    import warnings

    from transformer_course.language_model import bits_per_character as bits

    def make(*flaws):
        def train(model, optimizer, scheduler, batches, steps, evaluate=None, every=100, clip=1.0):
            history = {"bits": [], "held_out": []}
            for count, step in enumerate(steps):
                if "own count" in flaws:
                    step = count
                inputs, targets = batches(step)
                loss = bits(model(inputs), targets)
                if "nats" in flaws:
                    loss = loss * math.log(2)
                record = evaluate is not None and (step + 1) % every == 0
                if "evaluated first" in flaws and record:
                    history["held_out"].append((step + 1, evaluate(model)))
                if "no zero" not in flaws:
                    optimizer.zero_grad()
                loss.backward()
                if "clip value" in flaws:
                    torch.nn.utils.clip_grad_value_(model.parameters(), clip)
                elif "no clip" not in flaws:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
                if "scheduler first" in flaws:
                    scheduler.step()
                optimizer.step()
                if not {"scheduler first", "no scheduler"} & set(flaws):
                    scheduler.step()
                history["bits"].append(loss.item())
                if "step % every" in flaws:
                    if evaluate is not None and step % every == 0:
                        history["held_out"].append((step, evaluate(model)))
                elif record and "evaluated first" not in flaws:
                    history["held_out"].append((step + 1, evaluate(model)))
            return history

        return train

    variants = {
        "gradients never zeroed: optimizer.zero_grad() is missing, so each step adds up the "
        "gradients of every batch so far": make("no zero"),
        "no gradient clipping (clip_grad_norm_ before optimizer.step())": make("no clip"),
        "each gradient clipped to ±clip (clip_grad_value_) instead of their norm "
        "(clip_grad_norm_)": make("clip value"),
        "the scheduler never stepped: every update uses the first learning rate": make(
            "no scheduler"
        ),
        "scheduler.step() before optimizer.step(): every update uses the next step's learning "
        "rate": make("scheduler first"),
        "the loss in nats (F.cross_entropy as it is) instead of bits": make("nats"),
        "the held-out score taken before the update of its step instead of after it": make(
            "evaluated first"
        ),
        "steps counted from 0 by the loop itself instead of the step numbers it is given (a "
        "resumed run starts again at batch 0)": make("own count"),
        "the held-out score taken when step % every == 0 (before any training, then every "
        "`every` steps) instead of after every `every` updates": make("step % every"),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch's warning about the scheduler's order
        return {
            description: case.fresh().run(train, steps, every, clip, evaluate)
            for description, train in variants.items()
        }
