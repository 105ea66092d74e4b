"""The package's attention against PyTorch's own operators."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from transformer_course.attention import (
    attend_one,
    explicit_attention,
    scaled_dot_product_attention,
    softmax,
)


def random_qkv(seed, batch, t, s, d_k, d_v, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return (
        torch.randn(*batch, t, d_k, generator=g, dtype=dtype),
        torch.randn(*batch, s, d_k, generator=g, dtype=dtype),
        torch.randn(*batch, s, d_v, generator=g, dtype=dtype),
    )


@pytest.mark.parametrize("shape, dim", [((7,), 0), ((3, 5), -1), ((3, 5), 0), ((2, 4, 6), 1)])
def test_softmax_equals_torch(shape, dim):
    z = 4 * torch.randn(shape, generator=torch.Generator().manual_seed(1))
    torch.testing.assert_close(softmax(z, dim=dim), torch.softmax(z, dim=dim))


def test_softmax_does_not_overflow():
    z = torch.tensor([1000.0, 1001.0, 1002.0])
    assert torch.isfinite(softmax(z)).all()
    torch.testing.assert_close(softmax(z), torch.softmax(z, dim=0))


def test_softmax_of_an_all_minus_inf_row_is_nan_like_torch():
    z = torch.full((3,), float("-inf"))
    assert torch.isnan(softmax(z)).all() and torch.isnan(torch.softmax(z, 0)).all()


def test_softmax_gradient_equals_torch():
    z1 = torch.randn(4, 6, generator=torch.Generator().manual_seed(2), requires_grad=True)
    z2 = z1.detach().clone().requires_grad_()
    weights = torch.arange(6.0)
    (softmax(z1) * weights).sum().backward()
    (torch.softmax(z2, -1) * weights).sum().backward()
    torch.testing.assert_close(z1.grad, z2.grad)


def test_attend_one_equals_sdpa_for_a_single_query():
    q, k, v = random_qkv(3, (), 1, 6, 5, 3)
    expected = F.scaled_dot_product_attention(q[None], k[None], v[None])[0, 0]
    torch.testing.assert_close(attend_one(q[0], k, v), expected)


@pytest.mark.parametrize(
    "batch, t, s, d_k, d_v", [((), 1, 1, 4, 4), ((2,), 5, 7, 8, 3), ((2, 3), 6, 6, 16, 16)]
)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_attention_equals_sdpa(batch, t, s, d_k, d_v, dtype):
    q, k, v = random_qkv(4, batch, t, s, d_k, d_v, dtype)
    expected = F.scaled_dot_product_attention(q, k, v)
    for need_weights in (False, True):
        output, weights = scaled_dot_product_attention(q, k, v, need_weights=need_weights)
        torch.testing.assert_close(output, expected)
    torch.testing.assert_close(weights.sum(-1), torch.ones(*batch, t, dtype=dtype))
    torch.testing.assert_close(weights, torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_k), -1))


@pytest.mark.parametrize("mask_shape", [(5, 7), (2, 1, 5, 7), (2, 3, 1, 7)])
def test_masks_follow_sdpa_polarity_true_may_attend(mask_shape):
    q, k, v = random_qkv(5, (2, 3), 5, 7, 8, 4)
    mask = torch.rand(mask_shape, generator=torch.Generator().manual_seed(6)) > 0.4
    mask[..., 0] = True  # every query keeps at least one key
    expected = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    fused, _ = scaled_dot_product_attention(q, k, v, mask)
    explicit, weights = explicit_attention(q, k, v, mask)
    torch.testing.assert_close(fused, expected)
    torch.testing.assert_close(explicit, expected)
    assert (weights.masked_select(~mask.expand_as(weights)) == 0).all()


def test_a_fully_masked_query_attends_to_nothing():
    q, k, v = random_qkv(7, (1,), 3, 4, 8, 2)
    mask = torch.ones(3, 4, dtype=torch.bool)
    mask[1] = False  # query 1 may attend to no key at all
    fused, _ = scaled_dot_product_attention(q, k, v, mask)
    explicit, weights = explicit_attention(q, k, v, mask)
    for output in (fused, explicit):
        assert torch.isfinite(output).all()
        assert (output[:, 1] == 0).all()
    assert (weights[:, 1] == 0).all()
    torch.testing.assert_close(weights[:, [0, 2]].sum(-1), torch.ones(1, 2))
    # PyTorch's fused kernel behaves the same way, so the two paths agree.
    torch.testing.assert_close(explicit, F.scaled_dot_product_attention(q, k, v, attn_mask=mask))


def test_a_float_mask_is_refused_with_a_clear_message():
    q, k, v = random_qkv(8, (), 2, 2, 4, 4)
    with pytest.raises(TypeError, match="True = may attend"):
        scaled_dot_product_attention(q, k, v, torch.ones(2, 2))


def test_length_one_sequences():
    q, k, v = random_qkv(9, (3,), 1, 1, 4, 6)
    output, weights = scaled_dot_product_attention(q, k, v, need_weights=True)
    torch.testing.assert_close(output, v)  # one key: all the weight goes to it
    assert (weights == 1).all()


def test_dropout_only_in_the_explicit_path_when_asked():
    q, k, v = random_qkv(10, (2,), 4, 4, 8, 8)
    torch.manual_seed(0)
    _, weights = explicit_attention(q, k, v, dropout_p=0.5)
    assert (weights == 0).any()  # some weights dropped
    same, _ = explicit_attention(q, k, v, dropout_p=0.0)
    torch.testing.assert_close(same, F.scaled_dot_product_attention(q, k, v))


def test_the_explicit_path_refuses_scores_that_would_not_fit(monkeypatch):
    import transformer_course.attention as attention

    monkeypatch.setattr(attention, "available_memory", lambda device: 2**20)  # 1 MiB left
    q = torch.zeros(8, 8, 1024, 8)  # 3 × 256 MiB of scores: above the always-fits threshold
    with pytest.raises(MemoryError, match="need_weights=False"):
        explicit_attention(q, q, q)
    # the fused path does not store the scores, so it still runs
    output, _ = scaled_dot_product_attention(q, q, q)
    assert output.shape == q.shape


def test_fully_masked_queries_give_zeros_even_where_pytorchs_kernel_gives_nan(monkeypatch):
    """PyTorch before 2.5 returns NaN for a query with no allowed key; the package's result
    must not depend on the version."""
    real = F.scaled_dot_product_attention

    def like_pytorch_2_4(q, k, v, attn_mask=None, **kwargs):
        output = real(q, k, v, attn_mask=attn_mask, **kwargs)
        return output.masked_fill(~attn_mask.any(dim=-1, keepdim=True), float("nan"))

    monkeypatch.setattr(F, "scaled_dot_product_attention", like_pytorch_2_4)
    q, k, v = random_qkv(8, (2,), 3, 4, 8, 2)
    mask = torch.ones(3, 4, dtype=torch.bool)
    mask[2] = False
    output, _ = scaled_dot_product_attention(q, k, v, mask)
    assert torch.isfinite(output).all() and (output[:, 2] == 0).all()
    torch.testing.assert_close(output, explicit_attention(q, k, v, mask)[0])
