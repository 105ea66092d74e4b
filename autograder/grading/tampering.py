"""A first look at a submission's code, before grading: what it does to the test machinery.

Before the notebook is graded, each code cell the student could edit is parsed (never run)
and read for code that reaches into the grading itself: IPython's input and AST transformers,
the display hook, event callbacks, ``os._exit``, killing processes, or an attribute replaced on
the checks, PyTorch, ``sys`` or ``builtins`` (``torch.allclose = ...``). Each finding is an
event for the instructor's report (kind ``suspicious``); it costs no points and stops nothing.
The names are taken as written: no import is followed, and a cell that does not parse as
plain Python is passed over.

This is not the reader that grades. What an exercise's answer may use is decided while the
notebook runs, in the trusted checker's process, by ``autograder/trusted/uses.py`` over
``autograder/trusted/scopes.py``, which resolve every name as Python does (imports, aliases,
scopes): that reader refuses shortcuts, and flags (``opaque``) what it cannot read through.
The two meet where a library's attribute is replaced, which each reports in its own words;
IPython's hooks, ``os._exit`` and ``kill`` are named only here.
"""

from __future__ import annotations

import ast

from autograder.cells import grade_id, source

SUSPICIOUS_ATTRIBUTES = {
    "input_transformers_post": "rewrites later cells (IPython input transformers)",
    "input_transformers_cleanup": "rewrites later cells (IPython input transformers)",
    "ast_transformers": "rewrites later cells (IPython AST transformers)",
    "displayhook": "changes how results are displayed",
    "register": "registers IPython event callbacks",
    "_exit": "ends the kernel (os._exit)",
    "kill": "kills a process",
}
PROTECTED_ROOTS = {
    "torch",
    "checking",
    "Checks",
    "builtins",
    "sys",
    "transformer_course",
    "course_checks",
    "F",
    "nn",
}


def suspicious(code: str) -> list[str]:
    """What a student's code does to the test machinery, found by reading it."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS_ATTRIBUTES:
            found.append((node.lineno, SUSPICIOUS_ATTRIBUTES[node.attr]))
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            targets = node.args[:1]
        for target in targets:
            assert isinstance(node, (ast.Assign, ast.Call))  # the nodes that have targets
            root = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if target is not root and getattr(root, "id", None) in PROTECTED_ROOTS:
                found.append((node.lineno, f"replaces {ast.unparse(target)}"))
            if (
                isinstance(node, ast.Call)
                and isinstance(root, ast.Name)
                and root.id in PROTECTED_ROOTS
            ):
                found.append((node.lineno, f"replaces an attribute of {root.id}"))
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


def events(notebook: dict, release: dict) -> list[dict]:
    """The report's events for ``notebook``'s code cells that are not locked in ``release``
    (locked cells are replaced by the instructor's version anyway)."""
    locked = {
        grade_id(c)
        for c in release["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("locked")
    }
    found = []
    for cell in notebook["cells"]:
        if cell.get("cell_type") != "code" or grade_id(cell) in locked:
            continue
        for finding in suspicious(source(cell)):
            where = (
                f"answer cell {grade_id(cell)}" if grade_id(cell) else "a cell the student added"
            )
            found.append(
                {"kind": "suspicious", "cell": grade_id(cell), "message": f"{where}, {finding}"}
            )
    return found
