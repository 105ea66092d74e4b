"""The trusted checker's secret seeds: seeded generators still cross to the kernel."""

from __future__ import annotations

import base64
import pickle
from concurrent.futures import ThreadPoolExecutor

import torch

from autograder.trusted.checker import secret_seeds
from autograder.trusted.link import KernelLink


def test_a_secretly_seeded_generator_reaches_the_kernel_as_a_plain_one_in_the_same_state():
    with secret_seeds("a secret"):
        generator = torch.Generator().manual_seed(5)
        sent = KernelLink(kernel=None).out(generator)
        expected = torch.randint(100, (8,), generator=generator)
    received = pickle.loads(base64.b64decode(sent["$object"]))  # what the kernel rebuilds
    assert type(received) is torch.Generator
    assert torch.equal(torch.randint(100, (8,), generator=received), expected)
    # ... and the secret changed the seed: not the generator a student could make.
    student_made = torch.Generator().manual_seed(5)
    assert not torch.equal(expected, torch.randint(100, (8,), generator=student_made))


def test_test_cells_read_from_the_kernel_only_the_answers_they_check():
    """Every name a test cell takes from the kernel is defined by an answer cell of its
    notebook (what the student wrote to be checked), never a variable of a demo cell; and
    the checker gets it as a handle to call, so a student who rebinds it cannot change an
    expected value (08's check once compared with the student's own UNKNOWN)."""
    import ast
    import builtins

    from conftest import ASSIGNMENTS, load, release_path

    from autograder.cells import grade_id, source
    from autograder.trusted.checker import names_read_and_bound

    for assignment in ASSIGNMENTS:
        cells = load(release_path(assignment))["cells"]
        meta = [c.get("metadata", {}).get("nbgrader", {}) for c in cells]
        setups = [c for c in cells if grade_id(c) == "setup"]
        assert len(setups) == 1, f"{assignment}: the checker needs one locked set-up cell"
        setup = names_read_and_bound(ast.parse(source(setups[0])))[1]
        answers = set().union(
            *(
                names_read_and_bound(ast.parse(source(c)))[1]
                for c, m in zip(cells, meta, strict=True)
                if m.get("solution") and c["cell_type"] == "code"
            )
        )
        checker_defined = set(setup)
        for cell, m in zip(cells, meta, strict=True):
            if not (m.get("grade") and not m.get("solution")) or cell["cell_type"] != "code":
                continue
            loads, binds = names_read_and_bound(ast.parse(source(cell)))
            from_kernel = loads - binds - checker_defined - set(dir(builtins))
            assert from_kernel <= answers, (assignment, grade_id(cell), from_kernel - answers)
            checker_defined |= binds


class InProcessLink(KernelLink):
    """A link whose "kernel" is the agent in this process, with ``namespace`` as its names;
    ``forge`` may rewrite the agent's reply, as a hostile kernel could."""

    def __init__(self, namespace: dict, forge=lambda reply: reply):
        super().__init__(kernel=None)
        self.namespace, self.forge = namespace, forge

    def _expression(self, expression: str) -> str:
        import json
        from unittest import mock

        from autograder.trusted import agent

        def kernel():  # in a thread of its own: PyTorch's grad mode and hooks are per thread
            with mock.patch.object(agent, "_namespace", lambda: self.namespace):
                return eval(expression, {"__import__": __import__})  # noqa: S307 - the AGENT expression

        with ThreadPoolExecutor(1) as thread:
            reply = thread.submit(kernel).result()
        return repr(json.dumps(self.forge(json.loads(reply))))


def _fill(q, cache, length):
    """An answer that writes q into a preallocated cache (08's attend_with_cache does)."""
    cache[..., length : length + q.shape[-2], :] = q
    return q.sum()


def _clobber(q, cache, length):
    q.zero_()  # changes an input the caller still needs
    return cache.sum()


def test_a_tensor_the_test_marks_filled_by_the_answer_comes_back_as_data():
    """08's cache is written in place by design: with the tensor marked ``filled_by_answer``
    the checker's own tensor receives the kernel's values; any other input changed in place
    fails the check, and a reply that "fills" what the test did not mark is ignored."""
    import pytest

    from autograder.trusted.link import ChangedInPlace
    from course_checks.checking import filled_by_answer

    link = InProcessLink({"fill": _fill, "clobber": _clobber})
    fill, clobber = link.request("lookup", name="fill"), link.request("lookup", name="clobber")
    q, cache = torch.ones(1, 2, 3), filled_by_answer(torch.zeros(1, 5, 3))
    fill(q, cache, 2)
    assert torch.equal(cache[:, 2:4], q) and cache[:, :2].abs().sum() == 0
    with pytest.raises(ChangedInPlace, match="argument 2"):  # unmarked: the answer's mistake
        fill(q, torch.zeros(1, 5, 3), 0)
    with pytest.raises(ChangedInPlace, match="argument 1 "):
        clobber(q, cache, 0)
    assert torch.equal(q, torch.ones(1, 2, 3))  # the checker's tensor never changed

    def forge(reply):  # claims to fill q, which the test did not mark
        if "filled" in reply:
            reply["filled"]['["arg", 0]'] = reply["filled"].get('["arg", 1]')
        return reply

    hostile = InProcessLink({"fill": _fill}, forge)
    hostile.request("lookup", name="fill")(q, filled_by_answer(torch.zeros(1, 5, 3)), 0)
    assert torch.equal(q, torch.ones(1, 2, 3))


def test_a_call_made_under_a_seed_runs_seeded_in_the_kernel_and_leaves_its_state_alone():
    """The checks tell a random answer from a stateful one by calling it under fixed seeds
    (``course_checks.seeding``): each call takes the seed to the kernel, which runs it
    seeded and then puts its own random state back."""
    from course_checks import seeding

    link = InProcessLink({"draw": lambda: torch.rand(4)})
    draw = link.request("lookup", name="draw")
    state = torch.random.get_rng_state()
    # the seed reaches the kernel with the call: seeded here only by the agent
    first, again = (
        link.request("call", ref=draw._id, args=[], kwargs={}, seed=3) for _ in range(2)
    )
    other = link.request("call", ref=draw._id, args=[], kwargs={}, seed=4)
    assert torch.equal(first, again) and not torch.equal(first, other)
    assert torch.equal(torch.random.get_rng_state(), state)
    with seeding.seeded(3):  # how the checks send it
        assert torch.equal(draw(), first)
    # a seed that is not an integer is no seed: the call runs on the kernel's own state
    unseeded = link.request("call", ref=draw._id, args=[], kwargs={}, seed=True)
    assert not torch.equal(unseeded, first)


def test_a_probe_runs_as_the_course_wrote_it_whatever_the_kernel_holds_under_its_name():
    """Found by an attacker who read the grader: the probes travelled pickled by reference,
    and a kernel whose ``transformer_course.probes`` a notebook had replaced answered the
    checks of notebook 10 with the reference gradients. A probe that must run in the kernel
    (``op_counts``) now travels as source."""
    import sys
    import types
    from unittest import mock

    from transformer_course import probes

    forged = types.ModuleType("transformer_course.probes")
    forged.op_counts = lambda *a, **k: {"flops": 0, "largest": 0}

    class KernelWithForgedProbes(InProcessLink):
        def _expression(self, expression: str) -> str:
            with mock.patch.dict(sys.modules, {"transformer_course.probes": forged}):
                return super()._expression(expression)

    link = KernelWithForgedProbes({"square": lambda x: x @ x})
    x = torch.ones(3, 3)
    report = link.apply(probes.op_counts, (link.request("lookup", name="square"), x), {})
    assert report["flops"] == 2 * 27 and report["largest"] == 9


class Square(torch.autograd.Function):
    """A student's autograd Function: x², with its backward pass."""

    @staticmethod
    def forward(ctx, x, scale=1.0):
        ctx.save_for_backward(x)
        ctx.scale = scale
        return scale * x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * ctx.scale * x * grad, None


class WrongSquare(Square):
    """Its backward pass forgets the factor 2: finite differences disagree."""

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ctx.scale * x * grad, None


class ShortSquare(Square):
    """Its backward pass returns no gradient for ``scale``."""

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * ctx.scale * x * grad


class KernelWhosePyTorchLies(InProcessLink):
    """A kernel in which a notebook replaced PyTorch's gradcheck and backward: every gradient
    its PyTorch computes is 2x·grad, whatever the student's backward says."""

    def _expression(self, expression: str) -> str:
        from unittest import mock

        def backward(tensor, gradient=None, *args, **kwargs):
            for leaf in _leaves_of(tensor):
                leaf.grad = 2 * leaf.detach() * gradient

        with (
            mock.patch.object(torch.autograd, "gradcheck", lambda *a, **k: True),
            mock.patch.object(torch.Tensor, "backward", backward),
        ):
            return super()._expression(expression)


def _leaves_of(tensor):
    seen, stack = [], [tensor.grad_fn]
    while stack:
        node = stack.pop()
        for child, _ in getattr(node, "next_functions", ()):
            if child is not None and hasattr(child, "variable"):
                seen.append(child.variable)
            elif child is not None:
                stack.append(child)
    return seen


def test_gradients_and_gradcheck_come_from_the_students_functions_not_the_kernels_torch():
    """Issue "Trusted grading, round 3": notebook 10's gradients and gradcheck verdicts are
    computed by the checker, from what the student's forward and backward return over the
    wire; the kernel's own PyTorch, which a notebook can replace, computes none of them."""
    from autograder.trusted.checker import Checker
    from transformer_course import probes

    x, grad = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), torch.ones(3, dtype=torch.float64)
    link = KernelWhosePyTorchLies({"Square": Square, "WrongSquare": WrongSquare})
    checker = Checker(link, "a secret")
    right, wrong = (link.request("lookup", name=n) for n in ("Square", "WrongSquare"))
    # the control: run in that kernel, the probes believe its PyTorch
    assert link.apply(probes.gradcheck_passes, (wrong, (x, 1.0)), {}) is True
    assert torch.equal(link.apply(probes.gradients, (wrong, (x, 1.0), grad), {})["grads"][0], 2 * x)
    # run by the checker, they see what the student's backward returns
    assert checker.probe(probes.gradcheck_passes, (right, (x, 3.0)), {}) is True
    assert checker.probe(probes.gradcheck_passes, (wrong, (x, 3.0)), {}) is False
    report = checker.probe(probes.gradients, (wrong, (x, 3.0), grad), {})
    assert torch.equal(report["output"], 3 * x * x) and torch.equal(report["grads"][0], 3 * x)
    assert report["saved"] == [3]  # what the student's forward saved, counted here


def test_pytorchs_own_checks_of_a_backward_pass_name_the_students_function():
    """The checker's autograd engine checks the student's backward as PyTorch would: one
    gradient for each argument of forward, with the shapes of the inputs."""
    import pytest

    from autograder.trusted.checker import Checker
    from transformer_course import probes

    link = InProcessLink({"ShortSquare": ShortSquare, "Square": Square})
    checker = Checker(link, "a secret")
    short = link.request("lookup", name="ShortSquare")
    with pytest.raises(
        RuntimeError,
        match="ShortSquareBackward returned an incorrect number "
        r"of gradients \(expected 2, got 1\)",
    ):
        checker.probe(probes.gradients, (short, (torch.ones(2), 1.0), torch.ones(2)), {})
    # a probe of a Function the checker holds itself runs as it is
    assert checker.probe(probes.gradcheck_passes, (Square, (torch.ones(2), 1.0)), {}) is True


class SlowKernel:
    """A kernel whose every reply takes ``wall`` seconds by a fake clock and ``cpu`` seconds
    of its CPU time: a busy machine (much clock, little CPU) or a busy answer (much CPU)."""

    def __init__(self, clock: list[float], wall: float, cpu: float):
        self.clock, self.wall, self.cpu, self.used = clock, wall, cpu, 0.0

    def evaluate(self, expression: str) -> str:
        return "id"

    def reply(self, msg_id: str, timeout: float) -> dict:
        self.clock[0] += min(self.wall, timeout)
        self.used += self.cpu
        data = {"text/plain": '{"value": 1}'}
        return {"content": {"user_expressions": {"r": {"status": "ok", "data": data}}}}

    def interrupt(self) -> None:
        pass

    def cpu_seconds(self) -> float:
        return self.used


def _requests_before_the_budget_ends(monkeypatch, wall: float, cpu: float) -> tuple[int, str]:
    import time

    from autograder.trusted.link import OutOfBudget

    clock = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    link = KernelLink(SlowKernel(clock, wall, cpu))
    link.begin_cell(seconds=4, wall=20, notebook_deadline=1000)
    for made in range(100):
        try:
            link._expression("1")
        except OutOfBudget as error:
            return made, str(error)
    return 100, ""


def test_a_busy_machine_slows_the_checks_but_their_budget_is_cpu_time(monkeypatch):
    """A test cell's checks get its CPU seconds (4 here) and a clock backstop (20 s): a reply
    that takes 2 s by the clock but little CPU (a loaded machine) is not counted as work,
    one that uses 0.9 s of CPU is."""
    made, why = _requests_before_the_budget_ends(monkeypatch, wall=2.0, cpu=0.01)
    assert made == 10 and "20 s by the clock" in why  # the backstop, not 4 s of clock
    made, why = _requests_before_the_budget_ends(monkeypatch, wall=1.0, cpu=0.9)
    assert made == 5 and "4 s of CPU time" in why
