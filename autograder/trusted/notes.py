"""What the reader records on ast's nodes, written and read back in one place."""

from __future__ import annotations

import ast

from autograder.trusted.bindings import Scope

# What ``Program`` records on the nodes it reads, attributes ast's classes do not declare:
# ``parent`` (the node a node sits in), ``call`` (on a call's function: the call), ``scope``
# (on a name: the scope it is read or bound in) and ``own_scope`` (on a function, lambda,
# class or comprehension: the scope it opens). Written with ``note``, read with the functions
# below, so that what each holds is typed in one place.


def note(node: ast.AST, attribute: str, value: object) -> None:
    """Record ``value`` on ``node`` as ``attribute`` (one of those above)."""
    setattr(node, attribute, value)


def parent_of(node: ast.AST | None) -> ast.AST | None:
    """The node ``node`` sits in; None for a tree's root, a shared node, or no node."""
    return getattr(node, "parent", None)


def call_of(node: ast.AST | None) -> ast.Call | None:
    """The call whose function ``node`` is; None when it is not called there."""
    return getattr(node, "call", None)


def scope_of(node: ast.Name) -> Scope | None:
    """The scope a name is read or bound in; None for one the program did not read."""
    return getattr(node, "scope", None)
