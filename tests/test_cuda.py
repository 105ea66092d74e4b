"""The package on a CUDA GPU: the same numbers as on the CPU, and PyTorch's own modules.

The meta-device tests (test_devices.py) find a tensor left on the wrong device on any
machine; these run the real kernels. Each model is built once on the CPU, copied to the
GPU, and both copies get the same inputs: outputs and every parameter's gradient must agree
(TF32 off, so float32 is float32). Where there is no GPU they are skipped, saying so;
`benchmarks/cuda_check.py` runs them, and the solution notebooks, on a GPU machine.
"""

from __future__ import annotations

import copy

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from transformer_course import modern, tiled_attention
from transformer_course.data import SequenceTask
from transformer_course.decoder import Decoder, DecoderBlock, causal_mask
from transformer_course.encoder import Encoder, EncoderBlock
from transformer_course.language_model import CharLM, KVCache, generate
from transformer_course.multihead import MultiHeadAttention, from_torch
from transformer_course.training import evaluate, train
from transformer_course.transformer import Transformer

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU here")
CUDA = torch.device("cuda")
TOLERANCE = dict(atol=2e-5, rtol=2e-5)


@pytest.fixture(autouse=True)
def exact_float32():
    """Matrix products in true float32 on the GPU (TF32 would differ from the CPU by 1e-3)."""
    saved = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    yield
    torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = saved


def tokens(vocab: int, *shape: int) -> torch.Tensor:
    return torch.randint(vocab, shape, generator=torch.Generator().manual_seed(1))


def features(*shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(2))


# name -> (module built on the CPU, its inputs on the CPU)
CASES = {
    "multi-head attention, masked": lambda: (
        MultiHeadAttention(16, 4),
        (features(2, 7, 16), None, None, causal_mask(7)),
    ),
    "encoder": lambda: (
        Encoder(EncoderBlock(16, 4, 32), 2, nn.LayerNorm(16)),
        (features(2, 7, 16), torch.ones(2, 1, 7, dtype=torch.bool)),
    ),
    "decoder": lambda: (
        Decoder(DecoderBlock(16, 4, 32, norm_first=True), 2, nn.LayerNorm(16)),
        (features(2, 5, 16), features(2, 7, 16), causal_mask(5)),
    ),
    "encoder-decoder": lambda: (
        Transformer(11, 13, d_model=16, n_heads=2, d_ff=32),
        (tokens(11, 2, 7), tokens(13, 2, 5)),
    ),
    "notebook 08's CharLM": lambda: (
        CharLM(30, d_model=32, n_heads=4, n_layers=2, max_len=64),
        (tokens(30, 2, 20),),
    ),
    "modern decoder": lambda: (modern.ModernLM(30, max_len=64, n_kv_heads=2), (tokens(30, 2, 20),)),
    "modern decoder, 2017 parts": lambda: (
        modern.ModernLM(30, max_len=64, norm="layer", feed_forward="relu", positions="learned"),
        (tokens(30, 2, 20),),
    ),
}


def first(output):
    return output[0] if isinstance(output, tuple) else output


@pytest.mark.parametrize("case", CASES)
def test_outputs_and_gradients_on_cuda_equal_the_cpus(case):
    torch.manual_seed(0)
    on_cpu, inputs = CASES[case]()
    on_gpu = copy.deepcopy(on_cpu).to(CUDA)
    outputs = []
    for model, device in ((on_cpu, "cpu"), (on_gpu, CUDA)):
        model.eval().zero_grad()
        out = first(model(*(x.to(device) if torch.is_tensor(x) else x for x in inputs)))
        weights = torch.linspace(-1, 1, out.numel()).reshape(out.shape).to(device)
        (out * weights).sum().backward()
        outputs.append(out)
    assert outputs[1].device.type == "cuda"
    torch.testing.assert_close(outputs[1].cpu(), outputs[0], **TOLERANCE)
    for (name, p_cpu), p_gpu in zip(on_cpu.named_parameters(), on_gpu.parameters(), strict=True):
        if p_cpu.grad is not None:
            torch.testing.assert_close(
                p_gpu.grad.cpu(),
                p_cpu.grad,
                atol=1e-4,
                rtol=1e-4,
                msg=lambda m, name=name: f"{name}: {m}",
            )


def test_multi_head_attention_equals_nn_multihead_attention_on_cuda():
    torch.manual_seed(3)
    reference = nn.MultiheadAttention(32, 4, batch_first=True, device=CUDA).eval()
    ours = from_torch(reference).to(CUDA)
    x, memory = torch.randn(3, 9, 32, device=CUDA), torch.randn(3, 6, 32, device=CUDA)
    with torch.no_grad():
        expected, _ = reference(x, memory, memory, need_weights=False)
        torch.testing.assert_close(ours(x, memory)[0], expected, **TOLERANCE)


@pytest.mark.parametrize("causal", [False, True])
def test_flash_attention_and_its_gradients_equal_sdpa_on_cuda(causal):
    torch.manual_seed(4)
    Q, K, V = (torch.randn(2, 3, 256, 64, device=CUDA, requires_grad=True) for _ in range(3))
    dO = torch.randn(2, 3, 256, 64, device=CUDA)
    ours = tiled_attention.flash_attention(Q, K, V, causal, 64, 32)
    grads = torch.autograd.grad(ours, (Q, K, V), dO)
    expected = F.scaled_dot_product_attention(Q, K, V, is_causal=causal)
    expected_grads = torch.autograd.grad(expected, (Q, K, V), dO)
    torch.testing.assert_close(ours, expected, atol=1e-4, rtol=1e-4)
    for name, mine, theirs in zip("QKV", grads, expected_grads, strict=True):
        torch.testing.assert_close(mine, theirs, atol=1e-4, rtol=1e-4, msg=lambda m, n=name: n + m)


@pytest.mark.parametrize("model", ["CharLM", "ModernLM"])
def test_the_cache_gives_the_full_forwards_logits_and_greedy_text_on_cuda(model):
    torch.manual_seed(5)
    lm = (
        CharLM(19, d_model=32, n_heads=4, n_layers=2, max_len=64)
        if model == "CharLM"
        else modern.ModernLM(19, d_model=32, n_heads=4, n_layers=2, max_len=64, n_kv_heads=2)
    )
    lm = lm.to(CUDA).eval()
    idx = tokens(19, 2, 12).to(CUDA)
    cache = KVCache(len(lm.blocks))
    with torch.no_grad():
        stepped = [lm.step(idx[:, :5], cache)] + [
            lm.step(idx[:, t : t + 1], cache) for t in range(5, 12)
        ]
        torch.testing.assert_close(torch.cat(stepped, 1), lm(idx), atol=1e-4, rtol=1e-4)
    assert cache.keys[0].device.type == "cuda"
    greedy = generate(lm, idx[:, :3], 20, temperature=0)
    assert torch.equal(greedy, generate(lm, idx[:, :3], 20, temperature=0, use_cache=False))
    sampled = generate(lm, idx[:, :3], 20, generator=torch.Generator(CUDA).manual_seed(1))
    assert sampled.device.type == "cuda" and sampled.shape == (2, 23)


def test_notebook_07s_training_learns_to_reverse_on_cuda():
    """07's capstone in small: the same task and optimiser as on the CPU, on the GPU."""
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
        device=CUDA,
        progress=False,
    )
    assert next(model.parameters()).device.type == "cuda"
    assert history["loss"][-1] < 0.5 * history["loss"][0]
    src, target = task.dataset(500, seed=1)
    scores = evaluate(model, task, src, target)  # as test_transformer.py asks of the CPU
    assert scores["token_accuracy"] > 0.9 and scores["sequence_accuracy"] > 0.5, scores
