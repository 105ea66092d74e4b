"""The full model against nn.Transformer; teacher forcing and greedy decoding agree."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from transformer_course.data import SequenceTask
from transformer_course.training import default_device, evaluate, train
from transformer_course.transformer import Transformer, core_from_torch, greedy_decode, shift_right


def test_encoder_and_decoder_equal_nn_transformer_with_masks():
    torch.manual_seed(0)
    reference = nn.Transformer(16, 4, 2, 3, 32, dropout=0.0, batch_first=True).eval()
    reference.encoder.use_nested_tensor = False  # its prototype fast path warns
    with torch.no_grad():  # random final norms, so that a skipped one shows
        for norm in (reference.encoder.norm, reference.decoder.norm):
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.normal_()
    encoder, decoder = core_from_torch(reference)
    src, tgt = torch.randn(2, 7, 16), torch.randn(2, 5, 16)
    real = torch.ones(2, 7, dtype=torch.bool)
    real[1, 4:] = False  # the second source has 4 real tokens and 3 of padding
    with torch.no_grad():
        expected = reference(
            src,
            tgt,
            tgt_mask=nn.Transformer.generate_square_subsequent_mask(5),
            src_key_padding_mask=~real,
            memory_key_padding_mask=~real,
        )
        ours = decoder(tgt, encoder(src, real[:, None, :]), src_mask=real[:, None, :])
    torch.testing.assert_close(ours, expected, atol=1e-5, rtol=1e-5)


def test_model_shapes():
    model = Transformer(src_vocab=7, tgt_vocab=9, d_model=16, n_heads=2, d_ff=32).eval()
    src, tgt_in = torch.randint(0, 7, (3, 5)), torch.randint(0, 9, (3, 4))
    assert model.encode(src).shape == (3, 5, 16)
    assert model(src, tgt_in).shape == (3, 4, 9)


def test_shift_right_puts_the_start_token_first_and_drops_the_last():
    target = torch.tensor([[5, 6, 7, 9]])
    assert shift_right(target, start_token=8).tolist() == [[8, 5, 6, 7]]


@pytest.fixture(scope="module")
def trained():
    """A small model trained for a few seconds on reversing 8 symbols out of 6."""
    task = SequenceTask("reverse", seq_len=8, n_symbols=6)
    torch.manual_seed(0)
    model = Transformer(
        task.vocab_size,
        task.vocab_size,
        d_model=32,
        n_heads=4,
        d_ff=64,
        n_encoder_layers=1,
        n_decoder_layers=1,
        max_len=16,
    )
    history = train(
        model,
        task,
        steps=250,
        lr=3e-3,
        schedule=lambda s: min(1.0, (s + 1) / 50),
        device="cpu",
        progress=False,
    )
    return task, model, history


def test_training_beats_chance_by_a_wide_margin(trained):
    task, model, history = trained
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    src, target = task.dataset(500, seed=1)
    scores = evaluate(model, task, src, target)
    # Chance is one token in 8 (6 symbols, start, end); whole sequences essentially never.
    assert scores["token_accuracy"] > 0.9
    assert scores["sequence_accuracy"] > 0.5


def test_greedy_output_fed_back_in_one_pass_gives_the_same_tokens(trained):
    task, model, _ = trained
    src, _ = task.dataset(64, seed=2)
    generated = greedy_decode(model, src, task.start, task.end, max_len=task.seq_len + 1)
    assert torch.all(generated[:, 0] == task.start)
    with torch.no_grad():
        predicted = model(src, generated[:, :-1]).argmax(-1)  # teacher-forced, one pass
    is_end = (generated[:, 1:] == task.end).long()
    live = torch.cumsum(is_end, dim=1) - is_end == 0  # up to and including the first end token
    assert torch.equal(predicted[live], generated[:, 1:][live])


def test_greedy_decoding_stops_once_every_sequence_has_ended():
    torch.manual_seed(0)
    model = Transformer(5, 5, d_model=16, n_heads=2, d_ff=32).eval()
    with torch.no_grad():  # an output layer that always prefers token 4
        model.output.weight.zero_()
        model.output.bias.copy_(torch.tensor([0.0, 0, 0, 0, 1]))
    generated = greedy_decode(model, torch.randint(0, 3, (2, 6)), 3, 4, max_len=10)
    assert generated.tolist() == [[3, 4], [3, 4]]


def test_toy_datasets_are_deterministic_and_framed_by_the_end_token():
    task = SequenceTask("reverse", seq_len=5, n_symbols=4)
    src, target = task.dataset(3, seed=7)
    again, _ = task.dataset(3, seed=7)
    assert torch.equal(src, again)
    assert torch.equal(target[:, :-1], src.flip(1)) and torch.all(target[:, -1] == task.end)
    assert SequenceTask("sort", 5, 4).target(src)[:, :-1].tolist() == src.sort(1).values.tolist()
    with pytest.raises(ValueError, match="unknown rule"):
        SequenceTask("shuffle")
    assert task.show(torch.tensor([4, 0, 3, 5])) == "<start> 0 3 <end>"


def test_default_device_is_cuda_exactly_when_available():
    assert default_device().type == ("cuda" if torch.cuda.is_available() else "cpu")
