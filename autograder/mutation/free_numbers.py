"""Where the free numbers of a reference answer are: its solution cell instrumented so that
every number a family may free (a divisor, a factor, an exponent, a term added) is written
``__free__(i, E)``, with what the student's answer would do with it there (``Site``). The
families that free them are ``families.py``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

FILE = "<family>"  # the instrumented cell's file name, how ``__free__`` knows its frames


def _solution_lines(source: str) -> set[int]:
    """The numbers of a cell's lines between ``### BEGIN SOLUTION`` and ``### END SOLUTION``."""
    lines, inside = set(), False
    for number, line in enumerate(source.splitlines(), start=1):
        if "### BEGIN SOLUTION" in line:
            inside = True
        elif "### END SOLUTION" in line:
            inside = False
        elif inside:
            lines.add(number)
    return lines


def _scalar(node: ast.AST) -> bool:
    """Whether ``node`` looks like a number: a literal, a name, a size, a root of one."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return not (isinstance(node, ast.Attribute) and node.attr in ("T", "mT", "weight"))
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute) and node.value.attr == "shape"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _scalar(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return _scalar(node.left) and isinstance(node.right, ast.Constant)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name in ("sqrt", "len", "size", "float", "int", "log") and len(node.args) <= 1
    return False


# (operator, side) -> what the student's answer does with the number there.
VERBS = {
    (ast.Div, "right"): "divides by",
    (ast.FloorDiv, "right"): "divides by",
    (ast.Mult, "right"): "multiplies by",
    (ast.Mult, "left"): "multiplies by",
    (ast.Pow, "right"): "raises to the power",
    (ast.Pow, "left"): "takes the power of",
    (ast.Add, "right"): "adds",
    (ast.Add, "left"): "adds",
    (ast.Sub, "right"): "subtracts",
}


@dataclass
class Site:
    """A number of the reference answer that a family frees."""

    index: int
    verb: str
    code: str  # the reference's expression there, "`math.sqrt(Q.shape[-1])`"
    exponent: bool  # an exponent or a term: other simple changes apply


def instrument(source: str) -> tuple[str, list[Site]]:
    """The cell with every free number ``E`` of its solution written ``__free__(i, E)``."""
    tree = ast.parse(source)
    lines = _solution_lines(source)
    sites: list[Site] = []

    class Freer(ast.NodeTransformer):
        def visit_BinOp(self, node):
            self.generic_visit(node)
            if node.lineno not in lines:
                return node
            for side in ("left", "right"):
                operand, verb = getattr(node, side), VERBS.get((type(node.op), side))
                additive = isinstance(node.op, (ast.Add, ast.Sub))
                if (
                    verb is None
                    or not _scalar(operand)
                    or (additive and not isinstance(operand, ast.Constant))
                    or (
                        isinstance(node.op, ast.Pow)
                        and side == "left"
                        and not isinstance(operand, ast.Constant)
                    )
                ):
                    continue
                text = ast.unparse(operand)
                sites.append(
                    Site(
                        len(sites),
                        verb,
                        f"`{text}`",
                        isinstance(node.op, (ast.Pow, ast.Add, ast.Sub)),
                    )
                )
                setattr(
                    node,
                    side,
                    ast.Call(
                        ast.Name("__free__", ast.Load()),
                        [ast.Constant(len(sites) - 1), operand],
                        [],
                    ),
                )
            return node

    tree = ast.fix_missing_locations(Freer().visit(tree))
    return ast.unparse(tree), sites
