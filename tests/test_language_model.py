"""Notebook 08's package: the standard library as text, n-gram baselines, the character
language model, sampling and the key–value cache."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from transformer_course import corpus, ngram
from transformer_course.decoder import causal_mask
from transformer_course.language_model import (
    CharLM,
    KVCache,
    bits_per_character,
    evaluate_bits,
    generate,
    sample_next,
    train_language_model,
)


@pytest.fixture(scope="module")
def text():
    return corpus.load_corpus()


def test_the_corpus_is_the_listed_stdlib_files_in_order_and_the_same_every_time(text):
    again = corpus.load_corpus()
    assert (text.train, text.held_out) == (again.train, again.held_out)
    assert not text.missing and len(text.train) > 10**6 and len(text.held_out) > 50_000
    assert not set(corpus.TRAINING_FILES) & set(corpus.HELD_OUT_FILES)
    first = (text.folder / corpus.TRAINING_FILES[0]).read_text()
    assert text.train.startswith(first)
    quick = corpus.load_corpus(scale=0.1)
    assert len(quick.train) == int(len(text.train) * 0.1)


def test_too_little_text_says_where_it_looked(tmp_path):
    (tmp_path / "ast.py").write_text("x = 1\n")
    with pytest.raises(FileNotFoundError, match="too little of the course's text"):
        corpus.load_corpus(tmp_path)


def test_missing_files_are_skipped_with_a_warning(tmp_path, text):
    for name in corpus.TRAINING_FILES[1:] + corpus.HELD_OUT_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((text.folder / name).read_text())
    with pytest.warns(UserWarning, match=corpus.TRAINING_FILES[0]):
        found = corpus.load_corpus(tmp_path)
    assert found.missing == (corpus.TRAINING_FILES[0],)


def test_encode_and_decode_round_trip_and_unknown_characters_become_index_0():
    vocab = corpus.vocabulary("hello world")
    assert vocab == [corpus.UNKNOWN, " ", "d", "e", "h", "l", "o", "r", "w"]
    ids = corpus.encode("hello", vocab)
    assert ids.dtype == torch.long and corpus.decode(ids, vocab) == "hello"
    assert corpus.encode("hex!", vocab).tolist() == [4, 3, 0, 0]
    assert corpus.decode(corpus.encode("hex!", vocab), vocab) == f"he{corpus.UNKNOWN * 2}"


def test_random_windows_are_slices_and_targets_are_the_next_characters():
    data = torch.arange(100, 150)
    x, y = corpus.random_windows(data, 8, 500, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (500, 8)
    assert torch.equal(y, x + 1)  # shifted by one, and contiguous (data counts up)
    assert x.min() >= 100 and y.max() <= 149  # never past the end
    assert set(x[:, 0].tolist()) == set(range(100, 142))  # every start is possible


def test_ngram_probabilities_sum_to_one_and_longer_contexts_fit_better(text):
    vocab = corpus.vocabulary(text.train)
    train = corpus.encode(text.train[:200_000], vocab)
    held = corpus.encode(text.held_out[:20_000], vocab)
    bits = []
    for order in (1, 2, 3):
        model = ngram.NGramModel(order, len(vocab)).fit(train)
        for context in ("de", "zq"):  # seen, and never seen; its last order - 1 characters
            context = context[2 - (order - 1) :] if order > 1 else ""
            rows = torch.stack(
                [torch.cat([corpus.encode(context, vocab), torch.tensor([c])]) for c in
                 range(len(vocab))]
            )  # fmt: skip
            total = sum(model.probabilities(row)[-1].item() for row in rows)
            assert total == pytest.approx(1.0, abs=1e-9), (order, context)
        bits.append(model.bits_per_character(held[2:] if order == 1 else held[3 - order :]))
    assert bits[0] > bits[1] > bits[2]
    # The unigram model is the character frequencies, smoothed: on its own training text it
    # scores about their entropy.
    counts = torch.bincount(train, minlength=len(vocab)).double()
    p = counts / counts.sum()
    entropy = -(p[p > 0] * p[p > 0].log2()).sum().item()
    unigram = ngram.NGramModel(1, len(vocab)).fit(train)
    assert unigram.bits_per_character(train) == pytest.approx(entropy, abs=0.01)


def small_model(seed=0, **kwargs):
    torch.manual_seed(seed)
    return CharLM(40, d_model=32, n_heads=4, n_layers=2, max_len=48, **kwargs).eval()


def test_the_model_is_causal_and_its_head_is_tied_to_the_embedding():
    model = small_model()
    idx = torch.randint(40, (2, 12))
    changed = idx.clone()
    changed[:, 8:] = (changed[:, 8:] + 1) % 40
    with torch.no_grad():
        a, b = model(idx), model(changed)
    assert a.shape == (2, 12, 40)
    torch.testing.assert_close(a[:, :8], b[:, :8])
    assert not torch.allclose(a[:, 8:], b[:, 8:])
    with torch.no_grad():
        x = model.embed(idx)
        for block in model.blocks:
            x = block(x, causal_mask(12))[0]
        expected = F.layer_norm(x, (32,), model.final_norm.weight, model.final_norm.bias)
    torch.testing.assert_close(a, expected @ model.token_embedding.weight.T)


@pytest.mark.parametrize("prompt", [1, 5])
def test_cached_logits_equal_a_full_recomputation_at_every_step(prompt):
    model = small_model(1)
    idx = torch.randint(40, (3, 30))
    with torch.no_grad():
        full = model(idx)
        cache = KVCache(len(model.blocks))
        steps = [model.step(idx[:, :prompt], cache)]
        steps += [model.step(idx[:, t : t + 1], cache) for t in range(prompt, 30)]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, atol=1e-5, rtol=1e-5)
    assert cache.length == 30
    assert cache.nbytes() == 2 * 2 * 3 * 30 * 32 * 4  # layers · (k, v) · B · T · d_model · 4 bytes


def test_generation_with_and_without_the_cache_gives_the_same_text():
    model = small_model(2)
    prompt = torch.randint(40, (2, 4))
    texts = [
        generate(model, prompt, 40, 0.8, 10, torch.Generator().manual_seed(5), use_cache=cached)
        for cached in (True, False)
    ]
    assert texts[0].shape == (2, 44) and torch.equal(texts[0], texts[1])
    assert torch.equal(texts[0][:, :4], prompt)
    with pytest.raises(ValueError, match="max_len"):
        generate(model, prompt, 45)


def test_bits_per_character_is_cross_entropy_over_log_2():
    logits, targets = torch.randn(2, 5, 7), torch.randint(7, (2, 5))
    expected = F.cross_entropy(logits.reshape(10, 7), targets.reshape(10)) / math.log(2)
    torch.testing.assert_close(bits_per_character(logits, targets), expected)
    uniform = bits_per_character(torch.zeros(3, 8), torch.tensor([0, 1, 2]))
    assert uniform.item() == pytest.approx(3.0)  # 8 equally likely characters: 3 bits


def test_sampling_greedy_top_k_and_temperature():
    logits = torch.tensor([[0.0, 2.0, 1.0, -1.0, 0.5]]).repeat(4000, 1)
    assert torch.equal(sample_next(logits, 0.0), torch.full((4000,), 1))
    g = torch.Generator().manual_seed(0)
    top2 = sample_next(logits, 1.0, top_k=2, generator=g)
    assert set(top2.tolist()) == {1, 2}
    drawn = torch.bincount(sample_next(logits, 1.0, generator=g), minlength=5) / 4000
    torch.testing.assert_close(drawn, torch.softmax(logits[0], -1), atol=0.03, rtol=0)
    cold = torch.bincount(sample_next(logits, 0.05, generator=g), minlength=5)
    assert cold[1] == 4000  # a low temperature is all but greedy


def test_a_minute_of_training_in_miniature_lowers_the_bits_and_evaluation_agrees():
    data = corpus.encode("abcabcabd" * 200, corpus.vocabulary("abcd"))
    model = CharLM(5, d_model=32, n_heads=2, n_layers=1, max_len=16)
    history = train_language_model(model, data, 60, block_size=8, batch_size=16, lr=3e-3,
                                   warmup=5, progress=False)
    assert len(history["bits"]) == len(history["lr"]) == 60
    assert max(history["lr"]) == pytest.approx(3e-3, rel=0.02) and history["lr"][-1] < 1e-5
    assert sum(history["bits"][-10:]) / 10 < 1.0 < history["bits"][0]
    windows = data[: 8 * 224].view(224, 8), data[1 : 8 * 224 + 1].view(224, 8)
    with torch.no_grad():
        expected = bits_per_character(model(windows[0]), windows[1]).item()
    assert evaluate_bits(model, data, block_size=8) == pytest.approx(expected, rel=1e-5)
