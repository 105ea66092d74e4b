"""A decoder-only (GPT-style) character language model: its parts, training and evaluation,
and its step over a key–value cache.

Drop the encoder and the cross-attention of notebook 06 and what is left is a stack of
causally masked self-attention blocks that predicts each next token: a language model.

    logits = LN(blocks(E[x] + P[0..T-1])) Eᵀ          (B, T) indices -> (B, T, V) scores

``E`` is the token embedding (V, d_model); the output head reuses it ("tied" weights), so a
character's vector is both how it is read and how it is scored. ``P`` is a learned position
embedding (max_len, d_model). The blocks are pre-norm blocks run with a causal mask: the
course's ``EncoderBlock``, or a ``PreNormBlock`` assembled from a learner's own attention
module (notebook 03) and block wiring (notebook 05).

``CharLM.step`` runs only the new characters through the blocks, their queries attending to
the keys and values of the earlier ones that a ``KVCache`` keeps.

The cache (kv_cache.py), sampling (sampling.py) and the optimiser (adamw.py) have modules of
their own; their names are importable from here too (``__all__``), as notebooks 08 and 09,
their checks and their refusals import them.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from .adamw import AdamW, adamw_step, parameter_groups
from .corpus import random_windows
from .decoder import causal_mask
from .encoder import EncoderBlock, FeedForward, pre_norm_block
from .kv_cache import KVCache, attend_with_cache
from .multihead import MultiHeadAttention, merge_heads, split_heads
from .progress import progress_bar
from .sampling import generate, sample_next, top_p_filter
from .schedules import cosine_warmup

__all__ = [
    "Batches",
    "CharLM",
    "PreNormBlock",
    "bits_per_character",
    "evaluate_bits",
    "flops_per_character",
    "lm_logits",
    "load_checkpoint",
    "save_checkpoint",
    "train",
    "train_language_model",
    "training_curve",
    # Re-exported from the modules that now hold them (the notebooks, their checks and
    # refusals, tests and benchmarks import them from here):
    "AdamW",
    "KVCache",
    "adamw_step",
    "attend_with_cache",
    "generate",
    "parameter_groups",
    "sample_next",
    "top_p_filter",
]


def lm_logits(idx, token_embedding, position_embedding, blocks, final_norm) -> torch.Tensor:
    """The forward pass from its pieces (notebook 08's exercise): idx (B, T) int64 ->
    logits (B, T, V), each block called as ``block(x, causal_mask)``, head tied to E."""
    T = idx.shape[1]
    x = token_embedding(idx) + position_embedding(torch.arange(T, device=idx.device))
    mask = causal_mask(T, device=idx.device)
    for block in blocks:
        x = block(x, mask)[0]
    return final_norm(x) @ token_embedding.weight.T


class PreNormBlock(nn.Module):
    """A pre-norm block from parts: ``attention(d_model, n_heads)`` makes an attention module
    called as PyTorch's (``query, key, value, mask=..., need_weights=...`` -> ``(output,
    weights)``) with PyTorch's parameters (``in_proj_weight``, ``in_proj_bias``, ``out_proj``,
    or the course's ``in_proj``); ``wiring(x, attention, feed_forward_net, norm1, norm2,
    mask)`` puts the sublayers together (the course's ``pre_norm_block`` by default)."""

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_ff: int,
        attention: Callable[[int, int], nn.Module] = MultiHeadAttention,
        wiring: Callable = pre_norm_block,
    ):
        super().__init__()
        self.n_heads = n_heads
        self.attention = attention(d_model, n_heads)
        self.feed_forward = FeedForward(d_model, d_ff)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.wiring = wiring

    def self_attention(self, h: torch.Tensor, mask: torch.Tensor | None = None):
        """The attention module over h alone: -> (output (B, T, d_model), None)."""
        return self.attention(h, h, h, mask=mask, need_weights=False)[0], None

    def forward(
        self, x: torch.Tensor, mask: torch.Tensor | None = None, need_weights: bool = False
    ) -> tuple[torch.Tensor, None]:
        """x (B, T, d_model) -> (B, T, d_model), None (the maps come from
        ``CharLM.attention_maps``)."""
        return self.wiring(
            x, self.self_attention, self.feed_forward, self.norm1, self.norm2, mask=mask
        ), None


class CharLM(nn.Module):
    """Token and position embeddings, ``n_layers`` pre-norm causal blocks, a final layer norm,
    and an output head tied to the token embedding: (B, T) int64 -> (B, T, vocab_size).

    By default the blocks are the course's ``EncoderBlock(norm_first=True)`` and the forward
    pass is the course's. A learner's own parts replace them: ``attention`` (a module class,
    ``attention(d_model, n_heads)``) and ``wiring`` (a pre-norm block function) make the
    blocks ``PreNormBlock``s, and ``logits`` (a function like ``lm_logits``) is the forward
    pass. Dropout (``dropout``) applies to the course's blocks and forward pass only.
    """

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 128,
        n_heads: int = 4,
        n_layers: int = 4,
        d_ff: int | None = None,
        max_len: int = 256,
        dropout: float = 0.0,
        *,
        attention: Callable[[int, int], nn.Module] | None = None,
        wiring: Callable | None = None,
        logits: Callable | None = None,
        cached_attention: Callable | None = None,
    ):
        super().__init__()
        self.max_len = max_len
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(max_len, d_model)
        d_ff = d_ff or 4 * d_model
        if attention is None and wiring is None:
            blocks = (
                EncoderBlock(d_model, n_heads, d_ff, dropout, norm_first=True)
                for _ in range(n_layers)
            )
        else:
            blocks = (
                PreNormBlock(
                    d_model,
                    n_heads,
                    d_ff,
                    attention or MultiHeadAttention,
                    wiring or pre_norm_block,
                )
                for _ in range(n_layers)
            )
        self.blocks = nn.ModuleList(blocks)
        self.final_norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.logits = logits
        self.cached_attention = cached_attention
        # GPT-2's initialisation: small normal weights keep the first logits near uniform.
        for name, parameter in self.named_parameters():
            if parameter.dim() == 2:
                nn.init.normal_(parameter, std=0.02)
            elif name.endswith("bias"):
                nn.init.zeros_(parameter)

    def embed(self, idx: torch.Tensor, start: int = 0) -> torch.Tensor:
        """(B, T) -> (B, T, d_model): token vectors plus those of positions start .. start+T-1."""
        positions = torch.arange(start, start + idx.shape[1], device=idx.device)
        return self.dropout(self.token_embedding(idx) + self.position_embedding(positions))

    def head(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, d_model) -> (B, T, vocab_size): final norm, then scores against E."""
        return self.final_norm(x) @ self.token_embedding.weight.T

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        """idx (B, T) with T <= max_len -> logits (B, T, vocab_size)."""
        if self.logits is not None:
            return self.logits(
                idx,
                self.token_embedding,
                self.position_embedding,
                list(self.blocks),
                self.final_norm,
            )
        x = self.embed(idx)
        mask = causal_mask(idx.shape[1], device=idx.device)
        for block in self.blocks:
            x = block(x, mask)[0]
        return self.head(x)

    @torch.no_grad()
    def attention_maps(self, idx: torch.Tensor) -> list[torch.Tensor]:
        """Every layer's attention weights for ``idx`` (B, T): a list of (B, H, T, T),
        computed from each block's projections of its normed input (pre-norm blocks)."""
        x = self.embed(idx)
        mask = causal_mask(idx.shape[1], device=idx.device)
        maps = []
        for block in self.blocks:
            q, k, _ = _heads(block, block.norm1(x))
            scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
            maps.append(torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1))
            x = block(x, mask)[0]
        return maps

    def step(self, idx: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Run the new characters ``idx`` (B, T_new), which follow the ``cache.length`` already
        in ``cache``, through the model; extends the cache; -> logits (B, T_new, vocab)."""
        start = cache.length
        if start + idx.shape[1] > self.max_len:
            raise ValueError(f"{start + idx.shape[1]} characters exceed max_len = {self.max_len}")
        if cache.capacity is None:
            cache.capacity = self.max_len
        x = self.embed(idx, start)
        for layer, block in enumerate(self.blocks):
            wiring = getattr(block, "wiring", pre_norm_block)
            attend = partial(
                _cached_self_attention,
                block,
                cache,
                layer,
                self.cached_attention or attend_with_cache,
            )
            x = wiring(x, attend, block.feed_forward, block.norm1, block.norm2)
        cache.length += idx.shape[1]
        return self.head(x)


def _heads(block: nn.Module, h: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """The block's queries, keys and values of h (B, T, d_model), each (B, H, T, d_head),
    from its attention's packed projection (PyTorch's names or the course's ``in_proj``)."""
    attention = block.attention
    if hasattr(attention, "in_proj_weight"):
        weight, bias = attention.in_proj_weight, attention.in_proj_bias
    else:
        weight, bias = attention.in_proj.weight, attention.in_proj.bias
    n_heads = getattr(block, "n_heads", None) or attention.n_heads
    return tuple(split_heads(t, n_heads) for t in F.linear(h, weight, bias).chunk(3, dim=-1))


def _cached_self_attention(
    block: nn.Module,
    cache: KVCache,
    layer: int,
    attend: Callable,
    h: torch.Tensor,
    mask: torch.Tensor | None = None,
) -> tuple[torch.Tensor, None]:
    """The block's attention for the new (normed) inputs h (B, T_new, d) over the cache and
    h, as an attention module returns it: (output, None), with ``attend`` (like
    ``attend_with_cache``) writing the new keys and values into the cache. (``mask`` is not
    used: the one a cached step needs follows from the cache.)"""
    q, k, v = _heads(block, h)
    cache_k, cache_v = cache.room(layer, k, v)
    output = attend(q, k, v, cache_k, cache_v, cache.length)
    return block.attention.out_proj(merge_heads(output)), None


def bits_per_character(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy in bits: logits (..., V), targets (...) int64 -> () tensor."""
    return F.cross_entropy(logits.flatten(0, -2), targets.flatten()) / math.log(2)


# --- training -------------------------------------------------------------------------------


class Batches:
    """``batches(step)`` -> (inputs, targets) (B, T): ``batch_size`` random windows of
    ``data``, drawn from a generator seeded by ``seed`` and the step. The same step always
    gets the same batch, so a run resumed from a checkpoint sees the batches it would have
    seen without stopping."""

    def __init__(
        self,
        data: torch.Tensor,
        block_size: int,
        batch_size: int,
        seed: int = 0,
        device: torch.device | str = "cpu",
    ):
        self.data, self.block_size, self.batch_size = data, block_size, batch_size
        self.seed, self.device = seed, device

    def __call__(self, step: int) -> tuple[torch.Tensor, torch.Tensor]:
        generator = torch.Generator().manual_seed(self.seed * 1_000_003 + step)
        inputs, targets = random_windows(self.data, self.block_size, self.batch_size, generator)
        return inputs.to(self.device), targets.to(self.device)


def train(
    model: nn.Module,
    optimizer,
    scheduler,
    batches: Callable,
    steps: Iterable[int],
    evaluate: Callable | None = None,
    every: int = 100,
    clip: float = 1.0,
) -> dict:
    """The training loop (notebook 08's exercise). For each step number in ``steps`` (a
    range, or a ``Budget`` that also stops at a time limit): ``batches(step)``, the loss in
    bits per character, zero the gradients, backward, clip their norm to ``clip``, the
    optimiser's step, the scheduler's step. After each update that completes a multiple of
    ``every`` steps, ``evaluate(model)`` (if given) is recorded.

    -> {"bits": [each step's training loss, a float], "held_out": [(steps done, evaluate's
    value), ...]}
    """
    history: dict[str, list] = {"bits": [], "held_out": []}
    for step in steps:
        inputs, targets = batches(step)
        loss = bits_per_character(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        if evaluate is not None and (step + 1) % every == 0:
            history["held_out"].append((step + 1, evaluate(model)))
    return history


def save_checkpoint(path, model: nn.Module, optimizer, scheduler, step: int) -> None:
    """Everything a resumed run needs: the weights, the optimiser's moments, the schedule's
    position and the number of steps done."""
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
        },
        path,
    )


def load_checkpoint(path, model: nn.Module, optimizer, scheduler) -> int:
    """Restore a checkpoint into these (freshly made) objects; -> the steps it had done."""
    state = torch.load(path, weights_only=True)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    return state["step"]


def flops_per_character(model: CharLM) -> int:
    """Training FLOPs per character, 6·N (forward 2·N, backward 4·N), where N counts the
    parameters every character multiplies: all but the position embedding (a lookup). The
    attention scores' own work, about 6·n_layers·T·d_model more, is left out."""
    position = model.position_embedding.weight.numel()
    return 6 * (sum(p.numel() for p in model.parameters()) - position)


def training_curve() -> dict[str, list]:
    """The held-out curve of ``make lm-curve`` (benchmarks/lm_curve.py: notebook 08's model
    trained longer with the same code): {column: values} for ``step``, ``characters``,
    ``epochs``, ``flops``, ``seconds`` and ``held_out_bits``, and ``notes``, the file's
    comment lines (what was run, on what machine)."""
    lines = Path(__file__).with_name("lm_curve.csv").read_text().splitlines()
    notes = [line[1:].strip() for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    columns = {name: [float(row[name]) for row in rows] for name in rows[0]}
    return columns | {"notes": notes}


def train_language_model(
    model: CharLM,
    data: torch.Tensor,
    steps: int,
    block_size: int = 128,
    batch_size: int = 32,
    lr: float = 3e-3,
    warmup: int = 50,
    clip: float = 1.0,
    seed: int = 0,
    progress: bool = True,
    weight_decay: float = 0.1,
) -> dict[str, list[float]]:
    """Train on random windows of ``data`` (1-D indices) with ``train``, AdamW
    (``parameter_groups``) and notebook 07's cosine warm-up (``warmup`` steps, then a cosine
    decay to 0); returns the history per step: ``bits`` (the batch's bits per character) and
    ``lr``."""
    device = next(model.parameters()).device
    model.train()
    optimizer = torch.optim.AdamW(parameter_groups(model, weight_decay), lr=lr, betas=(0.9, 0.99))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_warmup(warmup, steps))
    batches = Batches(data, block_size, batch_size, seed, device)
    history: dict[str, list[float]] = {"bits": [], "lr": []}
    for step in progress_bar(range(steps), "training", disable=not progress, mininterval=1.0):
        history["lr"].append(optimizer.param_groups[0]["lr"])
        history["bits"] += train(model, optimizer, scheduler, batches, [step], clip=clip)["bits"]
    model.eval()
    return history


@torch.no_grad()
def evaluate_bits(
    model: nn.Module,
    data: torch.Tensor,
    block_size: int = 128,
    stride: int | None = None,
    first: int = 1,
    batch_size: int = 64,
) -> float:
    """Bits per character over ``data[first:]``, each character predicted from the ones
    before it inside a window of ``block_size``.

    ``stride`` None: consecutive windows that do not overlap; a character at offset i of its
    window is predicted from the i before it (0 for the first of each window). ``stride`` s <
    ``block_size``: windows s apart, each scoring only the characters no earlier window
    scored, so that every character after the first window has at least ``block_size`` - s
    before it, at block_size / s times the work. The model's train/eval mode is restored.
    """
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    n = len(data)
    size = min(block_size, n - 1)
    stride = size if stride is None else stride
    starts = list(range(0, n - size, stride))
    if starts[-1] + size < n - 1:  # one last window, flush with the end
        starts.append(n - 1 - size)
    # window w scores targets data[lo + 1 .. w + size], those after the ones scored before
    lows, covered = [], first - 1
    for w in starts:
        lows.append(max(covered, w))
        covered = max(covered, w + size)
    total, count = 0.0, 0
    for i in range(0, len(starts), batch_size):
        chunk = torch.tensor(starts[i : i + batch_size])
        rows = chunk[:, None] + torch.arange(size)
        logits = model(data[rows].to(device))
        log_p = -torch.log_softmax(logits.double(), -1).gather(
            -1, data[rows + 1].to(device)[..., None]
        )[..., 0]
        targets = rows + 1
        scored = targets > torch.tensor(lows[i : i + batch_size])[:, None]
        total += log_p[scored.to(device)].sum().item()
        count += int(scored.sum())
    model.train(was_training)
    return total / count / math.log(2)
