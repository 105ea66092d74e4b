"""The package's tiled attention and its backward passes against PyTorch, and the probes that
notebook 10 measures and checks with."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from transformer_course import probes
from transformer_course.tiled_attention import (
    AttentionFunction,
    FlashAttention,
    attention_backward,
    causal_mask,
    explicit_weights,
    flash_attention,
    flash_backward,
    online_softmax_step,
    reference_gradients,
    row_logsumexp,
    shifted,
    tiled_attention,
)

# (T, S, block_q, block_k): blocks that divide the lengths, that do not, larger than them,
# of one row, with T < S and T > S.
SHAPES = [
    (16, 16, 4, 4),
    (13, 13, 4, 5),
    (7, 11, 3, 2),
    (11, 7, 5, 3),
    (5, 9, 16, 16),
    (6, 6, 1, 1),
]


def qkv(seed, lead, t, s, d, d_v, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return tuple(
        scale * torch.randn(*lead, n, width, generator=g, dtype=dtype)
        for n, width in ((t, d), (s, d), (s, d_v), (t, d_v))
    )


def sdpa(Q, K, V, causal):
    mask = causal_mask(Q.shape[-2], K.shape[-2]) if causal else None
    return F.scaled_dot_product_attention(Q, K, V, attn_mask=mask)


def test_online_softmax_streams_to_the_softmax_without_overflow():
    z = torch.tensor([[-900.0, 0.0, 900.0, 3.0], [1.0, 2.0, 3.0, 4.0]], dtype=torch.float64)
    m, l = torch.full((2,), float("-inf"), dtype=z.dtype), torch.zeros(2, dtype=z.dtype)
    for start in range(0, 4, 1):
        m, l = online_softmax_step(m, l, z[:, start : start + 1])
    torch.testing.assert_close(m, z.amax(dim=-1))
    torch.testing.assert_close(torch.exp(z - m[:, None]) / l[:, None], torch.softmax(z, dim=-1))


def test_a_shift_moves_every_score_and_keeps_the_weights():
    Q, K, _, _ = qkv(3, (2,), 6, 7, 4, 3)
    shifted_q, shifted_k = shifted(Q, K, -1100.0)
    scores = shifted_q @ shifted_k.transpose(-2, -1) / math.sqrt(5)
    torch.testing.assert_close(scores, Q @ K.transpose(-2, -1) / math.sqrt(5) - 1100)
    assert (scores < -1000).all()
    torch.testing.assert_close(
        explicit_weights(shifted_q, shifted_k),
        torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(5), dim=-1),
    )
    per_key = torch.tensor([1.0, -1.0]).repeat(4)[:7] * 1100
    _, signed_k = shifted(Q, K, per_key)
    assert (signed_k[..., -1] * per_key > 0).all()


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("T, S, block_q, block_k", SHAPES)
def test_tiled_attention_equals_sdpa_and_its_logsumexp(T, S, block_q, block_k, causal):
    Q, K, V, _ = qkv(1, (2, 3), T, S, 8, 5)
    O, L = tiled_attention(Q, K, V, block_q, block_k, causal)
    torch.testing.assert_close(O, sdpa(Q, K, V, causal))
    torch.testing.assert_close(L, row_logsumexp(Q, K, causal))


def test_tiled_attention_is_stable_for_huge_scores_and_keeps_float32():
    Q, K, V, _ = qkv(2, (2,), 9, 9, 4, 3, dtype=torch.float32, scale=40.0)
    O, L = tiled_attention(Q, K, V, 4, 2)
    assert O.dtype == torch.float32 and torch.isfinite(O).all() and torch.isfinite(L).all()
    torch.testing.assert_close(O, sdpa(Q, K, V, False), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("T, S, block_q, block_k", SHAPES)
def test_both_backward_passes_equal_autograd(T, S, block_q, block_k, causal):
    Q, K, V, dO = qkv(3, (2,), T, S, 4, 3)
    expected = reference_gradients(Q, K, V, dO, causal)
    by_hand = attention_backward(Q, K, V, explicit_weights(Q, K, causal), dO)
    O, L = tiled_attention(Q, K, V, block_q, block_k, causal)
    tiled = flash_backward(Q, K, V, O, L, dO, block_q, block_k, causal)
    for got in (by_hand, tiled):
        for g, e in zip(got, expected, strict=True):
            torch.testing.assert_close(g, e)


@pytest.mark.parametrize("causal", [False, True])
def test_the_autograd_functions_pass_gradcheck_and_equal_autograd(causal):
    Q, K, V, dO = qkv(4, (1,), 4, 5, 3, 2)
    assert probes.gradcheck_passes(AttentionFunction, (Q, K, V, causal))
    assert probes.gradcheck_passes(FlashAttention, (Q, K, V, causal, 2, 3))
    expected = reference_gradients(Q, K, V, dO, causal)
    for function, extra in ((AttentionFunction, ()), (FlashAttention, (3, 2))):
        result = probes.gradients(function, (Q, K, V, causal, *extra), dO)
        torch.testing.assert_close(result["output"], sdpa(Q, K, V, causal))
        for g, e in zip(result["grads"], expected, strict=True):
            torch.testing.assert_close(g, e)


def test_flash_attention_saves_one_number_per_row_not_the_weights():
    Q, K, V, dO = qkv(5, (2,), 32, 32, 4, 4, dtype=torch.float32)
    flash = probes.gradients(FlashAttention, (Q, K, V, True, 8, 8), dO)["saved"]
    plain = probes.gradients(AttentionFunction, (Q, K, V, True), dO)["saved"]
    assert sorted(flash) == sorted([Q.numel(), K.numel(), V.numel(), 2 * 32 * 4, 2 * 32])
    assert max(plain) == 2 * 32 * 32  # the weights
    out = flash_attention(*(t.requires_grad_() for t in (Q, K, V)), causal=True)
    out.backward(dO)
    torch.testing.assert_close(Q.grad, reference_gradients(Q, K, V, dO, True)[0])


def test_op_counts_sees_the_whole_matrix_in_the_naive_version_and_blocks_in_the_tiled():
    Q, K, V, _ = qkv(6, (1,), 256, 256, 16, 16, dtype=torch.float32)

    def naive(Q, K, V):
        return torch.softmax(Q @ K.transpose(-2, -1) / 4, dim=-1) @ V

    full = probes.op_counts(naive, Q, K, V)
    assert full["flops"] == 4 * 256 * 256 * 16 and full["largest"] == 256 * 256
    assert full["peak"] >= 2 * 256 * 256 * 4  # scores and weights alive together
    blocks = probes.op_counts(tiled_attention, Q, K, V, 32, 64)
    assert blocks["flops"] == full["flops"] and blocks["largest"] == 256 * 16
    causal = probes.op_counts(tiled_attention, Q, K, V, 32, 32, causal=True)
    assert causal["flops"] == full["flops"] * 36 // 64  # 8 × 8 blocks, 36 on or below the diagonal
    backward = probes.op_counts(
        flash_backward,
        Q,
        K,
        V,
        *tiled_attention(Q, K, V, 32, 32, True),
        V[..., :256, :],
        32,
        32,
        True,
    )
    assert backward["largest"] < 256 * 256


def test_peak_memory_counts_tensors_while_they_live():
    def two_then_one():
        a = torch.ones(1024, 1024)  # 4 MiB
        b = a * 2  # 4 MiB more, both alive
        del a
        return b + 1  # 4 MiB, while b still lives

    assert probes.peak_memory(two_then_one) == 8 * 2**20
    big = torch.ones(512, 512)
    assert probes.peak_memory(lambda x: x.view(-1)[:10], big) == 0  # views own no memory
    assert probes.peak_memory(lambda x: x.mul_(2), big) == 0  # nor does an in-place change


def test_the_allocator_peak_sees_inside_a_fused_kernel():
    def two_then_one():
        a = torch.ones(1024, 1024)  # 4 MiB
        b = a * 2  # 4 MiB more, both alive
        del a
        return b + 1

    # as the tensor count says, give or take a few bytes of PyTorch's own
    assert 8 * 2**20 <= probes.allocator_peak(two_then_one) < 8 * 2**20 + 4096
    T = 1024
    Q, K, V, _ = qkv(8, (1, 1), T, T, 32, 32, dtype=torch.float32)
    matrix = T * T * 4
    # 4-D without a mask takes the fused path: less than half of one T × T matrix
    assert probes.allocator_peak(F.scaled_dot_product_attention, Q, K, V) < matrix / 2
    # an explicit mask sends it to the general path, which builds the scores
    mask = torch.ones(T, T, dtype=torch.bool).tril()
    assert (
        probes.allocator_peak(lambda: F.scaled_dot_product_attention(Q, K, V, attn_mask=mask))
        >= matrix
    )


def test_naive_peak_grows_like_t_squared_and_tiled_like_t():
    def naive(Q, K, V):
        return torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1]), dim=-1) @ V

    peaks = {}
    for T in (512, 1024):
        Q, K, V, _ = qkv(7, (1,), T, T, 32, 32, dtype=torch.float32)
        peaks[T] = (
            probes.peak_memory(naive, Q, K, V),
            probes.peak_memory(lambda *x: tiled_attention(*x, 64, 64)[0], Q, K, V),
        )
    assert 3.8 < peaks[1024][0] / peaks[512][0] <= 4.1
    assert 1.4 < peaks[1024][1] / peaks[512][1] <= 2.1
