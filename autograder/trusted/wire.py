"""Plain data across the wall between a student's kernel and the trusted checker.

Values travel as JSON. Tensors go by value: dtype, shape and the raw bytes in base64, never
pickle, so decoding a reply can only ever produce plain data. Tags:

    {"$tensor": [dtype, shape, base64]}   {"$tuple": [...]}   {"$list": [...]}
    {"$dict": [[key, value], ...]}        {"$float": "nan" | "inf" | "-inf"}
    {"$dtype": "float32"}                 {"$device": "cpu"}
    {"$handle": [id, kind]}   a student object that stays in the kernel (function, class,
                              module); the checker may call it or read its attributes
    {"$ref": id}              that object again, passed back as an argument
    {"$object": base64}       checker -> kernel only: a pickled trusted object (a reference
                              module, a schedule); the kernel may unpickle what the grader
                              sends, the grader never unpickles what the kernel sends

``decode`` (the checker's side) accepts only the tags above minus ``$object``/``$ref``,
checks every tensor's size against its shape and dtype, and bounds depth and size: whatever
else a kernel sends is a ``WireError``, which the checks report as a wrong answer.
"""

from __future__ import annotations

import base64
import math

import numpy as np
import torch

# Tensor dtypes that cross; bfloat16 has no NumPy twin and travels as float32.
DTYPES = {
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float32": torch.float32,
    "float64": torch.float64,
    "complex64": torch.complex64,
    "complex128": torch.complex128,
    "int8": torch.int8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "uint8": torch.uint8,
    "bool": torch.bool,
}
NAMES = {dtype: name for name, dtype in DTYPES.items()}
MAX_DEPTH = 32
MAX_ITEMS = 100_000  # list items, dict entries and tensors in one value
MAX_BYTES = 32 << 20  # tensor bytes in one value (the checks' largest are a few MB)


class WireError(ValueError):
    """A reply that is not plain data of the allowed kinds."""


# --- encoding (both sides) ---------------------------------------------------------------


def encode_tensor(tensor: torch.Tensor) -> dict:
    plain = tensor.detach().to("cpu")
    name = NAMES.get(plain.dtype)
    if name is None:
        raise TypeError(f"tensors of dtype {plain.dtype} do not cross")
    if plain.dtype == torch.bfloat16:
        plain = plain.float()
    data = plain.contiguous().numpy().tobytes()
    return {"$tensor": [name, list(plain.shape), base64.b64encode(data).decode()]}


def encode(value, other):
    """``value`` as JSON-ready data; ``other(value)`` encodes whatever is not plain data
    (the kernel: a handle; the checker: a reference or a pickled object)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else {"$float": repr(float(value))}
    if isinstance(value, torch.Tensor):
        return encode_tensor(value)
    if isinstance(value, torch.dtype):
        return {"$dtype": NAMES.get(value, str(value))}
    if isinstance(value, torch.device):
        return {"$device": str(value)}
    if isinstance(value, (tuple, torch.Size)):
        return {"$tuple": [encode(v, other) for v in value]}
    if isinstance(value, list):
        return {"$list": [encode(v, other) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"$dict": [[k, encode(v, other)] for k, v in value.items()]}
    if isinstance(value, (np.ndarray, np.generic)):
        return encode(torch.as_tensor(np.asarray(value)), other)
    return other(value)


# --- decoding (the checker's side) -------------------------------------------------------


class _Budget:
    def __init__(self):
        self.items = 0
        self.bytes = 0

    def spend(self, items: int = 1, size: int = 0) -> None:
        self.items += items
        self.bytes += size
        if self.items > MAX_ITEMS or self.bytes > MAX_BYTES:
            raise WireError("the answer is too large to check")


def decode(data, handle, budget: _Budget | None = None, depth: int = 0):
    """Plain data from JSON sent by a kernel; ``handle(id, kind)`` makes a handle's proxy."""
    budget = budget or _Budget()
    if depth > MAX_DEPTH:
        raise WireError("the answer is nested too deeply")
    budget.spend()
    if data is None or isinstance(data, (bool, str)):
        return data
    if isinstance(data, int):
        return int(data)
    if isinstance(data, float):
        return float(data)
    if not (isinstance(data, dict) and len(data) == 1):
        raise WireError(f"not plain data: {type(data).__name__}")
    ((tag, body),) = data.items()
    if tag == "$tensor":
        return _decode_tensor(body, budget)
    if tag in ("$tuple", "$list") and isinstance(body, list):
        items = [decode(v, handle, budget, depth + 1) for v in body]
        return tuple(items) if tag == "$tuple" else items
    if tag == "$dict" and isinstance(body, list):
        pairs = {}
        for pair in body:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise WireError("a malformed dictionary")
            pairs[pair[0]] = decode(pair[1], handle, budget, depth + 1)
        return pairs
    if tag == "$float" and body in ("nan", "inf", "-inf"):
        return float(body)
    if tag == "$dtype" and body in DTYPES:
        return DTYPES[body]
    if tag == "$device" and isinstance(body, str) and len(body) < 32:
        return torch.device(body)
    if (
        tag == "$handle"
        and isinstance(body, list)
        and len(body) == 2
        and isinstance(body[0], int)
        and isinstance(body[1], str)
    ):
        return handle(body[0], body[1][:200])
    raise WireError(f"not plain data: {tag}")


def _decode_tensor(body, budget: _Budget) -> torch.Tensor:
    if not (isinstance(body, list) and len(body) == 3):
        raise WireError("a malformed tensor")
    name, shape, payload = body
    if (
        name not in DTYPES
        or not isinstance(payload, str)
        or not isinstance(shape, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s for s in shape)
        or len(shape) > 16
    ):
        raise WireError("a malformed tensor")
    dtype = torch.float32 if name == "bfloat16" else DTYPES[name]
    itemsize = torch.empty(0, dtype=dtype).element_size()
    size = math.prod(shape) * itemsize
    budget.spend(size=size)
    try:
        raw = base64.b64decode(payload, validate=True)
    except ValueError:
        raise WireError("a malformed tensor") from None
    if len(raw) != size:
        raise WireError("a tensor whose data does not fit its shape")
    numpy_dtype = torch.empty(0, dtype=dtype).numpy().dtype
    tensor = torch.from_numpy(np.frombuffer(raw, dtype=numpy_dtype).copy()).reshape(shape)
    return tensor.to(DTYPES[name])


def argument_tensors(args, kwargs: dict):
    """(path, tensor) for the tensors among a call's arguments, one container deep, with the
    paths both ends name them by: ``["arg", 4]``, ``["kwarg", "cache", 0]``."""
    for kind, items in (("arg", enumerate(args)), ("kwarg", kwargs.items())):
        for key, value in items:
            if isinstance(value, torch.Tensor):
                yield [kind, key], value
            inner = (
                value.items()
                if isinstance(value, dict)
                else enumerate(value)
                if isinstance(value, (list, tuple))
                else ()
            )
            for sub, item in inner:
                if isinstance(item, torch.Tensor):
                    yield [kind, key, sub], item
