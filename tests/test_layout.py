"""autograder/ is laid out by purpose, and its parts import one another in one direction."""

from __future__ import annotations

import ast

from conftest import REPO

PARTS = {"cells", "kernels", "trusted", "grading", "releases", "mutation"}


def imports() -> dict[str, set[str]]:
    """Each autograder module -> the autograder modules it imports (also inside functions)."""
    found = {}
    for path in (REPO / "autograder").rglob("*.py"):
        name = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("autograder"):
                deps |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name.startswith("autograder")}
        found[name] = deps
    return {name: {d for d in deps if d in found and d != name} for name, deps in found.items()}


def test_the_parts_are_folders_and_no_module_is_left_loose():
    loose = {p.stem for p in (REPO / "autograder").glob("*.py")}
    assert loose <= {"__init__", "cells", "nbgrader_config"}, loose
    assert {p.name for p in (REPO / "autograder").iterdir() if p.is_dir()} >= PARTS - {"cells"}


def test_there_is_no_import_circle():
    graph = imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        for dep in graph[module]:
            assert dep not in path, " -> ".join(path[path.index(dep) :] + [dep])
            if dep not in done:
                visit(dep, path + [dep])
        done.add(module)

    for module in graph:
        visit(module, [module])


def test_the_kernel_side_needs_nothing_of_grading():
    """The agent runs in the student's kernel: it may use the wire, never the grader."""
    assert imports()["autograder.trusted.agent"] <= {
        "autograder.trusted",
        "autograder.trusted.wire",
    }


COURSE_PACKAGES = ("autograder", "course_checks", "transformer_course")


def _course_modules_bound(tree: ast.AST) -> set[str]:
    """Names a module binds to another course module by importing it (``from course_checks
    import checking``, ``import autograder.trusted.wire as wire``)."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(COURSE_PACKAGES):
            bound |= {a.asname or a.name for a in node.names if a.name[:1].islower()}
        elif isinstance(node, ast.Import):
            bound |= {
                a.asname for a in node.names if a.asname and a.name.startswith(COURSE_PACKAGES)
            }
    return bound


def test_no_module_assigns_another_course_modules_globals():
    """Issue "A house a maintainer can take over": grading once patched the checks' module
    globals (``checking.variant_answers = ...``); what grading hands the checks now travels
    in one grading context (course_checks/context.py), and no course module assigns, or
    ``setattr``s, a name in another."""
    found = []
    for package in COURSE_PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            tree = ast.parse(path.read_text())
            modules = _course_modules_bound(tree)
            for node in ast.walk(tree):
                targets = (
                    node.targets
                    if isinstance(node, ast.Assign)
                    else [node.target]
                    if isinstance(node, (ast.AugAssign, ast.AnnAssign))
                    else []
                )
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", "") == "setattr"
                    and node.args
                    and getattr(node.args[0], "id", "") in modules
                ):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}")
                for target in targets:
                    for part in ast.walk(target):
                        if (
                            isinstance(part, ast.Attribute)
                            and isinstance(part.ctx, ast.Store)
                            and getattr(part.value, "id", "") in modules
                        ):
                            found.append(
                                f"{path.relative_to(REPO)}:{node.lineno} {ast.unparse(part)}"
                            )
    assert found == []
