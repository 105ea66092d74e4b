"""A decoder-only (GPT-style) character language model, its sampling, and a key–value cache.

Drop the encoder and the cross-attention of notebook 06 and what is left is a stack of
causally masked self-attention blocks that predicts each next token: a language model.

    logits = LN(blocks(E[x] + P[0..T-1])) Eᵀ          (B, T) indices -> (B, T, V) scores

``E`` is the token embedding (V, d_model); the output head reuses it ("tied" weights), so a
character's vector is both how it is read and how it is scored. ``P`` is a learned position
embedding (max_len, d_model). The blocks are the course's pre-norm ``EncoderBlock``s run with
a causal mask.

Generating one character at a time recomputes, at every step, the keys and values of every
earlier character — which never change. A **key–value cache** keeps them: each step runs only
the new character through the blocks, appends its key and value to the cache of every layer,
and lets its query attend to everything stored. The logits are the same; the work per
character no longer grows with the text so far (attention over the cache aside).
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .corpus import random_windows
from .decoder import causal_mask
from .encoder import EncoderBlock
from .multihead import merge_heads, split_heads
from .progress import progress_bar

__all__ = [
    "CharLM",
    "KVCache",
    "bits_per_character",
    "evaluate_bits",
    "generate",
    "sample_next",
    "train_language_model",
]


class CharLM(nn.Module):
    """Token and position embeddings, ``n_layers`` pre-norm causal blocks, a final layer norm,
    and an output head tied to the token embedding: (B, T) int64 -> (B, T, vocab_size)."""

    def __init__(
        self,
        vocab_size: int,
        d_model: int = 128,
        n_heads: int = 4,
        n_layers: int = 4,
        d_ff: int | None = None,
        max_len: int = 256,
        dropout: float = 0.0,
    ):
        super().__init__()
        self.max_len = max_len
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(
            EncoderBlock(d_model, n_heads, d_ff or 4 * d_model, dropout, norm_first=True)
            for _ in range(n_layers)
        )
        self.final_norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
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
        return self.head(self._through_blocks(idx)[0])

    @torch.no_grad()
    def attention_maps(self, idx: torch.Tensor) -> list[torch.Tensor]:
        """Every layer's attention weights for ``idx`` (B, T): a list of (B, H, T, T)."""
        return self._through_blocks(idx, need_weights=True)[1]

    def _through_blocks(self, idx: torch.Tensor, need_weights: bool = False):
        """The embedded characters through every causal block: (B, T, d_model), and each
        block's weights (None unless ``need_weights``)."""
        x = self.embed(idx)
        mask = causal_mask(idx.shape[1], device=idx.device)
        maps = []
        for block in self.blocks:
            x, weights = block(x, mask, need_weights=need_weights)
            maps.append(weights)
        return x, maps

    def step(self, idx: torch.Tensor, cache: KVCache) -> torch.Tensor:
        """Run the new characters ``idx`` (B, T_new), which follow the ``cache.length`` already
        in ``cache``, through the model; extends the cache; -> logits (B, T_new, vocab)."""
        start = cache.length
        if start + idx.shape[1] > self.max_len:
            raise ValueError(f"{start + idx.shape[1]} characters exceed max_len = {self.max_len}")
        x = self.embed(idx, start)
        for layer, block in enumerate(self.blocks):
            attended = _cached_self_attention(block, block.norm1(x), cache, layer)
            x = x + block.dropout1(attended)
            x = x + block.dropout2(block.feed_forward(block.norm2(x)))
        cache.length += idx.shape[1]
        return self.head(x)


class KVCache:
    """Per layer, the keys and values (B, H, length, d_head) of every character seen so far."""

    def __init__(self, n_layers: int):
        self.keys: list[torch.Tensor | None] = [None] * n_layers
        self.values: list[torch.Tensor | None] = [None] * n_layers
        self.length = 0

    def append(self, layer: int, k: torch.Tensor, v: torch.Tensor):
        """Add the new keys and values of one layer; -> all of that layer's keys and values."""
        if self.keys[layer] is not None:
            k = torch.cat([self.keys[layer], k], dim=-2)
            v = torch.cat([self.values[layer], v], dim=-2)
        self.keys[layer], self.values[layer] = k, v
        return k, v

    def nbytes(self) -> int:
        """The memory the stored keys and values take."""
        stored = [t for t in self.keys + self.values if t is not None]
        return sum(t.numel() * t.element_size() for t in stored)


def _cached_self_attention(
    block: EncoderBlock, h: torch.Tensor, cache: KVCache, layer: int
) -> torch.Tensor:
    """The block's attention for the new (normed) inputs h (B, T_new, d) over cache + h."""
    attention = block.attention
    q, k, v = (split_heads(t, attention.n_heads) for t in attention.in_proj(h).chunk(3, dim=-1))
    k, v = cache.append(layer, k, v)
    new, total = q.shape[-2], k.shape[-2]
    # The new character at position start + i may see positions 0 .. start + i.
    mask = causal_mask(total, device=h.device)[total - new :]
    output = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    return attention.out_proj(merge_heads(output))


def bits_per_character(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy in bits: logits (..., V), targets (...) int64 -> () tensor."""
    return F.cross_entropy(logits.flatten(0, -2), targets.flatten()) / math.log(2)


def sample_next(
    logits: torch.Tensor,
    temperature: float = 1.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
) -> torch.Tensor:
    """One index per row of ``logits`` (B, V) -> (B,) int64.

    Temperature 0 is greedy (the argmax). Otherwise the logits are divided by the
    temperature, all but the ``top_k`` largest set to -inf (if given), and one index drawn
    from their softmax with ``torch.multinomial``.
    """
    if temperature == 0:
        return logits.argmax(dim=-1)
    logits = logits / temperature
    if top_k is not None and top_k < logits.shape[-1]:
        kth = logits.topk(top_k, dim=-1).values[..., -1:]
        logits = logits.masked_fill(logits < kth, float("-inf"))
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
) -> torch.Tensor:
    """prompt (B, T0) -> (B, T0 + n_new): ``n_new`` sampled characters appended.

    With ``use_cache`` each step feeds one character and reuses the stored keys and values;
    without, each step runs the whole text so far (the last ``max_len`` characters).
    """
    model.eval()
    idx = prompt
    if use_cache:
        if prompt.shape[1] + n_new > model.max_len:
            raise ValueError(f"prompt + n_new exceed max_len = {model.max_len}")
        cache = KVCache(len(model.blocks))
        logits = model.step(prompt, cache)[:, -1]
        for _ in range(n_new):
            nxt = sample_next(logits, temperature, top_k, generator)
            idx = torch.cat([idx, nxt[:, None]], dim=1)
            logits = model.step(nxt[:, None], cache)[:, -1]
        return idx
    for _ in range(n_new):
        logits = model(idx[:, -model.max_len :])[:, -1]
        nxt = sample_next(logits, temperature, top_k, generator)
        idx = torch.cat([idx, nxt[:, None]], dim=1)
    return idx


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
) -> dict[str, list[float]]:
    """Train on random windows of ``data`` (1-D indices) with AdamW, a linear warm-up over
    ``warmup`` steps and a cosine decay to 0; returns the history per step: ``bits`` (the
    batch's bits per character) and ``lr``."""
    device = next(model.parameters()).device
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.99), weight_decay=0.01)

    def factor(step: int) -> float:
        return min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, factor)
    generator = torch.Generator().manual_seed(seed)
    history: dict[str, list[float]] = {"bits": [], "lr": []}
    bar = progress_bar(range(steps), "training", disable=not progress, mininterval=1.0)
    for _ in bar:
        inputs, targets = random_windows(data, block_size, batch_size, generator)
        loss = bits_per_character(model(inputs.to(device)), targets.to(device))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        history["lr"].append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
        history["bits"].append(loss.item())
        bar.set_postfix(bits=f"{history['bits'][-1]:.2f}", refresh=False)
    model.eval()
    return history


@torch.no_grad()
def evaluate_bits(model: CharLM, data: torch.Tensor, block_size: int = 128) -> float:
    """Bits per character over ``data`` cut into consecutive windows of ``block_size``
    (each character predicted from the ones before it in its window)."""
    model.eval()
    device = next(model.parameters()).device
    n = (len(data) - 1) // block_size
    inputs = data[: n * block_size].view(n, block_size)
    targets = data[1 : n * block_size + 1].view(n, block_size)
    total = 0.0
    for start in range(0, n, 64):
        x, y = inputs[start : start + 64].to(device), targets[start : start + 64].to(device)
        total += bits_per_character(model(x), y).item() * len(x)
    return total / n
