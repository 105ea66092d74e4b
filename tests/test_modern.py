"""Notebook 09's package: RMSNorm, rotary embeddings, SwiGLU, grouped-query attention and the
modern decoder, each against PyTorch's own module or an independent reference."""

from __future__ import annotations

import math
import random

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer_course import bpe, modern
from transformer_course.budget import Budget
from transformer_course.encoder import FeedForward
from transformer_course.language_model import CharLM, KVCache, evaluate_bits, generate
from transformer_course.positional import rotation, sinusoidal_table


def test_rms_norm_equals_pytorchs_rmsnorm():
    g = torch.Generator().manual_seed(0)
    x = 3 * torch.randn(2, 5, 16, generator=g) + 1
    weight = torch.rand(16, generator=g) + 0.5
    for eps in (1e-5, 0.3):
        ours = modern.RMSNorm(16, eps)
        with torch.no_grad():
            ours.weight.copy_(weight)
        if hasattr(nn, "RMSNorm"):  # PyTorch 2.4 and later
            theirs = nn.RMSNorm(16, eps=eps)
            with torch.no_grad():
                theirs.weight.copy_(weight)
            expected = theirs(x)
        else:
            expected = x / (x.pow(2).mean(-1, keepdim=True) + eps).sqrt() * weight
        torch.testing.assert_close(ours(x), expected)


def test_rms_norm_is_layer_norm_of_a_vector_with_zero_mean():
    x = torch.randn(4, 32, dtype=torch.float64)
    x = x - x.mean(-1, keepdim=True)
    torch.testing.assert_close(
        modern.rms_norm(x, torch.ones(32, dtype=torch.float64)), F.layer_norm(x, (32,))
    )


def test_rotary_turns_pairs_as_the_complex_product_and_as_notebook_04s_rotation():
    g = torch.Generator().manual_seed(1)
    x = torch.randn(2, 3, 7, 8, generator=g, dtype=torch.float64)
    positions = torch.arange(7)
    rotated = modern.apply_rotary(x, positions)
    # Independent reference: x[2i] + i·x[2i+1] times e^{iθ}, θ = p · 10000^(−2i/d).
    angles = positions[:, None].double() * 10000.0 ** (-torch.arange(0, 8, 2).double() / 8)
    as_complex = torch.view_as_complex(x.unflatten(-1, (4, 2)).contiguous())
    expected = torch.view_as_real(as_complex * torch.polar(torch.ones_like(angles), angles))
    torch.testing.assert_close(rotated, expected.flatten(-2))
    for p in (0, 3, 6):  # notebook 04's R_p turns the other way: this is R_{−p}
        torch.testing.assert_close(rotated[..., p, :], x[..., p, :] @ rotation(-p, 8).double().T)
    torch.testing.assert_close(rotated.norm(dim=-1), x.norm(dim=-1))  # lengths kept


def test_rotary_scores_depend_only_on_the_offset():
    g = torch.Generator().manual_seed(2)
    q, k = torch.randn(2, 16, generator=g, dtype=torch.float64)
    positions = torch.arange(40)
    qs = modern.apply_rotary(q.expand(40, 16), positions)
    ks = modern.apply_rotary(k.expand(40, 16), positions)
    scores = qs @ ks.T  # scores[m, n] = q at m · k at n
    for offset in (-7, 0, 5):
        diagonal = scores.diagonal(offset)
        torch.testing.assert_close(diagonal, diagonal[0].expand_as(diagonal))


def test_rotary_angles_are_notebook_04s_frequencies():
    angles = modern.rotary_angles(torch.arange(10), 12)
    table = sinusoidal_table(10, 12)
    torch.testing.assert_close(angles.sin(), table[:, 0::2], atol=1e-5, rtol=0)
    torch.testing.assert_close(angles.cos(), table[:, 1::2], atol=1e-5, rtol=0)


def test_swiglu_matches_an_independent_formula_and_the_relu_layers_weights():
    torch.manual_seed(3)
    layer = modern.SwiGLU(12, modern.matched_hidden_size(12, 48))
    x = torch.randn(3, 5, 12)
    gate, up = layer.gate(x), layer.up(x)
    # F.glu(a, -1) = first half × sigmoid(second half): with [u·g, g] that is u·g·σ(g).
    expected = layer.down(F.glu(torch.cat([up * gate, gate], dim=-1), dim=-1))
    torch.testing.assert_close(layer(x), expected)
    assert modern.matched_hidden_size(96, 4 * 96) == 256  # 8/3 · 96
    swiglu_weights = sum(p.numel() for p in modern.SwiGLU(96, 256).parameters())
    relu = FeedForward(96, 384)
    assert swiglu_weights == relu.linear1.weight.numel() + relu.linear2.weight.numel()


@pytest.mark.parametrize("n_kv_heads", [4, 2, 1])
def test_grouped_query_attention_equals_expanding_kv_and_pytorchs_gqa(n_kv_heads):
    g = torch.Generator().manual_seed(4)
    q = torch.randn(2, 4, 6, 8, generator=g)
    k, v = torch.randn(2, 2, n_kv_heads, 6, 8, generator=g)
    mask = torch.ones(6, 6, dtype=torch.bool).tril()
    got = modern.grouped_query_attention(q, k, v, mask)
    n_rep = 4 // n_kv_heads
    # By hand, head h with key/value head h // n_rep.
    for h in range(4):
        scores = q[:, h] @ k[:, h // n_rep].transpose(-2, -1) / math.sqrt(8)
        weights = scores.masked_fill(~mask, float("-inf")).softmax(-1)
        torch.testing.assert_close(got[:, h], weights @ v[:, h // n_rep])
    if modern.SDPA_HAS_GQA:
        torch.testing.assert_close(
            got, F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        )
    # is_causal, the fused kernel's own path, is the same mask
    torch.testing.assert_close(modern.grouped_query_attention(q, k, v, is_causal=True), got)
    with pytest.raises(ValueError, match="does not divide"):
        modern.grouped_query_attention(q, k[:, :1].expand(2, 3, 6, 8), v[:, :1].expand(2, 3, 6, 8))


def test_the_2017_configuration_is_notebook_08s_charlm():
    torch.manual_seed(5)
    old = CharLM(23, d_model=16, n_heads=4, n_layers=2, max_len=32).eval()
    with torch.no_grad():
        for parameter in old.parameters():
            parameter.normal_(0, 0.5)
    new = modern.from_char_lm(old).eval()
    idx = torch.randint(23, (3, 20))
    with torch.no_grad():
        torch.testing.assert_close(new(idx), old(idx), atol=1e-5, rtol=1e-5)
    assert sum(p.numel() for p in new.parameters()) == sum(p.numel() for p in old.parameters())


@pytest.mark.parametrize(
    "parts",
    [
        dict(norm="layer", feed_forward="relu", positions="learned"),
        dict(),  # every part modern
        dict(n_kv_heads=1),
    ],
)
def test_the_cache_gives_the_same_logits_and_stores_n_kv_heads(parts):
    torch.manual_seed(6)
    model = modern.ModernLM(19, d_model=16, n_heads=4, n_layers=2, max_len=64, **parts).eval()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.add_(0.3 * torch.randn_like(parameter))
    idx = torch.randint(19, (2, 12))
    cache = KVCache(len(model.blocks))
    with torch.no_grad():
        stepped = [model.step(idx[:, :5], cache)]
        stepped += [model.step(idx[:, t : t + 1], cache) for t in range(5, 12)]
        torch.testing.assert_close(torch.cat(stepped, 1), model(idx), atol=1e-5, rtol=1e-5)
    n_kv = parts.get("n_kv_heads", 4)
    assert cache.keys[0].shape == (2, n_kv, 64, 4)  # allocated for max_len positions
    assert cache.nbytes() == 2 * 2 * 2 * n_kv * 12 * 4 * 4  # layers · (k, v) · B · H_kv · T · d · 4
    out = generate(model, idx[:, :3], 10, temperature=0)
    assert torch.equal(out, generate(model, idx[:, :3], 10, temperature=0, use_cache=False))


def test_parts_are_swapped_one_at_a_time():
    base = dict(norm="layer", feed_forward="relu", positions="learned")
    block = modern.ModernLM(11, 24, 4, 1, **base).blocks[0]
    assert isinstance(block.norm1, nn.LayerNorm) and not block.rotary
    assert isinstance(block.feed_forward, FeedForward)
    assert isinstance(
        modern.ModernLM(11, 24, 4, 1, **base | {"norm": "rms"}).final_norm, modern.RMSNorm
    )
    rotary = modern.ModernLM(11, 24, 4, 1, **base | {"positions": "rotary"})
    assert rotary.position_embedding is None and rotary.blocks[0].rotary
    gqa = modern.ModernLM(11, 24, 4, 1, n_kv_heads=2, **base).blocks[0]
    assert gqa.k_proj.out_features == 12 and gqa.q_proj.out_features == 24
    with pytest.raises(ValueError):
        modern.ModernBlock(24, 4, n_kv_heads=3)


def test_models_trained_side_by_side_see_the_same_batches_and_steps():
    data = torch.randint(0, 20, (500,))
    budget = Budget(steps=100, seconds=0.0, progress=False)  # out of time at once
    torch.manual_seed(8)
    a, b = (modern.ModernLM(20, 16, 2, 1, max_len=32) for _ in range(2))
    b.load_state_dict(a.state_dict())
    bits = modern.train_for({"a": a, "b": b}, data, budget, block_size=8, batch_size=4)
    assert bits["a"] == bits["b"] == [] and budget.out_of_time
    bits = modern.train_for(
        {"a": a, "b": b}, data, Budget(5, progress=False), block_size=8, batch_size=4
    )
    assert bits["a"] == bits["b"] and len(bits["a"]) == 5  # same start, same batches


def test_a_short_run_learns_and_bits_by_position_average_to_the_evaluation():
    text = "def f(x):\n    return x + 1\n" * 60
    data = torch.tensor([ord(c) % 32 for c in text])[: 50 * 32 + 1]  # 50 whole windows
    torch.manual_seed(7)
    model = modern.ModernLM(32, d_model=32, n_heads=4, n_layers=1, max_len=64, n_kv_heads=2)
    bits = modern.train_for(
        {"m": model}, data, Budget(60, progress=False), block_size=32, batch_size=8, warmup=5
    )["m"]
    assert len(bits) == 60 and bits[-1] < bits[0] / 2
    by_position = modern.bits_by_position(model, data, 32)
    assert by_position.shape == (32,)
    assert by_position.mean().item() == pytest.approx(evaluate_bits(model, data, 32), rel=1e-4)


def _cases():
    """Each of notebook 09's named-mistake functions, with the right answer for its inputs."""
    g = torch.Generator().manual_seed(10)
    x = 0.003 * torch.randn(2, 4, 6, generator=g) + 0.001  # small: where ε matters
    weight = 1 + torch.randn(6, generator=g)
    turned, positions = torch.randn(2, 3, 6, 8, generator=g), torch.arange(6)
    q, k, v = torch.randn(3, 1, 2, 5, 8, generator=g)
    layer = modern.SwiGLU(4, 6)
    weights = (layer.gate.weight.detach(), layer.up.weight.detach(), layer.down.weight.detach())
    gq = torch.randn(2, 4, 5, 8, generator=g)
    gk, gv = torch.randn(2, 2, 2, 5, 8, generator=g)
    causal = torch.ones(5, 5, dtype=torch.bool).tril()
    torch.manual_seed(11)
    block = modern.ModernBlock(16, 4, 2, 24).eval()
    with torch.no_grad():
        for parameter in block.parameters():
            parameter.add_(0.4 * torch.randn_like(parameter))
    bx = torch.randn(2, 6, 16)
    rng = random.Random(1)  # byte-pair encoding: runs and ties enough to tell every rule apart
    runs = [rng.choice((97, 98, 99)) for _ in range(80)]
    rng = random.Random(1)
    text = "".join(rng.choice("aaé→ b") for _ in range(40))
    merges = bpe.bpe_merges(list(text.encode()), 10)
    from course_checks import misconceptions

    with torch.no_grad():
        return [
            (misconceptions.rms_norm(x, weight), modern.rms_norm(x, weight)),
            (
                misconceptions.apply_rotary(turned, positions),
                modern.apply_rotary(turned, positions),
            ),
            (
                misconceptions.rotary_attention(q, k, v),
                F.scaled_dot_product_attention(
                    modern.apply_rotary(q, torch.arange(5)),
                    modern.apply_rotary(k, torch.arange(5)),
                    v,
                    is_causal=True,
                ),
            ),
            (misconceptions.swiglu(sx := torch.randn(3, 4), *weights), layer(sx)),
            (misconceptions.matched_hidden_size(64, 100), torch.tensor(67.0)),
            (
                misconceptions.grouped_query_attention(gq, gk, gv, causal),
                modern.grouped_query_attention(gq, gk, gv, causal),
            ),
            (misconceptions.modern_block(block, bx), block(bx)),
            (misconceptions.bpe_merges(runs, 12), torch.tensor(bpe.bpe_merges(runs, 12))),
            (misconceptions.bpe_encode(text, merges), torch.tensor(bpe.bpe_encode(text, merges))),
        ]


def test_no_named_mistake_of_notebook_09_equals_the_right_answer_or_another():
    from course_checks.checking import compare

    for variants, correct in _cases():
        assert len(variants) >= 3
        values = list(variants.values())
        for (description, wrong), i in zip(variants.items(), range(len(values)), strict=True):
            if correct is not None:
                assert compare(wrong, correct) is not None, description
            for other in values[i + 1 :]:
                assert compare(wrong, other) is not None, description
