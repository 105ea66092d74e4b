"""The trusted checker: test cells run on the grader's side, never in the student's kernel.

When grading, a test cell's code (visible and hidden checks) runs here, in the grading
worker's own Python, with the course's real ``Checks``, comparisons and reference
implementations. Names the cell reads that are neither defined by the cell nor by the
notebook's setup cell (``project``, ``MultiHeadAttention``, a student's variable) are looked
up in the kernel and stand here as ``Remote`` proxies: calling one asks the kernel to run the
student's function on the given arguments (tensors by value), and the answer comes back as
plain data (``autograder/trusted/wire.py``) or as a handle to a student object. So nothing the
notebook does to its own process can reach the comparison, the score or its display, and the
hidden checks' code never enters the kernel.

Hidden checks draw their inputs from seeds mixed with a secret the grader holds for each
student (``secret_seeds``), so their inputs are new for every student, and their expected
values come from the course's reference implementations computed here.
"""

from __future__ import annotations

import ast
import base64
import builtins
import contextlib
import functools
import hashlib
import importlib
import inspect
import io
import json
import math
import pickle
import time
import traceback
import warnings

import torch
import zmq
from jupyter_core.utils import run_sync

from autograder.cells import split_hidden
from autograder.trusted import wire
from course_checks import beside, seeding, shortcuts
from course_checks.checking import in_place_message
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
    """(path, tensor) for the arguments a test marked ``filled_by_answer``, one container
    deep, with the paths the agent uses (``["arg", 4]``, ``["kwarg", "cache", 0]``)."""
    for kind, items in (("arg", enumerate(args)), ("kwarg", kwargs.items())):
        for key, value in items:
            inner = value.items() if isinstance(value, dict) else \
                enumerate(value) if isinstance(value, (list, tuple)) else ()
            for path, item in [([kind, key], value)] + [([kind, key, sub], i) for sub, i in inner]:
                if isinstance(item, torch.Tensor) and getattr(item, "_filled_by_answer", False):
                    yield json.dumps(path), item


class Remote:
    """A student object that stays in the kernel: call it, read its attributes, index it."""

    __slots__ = ("_link", "_id", "_kind")

    def __init__(self, link: KernelLink, ident: int, kind: str):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_kind", kind)

    def __call__(self, *args, **kwargs):
        filled = dict(_filled(args, kwargs))
        return self._link.request("call", ref=self._id, args=[self._link.out(a) for a in args],
                                  kwargs={k: self._link.out(v) for k, v in kwargs.items()},
                                  refuses=list(shortcuts.active()), fills=list(filled),
                                  filled=filled, seed=seeding.current())

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


class KernelLink:
    """Requests to ``trusted/agent.py`` in the kernel that ``executor`` (SafeExecute) runs."""

    def __init__(self, executor):
        self.executor = executor
        self.deadline = math.inf  # when the running test cell's checks must have ended
        self.seconds = math.inf  # the time they were given
        self.requests = 0  # round trips so far, for the whole notebook
        self.lost = False  # set when the kernel stopped answering: it needs replacing
        self.hidden = False  # hidden checks are running: the student's output is not shown
        self.withheld = 0  # characters of output not shown during hidden checks

    def begin_cell(self, seconds: float, notebook_deadline: float) -> None:
        """The checks of one test cell get ``seconds`` in all, within the notebook's time."""
        self.seconds = seconds
        self.deadline = min(time.monotonic() + seconds, notebook_deadline)

    def _timeout(self) -> float:
        """Seconds the next request may take; none left is the end of this cell's checks."""
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise OutOfBudget(f"the checks of this exercise ran out of time: your code took "
                              f"longer than {self.seconds:.0f} s in all")
        self.requests += 1
        if self.requests > MAX_REQUESTS:
            raise OutOfBudget(f"the checks stopped: your answers needed more than "
                              f"{MAX_REQUESTS:,} round trips to the kernel (do your functions "
                              "return tensors?)")
        return left

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

    def request(self, op: str, filled: dict | None = None, **fields):
        """Run ``op`` in the kernel. A call whose arguments the kernel reports changed in
        place fails (the checker's own tensors never left this process), except those a test
        marked as ``filled`` by the answer: their new values come back as data, and are
        copied into the checker's tensor when shape and dtype agree."""
        payload = base64.b64encode(json.dumps({"op": op, **fields}).encode()).decode()
        reply = self._parse(self._expression(AGENT.format(request=payload)))
        self._relay(reply)
        for path, value in (reply.get("filled") or {}).items() if filled else ():
            if path in filled:
                new = wire.decode(value, lambda *_: None)
                if (isinstance(new, torch.Tensor) and new.shape == filled[path].shape
                        and new.dtype == filled[path].dtype):
                    with torch.no_grad():
                        filled[path].copy_(new)
        if isinstance(reply.get("changed"), list) and reply["changed"]:
            raise ChangedInPlace(in_place_message(_argument_names(reply["changed"][:8])))
        if "error" in reply:
            name, message, *line = (str(part) for part in list(reply["error"])[:3])
            error = _error_class(name)(message)
            error.student_line = line[0][:300] if line else ""  # where it was raised
            raise error
        return wire.decode(reply.get("value"), lambda i, kind: Remote(self, i, kind))

    def apply(self, probe, args, kwargs):
        """Run the course's ``probe`` in the kernel, beside the student's objects among its
        arguments (``course_checks/beside.py``); its report comes back as data. The probe
        travels as the source of its module, read here and run afresh there: never the
        kernel's own copy of that module, which a notebook can replace."""
        sent = {"source": _module_source(probe.__module__), "name": probe.__name__}
        return self.request("apply", probe=sent, args=[self.out(a) for a in args],
                            kwargs={k: self.out(v) for k, v in kwargs.items()},
                            refuses=list(shortcuts.active()), seed=seeding.current())

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
        if not isinstance(reply, dict) or ("error" in reply and not (
                isinstance(reply["error"], list) and len(reply["error"]) >= 2)):
            raise wire.WireError("the kernel's reply is not plain data")
        return reply

    def _relay(self, reply: dict) -> None:
        """Show the student code's output, stderr and warnings as the in-kernel checks do;
        during hidden checks only count them, so that hidden inputs never travel back."""
        if self.hidden:
            self.withheld += sum(len(reply[key]) for key in ("stdout", "stderr")
                                 if isinstance(reply.get(key), str))
            self.withheld += len(reply.get("warnings") or [])
            return
        if isinstance(reply.get("stdout"), str) and reply["stdout"].strip():
            print(f"(your code printed:)\n{quoted_lines(reply['stdout'])}")
        if isinstance(reply.get("stderr"), str) and reply["stderr"].strip():
            print(f"(your code wrote to stderr: {printable(reply['stderr'].strip())})")
        for item in reply.get("warnings", [])[:20] if isinstance(reply.get("warnings"), list) \
                else []:
            if isinstance(item, list) and len(item) == 2:
                warnings.warn(str(item[1]), _warning_class(str(item[0])), stacklevel=2)

    def _expression(self, expression: str) -> str:
        executor = self.executor
        try:
            msg_id = executor.kc.execute("", silent=True, store_history=False,
                                         allow_stdin=False, user_expressions={"r": expression})
        except zmq.ZMQError:  # its connection was dropped (a message over the limit)
            self.lost = True
            raise KernelLost("the kernel stopped answering") from None
        reply = executor._reply(msg_id, timeout=self._timeout())
        if reply is None:  # still running: interrupt it, and give it a moment to answer
            _interrupt(executor.km)
            reply = executor._reply(msg_id, timeout=INTERRUPT_GRACE)
            if reply is None:
                self.lost = True
                raise KernelLost("the kernel stopped answering")
            if time.monotonic() >= self.deadline:
                raise OutOfBudget(f"the checks of this exercise ran out of time: your code "
                                  f"took longer than {self.seconds:.0f} s in all")
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
        name = f"`{key}`" if kind == "kwarg" else f"argument {int(key) + 1}" \
            if isinstance(key, int) else "an argument"
        names.append(name + (f"[{item[0]!r}]" if item else ""))
    return names or ["an argument"]


def _interrupt(manager) -> None:
    """Send the kernel an interrupt, whichever kind of kernel manager runs it."""
    try:
        interrupt = manager.interrupt_kernel
        if inspect.iscoroutinefunction(interrupt):
            run_sync(interrupt)()
        else:
            interrupt()
    except Exception:  # noqa: BLE001 - a dead kernel is dealt with by the caller
        pass


# --- hidden seeds -------------------------------------------------------------------------


def mix(secret: str, seed: int) -> int:
    digest = hashlib.sha256(f"{secret}:{int(seed)}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@contextlib.contextmanager
def secret_seeds(secret: str):
    """Every seed set while this is active (``torch.manual_seed``, ``torch.Generator().
    manual_seed``, so also the package's seeded examples) is mixed with ``secret``."""
    real_seed, real_generator = torch.manual_seed, torch.Generator

    class Generator(real_generator):
        def manual_seed(self, seed):
            return super().manual_seed(mix(secret, seed))

        def __reduce__(self):
            # Sent to the kernel (pickled) as a plain generator in the same state: the kernel
            # cannot rebuild this class, and needs none of it. (PyTorch's own __reduce__ names
            # whatever torch.Generator is at the time: this class, here.)
            _, arguments, state = real_generator.__reduce__(self)
            return real_generator, arguments, state

    torch.manual_seed = lambda seed: real_seed(mix(secret, seed))
    torch.Generator = Generator
    try:
        yield
    finally:
        torch.manual_seed, torch.Generator = real_seed, real_generator


# --- running a test cell --------------------------------------------------------------------


def _names(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Names a cell reads, and names it binds anywhere (assignments, defs, imports, args)."""
    loads, binds = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else binds).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            binds.add(node.name)
        elif isinstance(node, ast.arg):
            binds.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            binds.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            binds.add(node.name)
    return loads, binds


class Checker:
    """One notebook's trusted namespace: its setup cell, then its test cells in order."""

    def __init__(self, link: KernelLink, secret: str):
        self.link = link
        self.secret = secret
        self.namespace: dict = {"__name__": "__checker__", "__builtins__": builtins}
        self.remote: set[str] = set()  # names that stand for the kernel's objects
        self.cell_names: list[str] = []

    def setup(self, source: str) -> None:
        """Run a locked setup cell (imports, constants) here as well as in the kernel."""
        exec(compile(source, "<setup>", "exec"), self.namespace)  # noqa: S102 - course code

    def _resolve(self, tree: ast.AST) -> None:
        """Bind the names the cell reads from the kernel, afresh for every cell; names the
        checker itself defined (setup, earlier test cells) stay its own."""
        loads, binds = _names(tree)
        self.remote -= binds
        self.cell_names = []  # what this cell reads from the kernel: the answers it checks
        for name in sorted(loads - binds - set(dir(builtins))):
            if name in self.namespace and name not in self.remote:
                continue
            self.remote.add(name)
            self.cell_names.append(name)
            try:
                self.namespace[name] = self.link.request("lookup", name=name)
            except Exception:  # noqa: BLE001 - not defined, or broken: the checks report it
                self.namespace.pop(name, None)

    def run(self, source: str) -> tuple[str, object, BaseException | None]:
        """Run a test cell: (printed report, value of its last expression, error if any)."""
        stdout = io.StringIO()
        value, failure = None, None
        with contextlib.redirect_stdout(stdout), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                if self.link is not None:  # None: everything is in the namespace already
                    self._resolve(ast.parse(source))
                    beside.forward = self.link.apply  # probes run in the kernel
                pieces = split_hidden(source)
                for number, (code, hidden) in enumerate(pieces):
                    last = number == len(pieces) - 1
                    with secret_seeds(self.secret) if hidden else contextlib.nullcontext(), \
                            self._hiding(hidden):
                        value = self._exec(code, last)
            except BaseException as error:  # noqa: BLE001 - reported as the cell's error
                failure = error
            finally:
                beside.forward = None
            for warning in caught:
                print(f"(warning: {warning.category.__name__}: {warning.message})")
        return stdout.getvalue(), value, failure

    @contextlib.contextmanager
    def _hiding(self, hidden: bool):
        """While hidden checks run, what the student's code prints is counted, not shown."""
        if self.link is None or not hidden:
            yield
            return
        self.link.hidden, self.link.withheld = True, 0
        try:
            yield
        finally:
            self.link.hidden = False
            if self.link.withheld:
                print(f"(your code printed {self.link.withheld:,} characters or warnings "
                      "during the hidden checks: they are not shown)")

    def _exec(self, code: str, last: bool):
        tree = ast.parse(code)
        final = tree.body.pop() if last and tree.body and isinstance(tree.body[-1], ast.Expr) \
            else None
        exec(compile(tree, "<test cell>", "exec"), self.namespace)  # noqa: S102 - course code
        if final is None:
            return None
        return eval(compile(ast.Expression(final.value), "<test cell>", "eval"), self.namespace)


def error_lines(error: BaseException) -> list[str]:
    return [line.rstrip("\n") for line in traceback.format_exception_only(type(error), error)]
