"""The checker's line to the student's kernel: requests to ``trusted/agent.py`` there, answers
as plain data (``autograder/trusted/wire.py``), and the student's objects as ``Remote`` handles.

Every request runs under the budget of the test cell whose checks make it (``begin_cell``) and
the notebook's count of round trips; a kernel that stops answering is interrupted, then given
up (``KernelLost``). An error the student's code raised comes back as an exception of the same
name, with the line that raised it.
"""

from __future__ import annotations

import ast
import base64
import builtins
import functools
import importlib
import inspect
import json
import math
import pickle
import time
import warnings
from typing import Protocol

import torch
import zmq

from autograder.trusted import wire
from course_checks import seeding, shortcuts
from course_checks.inputs import in_place_message
from course_checks.plain import printable, quoted_lines

AGENT = "__import__('autograder.trusted.agent', fromlist=['handle']).handle({request!r})"
MAX_REPLY_CHARS = 3 * wire.MAX_BYTES // 2
MAX_REQUESTS = 20_000  # round trips to the kernel for one notebook's checks
INTERRUPT_GRACE = 5.0  # seconds an interrupted kernel has to answer before it is replaced


class KernelLost(RuntimeError):
    """The kernel died or stopped answering while running a student function."""


class StudentError(Exception):
    """An error raised by student code in the kernel (its type name and message)."""


class OutOfBudget(RuntimeError):
    """The checks' own budget (a test cell's time, the notebook's round trips) is spent."""


class ChangedInPlace(RuntimeError):
    """The kernel reports that the student's function changed an argument in place."""


def _error_class(name: str) -> type[BaseException]:
    builtin = getattr(builtins, name, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception):
        return builtin
    clean = "".join(c for c in name if c.isalnum() or c == "_")[:60] or "Error"
    return type(clean, (StudentError,), {})


def _warning_class(name: str) -> type[Warning]:
    builtin = getattr(builtins, name, None)
    if isinstance(builtin, type) and issubclass(builtin, Warning):
        return builtin
    return UserWarning


def _filled(args: tuple, kwargs: dict):
    """(path as JSON, tensor) for the arguments a test marked ``filled_by_answer``."""
    for path, tensor in wire.argument_tensors(args, kwargs):
        if getattr(tensor, "_filled_by_answer", False):
            yield json.dumps(path), tensor


class Remote:
    """A student object that stays in the kernel: call it, read its attributes, index it."""

    __slots__ = ("_link", "_id", "_kind")

    def __init__(self, link: KernelLink, ident: int, kind: str):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_kind", kind)

    def __call__(self, *args, **kwargs):
        return self._link.call(self._id, args, kwargs)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._link.request("getattr", ref=self._id, name=name)

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError("the checks do not change the student's objects")

    def __len__(self) -> int:
        length = self._link.request("len", ref=self._id)
        if not isinstance(length, int):
            raise TypeError("len() of the student's object is not a number")
        return length

    def __getitem__(self, key):
        return self._link.request("getitem", ref=self._id, key=self._link.out(key))

    def __iter__(self):
        items = self._link.request("iter", ref=self._id)
        return iter(items if isinstance(items, list) else [])

    def __repr__(self) -> str:
        return f"<{self._kind} in the student's kernel>"


class Kernel(Protocol):
    """What the link needs of the kernel's runner (``grading/execute.py``'s SafeExecute)."""

    def evaluate(self, expression: str) -> str:
        """Send ``expression`` to be evaluated silently, as a user expression named "r";
        the request's message id."""

    def reply(self, msg_id: str, timeout: float) -> dict | None:
        """The kernel's reply to ``msg_id``, or None when ``timeout`` seconds (or the
        cell's CPU seconds) have passed."""

    def interrupt(self) -> None:
        """Interrupt what the kernel is running."""

    def cpu_seconds(self) -> float:
        """CPU seconds the kernel has used so far, counted as its replies came (a running
        total, read from /proc by the grader, never asked of the kernel)."""


class KernelLink:
    """Requests to ``trusted/agent.py`` in the kernel that ``kernel`` runs."""

    def __init__(self, kernel: Kernel | None):
        self.kernel = kernel
        self.deadline = math.inf  # the clock's backstop for the running test cell's checks
        self.seconds = math.inf  # the CPU seconds they were given
        self.wall = math.inf  # and the seconds by the clock
        self._cpu_at_start = 0.0  # the kernel's and the checker's CPU seconds when they began
        self.requests = 0  # round trips so far, for the whole notebook
        self.lost = False  # set when the kernel stopped answering: it needs replacing
        self.hidden = False  # hidden checks are running: the student's output is not shown
        self.withheld = 0  # characters of output not shown during hidden checks

    def begin_cell(self, seconds: float, wall: float, notebook_deadline: float) -> None:
        """The checks of one test cell get ``seconds`` of CPU time in all, the kernel's on
        their requests and the checker's own, so that a busy machine slows them but never
        fails them; ``wall`` seconds by the clock stop checks that sleep or wait, within the
        notebook's time."""
        self.seconds, self.wall = seconds, wall
        self.deadline = min(time.monotonic() + wall, notebook_deadline)
        self._cpu_at_start = self._cpu()

    def _cpu(self) -> float:
        kernel = self.kernel.cpu_seconds() if self.kernel is not None else 0.0
        return kernel + time.process_time()

    def _stop_if_spent(self) -> None:
        """End this test cell's checks if their budget is spent."""
        if self._cpu() - self._cpu_at_start > self.seconds:
            spent = f"used more than {self.seconds:.0f} s of CPU time in all"
        elif time.monotonic() >= self.deadline:
            spent = f"took longer than {self.wall:.0f} s by the clock in all"
        else:
            return
        raise OutOfBudget(f"the checks of this exercise ran out of time: your code {spent}")

    def _timeout(self) -> float:
        """Seconds by the clock the next request may take; the end of this cell's checks
        when their budget is spent."""
        self._stop_if_spent()
        self.requests += 1
        if self.requests > MAX_REQUESTS:
            raise OutOfBudget(
                f"the checks stopped: your answers needed more than "
                f"{MAX_REQUESTS:,} round trips to the kernel (do your functions "
                "return tensors?)"
            )
        return self.deadline - time.monotonic()

    def out(self, value):
        """An argument for the kernel: plain data, a handle back, or a pickled trusted object."""

        def other(obj):
            if isinstance(obj, Remote):
                return {"$ref": obj._id}
            try:
                return {"$object": base64.b64encode(pickle.dumps(obj)).decode()}
            except Exception as error:
                raise TypeError(f"cannot pass a {type(obj).__name__} to the kernel") from error

        return wire.encode(value, other)

    def call(
        self,
        ref: int,
        args: tuple,
        kwargs: dict,
        leaves: frozenset[int] = frozenset(),
        keep: bool = False,
    ):
        """Call the kernel's object ``ref`` under the active refusals and seed. The tensors at
        the positions in ``leaves`` arrive there as leaves that require a gradient; with
        ``keep`` the answer comes back as (a handle to it, its value)."""
        filled = dict(_filled(args, kwargs))
        sent = [{"$leaf": self.out(a)} if i in leaves else self.out(a) for i, a in enumerate(args)]
        return self.request(
            "call",
            ref=ref,
            args=sent,
            kwargs={k: self.out(v) for k, v in kwargs.items()},
            refuses=list(shortcuts.active()),
            fills=list(filled),
            filled=filled,
            seed=seeding.current(),
            keep=keep,
        )

    def request(self, op: str, filled: dict | None = None, **fields):
        """Run ``op`` in the kernel. A call whose arguments the kernel reports changed in
        place fails (the checker's own tensors never left this process), except those a test
        marked as ``filled`` by the answer: their new values come back as data, and are
        copied into the checker's tensor when shape and dtype agree."""
        payload = base64.b64encode(json.dumps({"op": op, **fields}).encode()).decode()
        reply = self._parse(self._expression(AGENT.format(request=payload)))
        self._relay(reply)
        if filled:
            for path, value in (reply.get("filled") or {}).items():
                if path in filled:
                    new = wire.decode(value, lambda *_: None)
                    if (
                        isinstance(new, torch.Tensor)
                        and new.shape == filled[path].shape
                        and new.dtype == filled[path].dtype
                    ):
                        with torch.no_grad():
                            filled[path].copy_(new)
        if isinstance(reply.get("changed"), list) and reply["changed"]:
            raise ChangedInPlace(in_place_message(_argument_names(reply["changed"][:8])))
        if "error" in reply:
            name, message, *line = (str(part) for part in list(reply["error"])[:3])
            error = _error_class(name)(message)
            # where it was raised, read back by course_checks/checking.py's _student_line
            error.student_line = line[0][:300] if line else ""  # type: ignore[attr-defined]
            raise error
        return wire.decode(reply.get("value"), lambda i, kind: Remote(self, i, kind))

    def apply(self, probe, args, kwargs):
        """Run the course's ``probe`` in the kernel, beside the student's objects among its
        arguments (``course_checks/beside.py``); its report comes back as data. The probe
        travels as the source of its module, read here and run afresh there: never the
        kernel's own copy of that module, which a notebook can replace."""
        sent = {"source": _module_source(probe.__module__), "name": probe.__name__}
        return self.request(
            "apply",
            probe=sent,
            args=[self.out(a) for a in args],
            kwargs={k: self.out(v) for k, v in kwargs.items()},
            refuses=list(shortcuts.active()),
            seed=seeding.current(),
        )

    @staticmethod
    def _parse(text: str) -> dict:
        """The reply: a Python string literal holding a JSON object, nothing else."""
        if len(text) > MAX_REPLY_CHARS:
            raise wire.WireError("the answer is too large to check")
        try:
            raw = ast.literal_eval(text)
            reply = json.loads(raw) if isinstance(raw, str) else None
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            reply = None
        if not isinstance(reply, dict) or (
            "error" in reply and not (isinstance(reply["error"], list) and len(reply["error"]) >= 2)
        ):
            raise wire.WireError("the kernel's reply is not plain data")
        return reply

    def _relay(self, reply: dict) -> None:
        """Show the student code's output, stderr and warnings as the in-kernel checks do;
        during hidden checks only count them, so that hidden inputs never travel back."""
        if self.hidden:
            self.withheld += sum(
                len(reply[key]) for key in ("stdout", "stderr") if isinstance(reply.get(key), str)
            )
            self.withheld += len(reply.get("warnings") or [])
            return
        if isinstance(reply.get("stdout"), str) and reply["stdout"].strip():
            print(f"(your code printed:)\n{quoted_lines(reply['stdout'])}")
        if isinstance(reply.get("stderr"), str) and reply["stderr"].strip():
            print(f"(your code wrote to stderr: {printable(reply['stderr'].strip())})")
        for item in (
            reply.get("warnings", [])[:20] if isinstance(reply.get("warnings"), list) else []
        ):
            if isinstance(item, list) and len(item) == 2:
                warnings.warn(str(item[1]), _warning_class(str(item[0])), stacklevel=2)

    def _expression(self, expression: str) -> str:
        kernel = self.kernel
        assert kernel is not None  # a link made without a kernel only encodes (``out``)
        try:
            msg_id = kernel.evaluate(expression)
        except zmq.ZMQError:  # its connection was dropped (a message over the limit)
            self.lost = True
            raise KernelLost("the kernel stopped answering") from None
        reply = kernel.reply(msg_id, timeout=self._timeout())
        if reply is None:  # still running: interrupt it, and give it a moment to answer
            kernel.interrupt()
            reply = kernel.reply(msg_id, timeout=INTERRUPT_GRACE)
            if reply is None:
                self.lost = True
                raise KernelLost("the kernel stopped answering")
            self._stop_if_spent()
        try:
            result = reply["content"]["user_expressions"]["r"]
        except (KeyError, TypeError):
            result = None
        if not isinstance(result, dict):
            raise wire.WireError("the kernel's reply is not plain data")
        if result.get("status") != "ok":  # the agent itself failed (or was replaced)
            raise _error_class(str(result.get("ename", "Error")))(str(result.get("evalue", "")))
        data = result.get("data")
        text = data.get("text/plain") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise wire.WireError("the kernel's reply is not plain data")
        return text


@functools.cache
def _module_source(name: str) -> str:
    return inspect.getsource(importlib.import_module(name))


def _argument_names(paths: list) -> list[str]:
    """How a check names the arguments at ``paths`` ([kind, key, item?]) in its report."""
    names = []
    for path in paths:
        if not isinstance(path, list) or len(path) < 2:
            continue
        kind, key, *item = path
        name = (
            f"`{key}`"
            if kind == "kwarg"
            else f"argument {int(key) + 1}"
            if isinstance(key, int)
            else "an argument"
        )
        names.append(name + (f"[{item[0]!r}]" if item else ""))
    return names or ["an argument"]
