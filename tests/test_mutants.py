"""Mutants of reference answers (autograder/mutation/mutants.py): each kind of typed mistake."""

from __future__ import annotations

import pytest

from autograder.mutation.mutants import NEVER_EQUIVALENT, defined_names, mutants
from autograder.mutation.variants import VariantAnswers


def answer(body: str, signature: str = "def f(Q, K, V, mask=None):") -> str:
    lines = "\n".join("    " + line for line in body.strip().splitlines())
    return f"{signature}\n    ### BEGIN SOLUTION\n{lines}\n    ### END SOLUTION\n"


ATTENTION = answer("""
scores = Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])
if mask is not None:
    scores = scores.masked_fill(~mask, float("-inf"))
weights = torch.softmax(scores, dim=-1)
return weights @ V, weights
""")
LAYER = answer(
    """
h = norm1(x + attention(x, mask=mask)[0])
return gamma * h + beta
""",
    "def f(x, memory, attention, norm1, gamma, beta, mask=None):",
)
TABLE = answer(
    """
table = torch.zeros(seq_len, d_model)
for pos in range(seq_len):
    for i in range(d_model // 2):
        angle = pos / 10000 ** (2 * i / d_model)
        table[pos, 2 * i] = math.sin(angle)
        table[pos, 2 * i + 1] = math.cos(angle)
return table
""",
    "def f(seq_len, d_model):",
)
SOFTMAX = answer(
    """
exps = torch.exp(z - z.max())
return exps / exps.sum()
""",
    "def f(z):",
)
MASK = answer("return torch.arange(n)[None, :] < lengths[:, None]", "def f(lengths, n):")
CAUSAL = answer("return torch.tril(torch.ones(n, n, dtype=torch.bool))", "def f(n):")
FEED_FORWARD = answer(
    "return torch.relu(F.linear(x, W1, b1)) @ W2.T + b2", "def f(x, W1, b1, W2, b2):"
)
CACHE = answer(
    """
k = torch.cat([past_k, k_new], dim=-2)
return torch.softmax(q @ k.transpose(-2, -1), dim=-1)
""",
    "def f(q, k_new, past_k):",
)
NORM = answer(
    "return ((x - x.mean(-1, keepdim=True)) / (x.var(-1, keepdim=True) + eps).sqrt()).relu()",
    "def f(x, eps):",
)
LOSS = answer("return F.cross_entropy(logits, targets).item()", "def f(logits, targets):")
DROPOUT = answer("return F.dropout(x, self.p, self.training)", "def forward(self, x):")
STEP = answer(
    """
optimizer.zero_grad()
loss = model(x).sum()
loss.backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
optimizer.step()
""",
    "def f(model, x, optimizer):",
)
WARMUP = answer(
    """
factor = 0.5 * (1 + math.cos(math.pi * step / max_iters))
if step <= warmup:
    factor *= step / warmup
return factor
""",
    "def f(step, warmup, max_iters):",
)
NOAM = answer(
    "return d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)",
    "def f(step, warmup, d_model):",
)
SUMS = answer(
    """
total = 0
for x in xs:
    total = total + x
return total
""",
    "def f(xs):",
)

VOCABULARY = answer(
    """
return [UNKNOWN] + sorted(set(text))
""",
    "def f(text):",
)
STACK = answer(
    """
maps = []
for block in blocks:
    x, weights = block(x)
    maps.append(weights)
return x, maps
""",
    "def f(x, blocks):",
)

CROSS = answer(
    """
q, k, v = F.linear(query, W_q), F.linear(key, W_k), F.linear(value, W_v)
return torch.softmax(q @ k.transpose(-2, -1), dim=-1) @ v
""",
    "def f(query, key, value, W_q, W_k, W_v):",
)
BUFFER = answer(
    """
self.w = nn.Parameter(torch.empty(n, n))
nn.init.xavier_uniform_(self.w)
self.register_buffer("table", make_table(n), persistent=False)
""",
    "def __init__(self, n):",
)
ENCODE = answer("return torch.tensor(ids, dtype=torch.long)", "def f(ids):")
BITS = answer("return F.cross_entropy(logits, targets) / math.log(2)", "def f(logits, targets):")
CACHED = answer(
    """
k, v = cache_k[..., :end, :], cache_v[..., :end, :]
visible = torch.ones(n, end, dtype=torch.bool).tril(length)
return (q @ k.transpose(-2, -1)).masked_fill(~visible, float("-inf")) @ v
""",
    "def f(q, cache_k, cache_v, n, end, length):",
)
HEADS = answer(
    """
weights = F.dropout(torch.softmax(scores, dim=-1), p, training)
output = out(weights @ v)
return output, weights
""",
    "def f(scores, v, out, p, training):",
)
PRE_NORM = answer("return x + attention(norm1(x))", "def f(x, attention, norm1):")
ROTARY = answer(
    """
angles = positions[:, None] * freqs
return x * angles.cos()
""",
    "def f(x, positions, freqs):",
)
EMBED = answer(
    """
x = tok(idx) + pos(t)
return x
""",
    "def f(idx, t, tok, pos):",
)
BACKWARD = answer("return dq, dk, dv, None", "def backward(ctx, dq, dk, dv):")
EVALUATE = answer(
    """
if evaluate is not None and (step + 1) % every == 0:
    scores.append(evaluate(model))
""",
    "def f(model, step, every, evaluate, scores):",
)
DRAW = answer("return torch.multinomial(p, 1)[:, 0]", "def f(p):")


def descriptions(source: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for m in mutants(source):
        found.setdefault(m.description, []).append(m.source)
    return found


# (source, description, text the mutant's code holds) for every class of mistake the
# mutants must cover.
CLASSES = [
    (ATTENTION, "uses `V` where `K` belongs", "Q @ V.transpose(-2, -1)"),
    (LAYER, "uses `memory` where `x` belongs", "norm1(memory + attention"),
    (
        ATTENTION,
        "leaves out the division by `math.sqrt(Q.shape[-1])`",
        "scores = Q @ K.transpose(-2, -1)\n",
    ),
    (ATTENTION, "divides by `Q.shape[-1]` instead of its square root", "/ Q.shape[-1]"),
    (
        ATTENTION,
        "takes `torch.softmax` over `dim=-2` (the second-to-last axis) instead of "
        "`dim=-1` (the last axis)",
        "dim=-2",
    ),
    (ATTENTION, "leaves out the transpose of `K`", "Q @ K /"),
    (ATTENTION, "transposes `V` before the product", "weights @ V.transpose(-2, -1)"),
    (SOFTMAX, "uses `min` where `max` belongs", "z.min()"),
    (TABLE, "uses `seq_len` − 1 instead of `seq_len`", "range(seq_len - 1)"),
    (
        MASK,
        "tests `torch.arange(n)[None, :] <= lengths[:, None]` instead of "
        "`torch.arange(n)[None, :] < lengths[:, None]`",
        "<=",
    ),
    (LAYER, "leaves out + `beta`", "return gamma * h\n"),
    (LAYER, "leaves out the factor `gamma`", "return h + beta"),
    (LAYER, "leaves out `x` +", "norm1(attention(x, mask=mask)[0])"),
    (
        LAYER,
        "adds `x` after `norm1` instead of before (the residual and the normalisation "
        "in the wrong order)",
        "norm1(attention(x, mask=mask)[0]) + x",
    ),
    (
        ATTENTION,
        "runs `weights = torch.softmax(scores, dim=-1)` before `if mask is not None:",
        "weights = torch.softmax(scores, dim=-1)\n    if mask",
    ),
    (ATTENTION, "ignores its `mask` argument (as if it were None)", "masked_fill(~None"),
    (LAYER, "calls `attention` without `mask=`", "attention(x)[0]"),
    (
        SOFTMAX,
        "changes its input `z` in place (`z.sub_(…)`) instead of making a new tensor",
        "z.sub_(z.max())",
    ),
    (TABLE, "uses `cos` where `sin` belongs", "table[pos, 2 * i] = math.cos(angle)"),
    (TABLE, "leaves out the factor `2`", "10000 ** (i / d_model)"),
    (
        ATTENTION,
        "returns `(weights, weights @ V)`: the results in the wrong order",
        "return (weights, weights @ V)",
    ),
    (
        ATTENTION,
        "uses `mask` instead of `~mask` (the mask's polarity inverted)",
        "masked_fill(mask,",
    ),
    (ATTENTION, "fills with 0 instead of −infinity", "float('0')"),
    (TABLE, "uses 2 instead of 1 in `2 * i + 1`", "2 * i + 2"),
    (CAUSAL, "keeps diagonal 1 in `torch.tril`", "dtype=torch.bool), 1)"),
    (CAUSAL, "uses `triu` where `tril` belongs", "torch.triu("),
    # the classes of round 2: sizes, function swaps, flags, integer division, brackets,
    # concatenation, layouts, a pair used as a tensor, a step only on the first call or item
    (ATTENTION, "uses `Q.shape[-2]` where `Q.shape[-1]` belongs", "math.sqrt(Q.shape[-2])"),
    (ATTENTION, "takes the argmax (hard attention) where `torch.softmax` belongs", "one_hot("),
    (ATTENTION, "uses `log_softmax` where `softmax` belongs", "torch.log_softmax("),
    # a swap that exists only elsewhere is made there: there is no `torch.gelu`
    (FEED_FORWARD, "uses `gelu` where `relu` belongs", "torch.nn.functional.gelu(F.linear("),
    (NORM, "uses `std` where `var` belongs", "x.std(-1, keepdim=True"),
    (
        LOSS,
        "leaves out `.item()` after `F.cross_entropy(logits, targets)`",
        "return F.cross_entropy(logits, targets)\n",
    ),
    (LOSS, "uses `nll_loss` where `cross_entropy` belongs", "F.nll_loss(logits, targets)"),
    (
        TABLE,
        "calls `torch.zeros` with `seq_len` and `d_model` exchanged",
        "torch.zeros(d_model, seq_len)",
    ),
    (WARMUP, "uses `step` + 1 instead of `step` in `step / warmup`", "(step + 1) / warmup"),
    (NORM, "uses `gelu` where `relu` belongs", "torch.nn.functional.gelu((x - "),
    (FEED_FORWARD, "uses `W1` as (in, out) in `F.linear`", "F.linear(x, W1.T, b1)"),
    (TABLE, "divides with `//` where `/` belongs (integer division)", "pos // 10000"),
    (
        TABLE,
        "computes `10000 ** (2 * i) / d_model` instead of `10000 ** (2 * i / d_model)` "
        "(brackets in the wrong place)",
        "10000 ** (2 * i) / d_model",
    ),
    (
        CACHE,
        "joins `[k_new, past_k]` in `torch.cat`: the parts in the wrong order",
        "torch.cat([k_new, past_k], dim=-2)",
    ),
    (CACHE, "takes `torch.cat` over `dim=-1` (the last axis) instead of `dim=-2`", "dim=-1)"),
    (
        LAYER,
        "uses the whole result of `attention(x, mask=mask)` where its first element `[0]` belongs",
        "norm1(x + attention(x, mask=mask))",
    ),
    (MASK, "leaves out the new axis in `lengths[:, None]`", "< lengths\n"),
    (
        DROPOUT,
        "uses True where `self.training` belongs (dropout left on in eval mode)",
        "F.dropout(x, self.p, True)",
    ),
    (STEP, "uses `clip_grad_value_` where `clip_grad_norm_` belongs", "clip_grad_value_("),
    (
        STEP,
        "applies `optimizer.zero_grad()` only on the first call",
        "if _mutant_calls['f:0'] == 1:\n        optimizer.zero_grad()",
    ),
    (
        ATTENTION,
        "applies `scores = scores.masked_fill(~mask, float('-inf'))` only to the "
        "first item of the batch",
        "_mutant_first_item(scores.masked_fill(",
    ),
    (
        SUMS,
        "applies `total = total + x` only to the loop's first item",
        "if _mutant_first:\n            total = total + x",
    ),
    (ATTENTION, "uses `K.T` where `K.transpose(-2, -1)` belongs", "Q @ K.T /"),
    (
        MASK,
        "puts the new axis on the other side: `torch.arange(n)[:, None]`",
        "torch.arange(n)[:, None] < lengths[:, None]",
    ),
    (ATTENTION, "exchanges `K` and `V` wherever it uses them", "Q @ V.transpose(-2, -1)"),
    (
        WARMUP,
        "sets `factor` to `step / warmup` instead of multiplying `factor` by it",
        "factor = step / warmup",
    ),
    # a root or fractional power written without brackets, as Python then reads it
    (
        ATTENTION,
        "writes `math.sqrt(Q.shape[-1])` as `Q.shape[-1] ** 1/2`",
        "K.transpose(-2, -1) / Q.shape[-1] ** 1 / 2\n",
    ),
    (
        NORM,
        "writes `(x.var(-1, keepdim=True) + eps).sqrt()` as `(x.var(-1, keepdim=True) + eps)"
        " ** 1/2`",
        "/ (x.var(-1, keepdim=True) + eps) ** 1 / 2).relu()",
    ),
    (NOAM, "writes `warmup ** (-1.5)` as `warmup ** -3/2`", "step * warmup ** (-3) / 2)"),
    # a loop over a stack run backwards or over its last item; a state made in the loop
    (STACK, "runs the loop over `blocks` in reverse order", "for block in list(blocks)[::-1]:"),
    (STACK, "runs the loop over only the last item of `blocks`", "for block in list(blocks)[-1:]:"),
    (
        STACK,
        "makes `maps = []` inside the loop, anew at every pass",
        "for block in blocks:\n        maps = []\n",
    ),
    (SUMS, "makes `total = 0` inside the loop", "for x in xs:\n        total = 0\n"),
    (
        VOCABULARY,
        "joins `sorted(set(text))` before `[UNKNOWN]`: the parts in the wrong order",
        "return sorted(set(text)) + [UNKNOWN]",
    ),
    # one argument read wherever the others of its role belong
    (
        CROSS,
        "uses `query` alone, wherever `key` and `value` belong",
        "F.linear(query, W_k), F.linear(query, W_v)",
    ),
    # a buffer stored as a parameter or a plain attribute; an init swapped, left out, flagged
    (
        BUFFER,
        "stores `table` as an `nn.Parameter`",
        "setattr(self, 'table', torch.nn.Parameter(make_table(n)))",
    ),
    (BUFFER, "stores `table` as a plain attribute", "setattr(self, 'table', make_table(n))"),
    (BUFFER, "uses `normal_` where `xavier_uniform_` belongs", "nn.init.normal_(self.w)"),
    (BUFFER, "passes `persistent=True` where `persistent=False` belongs", "persistent=True)"),
    # a dtype of another width; a Python number where a tensor belongs
    (
        ENCODE,
        "makes `torch.tensor`'s result `torch.int32` where `torch.long` belongs",
        "dtype=torch.int32",
    ),
    (
        BITS,
        "returns a Python number (`.item()`)",
        "(F.cross_entropy(logits, targets) / math.log(2)).item()",
    ),
    # an offset and slices left out
    (CACHED, "calls `tril` without its offset `length`", "dtype=torch.bool).tril()"),
    (
        CACHED,
        "uses all of `cache_k` and `cache_v` where `[..., :end, :]` of them belongs",
        "k, v = (cache_k, cache_v)",
    ),
    (
        DRAW,
        "keeps the axis that `torch.multinomial(p, 1)[:, 0]` takes away",
        "return torch.multinomial(p, 1)\n",
    ),
    # dropout moved to the output; reductions over the whole tensor
    (
        HEADS,
        "applies `F.dropout` to `output` instead of to `weights`",
        "output = F.dropout(out(weights @ v), p, training)",
    ),
    (NORM, "takes `mean` and `var` over the whole tensor at once", "x.mean()) / (x.var() + eps"),
    # a residual carrying the transformed input; one use of an intermediate without a term
    (PRE_NORM, "adds `norm1(x)` where `x` belongs", "return norm1(x) + attention(norm1(x))"),
    (
        SOFTMAX,
        "leaves out − `z.max()` from `exps` in the denominator of `exps / exps.sum()`",
        "return exps / torch.exp(z).sum()",
    ),
    # an indexed argument ignored; embeddings scaled by √d_model
    (ROTARY, "ignores the values of `positions`", "positions = torch.arange(len(positions))"),
    (
        EMBED,
        "multiplies `tok(idx)` by the square root of its width",
        "x = tok(idx) * tok(idx).shape[-1] ** 0.5 + pos(t)",
    ),
    # a returned tuple one short; a test left out, or one of its conditions
    (BACKWARD, "returns one value too few (leaves out `None` at the end)", "return (dq, dk, dv)"),
    (
        EVALUATE,
        "tests `(step + 1) % every == 0` without `evaluate is not None`",
        "if (step + 1) % every == 0:",
    ),
    (EVALUATE, "runs what `if evaluate is not None", "):\n    scores.append(evaluate(model))"),
]


@pytest.mark.parametrize("source, description, code", CLASSES, ids=[c[1][:40] for c in CLASSES])
def test_each_kind_of_mistake_has_a_described_mutant(source, description, code):
    found = {d: s for d, s in descriptions(source).items() if d.startswith(description)}
    assert found, f"no mutant described as {description!r}; got {list(descriptions(source))}"
    assert any(code in s + "\n" for sources in found.values() for s in sources), found


def test_every_step_but_a_return_may_be_left_out_the_last_one_too():
    found = descriptions(STEP)
    assert "optimizer.step()" not in found["leaves out the step `optimizer.step()`"][0]
    assert not any(d.startswith("leaves out the step `return") for d in descriptions(WARMUP))


def test_a_swapped_function_is_one_that_exists():
    import torch
    import torch.nn.functional as F

    x = torch.randn(3, 4)
    swaps = [
        m
        for source in (FEED_FORWARD, NORM)
        for m in mutants(source)
        if m.kind == "swaps a function"
    ]
    assert len(swaps) >= 5
    for mutant in swaps:
        space = {"torch": torch, "F": F}
        exec(mutant.source, space)  # noqa: S102 - the course's own answer, mutated
        arguments = (
            (x, 1e-5)
            if "eps" in mutant.source
            else (x, torch.randn(4, 4), torch.randn(4), torch.randn(4, 4), torch.randn(4))
        )
        assert space["f"](*arguments).shape == (3, 4), mutant.description


def test_only_the_solution_is_rewritten_and_every_mutant_compiles():
    source = "import math\nSCALE = 2\n" + SOFTMAX
    for mutant in mutants(source):
        assert mutant.source.startswith("import math\nSCALE = 2\n")
        compile(mutant.source, "<mutant>", "exec")
    assert len({m.source for m in mutants(source)}) == len(mutants(source))  # no duplicates


def test_an_argument_ignored_or_an_input_changed_in_place_is_never_equivalent():
    kinds = {m.kind for m in mutants(ATTENTION) + mutants(SOFTMAX)}
    assert NEVER_EQUIVALENT <= kinds


def test_variant_answers_are_working_functions_that_call_the_other_references():
    def cell(grade_id, text, **meta):
        return {
            "cell_type": "code",
            "source": text,
            "metadata": {"nbgrader": {"grade_id": grade_id, **meta}},
        }

    notebook = {
        "cells": [
            cell("setup", "import torch"),
            cell("ex1_softmax", SOFTMAX.replace("def f(", "def softmax("), solution=True),
            cell("ex1_tests", 'checks = Checks("Exercise 1 · softmax", points=1)', grade=True),
            cell("ex2_attend", answer("return softmax(z * 2)", "def attend(z):"), solution=True),
            cell("ex2_tests", 'checks = Checks("Exercise 2 · attend", points=1)', grade=True),
        ]
    }
    variants = VariantAnswers(notebook)
    import torch

    z = torch.tensor([1.0, 2.0, 3.0])
    found = dict(v for v in variants("Exercise 2 · attend") if isinstance(v, tuple))
    assert set(found) >= {"leaves out the factor `2`", "leaves out the call to `softmax`"}
    assert torch.allclose(found["leaves out the factor `2`"]["attend"](z), torch.softmax(z, 0))
    assert variants("Exercise 9 · unknown") == []
    assert defined_names(notebook["cells"][3]["source"]) == ["attend"]


def test_a_step_applied_only_on_the_first_call_really_is():
    import torch

    (mutant,) = [
        m
        for m in mutants(STEP)
        if m.description.startswith("applies `optimizer.step()` only on the first call")
    ]
    space = {"torch": torch}
    exec(mutant.source, space)  # noqa: S102 - the course's own answer, mutated
    model = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.ones(3, 2)
    first = model.weight.detach().clone()
    space["f"](model, x, optimizer)
    second = model.weight.detach().clone()
    space["f"](model, x, optimizer)
    assert not torch.equal(first, second) and torch.equal(second, model.weight.detach())


def test_only_a_state_the_loop_changes_moves_in_and_only_sequences_change_order():
    source = answer(
        """
scale = 2
total = 0
for i in range(3):
    total = total + scale * i
return total
""",
        "def f():",
    )
    found = list(descriptions(source))
    assert any(d.startswith("makes `total = 0` inside the loop") for d in found), found
    assert not any(d.startswith("makes `scale = 2`") for d in found)  # read, never changed
    assert not any("reverse order" in d or "last item" in d for d in found)  # range(3)


def test_a_variant_reads_how_far_an_answers_calls_side_with_it():
    from autograder.mutation.variants import Variant, answer_sources

    reference = "def f(x):\n    x = x.clamp(0)\n    return torch.exp(x).sum(-1)\n"
    left_out = Variant(
        "leaves out the clamp", {}, "def f(x):\n    return torch.exp(x).sum(-1)\n", reference
    )
    assert left_out.agreement("def f(x):\n    return x.exp().sum(dim=-1)\n") == 1  # no clamp
    assert left_out.agreement("def f(x):\n    return torch.clamp(x, 0).exp().sum(1)\n") == -1
    assert left_out.agreement("def f(x:\n") == 0  # not Python: read as nothing either way
    swapped = Variant(
        "sums first",
        {},
        "def f(x):\n    x = x.sum(-1)\n    return torch.exp(x.clamp(0))\n",
        reference,
    )
    assert swapped.agreement("def f(x):\n    return x\n") == 0  # the same calls: no side
    last_only = Variant(
        "the last only", {}, reference.replace("torch.exp(x)", "list(torch.exp(x))[-1]"), reference
    )
    assert last_only.agreement("def f(x):\n    return x\n") == 0  # `list` is the mutant's own
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "source": "def f(x):\n    return x\n",
                "metadata": {"nbgrader": {"grade_id": "ex1_f", "solution": True}},
            },
            {
                "cell_type": "code",
                "source": ["checks = Checks('Exercise 1 · f', points=1)\n"],
                "metadata": {"nbgrader": {"grade_id": "ex1_tests", "grade": True}},
            },
        ]
    }
    assert answer_sources(notebook) == {"Exercise 1 · f": "def f(x):\n    return x\n"}
