"""The package's multi-head attention against nn.MultiheadAttention and the sources."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from course_checks import misconceptions
from course_checks.checking import compare
from transformer_course import examples
from transformer_course.multihead import (
    HeadList,
    MultiHeadAttention,
    expand_mask,
    from_torch,
    merge_heads,
    split_heads,
    to_torch,
    to_torch_mask,
)


def randn(*shape, seed=0, dtype=torch.float32):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=dtype)


def test_split_and_merge_heads_are_inverse_and_keep_features_together():
    x = randn(2, 5, 12)
    heads = split_heads(x, 3)
    assert heads.shape == (2, 3, 5, 4)
    assert torch.equal(heads[:, 1], x[..., 4:8])  # head 1 owns features 4..7
    assert torch.equal(merge_heads(heads), x)
    assert torch.equal(heads, x.reshape(2, 5, 3, 4).permute(0, 2, 1, 3))


@pytest.mark.parametrize(
    "shape, expected",
    [((5, 7), (1, 1, 5, 7)), ((2, 5, 7), (2, 1, 5, 7)), ((2, 3, 5, 7), (2, 3, 5, 7))],
)
def test_expand_mask(shape, expected):
    mask = randn(*shape) > 0
    expanded = expand_mask(mask)
    assert expanded.shape == expected
    # only size-1 axes were added: the head axis (second), then the batch axis (first)
    assert torch.equal(expanded.squeeze(1) if mask.dim() == 3 else expanded.reshape(shape), mask)


def test_expand_mask_refuses_other_ranks():
    with pytest.raises(ValueError, match="2-D"):
        expand_mask(torch.ones(7, dtype=torch.bool))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("bias", [True, False])
def test_equals_nn_multihead_attention_both_ways(dtype, bias):
    torch.manual_seed(1)
    reference = nn.MultiheadAttention(16, 4, bias=bias, batch_first=True, dtype=dtype).eval()
    ours = from_torch(reference).eval()
    x = randn(3, 6, 16, seed=2, dtype=dtype)
    expected, expected_weights = reference(x, x, x, average_attn_weights=False)
    output, weights = ours(x, need_weights=True)
    torch.testing.assert_close(output, expected)
    torch.testing.assert_close(weights, expected_weights)
    back = to_torch(ours).eval()
    torch.testing.assert_close(back(x, x, x)[0], ours(x)[0])


def test_cross_attention_and_masks_match_with_the_polarity_flipped():
    torch.manual_seed(3)
    reference = nn.MultiheadAttention(8, 2, batch_first=True).eval()
    ours = from_torch(reference).eval()
    query, memory = randn(2, 4, 8, seed=4), randn(2, 6, 8, seed=5)
    causal_like = torch.ones(4, 6, dtype=torch.bool).tril(2)  # True = may attend
    lengths = torch.tensor([6, 3])
    padding = torch.arange(6)[None, :] < lengths[:, None]  # (B, S), True = real token
    expected, _ = reference(
        query,
        memory,
        memory,
        attn_mask=to_torch_mask(causal_like),
        key_padding_mask=to_torch_mask(padding),
    )
    combined = causal_like[None] & padding[:, None, :]  # (B, T, S)
    output, _ = ours(query, memory, memory, mask=combined)
    torch.testing.assert_close(output, expected)
    # The trap: passing the course's mask unchanged to nn.MultiheadAttention is wrong.
    wrong, _ = reference(query, memory, memory, key_padding_mask=padding)
    assert not torch.allclose(wrong, ours(query, memory, memory, mask=padding[:, None, :])[0])


def test_dropout_acts_in_training_only():
    module = MultiHeadAttention(8, 2, dropout=0.5)
    x = randn(2, 5, 8)
    module.eval()
    assert torch.equal(module(x)[0], module(x)[0])
    module.train()
    torch.manual_seed(0)
    assert not torch.allclose(module(x)[0], module.eval()(x)[0])


def test_d_model_must_split_evenly():
    with pytest.raises(ValueError, match="not divisible"):
        MultiHeadAttention(10, 3)


def test_head_list_reproduces_the_slides_seed_42_results():
    x = examples.token_encodings()
    torch.manual_seed(42)
    one = HeadList(d_model=2, n_heads=1, d_head=2, bias=False, out_proj=False)
    torch.testing.assert_close(
        one(x),
        torch.tensor([[1.0100, 1.0641], [0.2040, 0.7057], [3.4989, 2.2427]]),
        atol=1e-4,
        rtol=0,
    )
    torch.manual_seed(42)
    two = HeadList(d_model=2, n_heads=2, d_head=2, bias=False, out_proj=False)
    torch.testing.assert_close(
        two(x),
        torch.tensor(
            [
                [1.0100, 1.0641, -0.7081, -0.8268],
                [0.2040, 0.7057, -0.7417, -0.9193],
                [3.4989, 2.2427, -0.7190, -0.8447],
            ]
        ),
        atol=1e-4,
        rtol=0,
    )


def test_a_list_of_heads_and_the_packed_module_compute_the_same_function():
    torch.manual_seed(6)
    listed = HeadList(d_model=12, n_heads=3)
    packed = MultiHeadAttention(12, 3)
    with torch.no_grad():
        for role, rows in zip("qkv", packed.in_proj.weight.chunk(3), strict=True):
            rows.copy_(torch.cat([getattr(h, role).weight for h in listed.heads]))
        for role, rows in zip("qkv", packed.in_proj.bias.chunk(3), strict=True):
            rows.copy_(torch.cat([getattr(h, role).bias for h in listed.heads]))
        packed.out_proj.load_state_dict(listed.out_proj.state_dict())
    x = randn(2, 5, 12, seed=7)
    torch.testing.assert_close(packed(x)[0], listed(x))


def test_two_heads_by_hand_match_the_printed_true_values():
    torch.manual_seed(3)
    X = torch.randn(8, 6)  # tokens are columns here, as in the source
    p = examples.head_parameters()
    outputs = []
    for h in p["heads"]:
        Q, K, V = (h[f"W_{r}"] @ X + h[f"b_{r}"] for r in "qkv")
        outputs.append(V @ torch.softmax(K.T @ Q / 2, dim=0))
    expected_first_row = torch.tensor([7.501, 15.386, 12.121, 23.458, 5.546, -7.499])
    torch.testing.assert_close(
        (p["W_c"] @ torch.cat(outputs))[0], expected_first_row, atol=1e-3, rtol=0
    )


def test_multihead_mask_mistakes_are_named():
    torch.manual_seed(8)
    module = MultiHeadAttention(8, 2).eval()
    with torch.no_grad():
        module.in_proj.bias.normal_()
    params = (
        module.in_proj.weight,
        module.in_proj.bias,
        module.out_proj.weight,
        module.out_proj.bias,
    )
    x = randn(2, 5, 8, seed=9)
    padding = torch.tensor([[True] * 5, [True, True, True, False, False]])[:, None, :]  # (B, 1, S)
    with torch.no_grad():
        right = module(x, mask=padding)[0]
        q, k, v = (split_heads(t, 2) for t in module.in_proj(x).chunk(3, dim=-1))
        # a student who forgets expand_mask: (B, 1, S) lines up with (H, T, S)
        unexpanded = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=padding)
        unexpanded = module.out_proj(merge_heads(unexpanded))
        variants = misconceptions.multihead(x, *params, n_heads=2, mask=padding)
    assert "without expand_mask" in compare(unexpanded, right, misconceptions=variants)
    for description, wrong in variants.items():
        assert compare(wrong, right) is not None, description
