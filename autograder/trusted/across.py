"""A student's ``torch.autograd.Function`` as a Function of the checker's own: its ``forward``
and ``backward`` run in the kernel, called over the wire like any answer, while the autograd
engine that chains them, ``torch.autograd.gradcheck`` and the count of what it saved run here.

Notebook 10's checks ask what gradients a student's Function gives (``gradients``) and whether
``gradcheck`` accepts it (``gradcheck_passes``). Run in the kernel, these probes would report
what the kernel's PyTorch computes, and a notebook can replace anything in its own PyTorch
(``torch.autograd.gradcheck = lambda *a, **k: True``). So the checker runs them itself, on
``across(link, function)``: every value they compare is one the student's ``forward`` or
``backward`` returned, and the engine that checks the number and shapes of the gradients, the
finite differences and the comparisons are the checker's.

In the kernel, ``forward`` is the student's ``Function.apply`` on inputs that require a gradient,
so the student's code gets a real ``ctx``; its output stays there as a handle, and ``backward``
calls the ``backward`` the student's class declares with that output's ``grad_fn`` (the node
that holds the ``ctx``) as its ``ctx``, as PyTorch's engine does; never the node class's
``apply``, which a notebook can rebind to run something else.
"""

from __future__ import annotations

import types

import torch

from autograder.trusted.link import KernelLink, Remote

PROBES = frozenset({"gradients", "gradcheck_passes"})  # the probes run here, on ``across``


def _name(link: KernelLink, function: Remote) -> str:
    """The student's class name, for PyTorch's messages ("function AttentionFunctionBackward
    returned an incorrect number of gradients"): an identifier, or "Function"."""
    try:
        name = link.request("getattr", ref=function._id, name="__name__")
    except Exception:  # noqa: BLE001 - a name is only for the messages
        name = None
    return name if isinstance(name, str) and name.isidentifier() and len(name) <= 60 else "Function"


def across(
    link: KernelLink, function: Remote, count_saved: bool = False
) -> type[torch.autograd.Function]:
    """A Function whose forward and backward are the student's ``function``'s, run in the
    kernel. With ``count_saved`` its forward saves (here) copies of the tensors the student's
    forward saved there, so that a probe's ``saved_tensors_hooks`` count them."""
    apply, students_backward = function.apply, function.backward

    def forward(ctx, *inputs):
        leaves = {i for i, needs in enumerate(ctx.needs_input_grad) if needs}
        kept = link.call(apply._id, inputs, {}, leaves=leaves, keep=True)
        if not (
            isinstance(kept, tuple)
            and len(kept) == 2
            and isinstance(kept[0], Remote)
            and isinstance(kept[1], torch.Tensor)
        ):
            raise TypeError(f"{ctx_name}.apply must return one tensor")
        output, value = kept
        node = output.grad_fn
        if not isinstance(node, Remote):
            raise TypeError(
                f"{ctx_name}.apply returned a tensor with no backward pass: is "
                f"{ctx_name} a torch.autograd.Function?"
            )
        ctx.node = node
        if count_saved:
            saved = node.saved_tensors
            if not (isinstance(saved, tuple) and all(isinstance(t, torch.Tensor) for t in saved)):
                raise TypeError("what the forward pass saved is not a tuple of tensors")
            ctx.save_for_backward(*saved)
        return value

    def backward(ctx, *grad_outputs):
        # the backward the student's class declares, called with the node its forward
        # filled as ctx: what PyTorch's engine does, but not through the node's class's
        # `apply`, which a notebook can rebind
        if not isinstance(students_backward, Remote):
            raise TypeError(f"{ctx_name}.backward is not a function")
        grads = link.call(students_backward._id, (ctx.node, *grad_outputs), {})
        return tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)

    ctx_name = _name(link, function)
    return types.new_class(
        ctx_name,
        (torch.autograd.Function,),
        exec_body=lambda body: body.update(
            forward=staticmethod(forward), backward=staticmethod(backward)
        ),
    )


def run(link: KernelLink, probe, args: tuple, kwargs: dict):
    """``probe(*args, **kwargs)`` here, its first argument (a student's Function in the
    kernel) replaced by ``across`` it."""
    function, *rest = args
    return probe(across(link, function, count_saved=probe.__name__ == "gradients"), *rest, **kwargs)
