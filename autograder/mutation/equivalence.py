"""Is a mutant that keeps full marks the same function written differently? It runs beside
the reference on many random inputs shaped like the ones the checks pass (tensors redrawn at
scales up to 10⁴, masks and integers redrawn): if the two never differ, it is *equivalent*,
listed but not counted; otherwise it survives, a hole in the checks (``analysis.py``).
"""

from __future__ import annotations

import math

import torch

from autograder.mutation.running import SECRET, quiet
from autograder.trusted.checker import Checker

SCALES = (1.0, 1.0, 3.0, 10.0, 100.0, 1e4)


def _clone(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v) for v in value)
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    return value


def _perturb(value, generator, scale: float, nudge_ints: bool):
    """Random inputs like ``value``: same types, shapes, dtypes and devices."""
    if isinstance(value, torch.Tensor):
        if value.dtype == torch.bool:
            return torch.rand(value.shape, generator=generator) < 0.7
        if value.is_floating_point():
            return (torch.randn(value.shape, generator=generator, dtype=value.dtype) * scale).to(
                value.device
            )
        if value.numel():
            low, high = int(value.min()), int(value.max())
            return torch.randint(low, high + 1, value.shape, generator=generator, dtype=value.dtype)
        return value.clone()
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and nudge_ints:
        return int(torch.randint(max(0, value // 2), 2 * value + 3, (), generator=generator))
    if isinstance(value, float) and nudge_ints:
        return value * float(torch.rand((), generator=generator) * 2)
    if isinstance(value, (list, tuple)):
        return type(value)(_perturb(v, generator, scale, nudge_ints) for v in value)
    if isinstance(value, dict):
        return {k: _perturb(v, generator, scale, nudge_ints) for k, v in value.items()}
    return value


def same(a, b, rtol: float = 1e-4) -> bool:
    """Equal results: tensors close (NaN equal to NaN), numbers close, containers alike."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or a.shape != b.shape:
            return False
        if a.dtype == torch.bool or b.dtype == torch.bool:
            return a.dtype == b.dtype and bool(torch.equal(a, b))
        return bool(
            torch.allclose(
                a.detach().cpu().double(),
                b.detach().cpu().double(),
                rtol=rtol,
                atol=1e-6,
                equal_nan=True,
            )
        )
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, rtol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], rtol) for k in a)
    return type(a) is type(b)


def _recorded_calls(namespace: dict, names: list[str], test: str) -> list[tuple]:
    """(name, constructor args or None, args, kwargs) for every call the checks make of the
    answer's ``names``."""
    calls: list[tuple] = []
    space = dict(namespace)
    for name in names:
        target = namespace[name]
        if isinstance(target, type):
            # instances remember how they were made; the base is the answer's own class,
            # known only at run time
            class Recorder(target):  # type: ignore[misc, valid-type]
                def __init__(self, *args, _target=target, _name=name, **kwargs):
                    self._made = (_clone(args), _clone(kwargs))
                    super().__init__(*args, **kwargs)

                def forward(self, *args, _name=name, **kwargs):
                    calls.append((_name, self._made, _clone(args), _clone(kwargs)))
                    return super().forward(*args, **kwargs)

            space[name] = Recorder
        else:

            def recorder(*args, _target=target, _name=name, **kwargs):
                calls.append((_name, None, _clone(args), _clone(kwargs)))
                return _target(*args, **kwargs)

            space[name] = recorder
    checker = Checker(None, SECRET)
    checker.namespace = space
    with quiet(), torch.no_grad():
        checker.run(test)
    return calls[:200]


def _outcome(function, made, args, kwargs):
    try:
        with quiet():
            if made is None:
                return "ok", function(*args, **kwargs)
            torch.manual_seed(0)
            module = function(*made[0], **made[1])
            return "ok", (module(*args, **kwargs), dict(module.state_dict()))
    except Exception as error:  # noqa: BLE001 - a raising answer is an answer
        return "raised", type(error).__name__


def equivalent(namespace: dict, names: list[str], test: str, source: str) -> bool:
    """Whether the mutant in ``source`` and the reference (defining ``names`` in
    ``namespace``) agree on random inputs like those of the checks in ``test``."""
    calls = _recorded_calls(namespace, names, test)
    space = dict(namespace)
    with quiet():
        exec(compile(source, "<mutant>", "exec"), space)  # noqa: S102
    generator = torch.Generator().manual_seed(0)
    compared = 0
    for name, made, args, kwargs in calls:
        for trial, scale in enumerate(SCALES):
            nudge = trial % 2 == 1
            new_args = _perturb(args, generator, scale, nudge)
            new_kwargs = _perturb(kwargs, generator, scale, nudge)
            status, expected = _outcome(namespace[name], made, _clone(new_args), _clone(new_kwargs))
            if status != "ok":
                continue  # inputs the exercise does not define
            status, got = _outcome(space[name], made, _clone(new_args), _clone(new_kwargs))
            # Large inputs are there to reveal overflow (inf, NaN), not rounding: two ways
            # of writing the same formula round differently when the numbers are huge.
            if status != "ok" or not same(got, expected, rtol=1e-4 * scale):
                return False
            compared += 1
    return compared > 0
