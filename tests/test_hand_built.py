"""The hand-built heads of notebook 02: their scores, their weights and their rank."""

from __future__ import annotations

import math

import pytest
import torch

from course_checks import misconceptions
from transformer_course import hand_built


def test_features_are_one_hot_token_then_position():
    X = hand_built.one_hot_features(torch.tensor([[2, 0, 2]]), 3, 4)
    assert X.shape == (1, 3, 7) and X.dtype == torch.float32
    assert X[0, 2].tolist() == [0, 0, 1, 0, 0, 1, 0]
    positions = torch.tensor([3, 3])
    assert hand_built.one_hot_features(torch.tensor([1, 1]), 3, 4, positions)[:, 3:].argmax(
        -1
    ).tolist() == [3, 3]


@pytest.mark.parametrize("sizes", [(6, 8, 8, 5.0), (4, 10, 12, 3.0), (9, 5, 9, 7.5)])
def test_each_head_scores_strength_on_its_intended_keys_and_zero_elsewhere(sizes):
    vocab_size, max_len, d_head, strength = sizes
    tokens = torch.randint(0, vocab_size, (4, max_len), generator=torch.Generator().manual_seed(0))
    positions = torch.arange(max_len).expand(tokens.shape)
    X = hand_built.one_hot_features(tokens, vocab_size, max_len)
    previous = hand_built.head_scores(X, *hand_built.previous_token_head(*sizes), d_head)
    same = hand_built.head_scores(X, *hand_built.same_token_head(*sizes), d_head)
    expected_previous = strength * (positions[..., :, None] - 1 == positions[..., None, :])
    expected_same = strength * (tokens[..., :, None] == tokens[..., None, :])
    assert torch.allclose(previous, expected_previous.double(), atol=1e-5)
    assert torch.allclose(same, expected_same.double(), atol=1e-5)
    # the named mistakes all differ from the right answer
    for wrong in misconceptions.previous_token_head(positions, max_len, d_head, strength).values():
        assert not torch.allclose(wrong, previous)
    for wrong in misconceptions.same_token_head(
        tokens, positions, d_head, strength, vocab_size
    ).values():
        assert not torch.allclose(wrong, same)


def test_the_scores_are_a_bilinear_form_of_rank_at_most_d_head():
    vocab_size, max_len, d_head = 6, 8, 8
    X = hand_built.one_hot_features(torch.tensor([0, 1, 2, 3, 0, 4]), vocab_size, max_len)
    for head, rank in [
        (hand_built.previous_token_head, max_len - 1),
        (hand_built.same_token_head, vocab_size),
    ]:
        W_q, W_k = head(vocab_size, max_len, d_head, 5.0)
        M = W_q @ W_k.T
        assert torch.allclose(
            (X @ M @ X.T / math.sqrt(d_head)).double(),
            hand_built.head_scores(X, W_q, W_k),
            atol=1e-5,
        )
        assert int(torch.linalg.matrix_rank(M)) == rank <= d_head
    weights = torch.softmax(
        hand_built.head_scores(
            X, *hand_built.previous_token_head(vocab_size, max_len, d_head, 5.0)
        ),
        dim=-1,
    )
    assert torch.allclose(weights[0], torch.full((6,), 1 / 6, dtype=torch.float64))
    assert (weights[1:].diagonal() > 0.96).all()  # row t on key t - 1
