"""The kernel's end of the checker's channel: runs one request, answers with plain data.

During grading the trusted checker (``autograder/trusted/checker.py``) never runs test code in the
student's kernel. It asks the kernel, through ``handle(request)`` evaluated as a Jupyter user
expression, to look up a name, call a function or class, or read an attribute, and gets back
JSON (``autograder/trusted/wire.py``). Nothing here is trusted: a notebook may replace this module,
and then its answers are as wrong as any other; the checker validates every reply as data.

Student code runs with its output, warnings and stderr captured and sent back, so that the
checker can show them to the student as the in-kernel checks would.
"""

from __future__ import annotations

import base64
import contextlib
import io
import itertools
import json
import pickle
import types
import warnings
from typing import Any

import torch

from autograder.trusted import wire
from course_checks import raising_line, seeding, shortcuts
from course_checks.inputs import unchanged

_handles: dict[int, object] = {}
MAX_ITERATED = 10_000  # items read from an iterator a student function returns


def _namespace() -> dict:
    from IPython import get_ipython

    return get_ipython().user_ns


def _as_handle(value) -> dict:
    _handles[id(value)] = value
    kind = "class" if isinstance(value, type) else type(value).__name__
    return {"$handle": [id(value), kind]}


def _out(value):
    if isinstance(value, (types.GeneratorType, map, filter, zip, enumerate, reversed)):
        value = list(itertools.islice(value, MAX_ITERATED))
    return wire.encode(value, _as_handle)


def _in(data):
    """Arguments from the checker: plain data, references to handles, pickled objects."""
    if isinstance(data, dict) and len(data) == 1:
        ((tag, body),) = data.items()
        if tag == "$ref":
            return _handles[body]
        if tag == "$object":
            return pickle.loads(base64.b64decode(body))
        if tag == "$leaf":  # a tensor the checker asks gradients for (autograder/trusted/across.py)
            value = _in(body)
            if isinstance(value, torch.Tensor) and value.is_floating_point():
                return value.detach().requires_grad_()
            return value
        if tag in ("$tuple", "$list"):
            items = [_in(v) for v in body]
            return tuple(items) if tag == "$tuple" else items
        if tag == "$dict":
            return {k: _in(v) for k, v in body}
    return wire.decode(data, lambda *_: None)


def _changed(before: list, after: list) -> list:
    """The path of every argument the call modified in place."""
    return [
        path
        for (path, tensor), copy in zip(after, before, strict=True)
        if not unchanged(tensor, copy)
    ]


def _probe(sent: dict):
    """A course probe from the source the checker sent, in a module of its own: whatever this
    process holds under the probe module's name is not asked."""
    module = types.ModuleType("course_probe")
    exec(compile(sent["source"], "<course probe>", "exec"), module.__dict__)  # noqa: S102
    return getattr(module, sent["name"])


def _run(request: dict, reply: dict):
    op = request["op"]
    if op == "lookup":
        namespace = _namespace()
        if request["name"] not in namespace:
            raise NameError(f"name {request['name']!r} is not defined")
        return namespace[request["name"]]
    # "apply": a course probe sent by the checker as its module's source, run here on the
    # student's objects (course_checks/beside.py)
    target: Any = _probe(request["probe"]) if op == "apply" else _handles[request["ref"]]
    if op in ("call", "apply"):
        args = [_in(a) for a in request["args"]]
        kwargs = {k: _in(v) for k, v in request["kwargs"].items()}
        inputs = list(wire.argument_tensors(args, kwargs))
        copies = [tensor.detach().clone() for _, tensor in inputs]
        # a seed sent with the call: PyTorch's random state fixed for it, then put back
        seed = request.get("seed")
        seeded = seeding.seeded(seed) if type(seed) is int else contextlib.nullcontext()
        # a value the checker keeps is an output whose backward pass it will call: recorded
        graph = torch.enable_grad() if request.get("keep") is True else contextlib.nullcontext()
        try:
            with shortcuts.refused(request.get("refuses", []), [_namespace()]), seeded, graph:
                return target(*args, **kwargs)
        finally:  # inputs changed in place go back, so the checks can see it; those the
            # test marked as filled by the answer travel back as data instead
            fills = [p for p in request.get("fills", []) if isinstance(p, str)]
            changed = _changed(copies, inputs)
            reply["filled"] = {
                json.dumps(path): _out(tensor)
                for path, tensor in inputs
                if json.dumps(path) in fills
            }
            reply["changed"] = [path for path in changed if json.dumps(path) not in fills]
    if op == "getattr":
        return getattr(target, request["name"])
    if op == "len":
        return len(target)
    if op == "getitem":
        return target[_in(request["key"])]
    if op == "iter":
        return list(itertools.islice(iter(target), MAX_ITERATED))
    raise ValueError(f"unknown request {op!r}")


def handle(request: str) -> str:
    """Run one base64-encoded JSON request; the reply as a JSON string."""
    message: dict = json.loads(base64.b64decode(request))
    stdout, stderr = io.StringIO(), io.StringIO()
    reply: dict = {}
    with (
        warnings.catch_warnings(record=True) as caught,
        contextlib.redirect_stdout(stdout),
        contextlib.redirect_stderr(stderr),
    ):
        warnings.simplefilter("always")
        try:
            value = _run(message, reply)
            # A name the checks read is an answer to call, never data to trust: a handle. A
            # value the checker keeps (an output whose backward pass it will call) comes back
            # both ways.
            if message["op"] == "lookup":
                reply["value"] = _as_handle(value)
            elif message.get("keep") is True:
                reply["value"] = {"$tuple": [_as_handle(value), _out(value)]}
            else:
                reply["value"] = _out(value)
        except BaseException as error:  # noqa: BLE001 - every failure is the student's answer
            if isinstance(error, KeyboardInterrupt):
                error = TimeoutError("interrupted: it ran out of time")
            # The line of the student's code that raised: the checks show it with the error.
            line = raising_line.student_line(error)
            reply["error"] = [type(error).__name__, str(error)[:2000], line]
    reply["stdout"] = stdout.getvalue()[-20_000:]
    reply["stderr"] = stderr.getvalue()[-20_000:]
    reply["warnings"] = [[w.category.__name__, str(w.message)[:500]] for w in caught[:20]]
    return json.dumps(reply)
