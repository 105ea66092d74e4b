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
import hashlib
import io
import json
import pickle
import traceback
import warnings

import torch

from autograder.cells import split_hidden
from autograder.trusted import wire
from course_checks import shortcuts

AGENT = "__import__('autograder.trusted.agent', fromlist=['handle']).handle({request!r})"
MAX_REPLY_CHARS = 3 * wire.MAX_BYTES // 2


class KernelLost(RuntimeError):
    """The kernel died or stopped answering while running a student function."""


class StudentError(Exception):
    """An error raised by student code in the kernel (its type name and message)."""


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


class Remote:
    """A student object that stays in the kernel: call it, read its attributes, index it."""

    __slots__ = ("_link", "_id", "_kind")

    def __init__(self, link: KernelLink, ident: int, kind: str):
        object.__setattr__(self, "_link", link)
        object.__setattr__(self, "_id", ident)
        object.__setattr__(self, "_kind", kind)

    def __call__(self, *args, **kwargs):
        return self._link.request("call", ref=self._id, args=[self._link.out(a) for a in args],
                                  kwargs={k: self._link.out(v) for k, v in kwargs.items()},
                                  refuses=list(shortcuts.active()), inputs=(args, kwargs))

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return self._link.request("getattr", ref=self._id, name=name)

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

    def __init__(self, executor, timeout):
        self.executor = executor
        self.timeout = timeout  # () -> seconds a request may take now
        self.lost = False  # set when the kernel stopped answering: it needs replacing

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

    def request(self, op: str, inputs: tuple | None = None, **fields):
        """Run ``op`` in the kernel; ``inputs``, a call's (args, kwargs), take the changes
        the kernel reports the call made to them, as a call in the kernel would."""
        payload = base64.b64encode(json.dumps({"op": op, **fields}).encode()).decode()
        reply = self._parse(self._expression(AGENT.format(request=payload)))
        self._relay(reply)
        if inputs is not None and isinstance(reply.get("changed"), list):
            _apply_changes(reply["changed"][:64], *inputs)
        if "error" in reply:
            name, message, *line = (str(part) for part in list(reply["error"])[:3])
            error = _error_class(name)(message)
            error.student_line = line[0][:300] if line else ""  # where it was raised
            raise error
        return wire.decode(reply.get("value"), lambda i, kind: Remote(self, i, kind))

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

    @staticmethod
    def _relay(reply: dict) -> None:
        """Show the student code's output, stderr and warnings as the in-kernel checks do."""
        if isinstance(reply.get("stdout"), str) and reply["stdout"]:
            print(reply["stdout"], end="" if reply["stdout"].endswith("\n") else "\n")
        if isinstance(reply.get("stderr"), str) and reply["stderr"].strip():
            print(f"(your code wrote to stderr: {reply['stderr'].strip()})")
        for item in reply.get("warnings", [])[:20] if isinstance(reply.get("warnings"), list) \
                else []:
            if isinstance(item, list) and len(item) == 2:
                warnings.warn(str(item[1]), _warning_class(str(item[0])), stacklevel=2)

    def _expression(self, expression: str) -> str:
        executor = self.executor
        msg_id = executor.kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                     user_expressions={"r": expression})
        reply = executor._reply(msg_id, timeout=self.timeout())
        if reply is None:  # still running: interrupt it, and give it a moment to answer
            try:
                executor.km.interrupt_kernel()
            except Exception:  # noqa: BLE001 - a dead kernel is handled below
                pass
            reply = executor._reply(msg_id, timeout=5)
            if reply is None:
                self.lost = True
                raise KernelLost("the kernel stopped answering")
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


def _apply_changes(changed: list, args: tuple, kwargs: dict) -> None:
    """Write the kernel's modified arguments into the checker's own tensors."""
    for item in changed:
        try:
            (kind, key, *sub), encoded = item
            target = (args if kind == "arg" else kwargs)[key]
            for part in sub[:1]:
                target = target[part]
            new = wire.decode(encoded, lambda *_: None)
        except (ValueError, TypeError, KeyError, IndexError, wire.WireError):
            continue  # not a change this call could have made: ignored
        if isinstance(target, torch.Tensor) and isinstance(new, torch.Tensor):
            with torch.no_grad():
                if new.shape == target.shape:
                    target.copy_(new)
                else:
                    target.data = new.to(target.dtype)


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

    def setup(self, source: str) -> None:
        """Run a locked setup cell (imports, constants) here as well as in the kernel."""
        exec(compile(source, "<setup>", "exec"), self.namespace)  # noqa: S102 - course code

    def _resolve(self, tree: ast.AST) -> None:
        """Bind the names the cell reads from the kernel, afresh for every cell; names the
        checker itself defined (setup, earlier test cells) stay its own."""
        loads, binds = _names(tree)
        self.remote -= binds
        for name in sorted(loads - binds - set(dir(builtins))):
            if name in self.namespace and name not in self.remote:
                continue
            self.remote.add(name)
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
                pieces = split_hidden(source)
                for number, (code, hidden) in enumerate(pieces):
                    last = number == len(pieces) - 1
                    with secret_seeds(self.secret) if hidden else contextlib.nullcontext():
                        value = self._exec(code, last)
            except BaseException as error:  # noqa: BLE001 - reported as the cell's error
                failure = error
            for warning in caught:
                print(f"(warning: {warning.category.__name__}: {warning.message})")
        return stdout.getvalue(), value, failure

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
