"""The decoder: causal mask, block and stack against PyTorch's own modules."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from transformer_course.decoder import (
    Decoder,
    DecoderBlock,
    block_from_torch,
    block_to_torch,
    causal_mask,
)


@pytest.mark.parametrize("seq_len", [1, 3, 9])
def test_causal_mask_equals_generate_square_subsequent_mask(seq_len):
    expected = nn.Transformer.generate_square_subsequent_mask(seq_len)
    assert torch.equal(torch.where(causal_mask(seq_len), 0.0, float("-inf")), expected)


def test_causal_mask_lets_each_token_see_itself_and_the_past_only():
    mask = causal_mask(4)
    assert mask.dtype == torch.bool
    assert mask[2].tolist() == [True, True, True, False]


def torch_layer(norm_first=False, seed=0):
    torch.manual_seed(seed)
    layer = nn.TransformerDecoderLayer(
        16, 4, 32, dropout=0.0, batch_first=True, norm_first=norm_first
    )
    with torch.no_grad():  # random norms, so that a swapped or skipped norm shows
        for norm in (layer.norm1, layer.norm2, layer.norm3):
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.normal_()
    return layer.eval()


@pytest.mark.parametrize("norm_first", [False, True])
def test_block_equals_transformer_decoder_layer_both_ways(norm_first):
    reference = torch_layer(norm_first)
    block = block_from_torch(reference).eval()
    x, memory = torch.randn(3, 5, 16), torch.randn(3, 7, 16)
    src_real = torch.ones(3, 7, dtype=torch.bool)
    src_real[1, 4:] = False
    with torch.no_grad():
        expected = reference(
            x,
            memory,
            tgt_mask=nn.Transformer.generate_square_subsequent_mask(5),
            memory_key_padding_mask=~src_real,
        )
        output, _ = block(x, memory, src_mask=src_real[:, None, :])
        torch.testing.assert_close(output, expected, atol=1e-5, rtol=1e-5)
        back = block_to_torch(block).eval()
        torch.testing.assert_close(
            back(x, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(5)),
            block(x, memory)[0],
            atol=1e-5,
            rtol=1e-5,
        )


def test_block_refuses_other_activations():
    with pytest.raises(ValueError, match="ReLU"):
        block_from_torch(nn.TransformerDecoderLayer(16, 4, 32, activation="gelu"))


def test_no_output_depends_on_a_future_token():
    block = DecoderBlock(16, 4, 32).eval()
    x, memory = torch.randn(2, 6, 16), torch.randn(2, 4, 16)
    changed = x.clone()
    changed[:, 4:] = torch.randn(2, 2, 16)  # rewrite the last two tokens
    with torch.no_grad():
        before, after = block(x, memory)[0], block(changed, memory)[0]
    torch.testing.assert_close(before[:, :4], after[:, :4])
    assert not torch.allclose(before[:, 4:], after[:, 4:])


def test_stack_equals_transformer_decoder_and_returns_both_maps():
    reference = nn.TransformerDecoder(torch_layer(seed=1), num_layers=3).eval()
    for i, layer in enumerate(reference.layers):  # give every layer its own weights
        torch.manual_seed(10 + i)
        for p in layer.parameters():
            nn.init.normal_(p, std=0.2)
    decoder = Decoder.from_blocks([block_from_torch(layer) for layer in reference.layers]).eval()
    x, memory = torch.randn(2, 6, 16), torch.randn(2, 5, 16)
    with torch.no_grad():
        expected = reference(x, memory, tgt_mask=nn.Transformer.generate_square_subsequent_mask(6))
        torch.testing.assert_close(decoder(x, memory), expected, atol=1e-5, rtol=1e-5)
        maps = decoder.attention_maps(x, memory)
    assert len(maps) == 3
    self_weights, cross_weights = maps[0]
    assert self_weights.shape == (2, 4, 6, 6) and cross_weights.shape == (2, 4, 6, 5)
    assert torch.all(self_weights.triu(1) == 0)  # nothing above the diagonal
    torch.testing.assert_close(cross_weights.sum(-1), torch.ones(2, 4, 6))


def test_dropout_is_active_only_in_training():
    block = DecoderBlock(16, 4, 32, dropout=0.5)
    x, memory = torch.randn(2, 5, 16), torch.randn(2, 3, 16)
    block.eval()
    assert torch.equal(block(x, memory)[0], block(x, memory)[0])
    block.train()
    assert not torch.equal(block(x, memory)[0], block(x, memory)[0])
