"""Run a function and report what it did: the FLOPs of its matrix products, the largest tensor
it made, the peak memory of the tensors it made, the bytes its operations read and wrote, and,
for a ``torch.autograd.Function``, its gradients and what it saved for them.

Notebook 10 measures attention with these, and its checks use them to look inside an answer
("no tensor holds T×S scores", "the causal loop skips the empty blocks"). They run where the
measured code runs: when grading, in the student's kernel, and what they report is checked in
the grader like any other answer.

Memory is measured by watching tensors, not computed from formulas: on CUDA with the caching
allocator's own counters, on the CPU (which has none that PyTorch exposes) by seeing every
tensor an operation makes (a ``TorchDispatchMode``) and when Python lets go of it. That
count leaves out the scratch memory a fused kernel allocates inside one operation;
``allocator_peak`` counts it too, from PyTorch's profiler, which sees every allocation its CPU
allocator makes.
"""

from __future__ import annotations

import contextlib
import os
import sys
import weakref

import torch

# A dispatch mode imports torch._dynamo when first used (a second or more): do it once, here,
# so that a process which forks (the mutation analysis) pays it once.
import torch._dynamo
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils.flop_counter import FlopCounterMode

__all__ = [
    "Allocations",
    "allocator_peak",
    "gradcheck_passes",
    "gradients",
    "op_counts",
    "peak_memory",
]


def _tensors(value) -> list[torch.Tensor]:
    """The tensors in ``value``, in lists, tuples and dicts at any depth."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, (list, tuple)):
        return []
    return [t for item in value for t in _tensors(item)]


def _storage(tensor: torch.Tensor) -> tuple[int, int]:
    storage = tensor.untyped_storage()
    return storage.data_ptr(), storage.nbytes()


class Allocations(TorchDispatchMode):
    """Inside ``with Allocations() as seen:``, every tensor storage an operation creates.

    ``seen.peak`` bytes of storage alive at once (made inside, counted until freed),
    ``seen.largest`` the most elements of any tensor made, ``seen.moved`` the bytes all the
    operations read and wrote (inputs plus outputs, each time), ``seen.operations`` their
    number, and ``seen.per_op`` {name: [count, bytes moved]}.
    """

    def __init__(self):
        super().__init__()
        self.users: dict[int, int] = {}  # storage address -> tensors seen using it
        self.sizes: dict[int, int] = {}
        # a weak reference per tensor seen, until it is freed (by id: references to the same
        # tensor compare equal by comparing the tensors)
        self.watching: dict[int, weakref.ref] = {}
        self.live = self.peak = self.largest = self.moved = self.operations = 0
        self.per_op: dict[str, list[int]] = {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        inputs, outputs = _tensors((args, kwargs)), _tensors(out)
        moved = sum(t.numel() * t.element_size() for t in inputs + outputs)
        self.moved += moved
        self.operations += 1
        entry = self.per_op.setdefault(func.overloadpacket.__name__, [0, 0])
        entry[0] += 1
        entry[1] += moved
        aliases = {_storage(t)[0] for t in inputs}
        for tensor in outputs:
            self._track(tensor, aliases)
        return out

    def _track(self, tensor: torch.Tensor, aliases: set[int]) -> None:
        address, nbytes = _storage(tensor)
        if address == 0:
            return  # an empty tensor owns no memory
        if address not in self.users:
            if address in aliases:
                return  # a view of, or written into, a tensor made before: nothing new
            self.users[address], self.sizes[address] = 0, nbytes
            self.live += nbytes
            self.peak = max(self.peak, self.live)
            self.largest = max(self.largest, tensor.numel())
        self.users[address] += 1
        ref = weakref.ref(tensor, lambda ref: self._release(ref, address))
        self.watching[id(ref)] = ref

    def _release(self, ref: weakref.ref, address: int) -> None:
        self.watching.pop(id(ref), None)
        self.users[address] -= 1
        if self.users[address] == 0:
            del self.users[address]
            self.live -= self.sizes.pop(address)


def op_counts(fn, *args, **kwargs) -> dict[str, int]:
    """Run ``fn(*args, **kwargs)`` once, as it runs anywhere else (gradient mode as it is: an
    answer must not find it measured by finding gradients off), and count: ``flops`` of its
    matrix products (PyTorch's FlopCounterMode), ``largest`` (elements of the largest tensor
    it made), ``peak`` (bytes of its tensors alive at once), ``moved`` (bytes its operations
    read and wrote) and ``operations``."""
    with FlopCounterMode(display=False) as flops, Allocations() as seen:
        result = fn(*args, **kwargs)
        del result  # what it returns counts while it is alive, then goes
    return {
        "flops": flops.get_total_flops(),
        "largest": seen.largest,
        "peak": seen.peak,
        "moved": seen.moved,
        "operations": seen.operations,
    }


def peak_memory(fn, *args, **kwargs) -> int:
    """Bytes of memory the call ``fn(*args, **kwargs)`` holds at its peak, beyond what was
    allocated before it, without gradients: CUDA's allocator counters for CUDA tensors,
    ``Allocations`` otherwise."""
    device = next((t.device for t in _tensors((args, kwargs))), torch.device("cpu"))
    with torch.no_grad():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
            torch.cuda.reset_peak_memory_stats(device)
            before = torch.cuda.memory_allocated(device)
            result = fn(*args, **kwargs)
            torch.cuda.synchronize(device)
            del result
            return torch.cuda.max_memory_allocated(device) - before
        with Allocations() as seen:
            result = fn(*args, **kwargs)
            del result
        return seen.peak


def allocator_peak(fn, *args, **kwargs) -> int | None:
    """Bytes the call ``fn(*args, **kwargs)`` holds at its peak beyond what was allocated
    before it, without gradients, as PyTorch's allocator counts them: every buffer, those a
    fused kernel allocates inside one operation included. On CUDA the allocator's counters
    (``peak_memory``); on the CPU the memory events of ``torch.profiler``, summed in the
    order they happened. None where this PyTorch's profiler does not report them."""
    device = next((t.device for t in _tensors((args, kwargs))), torch.device("cpu"))
    if device.type == "cuda":
        return peak_memory(fn, *args, **kwargs)
    from torch.profiler import ProfilerActivity, profile

    with (
        _native_stderr_to_null(),
        torch.no_grad(),
        profile(activities=[ProfilerActivity.CPU], profile_memory=True) as run,
    ):
        result = fn(*args, **kwargs)
        del result
    try:
        events = sorted(
            (e.start_ns(), e.nbytes())
            for e in run.profiler.kineto_results.events()
            if e.name() == "[memory]"
        )
    except AttributeError:  # another PyTorch: its profiler keeps them elsewhere
        return None
    held = peak = 0
    for _, change in events:
        held += change
        peak = max(peak, held)
    return peak


@contextlib.contextmanager
def _native_stderr_to_null():
    """The process's own stderr (file descriptor 2) sent to /dev/null: the profiler's library
    writes a log line there each time it starts and stops, which a notebook would show."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _leaves(inputs) -> list:
    """The inputs with every floating-point tensor a fresh leaf that requires a gradient."""
    return [
        x.detach().clone().requires_grad_()
        if isinstance(x, torch.Tensor) and x.is_floating_point()
        else x
        for x in inputs
    ]


def gradients(function, inputs, grad_output) -> dict:
    """``function.apply(*inputs)`` (a ``torch.autograd.Function``), then its backward pass
    from ``grad_output``: {"output", "grads" (one per floating-point tensor input), "saved"
    (the number of elements of each tensor it saved for the backward pass)}."""
    leaves = _leaves(inputs)
    saved: list[int] = []

    def pack(tensor):
        saved.append(tensor.numel())
        return tensor

    with torch.enable_grad(), torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        output = function.apply(*leaves)
    output.backward(grad_output)
    grads = tuple(x.grad for x in leaves if isinstance(x, torch.Tensor) and x.requires_grad)
    return {"output": output.detach(), "grads": grads, "saved": saved}


def gradcheck_passes(function, inputs) -> bool:
    """Whether ``torch.autograd.gradcheck`` accepts ``function.apply`` at ``inputs``, turned
    into float64: its backward pass against finite differences of its forward pass.

    In gradcheck's fast mode: it compares vᵀJu, for random vectors u and v of its own seeded
    generator, with the finite difference along u, instead of J entry by entry. A wrong J
    passes only where vᵀ(J - J')u = 0, which random vectors miss; and it runs the forward
    pass about twice per input instead of twice per input *element*: on the inputs of
    notebook 10's visible gradchecks, 8 calls instead of 76, each a round trip to the kernel
    when grading."""
    leaves = _leaves(x.double() if isinstance(x, torch.Tensor) else x for x in inputs)
    return bool(
        torch.autograd.gradcheck(
            function.apply, tuple(leaves), raise_exception=False, fast_mode=True
        )
    )
