"""Mutants of a reference answer: small typed rewrites of its syntax tree.

A mutant is the reference answer with one plausible mistake in it: an operand swapped for
another of the same role (``K`` for ``V``), a scale dropped or changed, a reduction over
the wrong axis, a transpose added or removed, ``max`` for ``min``, an off-by-one, a term
left out, two steps in the wrong order, an argument ignored, an input changed in place,
``sin`` for ``cos``, a pair returned the wrong way round. Only the code between
``### BEGIN SOLUTION`` and ``### END SOLUTION`` is rewritten.

Each mutant carries a description in plain words, generated from the rewrite, that
completes the sentence "an answer that ...": "divides by `d` instead of its square root",
"uses `K` where `V` belongs". ``autograder/mutation/analysis.py`` measures how many of them
an exercise's checks catch; the grader names the one a wrong answer matches
(``autograder/mutation/variants.py``).
"""

from __future__ import annotations

import ast
import copy
import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from autograder.mutation.expressions import _rewrites
from autograder.mutation.families import _solution_lines
from autograder.mutation.syntax import (
    _call_name,
    _code,
    _functions,
    _Scope,
    _set,
    _sliced,
    _walk,
)

# Kinds whose mutants may never count as equivalent to the reference: an argument the
# checks never set, or an input changed in place, is a hole in the checks, not a harmless
# rewrite.
NEVER_EQUIVALENT = frozenset({"ignores an argument", "changes an input in place"})


@dataclass(frozen=True)
class Mutant:
    """One rewrite of a solution cell: its kind, its description, the whole new cell."""

    kind: str
    description: str
    source: str


def _exchanges(tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.AST]
               ) -> Iterator[tuple[str, str, ast.AST]]:
    """Two operands of one role exchanged wherever the solution uses them: `norm3` after
    the cross-attention and `norm2` after the feed-forward network."""
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.lineno in lines})
    for a, b in itertools.combinations(used, 2):
        if b not in scope.partners(a):
            continue
        new_tree = fresh()
        for node in ast.walk(new_tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                    and getattr(node, "lineno", None) in lines and node.id in (a, b):
                node.id = b if node.id == a else a
        yield ("swaps operands", f"exchanges `{a}` and `{b}` wherever it uses them", new_tree)


def _one_for_all(tree: ast.AST, lines: set[int], scope: _Scope, fresh: Callable[[], ast.AST]
                 ) -> Iterator[tuple[str, str, ast.AST]]:
    """One argument read wherever others of its role belong, at every use: `query` for `key`
    and `value` (self-attention where cross-attention belongs)."""
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load) and n.lineno in lines} & scope.parameters)
    for a in used:
        others = [b for b in scope.partners(a) if b in used]
        for replaced in [[b] for b in others] + ([others] if len(others) > 1 else []):
            new_tree = fresh()
            for node in ast.walk(new_tree):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
                        and getattr(node, "lineno", None) in lines and node.id in replaced:
                    node.id = a
            names = " and ".join(f"`{b}`" for b in replaced)
            alone = " alone," if len(replaced) > 1 else ""
            yield ("swaps operands", f"uses `{a}`{alone} wherever {names} "
                   f"belong{'s' if len(replaced) == 1 else ''}", new_tree)


def _slices_dropped(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                    ) -> Iterator[tuple[str, str, ast.AST]]:
    """One slice left out wherever the solution takes it, from several tensors at once:
    the whole of both caches where their first `end` positions belong."""
    groups: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if _sliced(node) and node.lineno in lines:
            groups.setdefault(ast.unparse(node.slice), []).append(ast.unparse(node.value))
    for index, values in groups.items():
        if len(set(values)) < 2:
            continue
        new_tree = fresh()
        for parent, field, position, node in list(_walk(new_tree)):
            if _sliced(node) and node.lineno in lines and ast.unparse(node.slice) == index:
                _set(parent, field, position, node.value)
        names = " and ".join(f"`{v}`" for v in dict.fromkeys(values))
        yield ("drops a slice", f"uses all of {names} where `[{index.strip('()')}]` of them "
               "belongs",
               new_tree)


def _reads(root: ast.AST, name: str, lines: set[int]) -> list[tuple[ast.AST, str, int | None]]:
    """(parent, field, index) of every read of ``name`` under ``root`` on solution lines."""
    return [(parent, field, index) for parent, field, index, node in _walk(root)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
            and node.id == name and getattr(node, "lineno", None) in lines]


def _dropout_moved(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """Dropout applied to a later value (the output) instead of the one it belongs to (the
    attention weights)."""
    def places(root):
        for node in ast.walk(root):
            block = getattr(node, "body", None)
            for index, statement in enumerate(block if isinstance(block, list) else []):
                if isinstance(statement, ast.Assign) and statement.lineno in lines \
                        and isinstance(statement.value, ast.Call) \
                        and _call_name(statement.value) == "dropout" and statement.value.args:
                    for later in block[index + 1:]:
                        if isinstance(later, ast.Assign) and len(later.targets) == 1 \
                                and isinstance(later.targets[0], ast.Name):
                            yield statement, later
    for number, (statement, later) in enumerate(places(tree)):
        new_tree = fresh()
        new_statement, new_later = list(places(new_tree))[number]
        call = new_statement.value
        new_statement.value = call.args[0]
        new_later.value = ast.Call(call.func, [new_later.value, *call.args[1:]], call.keywords)
        yield ("moves a step", f"applies {_code(statement.value.func)} to "
               f"`{later.targets[0].id}` instead of to "
               f"{_code(statement.targets[0])}", new_tree)


def _whole_reductions(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                      ) -> Iterator[tuple[str, str, ast.AST]]:
    """Every reduction of a function (a mean, a variance) taken over the whole tensor at once
    instead of over its axis: one number for all tokens where each token needs its own."""
    def reductions(function):
        return [n for n in ast.walk(function) if isinstance(n, ast.Call)
                and getattr(n, "lineno", None) in lines
                and _call_name(n) in ("mean", "var", "std", "sum", "amax", "logsumexp")
                and (any(k.arg in ("dim", "axis") for k in n.keywords) or (
                    isinstance(n.func, ast.Attribute) and n.args))]
    for number, function in enumerate(_functions(tree)):
        calls = reductions(function)
        if not calls:
            continue
        new_tree = fresh()
        for call in reductions(_functions(new_tree)[number]):
            method = isinstance(call.func, ast.Attribute) and ast.unparse(
                call.func.value) not in ("torch", "F")
            call.args = [] if method else call.args[:1]
            call.keywords = [k for k in call.keywords if k.arg not in ("dim", "axis",
                                                                        "keepdim")]
        names = " and ".join(dict.fromkeys(f"`{_call_name(c)}`" for c in calls))
        yield ("changes an axis", f"takes {names} over the whole tensor at once instead of "
               "over one axis (one number for every token)", new_tree)


def _inputs_transformed(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                        ) -> Iterator[tuple[str, str, ast.AST]]:
    """A residual that adds the transformed input (`norm1(x)`) where the input itself
    (`x`) belongs: `x + attention(norm1(x))` written as `norm1(x) + attention(norm1(x))`."""
    found = []
    for function in _functions(tree):
        calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)
                 and getattr(n, "lineno", None) in lines and isinstance(n.func, ast.Name)
                 and len(n.args) == 1 and isinstance(n.args[0], ast.Name)]
        found += [(call, parent, field) for call in calls
                  for parent, field, _ in _reads(function, call.args[0].id, lines)
                  if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add)]
    for call, parent, field in found:
        new_tree = fresh()
        new_parent = next(n for n in ast.walk(new_tree) if isinstance(n, ast.BinOp)
                          and ast.dump(n) == ast.dump(parent))
        setattr(new_parent, field, copy.deepcopy(call))
        yield ("swaps an operand", f"adds {_code(call)} where `{call.args[0].id}` belongs in "
               f"{_code(parent)} (the residual path carries the transformed input)", new_tree)


def _inlined_without_term(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                          ) -> Iterator[tuple[str, str, ast.AST]]:
    """One use of an intermediate made again without one of its terms: a softmax whose
    numerator is shifted by the maximum and whose denominator is not."""
    places = []
    for owner in ast.walk(tree):
        block = getattr(owner, "body", None)
        for index, statement in enumerate(block if isinstance(block, list) else []):
            if isinstance(statement, ast.Assign) and statement.lineno in lines \
                    and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                name = statement.targets[0].id
                uses = [u for later in block[index + 1:] for u in _reads(later, name, lines)]
                terms = [n for n in ast.walk(statement.value) if isinstance(n, ast.BinOp)
                         and isinstance(n.op, (ast.Add, ast.Sub))]
                if len(uses) > 1:
                    places += [(statement, use, term) for use in range(len(uses))
                               for term in range(len(terms))]
    for statement, use, term in places:
        new_tree = fresh()
        new_statement = [n for n in ast.walk(new_tree) if isinstance(n, ast.Assign)
                         and ast.dump(n) == ast.dump(statement)][0]
        block = next(b for n in ast.walk(new_tree) if isinstance(b := getattr(n, "body", None),
                                                                   list) and new_statement in b)
        name = statement.targets[0].id
        parent, field, index = [u for later in block[block.index(new_statement) + 1:]
                                for u in _reads(later, name, lines)][use]
        value = copy.deepcopy(statement.value)
        binop = [n for n in ast.walk(value) if isinstance(n, ast.BinOp)
                 and isinstance(n.op, (ast.Add, ast.Sub))][term]
        dropped = f"{'+' if isinstance(binop.op, ast.Add) else '−'} {_code(binop.right)}"
        for p, f, i, n in _walk(value):
            if n is binop:
                _set(p, f, i, binop.left)
                break
        else:
            value = binop.left
        use_node = getattr(parent, field) if index is None else getattr(parent, field)[index]
        context = next((f"the {side} {_code(d)}" for d in ast.walk(new_tree)
                        if isinstance(d, ast.BinOp) and isinstance(d.op, ast.Div)
                        for side, part in (("denominator of", d.right), ("numerator of", d.left))
                        if any(n is use_node for n in ast.walk(part))), _code(parent))
        _set(parent, field, index, value)
        yield ("drops a term", f"leaves out {dropped} from `{name}` in {context} (the other "
               "uses keep it)", new_tree)


def _arguments_ignored(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST],
                       scope: _Scope) -> Iterator[tuple[str, str, ast.AST]]:
    """An argument indexed by the answer (positions, steps) ignored for the ordinary case
    0 … n − 1: right only when it starts at 0, as it does before a cache holds anything."""
    for number, function in enumerate(_functions(tree)):
        first = next((i for i, s in enumerate(function.body) if s.lineno in lines), None)
        indexed = {n.value.id for n in ast.walk(function) if isinstance(n, ast.Subscript)
                   and isinstance(n.value, ast.Name) and getattr(n, "lineno", None) in lines}
        for argument in function.args.args:
            name = argument.arg
            if first is None or name not in indexed or name in scope.tensors \
                    or name in scope.defaults:
                continue
            new_tree = fresh()
            _functions(new_tree)[number].body.insert(first, ast.parse(
                f"{name} = torch.arange(len({name}))").body[0])
            yield ("treats an argument as a count", f"ignores the values of `{name}`, as if "
                   "they were always 0, 1, 2, …", new_tree)


def _tests_dropped(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                   ) -> Iterator[tuple[str, str, ast.AST]]:
    """An `if` without `else` whose body runs whatever its test says: `evaluate(model)`
    called even when no `evaluate` was given."""
    def tests(root):
        return [(block, index) for node in ast.walk(root) for field in ("body", "orelse")
                if isinstance(block := getattr(node, field, None), list)
                for index, statement in enumerate(block) if isinstance(statement, ast.If)
                and not statement.orelse and statement.lineno in lines]
    for number, (block, index) in enumerate(tests(tree)):
        test = block[index].test
        new_tree = fresh()
        new_block, new_index = tests(new_tree)[number]
        new_block[new_index:new_index + 1] = new_block[new_index].body
        yield ("drops a test", f"runs what `if {ast.unparse(test)[:40]}` guards even when the "
               "test is false (leaves out the test)", new_tree)


def _statements(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution that a block can do without: not
    a `return`, and not the block's only statement."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and len(block) > 1:
                yield from ((block, index) for index, statement in enumerate(block)
                            if statement.lineno in lines and not isinstance(statement, ast.Return))


def _neighbours(tree: ast.AST, lines: set[int]) -> Iterator[tuple[list, int]]:
    """(block, index) of every statement in the solution followed by another one there."""
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for index, (first, second) in enumerate(zip(block, block[1:], strict=False)):
                if first.lineno in lines and second.lineno in lines \
                        and not isinstance(second, ast.Return):
                    yield block, index


def _swap(block: list, index: int) -> None:
    block[index], block[index + 1] = block[index + 1], block[index]


def _drop(block: list, index: int) -> None:
    del block[index]


def _updates(body: list, bound: set[str], lines: set[int]) -> Iterator[int]:
    """Indices of the statements in ``body`` (on solution lines) that change what is already
    there: a call, an `if`, `x += ...`, or `x = ...` of a name bound before."""
    bound = set(bound)
    for index, statement in enumerate(body):
        targets = [t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)]
        if statement.lineno in lines and (
                isinstance(statement, (ast.Expr, ast.If, ast.AugAssign))
                or (isinstance(statement, ast.Assign) and targets
                    and set(targets) <= bound)):
            yield index
        bound |= set(targets)


FIRST_ITEM = ast.parse(
    "def _mutant_first_item(new, old):\n"
    "    if isinstance(new, torch.Tensor) and isinstance(old, torch.Tensor) \\\n"
    "            and new.shape == old.shape and new.dim() > 0:\n"
    "        return torch.cat([new[:1], old[1:]])\n"
    "    return new\n").body[0]


def _first_only(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                ) -> Iterator[tuple[str, str, ast.AST]]:
    """Mutants that apply one step only on a function's first call, only to a loop's first
    item, or only to the first item of a batch: the kind that passes checks which call once
    or pass a batch of one."""
    functions = _functions(tree)
    for number, function in enumerate(functions):
        parameters = {a.arg for a in function.args.args + function.args.kwonlyargs}
        for index in _updates(function.body, parameters, lines):
            statement = function.body[index]
            new_tree = fresh()
            target = _functions(new_tree)[number]
            key = f"{function.name}:{number}"
            counter = ast.parse(f"_mutant_calls[{key!r}] = _mutant_calls.get({key!r}, 0) + 1"
                                ).body[0]
            guarded = ast.If(ast.parse(f"_mutant_calls[{key!r}] == 1", mode="eval").body,
                             [target.body[index]], [])
            target.body[index] = guarded
            target.body.insert(0, counter)
            new_tree.body.insert(0, ast.parse("_mutant_calls = {}").body[0])
            yield ("first call only", f"applies {_code(statement)} only on the first call",
                   new_tree)
        updates = [n for n in ast.walk(function) if isinstance(n, ast.Assign)
                   and n.lineno in lines and len(n.targets) == 1
                   and isinstance(n.targets[0], ast.Name)
                   and any(isinstance(x, ast.Name) and x.id == n.targets[0].id
                           for x in ast.walk(n.value))]  # x = f(x): a step applied to x
        for statement in updates:
            new_tree = fresh()
            target = _functions(new_tree)[number]
            assign = [n for n in ast.walk(target) if isinstance(n, ast.Assign)
                      and n.lineno in lines and ast.dump(n) == ast.dump(statement)][0]
            assign.value = ast.Call(ast.Name("_mutant_first_item", ast.Load()),
                                    [assign.value, ast.Name(statement.targets[0].id,
                                                            ast.Load())], [])
            new_tree.body.insert(0, copy.deepcopy(FIRST_ITEM))
            yield ("first item only", f"applies {_code(statement, 60)} only to the first item "
                   "of the batch", new_tree)
    loops = [n for n in ast.walk(tree) if isinstance(n, ast.For) and n.lineno in lines]
    for number, loop in enumerate(loops):
        for index in _updates(loop.body, {n.id for n in ast.walk(loop.target)
                                          if isinstance(n, ast.Name)} | _names_before(tree, loop),
                              lines):
            new_tree = fresh()
            target = [n for n in ast.walk(new_tree) if isinstance(n, ast.For)
                      and n.lineno in lines][number]
            statement = target.body[index]
            target.body[index] = ast.If(ast.Name("_mutant_first", ast.Load()), [statement], [])
            target.body.append(ast.parse("_mutant_first = False").body[0])
            _insert_before(new_tree, target, ast.parse("_mutant_first = True").body[0])
            yield ("first item only", f"applies {_code(statement)} only to the loop's first "
                   "item", new_tree)


def _loop_orders(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                 ) -> Iterator[tuple[str, str, ast.AST]]:
    """A loop over a sequence (blocks, heads, steps) run backwards, or over its last item
    only: what a stack gives when every pass starts again from the loop's input, so that
    only the last pass counts."""
    def stack_loops(root: ast.AST) -> list[ast.For]:  # loops over a name, not a range
        return [n for n in ast.walk(root) if isinstance(n, ast.For) and n.lineno in lines
                and isinstance(n.iter, (ast.Name, ast.Attribute))]

    for number, loop in enumerate(stack_loops(tree)):
        items = ast.unparse(loop.iter)
        for order, description in (
                (f"list({items})[::-1]", f"runs the loop over `{items}` in reverse order "
                                         "(the last item first)"),
                (f"list({items})[-1:]", f"runs the loop over only the last item of "
                                        f"`{items}`, as if every pass started again from the "
                                        "loop's input (so only the last one counts)")):
            new_tree = fresh()
            stack_loops(new_tree)[number].iter = ast.parse(order, mode="eval").body
            yield ("changes a loop's order", description, new_tree)


def _root(node: ast.AST) -> str | None:
    """The name an expression starts from: `history` in `history["bits"].append`."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _changed_in(body: list) -> set[str]:
    """The names a loop's body changes: assigns to, adds to, or calls a method of."""
    changed = set()
    for node in (n for statement in body for n in ast.walk(statement)):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in getattr(node, "targets", [getattr(node, "target", None)]):
                changed |= {_root(t) for t in ast.walk(target)
                            if isinstance(t, (ast.Name, ast.Attribute, ast.Subscript))}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed.add(_root(node.func.value))
    return changed - {None}


def _into_loops(tree: ast.AST, lines: set[int], fresh: Callable[[], ast.AST]
                ) -> Iterator[tuple[str, str, ast.AST]]:
    """A state made once before a loop that changes it (a list appended to, a scheduler
    stepped, a running maximum) made inside the loop instead, anew at every pass."""
    places = []
    for owner_number, owner in enumerate(ast.walk(tree)):
        block = getattr(owner, "body", None)
        for index, loop in enumerate(block if isinstance(block, list) else []):
            if isinstance(loop, ast.For) and loop.lineno in lines:
                changed = _changed_in(loop.body)
                places += [(owner_number, index, before) for before, statement
                           in enumerate(block[:index])
                           if isinstance(statement, ast.Assign) and statement.lineno in lines
                           and len(statement.targets) == 1
                           and isinstance(statement.targets[0], ast.Name)
                           and statement.targets[0].id in changed]
    for owner_number, index, before in places:
        new_tree = fresh()
        block = list(ast.walk(new_tree))[owner_number].body
        statement, loop = block[before], block[index]
        loop.body.insert(0, statement)
        del block[before]
        yield ("makes a state in a loop", f"makes {_code(statement)} inside the loop, anew at "
               "every pass, instead of once before it", new_tree)


def _names_before(tree: ast.AST, loop: ast.For) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Store) and n.lineno < loop.lineno} | \
        {a.arg for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for a in n.args.args}


def _insert_before(tree: ast.AST, statement: ast.stmt, new: ast.stmt) -> None:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(item is statement for item in block):
                block.insert(next(i for i, item in enumerate(block) if item is statement), new)
                return


def mutants(source: str) -> list[Mutant]:
    """Every mutant of the solution in a cell's ``source``; duplicates and mutants that
    do not compile are left out."""
    return list(_mutants(source))


@functools.cache  # a grading worker names mistakes in the same answers for every student
def _mutants(source: str) -> tuple[Mutant, ...]:
    tree = ast.parse(source)
    lines = _solution_lines(source)
    scope = _Scope(tree)
    reference = ast.unparse(tree)
    found: dict[str, Mutant] = {}

    def fresh() -> ast.AST:  # a copy of the tree to rewrite (parsing is 3x deepcopy's speed)
        return ast.parse(source)

    def keep(kind: str, description: str, new_tree: ast.AST) -> None:
        try:
            text = ast.unparse(ast.fix_missing_locations(new_tree))
            compile(text, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError, AttributeError):
            return
        if text != reference and text not in found:
            found[text] = Mutant(kind, description, text)

    for number, (parent, field, _index, node) in enumerate(_walk(tree)):
        if getattr(node, "lineno", None) not in lines:
            continue
        for kind, description, replacement in _rewrites(node, parent, field, scope):
            new_tree = fresh()
            new_parent, new_field, new_index, _ = next(
                item for n, item in enumerate(_walk(new_tree)) if n == number)
            _set(new_parent, new_field, new_index, copy.deepcopy(replacement))
            keep(kind, description, new_tree)
    for number, (block, index) in enumerate(_neighbours(tree, lines)):
        new_tree = fresh()
        _swap(*list(_neighbours(new_tree, lines))[number])
        keep("swaps two steps", f"runs {_code(block[index + 1])} before {_code(block[index])}",
             new_tree)
    for number, (block, index) in enumerate(_statements(tree, lines)):
        new_tree = fresh()
        _drop(*list(_statements(new_tree, lines))[number])
        keep("drops a step", f"leaves out the step {_code(block[index])}", new_tree)
    for kind, description, new_tree in (*_first_only(tree, lines, fresh),
                                        *_loop_orders(tree, lines, fresh),
                                        *_into_loops(tree, lines, fresh),
                                        *_exchanges(tree, lines, scope, fresh),
                                        *_one_for_all(tree, lines, scope, fresh),
                                        *_slices_dropped(tree, lines, fresh),
                                        *_dropout_moved(tree, lines, fresh),
                                        *_whole_reductions(tree, lines, fresh),
                                        *_inputs_transformed(tree, lines, fresh),
                                        *_inlined_without_term(tree, lines, fresh),
                                        *_arguments_ignored(tree, lines, fresh, scope),
                                        *_tests_dropped(tree, lines, fresh)):
        keep(kind, description, new_tree)
    return tuple(found.values())


def defined_names(source: str) -> list[str]:
    """The functions and classes a solution cell defines (what its checks call)."""
    return [node.name for node in ast.parse(source).body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
