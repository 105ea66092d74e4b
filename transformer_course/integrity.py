"""Keep the test machinery as it was before any student code ran.

``transformer_course.checking`` imports this module, which happens in each notebook's locked
first cell, so the snapshot below holds the real objects: torch's comparison functions,
Python's builtins, the checking helpers, and IPython's hooks (input transformers, AST
transformers, event callbacks, the display hook) through which a notebook could rewrite or
wrap later cells. ``restore()`` puts back whatever was changed and says what it was.

The grader calls ``restore(nonce)`` before every test cell (outside the student's cells, as
a user expression that no input transformer sees); ``Checks`` calls it too, so the checks a
student runs themselves are protected in the same way.
"""

from __future__ import annotations

import builtins
import json
import sys

import torch
import torch.testing

from . import checking

_FUNCTIONS = [
    (torch, "allclose"),
    (torch, "isclose"),
    (torch, "equal"),
    (torch, "isfinite"),
    (torch, "as_tensor"),
    (torch.testing, "assert_close"),
]
# Builtins the checks rely on (IPython itself swaps others, such as input, at run time).
_BUILTINS = ["isinstance", "float", "round", "len", "sum", "abs", "bool", "int", "getattr",
             "type", "print", "__import__", "Exception", "AssertionError", "NotImplementedError"]
# The shell's and display hook's methods that run a cell or show its result (the score).
_SHELL_METHODS = ["run_cell", "run_cell_async", "transform_cell", "run_ast_nodes", "run_code",
                  "should_run_async"]
_DISPLAY_METHODS = ["__call__", "compute_format_data", "write_format_data", "finish_displayhook",
                    "write_output_prompt", "quiet"]
# Callbacks that run before a cell, where a notebook could undo the restoring.
_EVENTS = ["pre_execute", "pre_run_cell"]
_MODULES = ["torch", "torch.testing", "transformer_course.checking", "builtins"]


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython always comes with Jupyter
        return None
    return get_ipython()


class _Snapshot:
    """The objects a notebook must not change, as they were when this module was imported."""

    def __init__(self):
        self.functions = {(owner, name): getattr(owner, name) for owner, name in _FUNCTIONS}
        self.modules = {name: sys.modules[name] for name in _MODULES if name in sys.modules}
        self.builtins = {name: getattr(builtins, name) for name in _BUILTINS}
        self.namespaces = {obj: dict(vars(obj)) for obj in (checking, checking.Checks)}
        self.shell = _shell()
        if self.shell is not None:
            shell = self.shell
            self.lists = {
                name: list(getattr(shell, name))
                for name in ("input_transformers_post", "input_transformers_cleanup",
                             "ast_transformers")
            }
            self.callbacks = {e: list(shell.events.callbacks[e]) for e in _EVENTS}
            self.displayhook = shell.displayhook
            self.methods = {
                (owner, name): getattr(owner, name)
                for owner, names in ((type(shell), _SHELL_METHODS),
                                     (type(shell.displayhook), _DISPLAY_METHODS))
                for name in names
                if hasattr(owner, name)
            }

    def restore(self) -> list[str]:
        changed = []
        for (owner, name), original in self.functions.items():
            if getattr(owner, name, None) is not original:
                setattr(owner, name, original)
                changed.append(f"{getattr(owner, '__name__', owner)}.{name}")
        for name, module in self.modules.items():
            if sys.modules.get(name) is not module:
                sys.modules[name] = module
                changed.append(f"sys.modules[{name!r}]")
        changed += _restore_namespace(builtins, self.builtins, "builtins")
        for obj, namespace in self.namespaces.items():
            changed += _restore_namespace(obj, namespace, obj.__name__)
        if self.shell is not None:
            changed += self._restore_shell()
        return changed

    def _restore_shell(self) -> list[str]:
        shell, changed = self.shell, []
        for name, original in self.lists.items():
            current = getattr(shell, name)
            if current != original:
                current[:] = original
                changed.append(f"IPython {name}")
        for event, original in self.callbacks.items():
            if shell.events.callbacks.get(event) != original:
                shell.events.callbacks[event] = list(original)
                changed.append(f"IPython {event} callbacks")
        if shell.displayhook is not self.displayhook:
            shell.displayhook = self.displayhook
            changed.append("IPython displayhook")
        for (cls, name), original in self.methods.items():
            if getattr(cls, name) is not original:
                setattr(cls, name, original)
                changed.append(f"{cls.__name__}.{name}")
        for owner, names in ((shell, _SHELL_METHODS), (shell.displayhook, _DISPLAY_METHODS)):
            for name in [n for n in names if n in vars(owner)]:
                delattr(owner, name)  # an instance attribute hiding the class's method
                changed.append(f"{type(owner).__name__}.{name}")
        return changed


def _restore_namespace(obj, original: dict, label: str) -> list[str]:
    changed = []
    current = vars(obj)
    for name, value in original.items():
        now = current.get(name, _MISSING)
        # `==` as well as `is`: IPython re-binds some builtins (get_ipython) to equal methods.
        if now is not value and not _equal(now, value):
            setattr(obj, name, value)
            changed.append(f"{label}.{name}")
    return changed


def _equal(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:  # objects whose == raises or returns something odd
        return False


_MISSING = object()
_SNAPSHOT = _Snapshot()


def restore(nonce: str | None = None) -> list[str] | str:
    """Undo changes to the test machinery; the names of what was changed.

    With a ``nonce`` (the grader's call) the answer is JSON ``{"nonce": ..., "changed": [...]}``
    so that the grader can tell a real answer from one a notebook made up.
    """
    changed = _SNAPSHOT.restore()
    if nonce is None:
        return changed
    return json.dumps({"nonce": nonce, "changed": changed})
