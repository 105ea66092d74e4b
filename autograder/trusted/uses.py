"""What an answer uses, read from the student's source as data: the shortcut check that no
code in the kernel can switch off.

The in-kernel refusal (``course_checks/shortcuts.py``) is the student's learning aid: it
raises while their own checks run. Whatever a notebook does to its own process can undo it,
so grading also reads the source of every cell the student wrote, here, in the trusted
process, and decides what each exercise's answer reaches:

- starting from the names the exercise's checks call (``softmax``), it follows every name
  those definitions mention (defaults, decorators, base classes, closures, helper functions
  in other cells, aliases made by imports and assignments) through the student's cells;
- every dotted reference it meets (``F.softmax``, ``torch._softmax``, ``partial(sm, dim=0)``)
  is resolved through the notebook's imports and assignments to a real object of the
  trusted process and compared, by identity, with the exercise's refused functions;
  a method call ``x.softmax(...)`` counts as ``torch.Tensor.softmax``;
- private PyTorch names (``torch._softmax``, ``torch._C``) are refused in any exercise that
  refuses something;
- constructs a reader cannot see through (``exec``, ``eval``, ``compile``, a computed
  ``getattr``, ``__dict__``, ``__code__``, ``__globals__``, ``importlib``, ``sys.modules``,
  ``pickle``, ``marshal``, ``ctypes``, ``types.FunctionType``, the checks' own modules ...)
  do not cost points but are flagged for the instructor with their line.

Names bound several times are followed through every binding (a reader cannot tell which
one ran last), so an answer is judged by everything its names were ever bound to.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterable
from dataclasses import dataclass

# Calls, attributes and modules a reader cannot see through.
OPAQUE_CALLS = {"exec", "eval", "compile", "__import__", "vars", "globals", "locals",
                "breakpoint", "get_ipython"}
# IPython magics that only time or capture the code they are given (read like plain code).
HARMLESS_MAGICS = {"time", "timeit", "capture", "matplotlib"}
OPAQUE_ATTRIBUTES = {"__dict__", "__code__", "__globals__", "__closure__", "__builtins__",
                     "__subclasses__", "__bases__", "__mro__", "__func__", "__wrapped__",
                     "__getattribute__", "__reduce__", "__reduce_ex__", "f_globals",
                     "f_locals", "f_back", "gi_frame", "co_code"}
OPAQUE_MODULES = ("importlib", "pickle", "marshal", "ctypes", "dill", "cloudpickle", "copyreg",
                  "types.FunctionType", "types.CodeType", "types.LambdaType", "sys.modules",
                  "sys._getframe", "inspect", "gc", "builtins", "operator.attrgetter",
                  "operator.methodcaller", "course_checks", "autograder", "IPython.core",
                  "IPython.get_ipython", "torch.ops", "torch.library")


MAX_ALIASES = 100  # names followed through plain aliases (``a = b``); no answer needs more
MAX_STEPS = 1_000_000  # steps of following names, for a whole notebook (honest ones: < 10,000)
NO_CUT = MAX_ALIASES + 1  # deeper than any name on the way: no cycle was cut


class TooDeep(Exception):
    """Code the reader cannot follow to its end (aliases or nesting beyond any honest
    answer's): the exercise is refused rather than read halfway."""


@dataclass(frozen=True)
class Finding:
    """One thing an answer reaches: ``refused`` (costs the exercise) or ``opaque`` (flagged)."""

    kind: str
    what: str  # "torch.softmax", or the construct: "exec"
    where: str  # "your answer cell ex3_softmax, line 4"

    def message(self) -> str:
        if self.kind == "refused":
            return (f"this exercise asks you to write it yourself: your answer calls {self.what}"
                    f" ({self.where})")
        return f"{self.where} uses {self.what}, which the grader cannot read through"


@dataclass
class _Binding:
    node: ast.AST  # a definition, or the expression a name was assigned
    cell: str  # where it is, in words
    student: bool


def _clean(source: str) -> str:
    """A cell's code as Python: IPython's magics and shell escapes made into calls, and the
    body of a ``%%time`` (or timeit, capture) cell read as the code it is; line numbers kept."""
    first, _, rest = source.lstrip().partition("\n")
    if first.startswith("%%") and first[2:].split(" ")[0] in HARMLESS_MAGICS:
        source = "\n" * (source[: len(source) - len(rest)].count("\n")) + rest
    if not any(line.lstrip()[:1] in ("%", "!") or line.rstrip().endswith("?")
               for line in source.splitlines()):
        return source
    try:
        from IPython.core.inputtransformer2 import TransformerManager

        blank = len(source) - len(source.lstrip("\n"))  # IPython drops leading blank lines
        return "\n" * blank + TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - without IPython, or a cell it cannot transform
        return source


class Program:
    """The notebook's code cells as one program: bindings of every top-level name.

    ``cells`` are ``(label, source, student)``: a label in words ("your answer cell
    ex3_softmax", "a cell you added"), the code, and whether the student wrote it.
    Instructor cells (the set-up cell's imports) bind names too, but only student code is
    read for what it uses.
    """

    def __init__(self, cells: Iterable[tuple[str, str, bool]]):
        self.bindings: dict[str, list[_Binding]] = {}
        self.imports: dict[str, str] = {}  # name -> module or dotted object it stands for
        self.star: list[tuple[str, str]] = []  # (module, cell) imported with *
        self.unreadable: list[str] = []  # student cells that do not parse
        self.student_cells: list[tuple[str, ast.AST]] = []
        self._known: dict[str, tuple[str, ...]] = {}  # name -> what it may stand for
        self._steps = 0
        for label, source, student in cells:
            try:
                tree = ast.parse(_clean(source))
            except (SyntaxError, ValueError):
                if student:
                    self.unreadable.append(label)
                continue
            for node in ast.walk(tree):  # parents, for what a call sits in
                for child in ast.iter_child_nodes(node):
                    child.parent = node
                if isinstance(node, ast.Call):
                    node.func.call = node
            self._bind(tree, label, student)
            if student:
                self.student_cells.append((label, tree))

    def _bind(self, tree: ast.AST, label: str, student: bool) -> None:
        def bind(name: str, node: ast.AST) -> None:
            self.bindings.setdefault(name, []).append(_Binding(node, label, student))

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    name = alias.asname or alias.name.split(".")[0]
                    self.imports[name] = alias.name if alias.asname else name
                    bind(name, node)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    if alias.name == "*":
                        self.star.append((node.module, label))
                        continue
                    name = alias.asname or alias.name
                    self.imports[name] = f"{node.module}.{alias.name}"
                    bind(name, node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bind(node.name, node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store) \
                                and node.value is not None:
                            bind(name.id, node.value)
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                for name in ast.walk(node.target):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        bind(name.id, node.iter)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                for name in ast.walk(node.optional_vars):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        bind(name.id, node.context_expr)

    # --- resolving a reference to the object it names ---------------------------------

    def dotted(self, node: ast.AST) -> list[str]:
        """The dotted names ``node`` may stand for (``F.softmax`` -> torch.nn.functional.
        softmax), through imports and plain aliases; [] when it is no such reference."""
        return self._dotted(node, {})[0]

    def _dotted(self, node: ast.AST, seen: dict[str, int]) -> tuple[list[str], int]:
        """``dotted``, following names not in ``seen`` (name -> depth on the way here); and
        the lowest depth where a name already on the way was met (a cycle cut short).

        A name's answer is kept, and every later question about it answered from memory,
        when no cycle through it was cut above it: so 240 names that each alias two others
        cost 480 steps, not 2^240. Every step counts against ``MAX_STEPS``."""
        self._step()
        if isinstance(node, ast.Attribute):
            bases, cut = self._dotted(node.value, seen)
            return [f"{base}.{node.attr}" for base in bases], cut
        if isinstance(node, ast.Call) and _call_name(node) == "getattr" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str):
            bases, cut = self._dotted(node.args[0], seen)
            return [f"{base}.{node.args[1].value}" for base in bases], cut
        if not isinstance(node, ast.Name):
            return [], NO_CUT
        name = node.id
        if name in seen:
            return [], seen[name]
        if name in self.imports:
            return [self.imports[name]], NO_CUT
        if name in self._known:
            return list(self._known[name]), NO_CUT
        depth = len(seen)
        if depth >= MAX_ALIASES:
            raise TooDeep(f"names aliased more than {MAX_ALIASES} deep")
        found, cut = [], NO_CUT
        for binding in self.bindings.get(name, []):
            if isinstance(binding.node, (ast.Name, ast.Attribute, ast.Call)):
                more, below = self._dotted(binding.node, {**seen, name: depth})
                found += more
                cut = min(cut, below)
        if not self.bindings.get(name):
            found += [f"{module}.{name}" for module, _ in self.star]
        found = list(dict.fromkeys(found))
        self._step(len(found))
        if cut >= depth:  # nothing above this name was cut from its answer
            self._known[name] = tuple(found)
        return found, cut

    def _step(self, count: int = 1) -> None:
        self._steps += count
        if self._steps > MAX_STEPS:
            raise TooDeep(f"names aliased in more than {MAX_STEPS:,} ways")


def _harmless_magic(call: ast.Call) -> bool:
    """Whether ``call`` is ``get_ipython()`` inside ``get_ipython().run_line_magic("timeit",
    ...)`` (how IPython writes ``%timeit``) for a magic that only times code."""
    parent = getattr(call, "parent", None)
    return isinstance(parent, ast.Attribute) and parent.attr in (
        "run_line_magic", "run_cell_magic") and isinstance(getattr(parent, "call", None),
                                                          ast.Call) \
        and bool(parent.call.args) and isinstance(parent.call.args[0], ast.Constant) \
        and parent.call.args[0].value in HARMLESS_MAGICS


def _call_name(call: ast.Call) -> str | None:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


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
    return parts[0] == "torch" and any(p.startswith("_") and not p.endswith("__")
                                       for p in parts[1:])


def _operation(name: str) -> str:
    """The operation a library name spells, without PyTorch's marks of another spelling of
    it: ``_softmax``, ``softmax_``, ``native_layer_norm`` are ``softmax`` and ``layer_norm``."""
    return name.strip("_").removeprefix("native_")


def _opaque(dotted: str) -> str | None:
    for module in OPAQUE_MODULES:
        if dotted == module or dotted.startswith(module + "."):
            return module
    return None


class Reader:
    """What one exercise's answer reaches in a :class:`Program`."""

    def __init__(self, program: Program, refuses: Iterable[str]):
        self.program = program
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
        self.refused_names = {(name.split(".")[0], _operation(name.rsplit(".", 1)[-1])): name
                              for name in self.refuses}
        self.roots = {name.split(".")[0] for name in self.refuses}

    def findings(self, entries: Iterable[str]) -> list[Finding]:
        """Findings for the answer whose checks call the names ``entries``."""
        found: dict[tuple[str, str], Finding] = {}
        todo, done = list(entries), set()
        while todo:
            name = todo.pop()
            if name in done:
                continue
            done.add(name)
            for finding in self._imported(name):
                found.setdefault((finding.kind, finding.what), finding)
            for binding in self.program.bindings.get(name, []):
                if binding.student:
                    findings, used = self._read(binding)
                    for finding in findings:
                        found.setdefault((finding.kind, finding.what), finding)
                    todo += sorted(used - done)
        return sorted(found.values(), key=lambda f: (f.kind != "refused", f.where, f.what))

    def anywhere(self) -> list[Finding]:
        """Constructs the grader cannot read through, anywhere in the student's cells
        (top-level code included: ``globals()['softmax'] = ...`` binds what no definition
        shows), and cells that do not parse."""
        found = {}
        for label, tree in self.program.student_cells:
            findings, _ = self._read(_Binding(tree, label, True))
            for finding in findings:
                if finding.kind == "opaque":
                    found.setdefault((finding.what, finding.where), finding)
        for label in self.program.unreadable:
            found.setdefault(("parse", label), Finding("opaque", "code that does not parse",
                                                       label))
        return list(found.values())

    def _imported(self, name: str) -> list[Finding]:
        """Findings for a name that an import (or a star import) of the student's binds."""
        program = self.program
        cells = [b.cell for b in program.bindings.get(name, [])
                 if b.student and isinstance(b.node, (ast.Import, ast.ImportFrom))]
        if not program.bindings.get(name):  # perhaps from a star import
            cells = [cell for _, cell in program.star]
        if not cells:
            return []
        where = f"{cells[0]}, an import"
        return [f for dotted in program.dotted(ast.Name(name, ast.Load()))
                for f in self._judge_name(dotted, where)]

    def _read(self, binding: _Binding) -> tuple[list[Finding], set[str]]:
        """What one binding mentions: its findings, and the names to follow from it."""
        node = binding.node
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return [], set()
        own_methods = {item.name for item in node.body
                       if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))} \
            if isinstance(node, ast.ClassDef) else set()
        # Only the outermost of ``torch._C._nn.softmax`` is judged, not each prefix.
        inner = {id(sub.value) for sub in ast.walk(node) if isinstance(sub, ast.Attribute)}
        findings, used = [], set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                used.add(sub.id)
            if id(sub) not in inner or isinstance(sub, ast.Call):
                where = f"{binding.cell}, line {getattr(sub, 'lineno', 1)}"
                findings += self._judge(sub, own_methods, where)
        return findings, used

    def _judge(self, node: ast.AST, own_methods: set[str], where: str):
        """The findings of one node (a call, an attribute, a name)."""
        program = self.program
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if isinstance(node.func, ast.Name) and name in OPAQUE_CALLS \
                    and name not in program.bindings and not _harmless_magic(node):
                yield Finding("opaque", f"{name}()", where)
            if name in ("getattr", "setattr", "delattr") and isinstance(node.func, ast.Name) \
                    and len(node.args) >= 2 and not isinstance(node.args[1], ast.Constant) \
                    and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self"):
                yield Finding("opaque", f"{name}() with a computed name", where)
            if isinstance(node.func, ast.Attribute) and node.func.attr in self.methods \
                    and not program.dotted(node.func.value) \
                    and not (isinstance(node.func.value, ast.Name)
                             and node.func.value.id == "self" and node.func.attr in own_methods):
                yield Finding("refused", f"torch.Tensor.{node.func.attr}", where)
        if isinstance(node, ast.Call) and _call_name(node) == "getattr" \
                and isinstance(node.func, ast.Name):
            for dotted in program.dotted(node):
                yield from self._judge_name(dotted, where)
        if isinstance(node, ast.Attribute) and node.attr in OPAQUE_ATTRIBUTES:
            yield Finding("opaque", node.attr, where)
        # Rebinding something of a library (``torch.matmul = ...``, ``probes.op_counts =
        # ...``, ``setattr(F, "softmax", ...)``) changes what the checks and the grader's
        # probes see in the kernel: never an answer's business.
        changed = node.value if isinstance(node, ast.Attribute) and isinstance(
            node.ctx, (ast.Store, ast.Del)) else node.args[0] if isinstance(node, ast.Call) \
            and _call_name(node) in ("setattr", "delattr") and node.args else None
        if changed is not None and (library := program.dotted(changed)):
            yield Finding("opaque", f"a change to {library[0]}", where)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str):
            for base in program.dotted(node.value):
                if base.endswith("__dict__"):
                    yield Finding("opaque", "__dict__", where)
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(
                getattr(node, "ctx", None), ast.Load):
            for dotted in program.dotted(node):
                yield from self._judge_name(dotted, where)

    def _judge_name(self, dotted: str, where: str):
        if self.refuses and _private_torch(dotted):
            yield Finding("refused", f"PyTorch's private {dotted}", where)
            return
        parts = dotted.split(".")
        # Only where a refused name lives is anything imported to compare objects: never a
        # module the student named for the grader's process to import.
        obj = resolve(dotted) if parts[0] in self.roots else None
        if obj is not None and id(obj) in self.refused_objects \
                and self.refused_objects[id(obj)][0] is obj:
            yield Finding("refused", self.refused_objects[id(obj)][1], where)
            return
        for part in parts[1:]:
            if (refused := self.refused_names.get((parts[0], _operation(part)))) is not None:
                yield Finding("refused", f"{dotted}, the same operation as {refused}", where)
                return
        if (module := _opaque(dotted)) is not None:
            yield Finding("opaque", module, where)
