"""Positional encodings: the table's formula, the module's buffer, the rotation property."""

from __future__ import annotations

import math

import pytest
import torch

from transformer_course.positional import (
    LearnedPositionalEmbedding,
    PositionalEncoding,
    rotation,
    sinusoidal_table,
)


def test_table_follows_the_formula_entry_by_entry():
    table = sinusoidal_table(50, 12)
    for pos in (0, 1, 7, 49):
        for i in range(6):
            angle = pos / 10000 ** (2 * i / 12)
            assert table[pos, 2 * i].item() == pytest.approx(math.sin(angle), abs=1e-6)
            assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(angle), abs=1e-6)


def test_position_zero_is_sin_zero_and_cos_one():
    assert torch.equal(sinusoidal_table(3, 8)[0], torch.tensor([0.0, 1.0] * 4))


def test_odd_widths_end_with_a_sine():
    table = sinusoidal_table(5, 7)
    assert table.shape == (5, 7)
    assert table[3, 6].item() == pytest.approx(math.sin(3 / 10000 ** (6 / 7)), abs=1e-6)


@pytest.mark.parametrize("k", [1, 5, 40])
def test_pe_at_pos_plus_k_is_a_rotation_of_pe_at_pos(k):
    table = sinusoidal_table(100, 16)
    R = rotation(k, 16)
    torch.testing.assert_close(table[k:], table[:-k] @ R.T, atol=1e-4, rtol=0)
    torch.testing.assert_close(R @ R.T, torch.eye(16), atol=1e-5, rtol=0)  # orthogonal


def test_module_adds_the_table_per_position_and_keeps_it_out_of_the_state_dict():
    module = PositionalEncoding(d_model=8, max_len=20)
    x = torch.randn(3, 5, 8)
    torch.testing.assert_close(module(x), x + sinusoidal_table(5, 8))
    assert list(module.parameters()) == []
    assert "table" not in module.state_dict()
    assert module.double().table.dtype == torch.float64  # buffers follow the module


def test_module_refuses_sequences_longer_than_its_table():
    with pytest.raises(ValueError, match="table has 4"):
        PositionalEncoding(8, max_len=4)(torch.zeros(1, 5, 8))


def test_learned_embedding_adds_one_trained_vector_per_position():
    module = LearnedPositionalEmbedding(d_model=4, max_len=10)
    x = torch.zeros(2, 3, 4)
    torch.testing.assert_close(module(x)[1], module.embedding.weight[:3])
    assert sum(p.numel() for p in module.parameters()) == 40
