"""The shortcuts an exercise refuses: the library functions that would answer it for the
student (the helper package is the answer key of earlier exercises), and the built-ins its
text asks them not to use.

A test cell declares them, ``Checks("Exercise 3 · softmax", points=2, refuses=SOFTMAX)``;
while a check runs the student's code, each refused function raises ``ShortcutError``
("this exercise asks you to write it yourself: your answer calls torch.softmax"), which the
check reports as a failure. In the grader the same list travels with every call into the
kernel (``autograder/trusted/agent.py``), so grading refuses what the student's own checks
refuse. ``make release`` writes each exercise's list into its text
(``autograder/releases/sync_notebooks.py``).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types
from collections.abc import Iterable, Iterator, MutableMapping

SOFTMAX = (
    "torch.softmax",
    "torch.nn.functional.softmax",
    "torch.Tensor.softmax",
    "torch.special.softmax",
    "torch.nn.Softmax",
    "torch.log_softmax",
    "torch.nn.functional.log_softmax",
    "torch.Tensor.log_softmax",
    "torch.special.log_softmax",
    "torch.nn.LogSoftmax",
    "transformer_course.attention.softmax",
)
ATTENTION = (
    "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.MultiheadAttention",
    "transformer_course.attention.attention_weights",
    "transformer_course.attention.explicit_attention",
    "transformer_course.attention.scaled_dot_product_attention",
)
MULTIHEAD = (
    "torch.nn.MultiheadAttention",
    "torch.nn.functional.multi_head_attention_forward",
    "transformer_course.multihead.MultiHeadAttention",
    "transformer_course.multihead.HeadList",
)
LAYER_NORM = ("torch.nn.LayerNorm", "torch.nn.functional.layer_norm", "torch.layer_norm")
SINUSOIDS = (
    "transformer_course.positional.sinusoidal_table",
    "transformer_course.positional.PositionalEncoding",
)
# Notebook 08's AdamW by hand: PyTorch's optimisers, their functional forms and fused kernels,
# the multi-tensor operations that make their moments and update, and the package's answer.
ADAMW = (
    "torch.optim.AdamW",
    "torch.optim.Adam",
    "torch.optim.adamw.AdamW",
    "torch.optim.adam.Adam",
    "torch.optim.adamw.adamw",
    "torch.optim.adam.adam",
    "torch.optim._functional.adamw",
    "torch.optim._functional.adam",
    "torch._fused_adamw_",
    "torch._fused_adam_",
    *(f"torch._foreach_{op}{tail}" for op in ("lerp", "addcmul", "addcdiv") for tail in ("", "_")),
    "transformer_course.language_model.adamw_step",
    "transformer_course.language_model.AdamW",
)
# Notebook 09, the modern decoder.
RMS_NORM = (
    "torch.nn.RMSNorm",
    "torch.nn.functional.rms_norm",
    "torch.rms_norm",
    "transformer_course.modern.rms_norm",
    "transformer_course.modern.RMSNorm",
    *LAYER_NORM,
)  # a layer norm of [x, −x] is x's RMSNorm
ROTARY = (
    "transformer_course.modern.apply_rotary",
    "transformer_course.modern.rotary_angles",
    "transformer_course.modern.ModernBlock",
    "transformer_course.modern.ModernLM",
)
SWIGLU = (
    "transformer_course.modern.swiglu",
    "transformer_course.modern.SwiGLU",
    "transformer_course.modern.matched_hidden_size",
)
GQA = (
    *ATTENTION,
    "transformer_course.modern.grouped_query_attention",
    "transformer_course.modern.repeat_kv",
)
# The block's answer holds the package's RMSNorm and SwiGLU for their weights: calling them
# is what it may not do.
MODERN_BLOCK = (
    "transformer_course.modern.ModernBlock",
    "transformer_course.modern.ModernLM",
    "transformer_course.modern.RMSNorm.forward",
    "transformer_course.modern.SwiGLU.forward",
    "transformer_course.modern.rms_norm",
    "transformer_course.modern.apply_rotary",
    "transformer_course.modern.swiglu",
    "torch.nn.RMSNorm",
    "torch.nn.functional.rms_norm",
    *GQA,
)
# The package's byte-pair encoding, every step of it (its decoder, not the exercise, may stay).
BPE = tuple(
    f"transformer_course.bpe.{name}"
    for name in ("count_pairs", "merge_pair", "bpe_merges", "bpe_encode")
)
# Notebook 10: the package's tiled attention and its backward passes, and autograd, which
# would differentiate for the student.
TILED = tuple(
    f"transformer_course.tiled_attention.{name}"
    for name in (
        "online_softmax_step",
        "tiled_attention",
        "attention_backward",
        "flash_backward",
        "AttentionFunction",
        "FlashAttention",
        "flash_attention",
    )
)
# PyTorch's automatic differentiation, reverse and forward mode, and its graph's nodes, which a
# backward pass by hand must not call (found by a blind attacker: `out.grad_fn` walked node by
# node, `torch.func.jacfwd`, forward-mode dual numbers)
AUTOGRAD = (
    "torch.autograd.grad",
    "torch.autograd.backward",
    "torch.Tensor.backward",
    "torch.Tensor.grad_fn",
    "torch.autograd.functional.vjp",
    "torch.autograd.functional.jvp",
    "torch.autograd.functional.jacobian",
    "torch.autograd.functional.hessian",
    "torch.autograd.functional.vhp",
    "torch.autograd.functional.hvp",
    "torch.autograd.forward_ad.make_dual",
    "torch.autograd.forward_ad.unpack_dual",
    "torch.func.vjp",
    "torch.func.jvp",
    "torch.func.grad",
    "torch.func.grad_and_value",
    "torch.func.jacrev",
    "torch.func.jacfwd",
    "torch.func.hessian",
    "torch.func.linearize",
)

_active: list[tuple[str, ...]] = []  # the refusals of the check now running, innermost last


class ShortcutError(RuntimeError):
    """Raised by a refused function while a check runs the student's code."""


def active() -> tuple[str, ...]:
    """What the check now running refuses (the grader sends it along with each call)."""
    return _active[-1] if _active else ()


def short_name(name: str) -> str:
    """How the notebooks write it: ``F.softmax``, ``nn.LayerNorm``."""
    for long, short in (("torch.nn.functional.", "F."), ("torch.nn.", "nn.")):
        if name.startswith(long):
            return short + name[len(long) :]
    return name


def _owner(name: str):
    """The object holding ``name``'s last part: a module or a class."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            owner = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:-1]:
            owner = getattr(owner, part)
        return owner, parts[-1]
    raise ImportError(name)


def _homes(owner, attribute: str, original) -> list:
    """Where ``original`` is refused: ``owner``, and the course package's module that defines
    it where ``owner`` only re-exports it (``language_model.generate`` is
    ``sampling.generate``), so that the functions of that module that call it refuse it too,
    as they did when both lived in ``owner``."""
    homes = [owner]
    home = sys.modules.get(getattr(original, "__module__", None) or "")
    if (
        isinstance(owner, types.ModuleType)
        and owner.__name__.startswith("transformer_course.")
        and home is not None
        and home is not owner
        and home.__name__.startswith("transformer_course.")
        and getattr(home, attribute, None) is original
    ):
        homes.append(home)
    return homes


def _refusal(name: str):
    def refused(*args, **kwargs):
        raise ShortcutError(
            f"this exercise asks you to write it yourself: your answer calls {short_name(name)}"
        )

    refused.__name__ = name.rsplit(".", 1)[-1]
    return refused


@contextlib.contextmanager
def refused(names: Iterable[str], namespaces: Iterable[MutableMapping] = ()) -> Iterator[None]:
    """Inside, every function in ``names`` raises ``ShortcutError``, where it lives and
    wherever a namespace (a notebook's) holds it under another name; restored on the way out."""
    names = tuple(names)
    undo = []
    try:
        for name in names:
            try:
                owner, attribute = _owner(name)
                original = getattr(owner, attribute)
            except (ImportError, AttributeError):
                continue  # an older PyTorch without it: nothing to refuse
            replacement = _refusal(name)
            for home in _homes(owner, attribute, original):
                setattr(home, attribute, replacement)
                undo.append((home, attribute, original))
            for namespace in namespaces:
                for key, value in list(namespace.items()):
                    if value is original:
                        namespace[key] = replacement
                        undo.append((namespace, key, original))
        _active.append(names)
        yield
    finally:
        if _active and _active[-1] is names:
            _active.pop()
        for owner, key, original in reversed(undo):
            if isinstance(owner, MutableMapping):
                owner[key] = original
            else:
                setattr(owner, key, original)
