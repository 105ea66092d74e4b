"""Notebook 08's package: the standard library as text, n-gram baselines, the character
language model, sampling and the key–value cache."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer_course import corpus, language_model, ngram
from transformer_course.decoder import causal_mask
from transformer_course.encoder import EncoderBlock, pre_norm_block
from transformer_course.language_model import (
    AdamW,
    Batches,
    CharLM,
    KVCache,
    adamw_step,
    bits_per_character,
    evaluate_bits,
    generate,
    sample_next,
    top_p_filter,
    train,
    train_language_model,
)
from transformer_course.schedules import cosine_warmup


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


@pytest.mark.parametrize("kind", [ngram.NGramModel, ngram.KneserNeyModel])
def test_ngram_probabilities_sum_to_one_over_the_vocabulary_for_many_contexts(text, kind):
    vocab = corpus.vocabulary(text.train)
    train = corpus.encode(text.train[:200_000], vocab)
    generator = torch.Generator().manual_seed(0)
    for order, model in kind.fit_orders(range(1, 8), len(vocab), train).items():
        seen = train[:5000].unfold(0, order - 1, 37)[:60] if order > 1 else torch.zeros(60, 0)
        unseen = torch.randint(len(vocab), (60, order - 1), generator=generator)
        mixed = seen.clone()
        mixed[:, :1] = unseen[:, :1]  # a seen ending after a new start
        for contexts in (seen, unseen, mixed):
            p = model.next_distribution(contexts.long())
            assert p.shape == (60, len(vocab)) and (p > 0).all()
            torch.testing.assert_close(
                p.sum(-1), torch.ones(60, dtype=torch.float64), atol=1e-12, rtol=0
            )
        # next_distribution and probabilities agree on the text's own characters
        rows = train[:200].unfold(0, order, 1)
        picked = model.next_distribution(rows[:, :-1]).gather(1, rows[:, -1:])[:, 0]
        torch.testing.assert_close(picked, model.probabilities(train[:200]))


def test_longer_contexts_fit_better_and_kneser_ney_beats_witten_bell_at_high_orders(text):
    vocab = corpus.vocabulary(text.train)
    train = corpus.encode(text.train[:300_000], vocab)
    held = corpus.encode(text.held_out[:20_000], vocab)
    counts = {}
    bits = {
        kind: {
            n: m.bits_per_character(held[7 - (n - 1) :])
            for n, m in kind.fit_orders(range(1, 8), len(vocab), train, counts).items()
        }
        for kind in (ngram.NGramModel, ngram.KneserNeyModel)
    }
    wb, kn = bits[ngram.NGramModel], bits[ngram.KneserNeyModel]
    assert wb[1] > wb[2] > wb[3] and kn[1] > kn[2] > kn[3] > kn[4] > kn[5]
    assert wb[1] == pytest.approx(kn[1], abs=0.01)  # both: frequencies (raw counts at order 1)
    assert all(kn[n] < wb[n] for n in range(4, 8))
    assert wb[7] > min(wb.values())  # Witten–Bell's rise at high orders
    # The unigram model is the character frequencies, smoothed: on its own training text it
    # scores about their entropy.
    frequencies = torch.bincount(train, minlength=len(vocab)).double()
    p = frequencies / frequencies.sum()
    entropy = -(p[p > 0] * p[p > 0].log2()).sum().item()
    unigram = ngram.NGramModel(1, len(vocab)).fit(train)
    assert unigram.bits_per_character(train) == pytest.approx(entropy, abs=0.01)


def test_kneser_ney_by_hand_on_a_tiny_text():
    """a b a b a b c a b over a, b, c, d: discounts and probabilities worked out by hand."""
    model = ngram.KneserNeyModel(2, 4).fit(torch.tensor([0, 1, 0, 1, 0, 1, 2, 0, 1]))
    # Bigram counts ab 4, ba 2, bc 1, ca 1: n1 = 2, n2 = 1, n3 = 0, so Y = 2 / (2 + 2) = 1/2,
    # D1 = 1 - 2 Y n2 / n1 = 1/2, D2 = 2 - 3 Y n3 / n2 = 2, D3+ falls back to 3/2 (n3 = 0).
    assert model.discounts[1] == pytest.approx((0.5, 2.0, 1.5))
    # Continuation counts of the unigrams: a after b and c (2), b after a (1), c after b (1):
    # the same discounts; P1 = ((0, 1/2, 1/2, 0) + (2 + 1/2 + 1/2) / 4) / 4.
    assert model.discounts[0] == pytest.approx((0.5, 2.0, 1.5))
    unigram = torch.tensor([0.1875, 0.3125, 0.3125, 0.1875], dtype=torch.float64)
    # After a: only ab, seen 4 times: A = 4 - D3+, and D3+ goes to the unigram.
    expected = (torch.tensor([0.0, 2.5, 0.0, 0.0], dtype=torch.float64) + 1.5 * unigram) / 4
    torch.testing.assert_close(model.next_distribution(torch.tensor([[0]]))[0], expected)
    # After d, never seen: the unigram as it is.
    torch.testing.assert_close(model.next_distribution(torch.tensor([[3]]))[0], unigram)


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


def test_the_cached_attention_is_the_models_and_a_learners_can_replace_it():
    """``attend_with_cache`` aligns the causal mask to the bottom right (a block of new
    tokens after stored ones) and ``CharLM.step`` runs the one it is given."""
    g = torch.Generator().manual_seed(3)
    q, k, v = torch.randn(3, 2, 2, 9, 4, generator=g)
    cache_k, cache_v = torch.full((2, 2, 2, 12, 4), 99.0)
    outputs, length = [], 0
    for n in (4, 1, 3, 1):  # a prompt, one, a block after stored ones, one
        outputs.append(
            language_model.attend_with_cache(
                q[..., length : length + n, :],
                k[..., length : length + n, :],
                v[..., length : length + n, :],
                cache_k,
                cache_v,
                length,
            )
        )
        length += n
    torch.testing.assert_close(
        torch.cat(outputs, dim=-2), F.scaled_dot_product_attention(q, k, v, is_causal=True)
    )
    torch.testing.assert_close(cache_k[..., :9, :], k)
    calls = []

    def counted(*args):
        calls.append(args[-1])
        return language_model.attend_with_cache(*args)

    model = small_model(1)
    idx = torch.randint(40, (2, 7))
    with torch.no_grad():
        full = model(idx)
        model.cached_attention = counted
        cache = KVCache(len(model.blocks))
        stepped = torch.cat([model.step(idx[:, :5], cache), model.step(idx[:, 5:], cache)], 1)
    torch.testing.assert_close(stepped, full, atol=1e-5, rtol=1e-5)
    assert calls == [0, 0, 5, 5]  # every block, at each step's stored length


def test_generation_with_and_without_the_cache_gives_the_same_text():
    model = small_model(2)
    prompt = torch.randint(40, (2, 4))
    texts = [
        generate(model, prompt, 40, 0.8, 10, torch.Generator().manual_seed(5), use_cache=cached)
        for cached in (True, False)
    ]
    assert texts[0].shape == (2, 44) and torch.equal(texts[0], texts[1])
    assert torch.equal(texts[0][:, :4], prompt)
    nucleus = [
        generate(
            model,
            prompt,
            40,
            0.8,
            None,
            torch.Generator().manual_seed(5),
            use_cache=cached,
            top_p=0.9,
        )
        for cached in (True, False)
    ]
    assert torch.equal(nucleus[0], nucleus[1])
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


def nucleus_by_loop(row: list[float], p: float) -> set[int]:
    """The nucleus of one row, from the definition: the tokens from the most likely down,
    until the probability taken reaches p (in Python's floats, from exp and a sum)."""
    top = max(row)
    weights = [math.exp(x - top) for x in row]
    probs = [w / sum(weights) for w in weights]
    kept, total = set(), 0.0
    for token in sorted(range(len(row)), key=lambda i: -probs[i]):
        if total >= p:
            break
        kept.add(token)
        total += probs[token]
    return kept


def test_top_p_keeps_the_nucleus_of_each_row_and_the_logits_as_they_were():
    g = torch.Generator().manual_seed(0)
    for B, V, scale in [(1, 5, 1.0), (7, 13, 3.0), (20, 50, 0.5), (4, 96, 8.0)]:
        logits = scale * torch.randn(B, V, generator=g, dtype=torch.float64)
        for p in (0.05, 0.3, 0.5, 0.77, 0.9, 0.99):
            before = logits.clone()
            out = top_p_filter(logits, p)
            assert torch.equal(logits, before) and out.dtype == logits.dtype
            for b in range(B):
                kept = nucleus_by_loop(logits[b].tolist(), p)
                assert set(torch.isfinite(out[b]).nonzero().flatten().tolist()) == kept
                assert torch.equal(out[b, sorted(kept)], logits[b, sorted(kept)])
                assert torch.all(out[b, [i for i in range(V) if i not in kept]] == -math.inf)


def test_top_p_at_the_edges():
    halves = torch.tensor(
        [[0.0, -math.log(2), -2 * math.log(2), -3 * math.log(2), -3 * math.log(2)]],
        dtype=torch.float64,
    )  # 1/2, 1/4, 1/8, 1/16, 1/16
    kept = lambda out: torch.isfinite(out[0]).nonzero().flatten().tolist()  # noqa: E731
    assert kept(top_p_filter(halves, 0.75)) == [0, 1]  # reaching p exactly ends the nucleus
    assert kept(top_p_filter(halves, 0.7500001)) == [0, 1, 2]
    assert kept(top_p_filter(halves, 1e-9)) == [0]  # the top token always
    assert kept(top_p_filter(halves, 1.0)) == [0, 1, 2, 3, 4]
    assert kept(top_p_filter(halves.float(), 0.5)) == [0]
    assert top_p_filter(halves.float(), 0.5).dtype == torch.float32
    shuffled = halves[:, [3, 0, 2, 1, 4]]  # the original order is kept
    assert kept(top_p_filter(shuffled, 0.75)) == [1, 3]
    with pytest.raises(ValueError):
        top_p_filter(halves, 0.0)


def test_sampling_with_top_p_draws_from_the_nucleus_renormalised():
    logits = torch.tensor([[2.0, 1.0, 0.0, -1.0, -3.0]]).repeat(8000, 1)
    probs = torch.softmax(logits[0].double(), -1)  # 0.64, 0.24, 0.09, 0.03, 0.004
    g = torch.Generator().manual_seed(0)
    drawn = torch.bincount(sample_next(logits, 1.0, generator=g, top_p=0.8), minlength=5) / 8000
    torch.testing.assert_close(
        drawn.double(),
        torch.cat([probs[:2] / probs[:2].sum(), torch.zeros(3, dtype=torch.float64)]),
        atol=0.02,
        rtol=0,
    )
    # the temperature comes first: at 0.5 the top token alone holds 0.86 ≥ 0.8 of the mass
    assert set(sample_next(logits, 0.5, generator=g, top_p=0.8).tolist()) == {0}
    # None keeps sample_next as it was, draw for draw
    assert torch.equal(
        sample_next(logits, 1.0, 3, torch.Generator().manual_seed(1)),
        sample_next(logits, 1.0, 3, torch.Generator().manual_seed(1), None),
    )


@pytest.mark.parametrize(
    "settings",
    [
        {},  # PyTorch's defaults: lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight decay 0.01
        {"lr": 3e-3, "betas": (0.9, 0.99), "weight_decay": 0.1},  # notebook 08's
        {"lr": 0.05, "betas": (0.5, 0.9), "eps": 1e-3, "weight_decay": 0.0},
        {"lr": 0.02, "betas": (0.95, 0.8), "eps": 1e-2, "weight_decay": 0.5},
    ],
)
def test_adamw_step_is_torch_adamw_update_for_update(settings):
    """adamw_step, run by hand over 300 updates of tensors of several shapes with gradients of
    scales from 1e-5 to 1e3, gives torch.optim.AdamW's parameters and moments after each."""
    g = torch.Generator().manual_seed(0)
    shapes = [(7,), (4, 5), (2, 3, 4), ()]
    params = [torch.randn(shape, generator=g, dtype=torch.float64) for shape in shapes]
    reference = [nn.Parameter(p.clone()) for p in params]
    optimizer = torch.optim.AdamW(reference, **settings)
    full = {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 1e-2} | settings
    moments = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]
    for step in range(1, 301):
        scales = 10.0 ** torch.randint(-5, 4, (len(shapes),), generator=g)
        grads = [
            s * torch.randn(p.shape, generator=g, dtype=torch.float64)
            for s, p in zip(scales.tolist(), params, strict=True)
        ]
        for p, grad in zip(reference, grads, strict=True):
            p.grad = grad.clone()
        optimizer.step()
        for i, grad in enumerate(grads):
            given = [params[i], grad, *moments[i]]
            copies = [x.clone() for x in given]
            params[i], *new = adamw_step(*given, step, **full)
            assert all(torch.equal(a, b) for a, b in zip(given, copies, strict=True))  # untouched
            moments[i] = tuple(new)
            state = optimizer.state[reference[i]]
            for mine, theirs in zip(
                (params[i], *moments[i]),
                (reference[i].detach(), state["exp_avg"], state["exp_avg_sq"]),
                strict=True,
            ):
                # rounding only: torch.lerp and our sum cancel differently near 0
                torch.testing.assert_close(
                    mine, theirs, rtol=1e-9, atol=1e-12 * float(theirs.abs().max()) + 1e-15
                )


def test_the_course_adamw_trains_as_torch_adamw_and_resumes_from_a_checkpoint(tmp_path):
    """language_model.AdamW (with adamw_step, or any update given) under LambdaLR, with
    parameter_groups' two groups, trains a CharLM as torch.optim.AdamW does, and its state
    goes through save_checkpoint / load_checkpoint."""
    data = corpus.encode("abcabcabd" * 200, corpus.vocabulary("abcd"))
    batches = Batches(data, block_size=8, batch_size=4, seed=0)

    def run(make, steps, model=None):
        torch.manual_seed(0)
        model = model or CharLM(5, d_model=16, n_heads=2, n_layers=1, max_len=8).double()
        optimizer = make(language_model.parameter_groups(model, weight_decay=0.1))
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_warmup(3, 12))
        return model, optimizer, scheduler, train(model, optimizer, scheduler, batches, steps)

    torch_run = run(lambda groups: torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.99)), range(12))
    calls = []

    def counted(*args):
        calls.append(args[4])
        return adamw_step(*args)

    ours = run(lambda groups: AdamW(groups, lr=3e-3, betas=(0.9, 0.99), update=counted), range(12))
    assert calls[0] == 1 and calls[-1] == 12 and len(calls) == 12 * len(list(ours[0].parameters()))
    torch.testing.assert_close(ours[3]["bits"], torch_run[3]["bits"], rtol=1e-10, atol=0)
    for mine, theirs in zip(ours[0].parameters(), torch_run[0].parameters(), strict=True):
        torch.testing.assert_close(mine, theirs, rtol=1e-10, atol=1e-12)
    first = run(lambda groups: AdamW(groups, lr=3e-3, betas=(0.9, 0.99)), range(5))
    path = tmp_path / "checkpoint.pt"
    language_model.save_checkpoint(path, *first[:3], step=5)
    resumed = run(lambda groups: AdamW(groups, lr=3e-3, betas=(0.9, 0.99)), [])
    start = language_model.load_checkpoint(path, *resumed[:3])
    train(*resumed[:3], batches, range(start, 12))
    for mine, theirs in zip(resumed[0].parameters(), torch_run[0].parameters(), strict=True):
        torch.testing.assert_close(mine, theirs, rtol=1e-10, atol=1e-12)
    # torch.optim.AdamW's checkpoint resumed by ours (its step a tensor, ours a number)
    first = run(lambda groups: torch.optim.AdamW(groups, lr=3e-3, betas=(0.9, 0.99)), range(5))
    language_model.save_checkpoint(path, *first[:3], step=5)
    resumed = run(lambda groups: AdamW(groups, lr=3e-3, betas=(0.9, 0.99)), [])
    train(*resumed[:3], batches, range(language_model.load_checkpoint(path, *resumed[:3]), 12))
    for mine, theirs in zip(resumed[0].parameters(), torch_run[0].parameters(), strict=True):
        torch.testing.assert_close(mine, theirs, rtol=1e-10, atol=1e-12)


def test_a_minute_of_training_in_miniature_lowers_the_bits_and_evaluation_agrees():
    data = corpus.encode("abcabcabd" * 200, corpus.vocabulary("abcd"))
    model = CharLM(5, d_model=32, n_heads=2, n_layers=1, max_len=16)
    history = train_language_model(
        model, data, 60, block_size=8, batch_size=16, lr=3e-3, warmup=5, progress=False
    )
    assert len(history["bits"]) == len(history["lr"]) == 60
    assert max(history["lr"]) == pytest.approx(3e-3, rel=0.02) and history["lr"][-1] < 1e-5
    assert sum(history["bits"][-10:]) / 10 < 1.0 < history["bits"][0]
    # non-overlapping windows: the 224 full ones, then one flush with the end for the last 7
    windows = data[: 8 * 224].view(224, 8), data[1 : 8 * 224 + 1].view(224, 8)
    with torch.no_grad():
        full = bits_per_character(model(windows[0]), windows[1]).item() * 224 * 8
        tail = bits_per_character(model(data[-9:-1][None])[:, 1:], data[-7:][None]).item() * 7
    assert evaluate_bits(model, data, block_size=8) == pytest.approx((full + tail) / 1799, rel=1e-5)


@pytest.mark.parametrize("stride, first", [(None, 1), (None, 7), (3, 7), (1, 1), (5, 30)])
def test_evaluation_scores_each_character_once_in_the_earliest_window_that_holds_it(stride, first):
    model = small_model(3)
    data = torch.randint(40, (101,), generator=torch.Generator().manual_seed(0))
    size, step = 16, stride or 16
    starts = list(range(0, 101 - size, step))
    starts += [100 - size] if starts[-1] + size < 100 else []
    total = 0.0
    with torch.no_grad():
        for t in range(first, 101):  # the window that scores data[t]: the earliest holding it
            w = next(w for w in starts if w + 1 <= t <= w + size)
            log_p = torch.log_softmax(model(data[w : w + size][None])[0, t - w - 1].double(), -1)
            total -= log_p[data[t]].item()
    expected = total / (101 - first) / math.log(2)
    assert evaluate_bits(model, data, size, stride, first) == pytest.approx(expected, rel=1e-9)
    assert not model.training


def test_evaluation_restores_the_training_mode():
    model = small_model(4).train()
    evaluate_bits(model, torch.randint(40, (50,)), 8)
    assert model.training


class TorchStyleAttention(nn.MultiheadAttention):
    """A learner's notebook-03 module: PyTorch's parameters, the course's mask polarity,
    weights averaged over the heads."""

    def __init__(self, d_model, n_heads):
        super().__init__(d_model, n_heads, batch_first=True)

    def forward(self, query, key, value, mask=None, need_weights=True):
        return super().forward(
            query, key, value, attn_mask=None if mask is None else ~mask, need_weights=need_weights
        )


def learners_twin(model: CharLM) -> CharLM:
    """The same model built from a learner's parts (notebook 03's module, 05's wiring, 08's
    forward pass), with the same weights."""
    twin = CharLM(
        40,
        d_model=32,
        n_heads=4,
        n_layers=2,
        max_len=48,
        attention=TorchStyleAttention,
        wiring=pre_norm_block,
        logits=language_model.lm_logits,
    ).eval()
    state = {}
    for name, value in model.state_dict().items():
        state[
            name.replace("attention.in_proj.weight", "attention.in_proj_weight").replace(
                "attention.in_proj.bias", "attention.in_proj_bias"
            )
        ] = value
    twin.load_state_dict(state)
    return twin


def test_a_model_of_a_learners_parts_computes_what_the_course_model_computes():
    model = small_model(5)
    twin = learners_twin(model)
    assert isinstance(twin.blocks[0], language_model.PreNormBlock)
    assert isinstance(model.blocks[0], EncoderBlock)
    idx = torch.randint(40, (2, 20))
    with torch.no_grad():
        torch.testing.assert_close(twin(idx), model(idx), atol=1e-5, rtol=1e-5)
        cache = KVCache(2)
        steps = [twin.step(idx[:, :6], cache)] + [
            twin.step(idx[:, t : t + 1], cache) for t in range(6, 20)
        ]
    torch.testing.assert_close(torch.cat(steps, 1), model(idx), atol=1e-5, rtol=1e-5)
    # the maps from the projections equal the course block's own weights
    maps = model.attention_maps(idx)
    x = model.embed(idx)
    with torch.no_grad():
        for block, found in zip(model.blocks, maps, strict=True):
            _, weights = block.attention(block.norm1(x), mask=causal_mask(20), need_weights=True)
            torch.testing.assert_close(found, weights)
            x = block(x, causal_mask(20))[0]
    for a, b in zip(twin.attention_maps(idx), maps, strict=True):
        torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-5)
    assert maps[0].shape == (2, 4, 20, 20)


def test_the_cache_is_allocated_once_and_written_in_place():
    model = small_model(6)
    idx = torch.randint(40, (1, 30))
    cache = KVCache(2)
    with torch.no_grad():
        model.step(idx[:, :3], cache)
        where = [t.data_ptr() for t in cache.keys + cache.values]
        for t in range(3, 30):
            model.step(idx[:, t : t + 1], cache)
    assert [t.data_ptr() for t in cache.keys + cache.values] == where  # never copied
    assert cache.capacity == 48 and cache.allocated_nbytes() == 2 * 2 * 48 * 32 * 4
    # used on its own, without a capacity, it grows by doubling, keeping what it holds
    alone = KVCache(1)
    k = torch.randn(1, 2, 5, 4)
    for t in range(5):
        keys, _ = alone.append(0, k[:, :, t : t + 1], k[:, :, t : t + 1])
        alone.length += 1
    torch.testing.assert_close(keys, k)
    assert alone.keys[0].shape[-2] == 8


def test_weight_decay_only_on_the_matrices_of_linear_maps():
    model = learners_twin(small_model(7))
    decay, no_decay = language_model.parameter_groups(model, 0.1)
    names = {id(p): n for n, p in model.named_parameters()}
    decayed = {names[id(p)] for p in decay["params"]}
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    assert decayed == {
        n for n, p in model.named_parameters() if p.dim() == 2 and "embedding" not in n
    }
    assert "blocks.0.attention.in_proj_weight" in decayed
    assert len(decay["params"]) + len(no_decay["params"]) == len(list(model.parameters()))


def loop_setup(seed=0, steps=10):
    torch.manual_seed(seed)
    model = CharLM(5, d_model=16, n_heads=2, n_layers=1, max_len=8)
    optimizer = torch.optim.AdamW(language_model.parameter_groups(model, 0.1), lr=1e-2)
    return model, optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, cosine_warmup(2, steps))


def test_the_training_loop_records_losses_and_held_out_scores_and_resumes_exactly(tmp_path):
    data = corpus.encode("abcabcabd" * 50, corpus.vocabulary("abcd"))
    batches = Batches(data, 8, 4, seed=3)
    assert all(torch.equal(a, b) for a, b in zip(batches(5), batches(5), strict=True))
    calls = []

    def evaluate(model):
        calls.append(model.training)
        return evaluate_bits(model, data[:100], 8)

    straight = loop_setup()
    history = train(*straight, batches, range(10), evaluate, every=4)
    assert len(history["bits"]) == 10 and all(type(b) is float for b in history["bits"])
    assert [step for step, _ in history["held_out"]] == [4, 8] and calls == [True, True]
    first = loop_setup()
    train(*first, batches, range(6))
    language_model.save_checkpoint(tmp_path / "c.pt", *first, step=6)
    resumed = loop_setup(seed=1)  # other weights: all of them must come from the checkpoint
    assert language_model.load_checkpoint(tmp_path / "c.pt", *resumed) == 6
    rest = train(*resumed, batches, range(6, 10), evaluate, every=4)
    assert rest["bits"] == history["bits"][6:] and rest["held_out"] == history["held_out"][1:]


def test_flops_and_the_long_curve_shipped_with_the_package():
    model = CharLM(161, d_model=96, n_heads=4, n_layers=3, max_len=128)
    n = sum(p.numel() for p in model.parameters()) - 128 * 96
    assert language_model.flops_per_character(model) == 6 * n
    curve = language_model.training_curve()
    assert curve["notes"] and "make lm-curve" in curve["notes"][0]
    steps = curve["step"]
    assert steps == sorted(steps) and len(steps) >= 8
    for i, step in enumerate(steps):
        characters = step * 16 * 128
        assert curve["characters"][i] == characters
        assert curve["flops"][i] == pytest.approx(characters * 6 * n)
    assert min(curve["held_out_bits"]) < 2.6  # better than a minute of training
