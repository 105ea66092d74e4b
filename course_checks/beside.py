"""Probes that must run where the answer runs: beside it, in the student's kernel.

Notebook 10's checks look inside an answer: the FLOPs of its matrix products and the largest
tensor it makes (``op_counts``), what a ``torch.autograd.Function`` saves for its backward pass
and the gradients it gives (``gradients``, ``gradcheck_passes``). In a notebook, and in the
mutation analysis, a probe runs where it is called. When the trusted checker grades
(``autograder/trusted/checker.py``) it hands over a ``probe`` in the grading context
(``course_checks/context.py``), and a probe called there runs where grading can trust it:

- ``gradients`` and ``gradcheck_passes`` run in the checker, on a Function whose forward and
  backward are the student's, called in the kernel over the wire (``autograder/trusted/
  across.py``): every value they compare is one the student's code returned;
- ``op_counts`` watches the code it measures, so it runs in the kernel: it travels as the
  source of the course's module, run afresh there, so a notebook that replaces
  ``transformer_course.probes`` in its own process changes nothing the checks read, and its
  report comes back as plain data.
"""

from __future__ import annotations

import importlib

from course_checks import context

__all__ = ["gradcheck_passes", "gradients", "op_counts"]


def beside_the_answer(name: str):
    """The probe ``transformer_course.probes.<name>``, run where grading trusts it while
    grading (above), here otherwise. (Imported when first used: the probes import torch._dynamo, a
    second that the checker spends only for the notebook that needs them.)"""

    def run(*args, **kwargs):
        probe = getattr(importlib.import_module("transformer_course.probes"), name)
        forward = context.current().probe
        if forward is None:
            return probe(*args, **kwargs)
        return forward(probe, args, kwargs)

    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"transformer_course.probes.{name}, run beside the answer it probes."
    return run


op_counts = beside_the_answer("op_counts")
gradients = beside_the_answer("gradients")
gradcheck_passes = beside_the_answer("gradcheck_passes")
