"""The package computes on its input's device: checked on PyTorch's meta device.

A tensor made on the CPU inside a forward pass (a `torch.arange` without `device=`) breaks
a model on a GPU, and CPU tests never see it. The meta device refuses to mix with the CPU
as CUDA does, and computes only shapes, so these run in a moment on any machine. They are
no substitute for a run on a GPU (kernels, precision, memory): they find the tensor left on
the wrong device.
"""

from __future__ import annotations

import pytest
import torch

from transformer_course import modern, tiled_attention
from transformer_course.language_model import CharLM, KVCache
from transformer_course.transformer import Transformer

META = torch.device("meta")
PARTS = {
    "2017": dict(norm="layer", feed_forward="relu", positions="learned"),
    "modern": dict(n_kv_heads=2),
    "rotary only": dict(norm="layer", feed_forward="relu"),
}


def test_mixing_devices_fails_on_meta_as_on_a_gpu():
    with pytest.raises(RuntimeError, match="device"):  # what these tests rely on
        torch.ones(3, device=META) + torch.arange(3)


@pytest.mark.parametrize("parts", PARTS)
def test_modern_models_run_on_the_device_of_their_weights(parts):
    model = modern.ModernLM(30, max_len=64, **PARTS[parts]).to(META)
    idx = torch.zeros(2, 9, dtype=torch.long, device=META)
    assert model(idx).shape == (2, 9, 30) and model(idx).device == META
    cache = KVCache(len(model.blocks))
    model.step(idx, cache)
    assert model.step(idx[:, :1], cache).device == META  # one more character, cached


def test_notebook_08s_model_and_its_cache_run_on_the_device_of_their_weights():
    model = CharLM(30, d_model=32, n_heads=4, n_layers=2, max_len=64).to(META)
    idx = torch.zeros(2, 9, dtype=torch.long, device=META)
    assert model(idx).device == META
    cache = KVCache(len(model.blocks))
    model.step(idx, cache)
    assert model.step(idx[:, :1], cache).device == META


def test_the_encoder_decoder_runs_on_the_device_of_its_weights():
    model = Transformer(20, 20, d_model=16, n_heads=2, d_ff=32).to(META)
    source = torch.zeros(2, 7, dtype=torch.long, device=META)
    target = torch.zeros(2, 5, dtype=torch.long, device=META)
    assert model(source, target).device == META


@pytest.mark.parametrize("causal", [False, True])
def test_tiled_and_flash_attention_and_their_gradients_stay_on_the_device(causal):
    Q, K, V = (torch.randn(2, 8, 4, device=META, requires_grad=True) for _ in range(3))
    out, logsumexp = tiled_attention.tiled_attention(Q, K, V, 4, 4, causal=causal)
    assert out.device == logsumexp.device == META
    out = tiled_attention.flash_attention(Q, K, V, causal, 4, 4)
    out.sum().backward()
    assert out.device == Q.grad.device == META
