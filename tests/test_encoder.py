"""The encoder block and stack against nn.TransformerEncoderLayer and nn.TransformerEncoder."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from transformer_course.encoder import Encoder, EncoderBlock, block_from_torch, block_to_torch
from transformer_course.multihead import to_torch_mask


def torch_layer(norm_first=False, seed=0):
    torch.manual_seed(seed)
    return nn.TransformerEncoderLayer(
        16, 4, 32, dropout=0.0, batch_first=True, norm_first=norm_first
    ).eval()


@pytest.mark.parametrize("norm_first", [False, True])
def test_block_equals_transformer_encoder_layer_both_ways(norm_first):
    reference = torch_layer(norm_first)
    block = block_from_torch(reference).eval()
    x = torch.randn(3, 7, 16)
    real = torch.ones(3, 7, dtype=torch.bool)
    real[1, 5:] = False
    with torch.no_grad():
        expected = reference(x, src_key_padding_mask=to_torch_mask(real))
        output, _ = block(x, mask=real[:, None, :])
        torch.testing.assert_close(output[real], expected[real], atol=1e-5, rtol=1e-5)
        back = block_to_torch(block).eval()
        torch.testing.assert_close(back(x), block(x)[0], atol=1e-5, rtol=1e-5)


def test_stack_equals_transformer_encoder():
    reference = nn.TransformerEncoder(torch_layer(seed=1), num_layers=3, enable_nested_tensor=False)
    reference.eval()
    for i, layer in enumerate(reference.layers):  # give every layer its own weights
        torch.manual_seed(10 + i)
        for p in layer.parameters():
            nn.init.normal_(p, std=0.2)
    encoder = Encoder.from_blocks([block_from_torch(layer) for layer in reference.layers]).eval()
    x = torch.randn(2, 6, 16)
    with torch.no_grad():
        torch.testing.assert_close(encoder(x), reference(x), atol=1e-5, rtol=1e-5)


def test_attention_maps_has_one_map_per_layer_and_rows_sum_to_one():
    encoder = Encoder(EncoderBlock(16, 4, 32), n_layers=2).eval()
    maps = encoder.attention_maps(torch.randn(2, 5, 16))
    assert len(maps) == 2 and maps[0].shape == (2, 4, 5, 5)
    torch.testing.assert_close(maps[1].sum(-1), torch.ones(2, 4, 5))


def test_dropout_is_active_only_in_training():
    block = EncoderBlock(16, 4, 32, dropout=0.5)
    x = torch.randn(2, 5, 16)
    block.eval()
    assert torch.equal(block(x)[0], block(x)[0])
    block.train()
    assert not torch.equal(block(x)[0], block(x)[0])
