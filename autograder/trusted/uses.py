"""What an answer uses, read from the notebook's source as data: the shortcut check that no
code in the kernel can switch off.

The in-kernel refusal (``course_checks/shortcuts.py``) is the student's learning aid: it
raises while their own checks run. Whatever a notebook does to its own process can undo it,
so grading also reads the source of every cell, here, in the trusted process, and decides
what each exercise's answer reaches (``autograder/trusted/scopes.py`` resolves names as
Python does):

- starting from the names the exercise's checks call (``softmax``), it follows every name
  those definitions mention (defaults, decorators, base classes, closures, helper functions
  in other cells, aliases made by imports and assignments), in the student's cells and the
  course's alike: a course cell that keeps the course's function (``yours_or_ours``) counts
  as that function;
- every dotted reference it meets (``F.softmax``, ``torch._softmax``, ``partial(sm, dim=0)``)
  is resolved through the notebook's imports and assignments to a real object of the
  trusted process and compared, by identity, with the exercise's refused functions, and by
  the operation it spells (``torch.ops.aten.softmax``, ``torch.native_layer_norm``);
  a method call ``x.softmax(...)`` (or a property read, ``out.grad_fn``) counts as
  ``torch.Tensor.softmax``;
- private PyTorch names (``torch._softmax``, ``torch._C``) are refused in any exercise that
  refuses something.

A value put into an object (appended, sent, stored, raised, matched) counts for the name that
holds it (``scopes.py``). In an exercise that refuses PyTorch's parts, whatever PyTorch object
the answer reaches outside the exercise's vocabulary (``vocabulary.py``) is flagged.

What the reader cannot prove is flagged for the instructor with its line, whatever its name
(it costs no points): an import of a module outside ``READABLE_MODULES`` (a module the
notebook wrote, ``pydoc``, ``timeit``, ``code``, ``importlib`` ...); any reference to a
builtin that runs or fetches code from text (``exec``, ``eval``, ``__import__`` ...), called
or not, rebound or not; ``getattr`` with a name that is not a constant, or used as a value;
an attribute with two underscores on each side (``type(z).__base__``); the checks' own
modules; a change to a library's attribute.

What it reports is ``findings.py``'s ``Finding``; the lists it judges by are
``readable.py``'s, and a notebook's cells are made a ``Program`` by ``notebook.py``.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable

from autograder.trusted.findings import Finding
from autograder.trusted.notebook import course_names, notebook_cells
from autograder.trusted.readable import (
    INTROSPECTION,
    NAMED_ACCESS,
    OPAQUE_BUILTINS,
    OPAQUE_OBJECTS,
    PLAIN_DUNDERS,
    READABLE_MODULES,
)
from autograder.trusted.scopes import (
    HARMLESS_MAGICS,
    MAX_ALIASES,
    Binding,
    Program,
    TooDeep,
    call_of,
    parent_of,
)
from autograder.trusted.vocabulary import Vocabulary, spelled

__all__ = [
    "MAX_ALIASES",
    "Finding",
    "Program",
    "Reader",
    "TooDeep",
    "course_names",
    "notebook_cells",
    "resolve",
]


def resolve(dotted: str):
    """The object a dotted name stands for in this (trusted) process, or None."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:split]))
        except Exception:  # noqa: BLE001 - not a module (or one that fails to import)
            continue
        for part in parts[split:]:
            try:
                value = getattr(value, part)
            except Exception:  # noqa: BLE001
                return None
        return value
    return None


def _private_torch(dotted: str) -> bool:
    parts = dotted.split(".")
    return parts[0] == "torch" and any(
        p.startswith("_") and not p.endswith("__") for p in parts[1:]
    )


def _harmless_magic(call: ast.Call | None) -> bool:
    """Whether ``call`` is ``get_ipython()`` inside ``get_ipython().run_line_magic("timeit",
    ...)`` (how IPython writes ``%timeit``) for a magic that only times code."""
    parent = parent_of(call)
    magic = call_of(parent)
    return (
        isinstance(parent, ast.Attribute)
        and parent.attr in ("run_line_magic", "run_cell_magic")
        and isinstance(magic, ast.Call)
        and bool(magic.args)
        and isinstance(magic.args[0], ast.Constant)
        and magic.args[0].value in HARMLESS_MAGICS
    )


def _library(dotted: list[str]) -> list[str]:
    """The references among ``dotted`` that name a library's object, not a builtin's."""
    return [d for d in dotted if not d.startswith("builtins.")]


class Reader:
    """What one exercise's answer reaches in a :class:`Program`."""

    def __init__(
        self,
        program: Program,
        refuses: Iterable[str],
        before: int | None = None,
        vocabulary: Vocabulary | None = None,
    ):
        """``before``: the place of the exercise's test cell among the program's cells; only
        the cells above it have run when its checks do. ``vocabulary``: what an exercise that
        refuses something may use without a flag (``autograder/trusted/vocabulary.py``)."""
        self.program = program
        self.before = before
        self.vocabulary = vocabulary
        self.refuses = tuple(refuses)
        self.refused_objects = {}
        self.methods = set()
        for name in self.refuses:
            obj = resolve(name)
            if obj is not None:
                self.refused_objects[id(obj)] = (obj, name)
            if name.startswith("torch.Tensor."):
                self.methods.add(name.rsplit(".", 1)[1])
        # The same operation elsewhere in the same library (``torch.sparse.softmax``,
        # ``torch.ops.aten.softmax.int``): refused by its name, not by a list of every place
        # the library keeps it. (The course's own parts, allowed in later exercises, may
        # share a name with a refused PyTorch function: another library, not refused.)
        self.refused_names = {
            (name.split(".")[0], spelled(name.rsplit(".", 1)[-1])): name for name in self.refuses
        }
        self.roots = {name.split(".")[0] for name in self.refuses}

    def findings(self, entries: Iterable[str], course: Iterable[str] = ()) -> list[Finding]:
        """Findings for the answer whose checks call the notebook's global names ``entries``:
        everything reachable from them, in any cell, read scope by scope. Of the names in
        ``course`` (``course_names``), the course's own bindings are its data, not read;
        everything the student's code reaches is, the course's cells included."""
        program = self.program
        found: dict[tuple[str, str], Finding] = {}
        course = set(course)
        todo = [
            (scope, [b for b in bindings if b.student or name not in course])
            for name in entries
            for scope, bindings in [self._resolve(program.global_name(name))]
        ]
        done: set[int] = set()
        while todo:
            _, bindings = todo.pop()
            for binding in bindings:
                if id(binding) in done:
                    continue
                done.add(id(binding))
                findings, used = self._read(binding)
                for finding in findings:
                    found.setdefault((finding.kind, finding.what), finding)
                todo += used
        for name in entries:  # a name only a star import can have bound
            if not self._resolve(program.global_name(name))[1]:
                for module, cell in program.stars(self.before):
                    for finding in self._judge_name(f"{module}.{name}", f"{cell}, an import"):
                        found.setdefault((finding.kind, finding.what), finding)
        return sorted(found.values(), key=lambda f: (f.kind != "refused", f.where, f.what))

    def anywhere(self) -> list[Finding]:
        """What the reader cannot prove, anywhere in the student's cells (top-level code
        included: ``globals()['softmax'] = ...`` binds what no definition shows), and cells
        that do not parse."""
        found: dict[tuple[str, str], Finding] = {}
        for label, tree, student in self.program.cells:
            if not student:
                continue
            findings, _ = self._read(Binding(tree, label, True))
            for finding in findings:
                if finding.kind == "opaque":
                    found.setdefault((finding.what, finding.where), finding)
        for label in self.program.unreadable:
            found.setdefault(("parse", label), Finding("opaque", "code that does not parse", label))
        return list(found.values())

    def _read(self, binding: Binding) -> tuple[list[Finding], list]:
        """What one binding mentions: its findings, and the bindings its names read."""
        node = binding.node
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            where = f"{binding.cell}, an import"
            findings = [
                f
                for dotted in [binding.imported]
                if binding.student
                for f in self._judge_name(dotted, where)
            ]
            return findings + self._imports(node, where, binding.student), []
        own_methods = (
            {
                item.name
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
            if isinstance(node, ast.ClassDef)
            else set()
        )
        # Only the outermost of ``torch._C._nn.softmax`` is judged, not each prefix.
        inner = {id(sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Attribute)}
        findings, used = [], []
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                used.append(self._resolve(sub))
            if isinstance(sub, (ast.Import, ast.ImportFrom)):
                findings += self._imports(
                    sub, f"{binding.cell}, line {sub.lineno}", binding.student
                )
            if id(sub) not in inner or isinstance(sub, ast.Call):
                where = f"{binding.cell}, line {getattr(sub, 'lineno', 1)}"
                findings += self._judge(sub, own_methods, where)
        return findings, used

    @staticmethod
    def _imports(node: ast.Import | ast.ImportFrom, where: str, student: bool) -> list[Finding]:
        """A student's import of a module the reader does not read is flagged."""
        if not student:
            return []
        modules = (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or "."]
        )
        return [
            Finding("opaque", f"an import of {module}", where)
            for module in modules
            if module.split(".")[0] not in READABLE_MODULES
        ]

    def _resolve(self, node: ast.Name):
        return self.program.resolve(node, self.before)

    def _dotted(self, node: ast.AST) -> list[str]:
        return self.program.dotted(node, self.before)

    def _judge(self, node: ast.AST, own_methods: set[str], where: str):
        """The findings of one node (a call, an attribute, a name)."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and self._dotted(node.func)
            in (["builtins.getattr"], ["builtins.setattr"], ["builtins.delattr"])
            and len(node.args) >= 2
            and not isinstance(node.args[1], ast.Constant)
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
        ):
            yield Finding("opaque", f"{node.func.id}() with a computed name", where)
        # a refused method or property of a tensor, called or read (`x.softmax(0)`,
        # `out.grad_fn`), on anything but a library module and the class's own methods
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and node.attr in self.methods
            and not _library(self._dotted(node.value))
            and not (
                isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr in own_methods
            )
        ):
            yield Finding("refused", f"torch.Tensor.{node.attr}", where)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and "builtins.getattr" in self._dotted(node.func)
        ):
            for dotted in _library(self._dotted(node)):
                yield from self._judge_name(dotted, where)
        if isinstance(node, ast.Attribute) and (
            node.attr in INTROSPECTION
            or node.attr.startswith("__")
            and node.attr.endswith("__")
            and node.attr not in PLAIN_DUNDERS
        ):
            yield Finding("opaque", node.attr, where)
        # Rebinding something of a library (``torch.matmul = ...``, ``probes.op_counts =
        # ...``, ``setattr(F, "softmax", ...)``) changes what the checks and the grader's
        # probes see in the kernel: never an answer's business.
        changed = (
            node.value
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del))
            else node.args[0]
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.args
            and set(self._dotted(node.func)) & {"builtins.setattr", "builtins.delattr"}
            else None
        )
        if changed is not None and (library := _library(self._dotted(changed))):
            yield Finding("opaque", f"a change to {library[0]}", where)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield from self._builtin(node, where)
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(
            getattr(node, "ctx", None), ast.Load
        ):
            for dotted in _library(self._dotted(node)):
                yield from self._judge_name(dotted, where)

    def _builtin(self, node: ast.Name, where: str):
        """A name that may be one of the builtins the reader cannot read through."""
        for dotted in self._dotted(node):
            name = dotted.removeprefix("builtins.")
            if dotted == name:
                continue
            call = call_of(node)
            if name in OPAQUE_BUILTINS and not (name == "get_ipython" and _harmless_magic(call)):
                yield Finding("opaque", f"{name}()", where)
            elif name in NAMED_ACCESS and call is None:
                yield Finding("opaque", f"{name} as a value", where)

    def _judge_name(self, dotted: str, where: str):
        if self.refuses and _private_torch(dotted):
            yield Finding("refused", f"PyTorch's private {dotted}", where)
            return
        parts = dotted.split(".")
        # Only where a refused name lives is anything imported to compare objects: never a
        # module the student named for the grader's process to import.
        obj = resolve(dotted) if parts[0] in self.roots else None
        if (
            obj is not None
            and id(obj) in self.refused_objects
            and self.refused_objects[id(obj)][0] is obj
        ):
            yield Finding("refused", self.refused_objects[id(obj)][1], where)
            return
        for part in parts[1:]:
            if (refused := self.refused_names.get((parts[0], spelled(part)))) is not None:
                yield Finding("refused", f"{dotted}, the same operation as {refused}", where)
                return
        for opaque in ("course_checks", "autograder", *OPAQUE_OBJECTS):
            if dotted == opaque or dotted.startswith(opaque + "."):
                yield Finding("opaque", opaque, where)
                return
        if (
            self.vocabulary is not None
            and self.vocabulary.applies(self.refuses)
            and not self.vocabulary.allows(dotted)
        ):
            yield Finding("untaught", dotted, where)
