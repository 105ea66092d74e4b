"""PyTorch's and Python's errors, translated to their usual cause.

"mat1 and mat2 shapes cannot be multiplied (4x8 and 4x8)" says what PyTorch could not do;
a student needs to know why their code asked for it: "one side of a matrix product needs a
transpose, or a weight is used as (in, out) where PyTorch stores (out, in)". ``explain``
matches the common errors raised inside student code and says their usual cause, with the
sizes in the message traced back to the check's inputs ("8 is `Q.shape[-1]`"). The line of
the student's own code that raised is found by ``raising_line.py``.

It needs nothing but the error, so it runs wherever a check runs: in the student's kernel,
and in grading, where the kernel reports the error with its line
(``autograder/trusted/agent.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

__all__ = ["explain"]

Sizes = dict[int, str]


def _sizes(numbers, sizes: Sizes) -> str:
    """ ", where 8 is `Q.shape[-1]` and 5 is `K.shape[-2]`" for the numbers that the check's
    inputs explain; empty when none does."""
    known = [f"{n} is {sizes[n]}" for n in dict.fromkeys(int(x) for x in numbers) if n in sizes]
    return f" ({', '.join(known)})" if known else ""


def _matmul(m, sizes):
    a, b, c, d = (int(x) for x in m.groups())
    text = (
        f"a matrix product of a ({a}, {b}) by a ({c}, {d}): the first one's columns ({b}) "
        f"must match the second one's rows ({c}){_sizes((b, c), sizes)}."
    )
    if b == d and a != c:
        return text + (
            " The second looks transposed: PyTorch stores a weight as (out, in), "
            "so a layer computes `x @ W.T` (or `F.linear(x, W)`)."
        )
    if a == d or b == d:
        return text + (
            " One side needs a transpose (`K.T`, `.transpose(-2, -1)`), or the "
            "operands are in the wrong order."
        )
    return text + " Were the tensors built from the sizes the exercise gives?"


def _batched_matmul(m, sizes):
    expected, got = m.group(1), m.group(2)
    numbers = re.findall(r"\d+", expected + got)
    return (
        f"a batched matrix product whose second operand should start {expected} but "
        f"starts {got}{_sizes(numbers, sizes)}: one side needs "
        "a transpose of its last two axes, or the heads and tokens axes are in the wrong "
        "order."
    )


def _broadcast(m, sizes):
    a, b, dim = (int(x) for x in m.groups())
    return (
        f"two tensors combined entry by entry (`+`, `*`, `masked_fill`, `where`) have "
        f"sizes {a} and {b} along one axis (dimension {dim} of the result)"
        f"{_sizes((a, b), sizes)}: a mask or a bias shaped for another layout, an axis "
        "missing its `[:, None]` or `keepdim=True`, or a table sliced to the wrong length?"
    )


def _reshape(m, sizes):
    wanted = [int(x) for x in m.group(1).split(",") if x.strip()]
    count = int(m.group(2))
    product = math.prod(x for x in wanted if x != -1)
    return (
        f"a reshape (or view) to {wanted} of a tensor with {count} entries: the sizes "
        f"multiply to {'a multiple of ' if -1 in wanted else ''}{product}, not {count}"
        f"{_sizes(wanted, sizes)}. A size taken from the wrong axis, or the number of "
        "heads and a head's width mixed up?"
    )


def _out_of_range(m, sizes):
    low, high, got = (int(x) for x in m.groups())
    return (
        f"an axis the tensor does not have: it has {high + 1} ax{'i' if high == 0 else 'e'}s "
        f"(dims {low} … {high}) and dim {got} was asked for. The tensor has fewer axes "
        "than the code expects: no batch axis here, or one removed earlier (a squeeze, a "
        "reduction without `keepdim=True`)?"
    )


def _tuple(m, sizes):
    return (
        "a tuple used as a tensor: something returned a pair, such as (output, "
        "weights) from an attention function or `nn.MultiheadAttention`; take the part you "
        "need (`out, _ = ...` or `[0]`)."
    )


def _cat(m, sizes):
    dim, expected, got = m.group(1), m.group(2), m.group(3)
    return (
        f"`torch.cat` along dim {dim} joins tensors that must agree on every other axis, "
        f"and one has size {got} where {expected} belongs"
        f"{_sizes((expected, got), sizes)}: concatenated along the wrong axis?"
    )


def _state_dict(m, sizes):
    missing = re.findall(r'"([^"]+)"', m.group(2) or "")
    unexpected = re.findall(r'"([^"]+)"', m.group(3) or "")
    parts = []
    if missing:
        parts.append(
            f"the checks look for {', '.join(missing[:6])}{' …' if len(missing) > 6 else ''}"
        )
    if unexpected:
        parts.append(
            f"your {m.group(1)} has {', '.join(unexpected[:6])}"
            f"{' …' if len(unexpected) > 6 else ''} instead"
        )
    return (
        "the module's parameters are not named (or shaped) as the exercise asks: "
        + "; ".join(parts or ["their shapes differ"])
        + ". Use the attribute names the exercise gives (the checks load weights by name)."
    )


def _size_mismatch(m, sizes):
    return (
        f"the parameter `{m.group(1)}` has shape [{m.group(3)}] where the checks load "
        f"[{m.group(2)}]: build it with the shape the exercise gives (PyTorch stores a "
        "linear layer's weight as (out, in))."
    )


def _missing_argument(m, sizes):
    return (
        f"`{m.group(1)}` was called with arguments it does not take, or without one it "
        "needs: keep the signature the exercise gives, the checks call it that way."
    )


def _gradients(m, sizes):
    expected, got = int(m.group(2)), int(m.group(3))
    how = (
        "one value too few"
        if got == expected - 1
        else "one value too many"
        if got == expected + 1
        else f"{got} values"
    )
    return (
        f"`{m.group(1)}.backward` returned {how}: it returns one value per argument of "
        f"`forward` after `ctx` ({expected} here), a gradient for each tensor and `None` "
        "for each other argument (a flag such as `causal`, a block size)."
    )


# (pattern, cause): the first pattern that matches the error's "Type: message" wins.
CAUSES: list[tuple[str, Callable[[re.Match, Sizes], str] | str]] = [
    (r"mat1 and mat2 shapes cannot be multiplied \((\d+)x(\d+) and (\d+)x(\d+)\)", _matmul),
    (
        r"Expected size for first two dimensions of batch2 tensor to be: (\[[^\]]*\]) but got: "
        r"(\[[^\]]*\])",
        _batched_matmul,
    ),
    (
        r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) at "
        r"non-singleton dimension (\d+)",
        _broadcast,
    ),
    (r"shape '\[([-\d, ]*)\]' is invalid for input of size (\d+)", _reshape),
    (
        r"view size is not compatible with input tensor's size and stride",
        "`.view` of a tensor that a transpose or permute left non-contiguous: use `.reshape` "
        "(or `.contiguous().view`).",
    ),
    (
        r"Dimension out of range \(expected to be in range of \[(-?\d+), (-?\d+)\], but got "
        r"(-?\d+)\)",
        _out_of_range,
    ),
    (
        r"probability tensor contains either `?inf`?, `?nan`? or element < 0|invalid multinomial "
        r"distribution",
        "`torch.multinomial` was given a distribution with NaN, inf or a negative entry: logits "
        "divided by a temperature of 0, raw logits where probabilities belong (softmax left "
        "out), or every entry of a row masked to −inf?",
    ),
    (
        r"for [^:]*: '(Tensor|tuple)' and '(tuple|Tensor)'|'tuple' object has no attribute|"
        r"expected Tensor as element \d+ in argument \d+, but got tuple|"
        r"argument '\w+' \(position \d+\) must be Tensor, not tuple",
        _tuple,
    ),
    (
        r"Sizes of tensors must match except in dimension (-?\d+)\. Expected size (\d+) but got "
        r"size (\d+)",
        _cat,
    ),
    (
        r"Tensors must have same number of dimensions",
        "`torch.cat` of tensors with different numbers of axes: one needs `[:, None]` (or "
        "`torch.stack`, which adds the axis)?",
    ),
    (
        r"stack expects each tensor to be equal size",
        "`torch.stack` of tensors with different shapes: was `torch.cat` meant, or is one of "
        "them built from the wrong sizes?",
    ),
    (
        r"masked_fill_? only supports boolean masks",
        "a mask that is not boolean: `masked_fill` needs True/False (a comparison such as `<` "
        "gives one; `.bool()` converts).",
    ),
    (
        r"not implemented for '(Long|Int|Bool|Short|Byte)'|could not infer output dtype.*Got: "
        r"(Long|Int|Bool)",
        "an integer (or boolean) tensor reached a function that needs floating point: "
        "`torch.arange(n)` and `torch.tensor([1, 2])` hold integers; give `dtype=torch.float32` "
        "or call `.float()` first.",
    ),
    (
        r"index (-?\d+) is out of bounds for dimension (\d+) with size (\d+)",
        "an index past the end of an axis (indices run 0 … size − 1): a range, a slice or a "
        "position off by one?",
    ),
    (
        r"index out of range in self",
        "an embedding looked up with an index beyond its table: token ids outside the "
        "vocabulary, or positions beyond max_len?",
    ),
    (
        r"Boolean value of Tensor with more than one value is ambiguous",
        "`if`, `and`, `or` or `not` applied to a tensor of several values: use `&`, `|`, `~` "
        "entry by entry, or `.all()` / `.any()`.",
    ),
    (
        r"Expected target size|Expected input batch_size \((\d+)\) to match target batch_size|"
        r"0D or 1D target tensor expected",
        "`F.cross_entropy` wants logits of shape (N, V) and targets of shape (N,): flatten "
        "(B, T, V) logits to (B·T, V) and (B, T) targets to (B·T,).",
    ),
    (
        r"size mismatch for ([\w.]+): copying a param with shape torch.Size\(\[([^\]]*)\]\) "
        r"from checkpoint, the shape in current model is torch.Size\(\[([^\]]*)\]\)",
        _size_mismatch,
    ),
    (
        r"Error\(s\) in loading state_dict for (\w+):(?:\s*Missing key\(s\) in state_dict: "
        r"([^\n]*?)\.\s*)?(?:\s*Unexpected key\(s\) in state_dict: ([^\n]*?)\.\s*)?$",
        _state_dict,
    ),
    (
        r"The expanded size of the tensor \((\d+)\) must match the existing size \((\d+)\)",
        "`expand` can only repeat axes of size 1: the tensor has a real axis where the new "
        "size goes (expand from `[:, None]`, or use `repeat`).",
    ),
    (
        r"too many indices for tensor of dimension (\d+)",
        "an index with more axes than the tensor has: it has fewer axes than the code "
        "expects (no batch axis here?).",
    ),
    (
        r"result type \w+ can't be cast to the desired output type",
        "an in-place operation that would put fractions into an integer tensor (from "
        "`torch.arange` or `torch.tensor([...])` of integers): make it floating point first.",
    ),
    (
        r"a leaf Variable that requires grad is being used in an in-place operation",
        "a parameter changed in place outside `torch.no_grad()`.",
    ),
    (
        r"does not require grad and does not have a grad_fn",
        "`backward()` on a value cut off from the computation: `.item()`, `.detach()`, "
        "`torch.no_grad()` or a new tensor made from numbers in between?",
    ),
    (
        r"backward through the graph a second time",
        "`backward()` twice through the same forward pass: compute the loss afresh each step.",
    ),
    (
        r"modified by an inplace operation",
        "a tensor the backward pass still needs was changed in place (`+=`, `masked_fill_`, "
        "`x[...] = ...`): compute a new tensor instead.",
    ),
    (
        r"expected m1 and m2 to have the same dtype|expected scalar type (Float|Double) but "
        r"found (Float|Double)|Float.*Double|Double.*Float|same dtype",
        "float32 and float64 tensors were mixed: work in the dtype of the inputs; a tensor or "
        "a layer you create is float32 unless you give it their dtype.",
    ),
    (
        r"Expected all tensors to be on the same device",
        "tensors on different devices: create new tensors with `device=x.device`.",
    ),
    (
        r"only integer tensors of a single element can be converted to an index|"
        r"'float' object cannot be interpreted as an integer|slice indices must be integers|"
        r"tensors used as indices must be long",
        "a float (or a tensor) where Python needs a whole number, in a `range`, a slice or an "
        "index: `/` always gives a float, `//` an int (`d_model // 2`).",
    ),
    (
        r"division by zero|raised to a negative power",
        "a division by zero: LambdaLR's first step is step 0, so a formula that divides by the "
        "step, or raises it to a negative power, needs the step counted from 1.",
    ),
    (
        r"bool.*float|float.*bool",
        "a boolean mask arrived where numbers were expected: pass it by keyword, mask=mask.",
    ),
    (
        r"cannot assign module before Module.__init__\(\) call|cannot assign parameters before "
        r"Module.__init__\(\) call",
        "`super().__init__()` must come first in `__init__`, before any layer is assigned.",
    ),
    (
        r"'(Tensor|int|float|NoneType|tuple|list)' object is not callable",
        "a name that should be a function holds a value: a variable shadows the function "
        "(`softmax = softmax(x)`, `score = ...`).",
    ),
    (
        r"'NoneType' object (is not subscriptable|has no attribute)",
        "a value is None: does a function forget to `return` its result?",
    ),
    (
        r"(\w+)\(\) (missing \d+ required|got an unexpected keyword|takes \d+ positional)",
        _missing_argument,
    ),
    (
        r"function (\w+?)(?:Backward)? returned an incorrect number of gradients \(expected "
        r"(\d+), got (\d+)\)",
        _gradients,
    ),
    (
        r"(too many|not enough) values to unpack",
        "a result unpacked into the wrong number of names: a pair such as (output, weights) "
        "has two, and a tensor unpacks along its first axis.",
    ),
    (
        r"selected index k out of range|k \(\d+\) is too big",
        "`topk` asked for more entries than the axis holds.",
    ),
    (
        r"name '(\w+)' is not defined",
        "the code uses a name that is not defined where it runs: a variable from another cell, "
        "a typo, or a cell that was never run?",
    ),
]
_COMPILED = [(re.compile(pattern, re.S), cause) for pattern, cause in CAUSES]


def explain(kind: str, message: str, sizes: Sizes | None = None) -> str:
    """The usual cause of an error ``kind: message`` raised by student code, or empty."""
    text = f"{kind}: {message}"
    for pattern, cause in _COMPILED:
        match = pattern.search(text)
        if match:
            return cause if isinstance(cause, str) else cause(match, sizes or {})
    return ""
