"""Multi-head attention: heads as a list of modules, and the packed module PyTorch uses.

Shapes use the course's names: ``batch`` (B), ``seq_len`` (T for queries, S for keys),
``d_model``, ``n_heads`` (H) and ``d_head = d_model // n_heads``. Tokens are rows and
batches come first, ``(B, T, d_model)``. Masks are boolean, True = may attend (see
``attention``); ``nn.MultiheadAttention`` uses the opposite polarity, which
``to_torch_mask`` converts.
"""

from __future__ import annotations

import torch
import torch.nn as nn

from .attention import scaled_dot_product_attention

__all__ = [
    "HeadList",
    "MultiHeadAttention",
    "SingleHeadAttention",
    "expand_mask",
    "from_torch",
    "merge_heads",
    "split_heads",
    "to_torch",
    "to_torch_mask",
]


def split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    """(..., T, d_model) -> (..., H, T, d_head): head h gets features [h·d_head, (h+1)·d_head)."""
    return x.unflatten(-1, (n_heads, -1)).transpose(-3, -2)


def merge_heads(x: torch.Tensor) -> torch.Tensor:
    """(..., H, T, d_head) -> (..., T, H·d_head); the inverse of ``split_heads``."""
    return x.transpose(-3, -2).flatten(-2)


def expand_mask(mask: torch.Tensor) -> torch.Tensor:
    """Bring a boolean mask to 4-D so it broadcasts over (B, H, T, S) scores.

    (T, S) -> (1, 1, T, S): the same mask for every sequence and head;
    (B, T, S) -> (B, 1, T, S): one mask per sequence, shared by the heads;
    (B, H, T, S) is returned as it is.
    """
    if mask.dim() == 2:
        return mask[None, None]
    if mask.dim() == 3:
        return mask[:, None]
    if mask.dim() == 4:
        return mask
    raise ValueError(
        f"a mask must be 2-D (T, S), 3-D (B, T, S) or 4-D (B, H, T, S); got {mask.dim()}-D"
    )


class SingleHeadAttention(nn.Module):
    """One attention head with its own query, key and value maps (d_model -> d_head).

    The three maps are created in the order q, k, v, so a seeded construction gives the
    same weights as the lecture code it follows.
    """

    def __init__(self, d_model: int, d_head: int, bias: bool = True):
        super().__init__()
        self.q = nn.Linear(d_model, d_head, bias=bias)
        self.k = nn.Linear(d_model, d_head, bias=bias)
        self.v = nn.Linear(d_model, d_head, bias=bias)

    def forward(self, query, key=None, value=None, mask=None, need_weights=False):
        """(B, T, d_model), (B, S, d_model), (B, S, d_model) -> (B, T, d_head), weights."""
        key = query if key is None else key
        value = key if value is None else value
        return scaled_dot_product_attention(
            self.q(query), self.k(key), self.v(value), mask, need_weights=need_weights
        )


class HeadList(nn.Module):
    """H independent heads whose outputs are concatenated, then optionally projected.

    The straightforward way to write multi-head attention; ``MultiHeadAttention`` computes
    the same thing with one projection for all heads.
    """

    def __init__(
        self,
        d_model: int,
        n_heads: int,
        d_head: int | None = None,
        bias: bool = True,
        out_proj: bool = True,
    ):
        super().__init__()
        d_head = d_model // n_heads if d_head is None else d_head
        self.heads = nn.ModuleList(
            SingleHeadAttention(d_model, d_head, bias) for _ in range(n_heads)
        )
        self.out_proj = nn.Linear(n_heads * d_head, d_model, bias=bias) if out_proj else None

    def forward(self, query, key=None, value=None, mask=None):
        """(B, T, d_model) -> (B, T, d_model), or (B, T, H·d_head) without the projection."""
        outputs = [head(query, key, value, mask)[0] for head in self.heads]
        joined = torch.cat(outputs, dim=-1)
        return joined if self.out_proj is None else self.out_proj(joined)


class MultiHeadAttention(nn.Module):
    """Packed multi-head attention, equal to ``nn.MultiheadAttention(batch_first=True)``.

    One (d_model -> 3·d_model) projection makes the queries, keys and values of every head at
    once (rows q | k | v, PyTorch's layout), ``split_heads`` gives (B, H, T, d_head), attention
    runs on all heads together, and ``out_proj`` mixes the merged heads.
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0, bias: bool = True):
        super().__init__()
        if d_model % n_heads:
            raise ValueError(f"d_model = {d_model} is not divisible by n_heads = {n_heads}")
        self.d_model, self.n_heads, self.dropout = d_model, n_heads, dropout
        self.in_proj = nn.Linear(d_model, 3 * d_model, bias=bias)
        self.out_proj = nn.Linear(d_model, d_model, bias=bias)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # PyTorch's initialisation for nn.MultiheadAttention: Xavier weights, zero biases.
        nn.init.xavier_uniform_(self.in_proj.weight)
        if self.in_proj.bias is not None:
            nn.init.zeros_(self.in_proj.bias)
            nn.init.zeros_(self.out_proj.bias)

    def forward(
        self,
        query: torch.Tensor,
        key: torch.Tensor | None = None,
        value: torch.Tensor | None = None,
        mask: torch.Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """query (B, T, d_model), key and value (B, S, d_model) (default: the query),
        mask boolean (T, S), (B, T, S) or (B, H, T, S), True = may attend
        -> output (B, T, d_model) and, with ``need_weights``, weights (B, H, T, S).
        """
        key = query if key is None else key
        value = key if value is None else value
        if query is key and key is value:  # self-attention: one matrix product for q, k, v
            q, k, v = self.in_proj(query).chunk(3, dim=-1)
        else:
            weights = self.in_proj.weight.chunk(3)
            biases = self.in_proj.bias.chunk(3) if self.in_proj.bias is not None else (None,) * 3
            q, k, v = (
                nn.functional.linear(x, w, b)
                for x, w, b in zip((query, key, value), weights, biases, strict=True)
            )
        q, k, v = (split_heads(t, self.n_heads) for t in (q, k, v))
        mask = expand_mask(mask) if mask is not None else None
        dropout_p = self.dropout if self.training else 0.0
        output, weights = scaled_dot_product_attention(q, k, v, mask, dropout_p, need_weights)
        return self.out_proj(merge_heads(output)), weights


def to_torch_mask(mask: torch.Tensor) -> torch.Tensor:
    """A course mask (True = may attend) in ``nn.MultiheadAttention``'s polarity (True = ignore).

    Use it for ``attn_mask`` (T, S) and for ``key_padding_mask`` (B, S) alike.
    """
    return ~mask


def from_torch(torch_mha: nn.MultiheadAttention) -> MultiHeadAttention:
    """A ``MultiHeadAttention`` with the weights of a PyTorch ``nn.MultiheadAttention``."""
    if not torch_mha._qkv_same_embed_dim or not torch_mha.batch_first:
        raise ValueError(
            "copying needs nn.MultiheadAttention(..., batch_first=True) without kdim/vdim"
        )
    has_bias = torch_mha.in_proj_bias is not None
    module = MultiHeadAttention(
        torch_mha.embed_dim, torch_mha.num_heads, torch_mha.dropout, has_bias
    )
    with torch.no_grad():
        module.in_proj.weight.copy_(torch_mha.in_proj_weight)
        module.out_proj.weight.copy_(torch_mha.out_proj.weight)
        if has_bias:
            module.in_proj.bias.copy_(torch_mha.in_proj_bias)
            module.out_proj.bias.copy_(torch_mha.out_proj.bias)
    return module.to(torch_mha.in_proj_weight.device, torch_mha.in_proj_weight.dtype)


def to_torch(module: MultiHeadAttention) -> nn.MultiheadAttention:
    """A PyTorch ``nn.MultiheadAttention(batch_first=True)`` with this module's weights."""
    has_bias = module.in_proj.bias is not None
    weight = module.in_proj.weight
    torch_mha = nn.MultiheadAttention(
        module.d_model,
        module.n_heads,
        module.dropout,
        bias=has_bias,
        batch_first=True,
        device=weight.device,
        dtype=weight.dtype,
    )
    with torch.no_grad():
        torch_mha.in_proj_weight.copy_(module.in_proj.weight)
        torch_mha.out_proj.weight.copy_(module.out_proj.weight)
        if has_bias:
            torch_mha.in_proj_bias.copy_(module.in_proj.bias)
            torch_mha.out_proj.bias.copy_(module.out_proj.bias)
    return torch_mha
