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
import builtins
import contextlib
import hashlib
import io
import traceback
import warnings

import torch

from autograder.cells import split_hidden
from autograder.trusted import across
from autograder.trusted.link import KernelLink, Remote

# --- hidden seeds -------------------------------------------------------------------------


def mix(secret: str, seed: int) -> int:
    digest = hashlib.sha256(f"{secret}:{int(seed)}".encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


@contextlib.contextmanager
def secret_seeds(secret: str):
    """Every seed set while this is active (``torch.manual_seed``, ``torch.Generator().
    manual_seed``, so also the package's seeded examples) is mixed with ``secret``."""
    real_seed, real_generator = torch.manual_seed, torch.Generator

    class Generator(torch.Generator):  # torch.Generator here is still real_generator
        def manual_seed(self, seed):
            return super().manual_seed(mix(secret, seed))

        def __reduce__(self):
            # Sent to the kernel (pickled) as a plain generator in the same state: the kernel
            # cannot rebuild this class, and needs none of it. (PyTorch's own __reduce__ names
            # whatever torch.Generator is at the time: this class, here.)
            _, arguments, state = real_generator.__reduce__(self)
            return real_generator, arguments, state

    torch.manual_seed = lambda seed: real_seed(mix(secret, seed))
    torch.Generator = Generator  # type: ignore[misc]  # the module's class, patched while active
    try:
        yield
    finally:
        torch.manual_seed, torch.Generator = real_seed, real_generator  # type: ignore[misc]


# --- running a test cell --------------------------------------------------------------------


def names_read_and_bound(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Names a cell reads, and names it binds anywhere (assignments, defs, imports, args)."""
    loads: set[str] = set()
    binds: set[str] = set()
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

    def __init__(self, link: KernelLink | None, secret: str):
        # None: no kernel, the answers are in the namespace already (mutation analysis)
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
        assert self.link is not None  # run() resolves names only with a kernel
        loads, binds = names_read_and_bound(tree)
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
                pieces = split_hidden(source)
                for number, (code, hidden) in enumerate(pieces):
                    last = number == len(pieces) - 1
                    with (
                        secret_seeds(self.secret) if hidden else contextlib.nullcontext(),
                        self._hiding(hidden),
                    ):
                        value = self._exec(code, last)
            except BaseException as error:  # noqa: BLE001 - reported as the cell's error
                failure = error
            for warning in caught:
                print(f"(warning: {warning.category.__name__}: {warning.message})")
        return stdout.getvalue(), value, failure

    def probe(self, probe, args: tuple, kwargs: dict):
        """A probe of ``course_checks/beside.py`` while grading (the grading context's
        ``probe``): those of a student's autograd Function run here, on its forward and
        backward across the wire (``across.py``); those that watch the code they run, in
        the kernel."""
        assert self.link is not None  # probes run only while grading, with a kernel
        if probe.__name__ in across.PROBES and args and isinstance(args[0], Remote):
            return across.run(self.link, probe, args, kwargs)
        return self.link.apply(probe, args, kwargs)

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
                print(
                    f"(your code printed {self.link.withheld:,} characters or warnings "
                    "during the hidden checks: they are not shown)"
                )

    def _exec(self, code: str, last: bool):
        tree = ast.parse(code)
        final = (
            tree.body.pop() if last and tree.body and isinstance(tree.body[-1], ast.Expr) else None
        )
        exec(compile(tree, "<test cell>", "exec"), self.namespace)  # noqa: S102 - course code
        if final is None:
            return None
        assert isinstance(final, ast.Expr)  # the last statement, popped only when an Expr
        return eval(compile(ast.Expression(final.value), "<test cell>", "eval"), self.namespace)  # noqa: S307


def error_lines(error: BaseException) -> list[str]:
    return [line.rstrip("\n") for line in traceback.format_exception_only(type(error), error)]
