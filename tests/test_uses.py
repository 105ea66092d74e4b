"""autograder/trusted/uses.py: what an answer reaches, read from its source as data."""

from __future__ import annotations

import pytest

from autograder.trusted.uses import Program, Reader
from course_checks import shortcuts

SETUP = (
    "import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
    "from course_checks import Checks, shortcuts\n"
)
HONEST = "def softmax(z):\n    e = torch.exp(z - z.max())\n    return e / e.sum()\n"


def findings(*cells: str, refuses=shortcuts.SOFTMAX, entries=("softmax",)):
    program = Program(
        [("the set-up cell", SETUP, False)]
        + [(f"cell {n}", code, True) for n, code in enumerate(cells)]
    )
    reader = Reader(program, refuses)
    return reader.findings(entries), reader.anywhere()


REFUSED = {  # every way of reaching a refused function that the issue and reviews named
    "a direct call": ["def softmax(z):\n    return torch.softmax(z, 0)\n"],
    "an alias of the module": ["def softmax(z):\n    return F.softmax(z, dim=0)\n"],
    "a method": ["def softmax(z):\n    return z.softmax(0)\n"],
    "a default argument": ["def softmax(z, f=torch.softmax):\n    return f(z, 0)\n"],
    "a private name": ["def softmax(z):\n    return torch._softmax(z, 0, False)\n"],
    "functools.partial": [
        "import functools\nsoftmax = functools.partial(torch.nn.functional.softmax, dim=0)\n"
    ],
    "a closure": [
        "def make():\n    g = torch.softmax\n    def inner(z):\n        return g(z, 0)"
        "\n    return inner\nsoftmax = make()\n"
    ],
    "an alias in another cell": [
        "sm = torch.special.softmax\n",
        "def softmax(z):\n    return sm(z, 0)\n",
    ],
    "from-import as": ["from torch import softmax as s\ndef softmax(z):\n    return s(z, 0)\n"],
    "a star import": ["from torch.nn.functional import *\n"],
    "getattr with a constant": ["def softmax(z):\n    return getattr(torch, 'softmax')(z, 0)\n"],
    "the package's answer": [
        "from transformer_course.attention import softmax as ref\n"
        "def softmax(z):\n    return ref(z)\n"
    ],
    "the in-kernel refusal switched off": [
        "shortcuts.refused = lambda *a, **k: None\n"
        "def softmax(z):\n    return torch.softmax(z, 0)\n"
    ],
    "inside a %%time cell": ["%%time\ndef softmax(z):\n    return torch.softmax(z, 0)\n"],
    "log-softmax, exponentiated": ["def softmax(z):\n    return torch.log_softmax(z, 0).exp()\n"],
    "a module doing it": ["def softmax(z):\n    return nn.Softmax(dim=0)(z)\n"],
    # The same operation kept elsewhere by PyTorch (found by a blind attacker).
    "the operator registry": ["def softmax(z):\n    return torch.ops.aten.softmax(z, 0)\n"],
    "an overload of it": ["def softmax(z):\n    return torch.ops.aten.softmax.int(z, 0)\n"],
    "the sparse version": [
        "def softmax(z):\n    return torch.sparse.softmax(z.to_sparse(), 0).to_dense()\n"
    ],
}


# What each of REFUSED is refused as: the function reached, and where (cell and line) the
# answer reaches it; an import is named as one, without a line (autograder/trusted/uses.py).
REFUSED_AS = {
    "a direct call": ("torch.softmax", "cell 0, line 2"),
    "an alias of the module": ("torch.nn.functional.softmax", "cell 0, line 2"),
    "a method": ("torch.Tensor.softmax", "cell 0, line 2"),
    "a default argument": ("torch.softmax", "cell 0, line 1"),
    "a private name": ("PyTorch's private torch._softmax", "cell 0, line 2"),
    "functools.partial": ("torch.nn.functional.softmax", "cell 0, line 2"),
    "a closure": ("torch.softmax", "cell 0, line 2"),
    "an alias in another cell": ("torch.special.softmax", "cell 1, line 2"),
    "from-import as": ("torch.softmax", "cell 0, line 3"),
    "a star import": ("torch.nn.functional.softmax", "cell 0, an import"),
    "getattr with a constant": ("torch.softmax", "cell 0, line 2"),
    "the package's answer": ("transformer_course.attention.softmax", "cell 0, line 3"),
    "the in-kernel refusal switched off": ("torch.softmax", "cell 0, line 3"),
    "inside a %%time cell": ("torch.softmax", "cell 0, line 3"),
    "log-softmax, exponentiated": ("torch.log_softmax", "cell 0, line 2"),
    "a module doing it": ("torch.nn.Softmax", "cell 0, line 2"),
    "the operator registry": (
        "torch.ops.aten.softmax, the same operation as torch.special.softmax",
        "cell 0, line 2",
    ),
    "an overload of it": (
        "torch.ops.aten.softmax.int, the same operation as torch.special.softmax",
        "cell 0, line 2",
    ),
    "the sparse version": (
        "torch.sparse.softmax, the same operation as torch.special.softmax",
        "cell 0, line 2",
    ),
}


@pytest.mark.parametrize("how", REFUSED)
def test_a_refused_function_is_found_however_it_is_reached(how):
    """Refused once, naming the function the answer reaches and the line it reaches it on."""
    refused, _ = findings(*REFUSED[how])
    assert [(f.what, f.where) for f in refused if f.kind == "refused"] == [REFUSED_AS[how]]


def test_a_subclass_of_a_refused_class_is_refused():
    refused, _ = findings(
        "class MHA(nn.MultiheadAttention):\n    pass\n",
        refuses=shortcuts.MULTIHEAD,
        entries=["MHA"],
    )
    assert [f.what for f in refused] == ["torch.nn.MultiheadAttention"]


def test_the_message_is_the_one_students_know_with_the_line():
    (finding,), _ = findings("\n\ndef softmax(z):\n    return F.softmax(z, 0)\n")
    assert finding.message() == (
        "this exercise asks you to write it yourself: your answer "
        "calls torch.nn.functional.softmax (cell 0, line 4)"
    )


@pytest.mark.parametrize(
    "code",
    [
        HONEST,
        # Comparing with PyTorch outside the answer costs nothing.
        HONEST + "print(torch.allclose(softmax(torch.ones(3)), torch.softmax(torch.ones(3), 0)))\n",
        HONEST + "%timeit softmax(torch.ones(3))\n",
        "class Block(nn.Module):\n    def softmax(self, z):\n"
        "        return z.exp() / z.exp().sum()\n"
        "    def forward(self, z):\n        return self.softmax(z)\n"
        "def softmax(z):\n    return Block()(z)\n",
        # Setting attributes of one's own objects and modules is not a change to a library.
        HONEST + "layer = nn.Linear(3, 3)\nlayer.weight = nn.Parameter(torch.eye(3))\n"
        "t = torch.ones(3)\nt.requires_grad = True\n",
    ],
)
def test_honest_answers_are_neither_refused_nor_flagged(code):
    assert findings(code) == ([], [])


@pytest.mark.parametrize(
    "code, construct",
    [
        ("exec('def softmax(z): return torch.softmax(z, 0)')\n", "exec()"),
        ("globals()['softmax'] = torch.softmax\n", "globals()"),
        (
            "def softmax(z):\n    return getattr(torch, 'soft' + 'max')(z, 0)\n",
            "getattr() with a computed name",
        ),
        ("import types\nsoftmax = types.FunctionType(F.relu.__code__, {})\n", "__code__"),
        (
            "import importlib\nsoftmax = importlib.import_module('torch').softmax\n",
            "an import of importlib",
        ),
        ("import sys\nsoftmax = sys.modules['torch'].softmax\n", "sys.modules"),
        ("!pip install something\n" + HONEST, "get_ipython()"),
        ("def softmax(z)\n    return z\n", "code that does not parse"),
        # Rebinding a library's names changes what checks and probes see in the kernel.
        (HONEST + "F.softmax = softmax\n", "a change to torch.nn.functional"),
        (
            "import transformer_course.probes as p\np.op_counts = lambda *a, **k: {}\n",
            "a change to transformer_course.probes",
        ),
        ("setattr(torch.Tensor, 'exp', lambda z: z)\n", "a change to torch.Tensor"),
        ("del torch.nn.functional.relu\n", "a change to torch.nn.functional"),
    ],
)
def test_what_the_reader_cannot_see_through_is_flagged(code, construct):
    _, anywhere = findings(code)
    assert construct in [f.what for f in anywhere], anywhere


def test_code_the_reader_cannot_follow_to_its_end_is_refused_not_read_halfway():
    """A chain of aliases deeper than any answer's (a blind attacker's 3,000) once made the
    reader fail, and the refusal with it: now the exercise is refused."""
    import pytest as _pytest

    from autograder.trusted.uses import MAX_ALIASES, TooDeep

    chain = "_s0 = torch._C._VariableFunctions.softmax\n" + "".join(
        f"_s{n + 1} = _s{n}\n" for n in range(3000)
    )
    with _pytest.raises(TooDeep):
        findings(chain + "def softmax(z):\n    return _s3000(z, 0)\n")
    short = "".join(f"a{n + 1} = a{n}\n" for n in range(MAX_ALIASES - 2))
    assert findings("a0 = torch.exp\n" + short + HONEST) == ([], [])


def test_names_aliased_in_many_ways_cost_steps_not_paths():
    """180 names that each alias two others (2^90 ways through them: a web like it once held a
    class run for 421 s before anyone was graded) are read in a moment, and the refused
    function at the end of them is still found."""
    import time

    pairs = "".join(
        f"a{n} = a{n + 1}\na{n} = b{n + 1}\nb{n} = a{n + 1}\nb{n} = b{n + 1}\n" for n in range(90)
    )
    started = time.perf_counter()
    refused, _ = findings(
        pairs + "a90 = torch.softmax\nb90 = torch.exp\ndef softmax(z):\n    return a0(z, 0)\n"
    )
    assert time.perf_counter() - started < 5
    assert [f.what for f in refused] == ["torch.softmax"], refused


def test_a_cycle_does_not_hide_what_a_name_stands_for():
    """A name met again on the way is cut short there, and what was found behind the cut is
    not remembered as the whole answer: asked from elsewhere, the name still reaches it."""
    cycle = "a = b\nb = a\nb = torch.softmax\nc = a\n"
    refused, _ = findings(cycle + "def softmax(z):\n    return b(c(z, 0), 0)\n")
    assert [f.what for f in refused] == ["torch.softmax"], refused


def test_names_aliased_in_too_many_ways_to_follow_are_refused_in_bounded_time():
    """A web of aliases with cycles everywhere (nothing can be remembered) stops at the step
    budget: refused, as code nested too deeply is, within a few seconds."""
    import time

    from autograder.trusted.uses import TooDeep

    web = "".join(
        f"a{n} = a{(n + 1) % 60}\na{n} = a{(n + 7) % 60}\na{n} = a{(n + 13) % 60}\n"
        for n in range(60)
    )
    started = time.perf_counter()
    with pytest.raises(TooDeep):
        findings(web + "a59 = torch.softmax\ndef softmax(z):\n    return a0(z, 0)\n")
    assert time.perf_counter() - started < 20


@pytest.mark.parametrize(
    "call, what",
    [
        (
            "torch.native_layer_norm(x, (4,), None, None, 1e-5)[0]",
            "torch.native_layer_norm, the same operation as torch.layer_norm",
        ),
        (
            "torch.ops.aten.native_layer_norm(x, [4], None, None, 1e-5)[0]",
            "torch.ops.aten.native_layer_norm, the same operation as torch.layer_norm",
        ),
        ("torch._C._nn.layer_norm(x, [4])", "PyTorch's private torch._C._nn.layer_norm"),
    ],
)
def test_another_spelling_of_a_refused_operation_is_refused(call, what):
    """``torch.native_layer_norm`` answered 05's layer norm, neither refused nor flagged."""
    refused, _ = findings(
        f"def layer_norm(x):\n    return {call}\n",
        refuses=shortcuts.LAYER_NORM,
        entries=("layer_norm",),
    )
    assert [(f.kind, f.what, f.where) for f in refused] == [("refused", what, "cell 0, line 2")]


# --- trusted grading, round 3: names read as Python reads them, and what cannot be proved ---

ALLOWED_SOFTMAX = (
    "def attention(S):\n    P = torch.softmax(S, -1)\n    return P\n"
    "def table_a(n):\n    table = torch.softmax(torch.ones(n), 0)\n"
    "    return table\n"
)


@pytest.mark.parametrize(
    "answer",
    [
        # a local P beside another exercise's local P = torch.softmax(...)
        "def softmax(z):\n    P = torch.exp(z - z.max())\n    return P / P.sum()\n",
        # a local table in two functions
        "def softmax(z):\n    table = z.exp()\n    return table / table.sum()\n",
        # a comprehension's variable, a lambda's parameter
        "def softmax(z):\n    P = [e for e in z.exp()]\n    f = lambda P: P\n"
        "    return f(torch.stack(P)) / z.exp().sum()\n",
    ],
)
def test_a_local_name_is_not_another_functions_local(answer):
    """Found by the attacker who read the grader: it resolved every name in one table for the
    whole notebook, so an honest ``softmax`` whose local ``P`` shared its name with a local of
    another exercise (which may call ``torch.softmax``) lost its points."""
    assert findings(ALLOWED_SOFTMAX, answer) == ([], [])


@pytest.mark.parametrize(
    "answer",
    [
        "P = torch.softmax\ndef softmax(z):\n    return P(z, 0)\n",  # a global
        "def softmax(z):\n    P = torch.softmax\n    def inner(x):\n        return P(x, 0)\n"
        "    return inner(z)\n",  # a closure
        "def softmax(z):\n    global P\n    P = torch.softmax\n    return P(z, 0)\n",
        "class Box:\n    f = staticmethod(torch.softmax)\n"
        "def softmax(z):\n    return Box.f(z, 0)\n",
    ],
)
def test_a_name_is_followed_to_the_scope_python_reads_it_from(answer):
    refused, _ = findings(answer)
    assert [f.what for f in refused] == ["torch.softmax"], refused


ROUND_3 = {  # what reached a refused function past the reader, by the attacker's routes
    "the base class": "def softmax(z):\n    return getattr(type(z).__base__, 'softmax')(z, 0)\n",
    "a module the notebook wrote": "open('helper.py', 'w').write('import torch\\nsm = "
    "torch.softmax\\n')\nimport helper\ndef softmax(z):\n"
    "    return helper.sm(z, 0)\n",
    "pydoc.locate": "import pydoc\nfns = [pydoc.locate('torch.softmax')]\n"
    "def softmax(z):\n    return fns[0](z, 0)\n",
    "reduce over getattr": "import functools\nsm = functools.reduce(getattr, ['softmax'], "
    "torch)\ndef softmax(z):\n    return sm(z, 0)\n",
    "getattr renamed": "look = getattr\ndef softmax(z):\n    return look(torch, 'soft' + "
    "'max')(z, 0)\n",
    "__import__ renamed": "load = __import__\ndef softmax(z):\n    return load('torch')"
    ".softmax(z, 0)\n",
    "timeit's globals": "import timeit\nbox = {}\ntimeit.timeit('box[0] = torch.softmax', "
    "globals={'box': box, 'torch': torch}, number=1)\n"
    "def softmax(z):\n    return box[0](z, 0)\n",
    "an interpreter": "import code\nbox = {'torch': torch}\ncode.InteractiveInterpreter(box)"
    ".runsource('f = torch.softmax')\ndef softmax(z):\n"
    "    return box['f'](z, 0)\n",
    "eval rebound": "eval = eval\ndef softmax(z):\n    return eval('torch.soft' + 'max')(z, 0)\n",
}


# What each of ROUND_3 is flagged as, anywhere in the answer: (construct, where), in order.
ROUND_3_FLAGGED = {
    "the base class": [("__base__", "cell 0, line 2")],
    "a module the notebook wrote": [("an import of helper", "cell 0, line 2")],
    "pydoc.locate": [("an import of pydoc", "cell 0, line 1")],
    "reduce over getattr": [("getattr as a value", "cell 0, line 2")],
    "getattr renamed": [
        ("getattr as a value", "cell 0, line 1"),
        ("look() with a computed name", "cell 0, line 3"),
    ],
    "__import__ renamed": [("__import__()", "cell 0, line 1"), ("__import__()", "cell 0, line 3")],
    "timeit's globals": [("an import of timeit", "cell 0, line 1")],
    "an interpreter": [("an import of code", "cell 0, line 1")],
    "eval rebound": [("eval()", "cell 0, line 1"), ("eval()", "cell 0, line 3")],
}


@pytest.mark.parametrize("how", ROUND_3)
def test_what_the_reader_cannot_prove_is_flagged_with_its_line(how):
    _, flagged = findings(ROUND_3[how])
    assert [(f.kind, f.what, f.where) for f in flagged] == [
        ("opaque", what, where) for what, where in ROUND_3_FLAGGED[how]
    ]


def test_a_course_cell_that_keeps_the_courses_function_counts_as_that_function():
    """``step = yours_or_ours(online_softmax_step, tiled.online_softmax_step, ...)`` is a
    course cell (the student did not write it) that hands the course's function over."""
    program = Program(
        [
            (
                "the set-up cell",
                SETUP + "from transformer_course import tiled_attention as tiled\n"
                "from course_checks.fallback import yours_or_ours\n",
                False,
            ),
            (
                "your answer cell ex1",
                "def online_softmax_step(*a):\n    raise NotImplementedError\n",
                True,
            ),
            (
                "a course cell",
                "step = yours_or_ours(online_softmax_step, "
                "tiled.online_softmax_step, 'exercise 1')\n",
                False,
            ),
            (
                "your answer cell ex2",
                "def tiled_attention(Q, K, V):\n    return step(Q, K, V)\n",
                True,
            ),
        ]
    )
    refused = Reader(program, shortcuts.TILED).findings(["tiled_attention"])
    assert [f.what for f in refused if f.kind == "refused"] == [
        "transformer_course.tiled_attention.online_softmax_step"
    ], refused


STORED = {  # a refused function put into an object the answer reads (found by a blind attacker)
    "appended after the def": "box = []\ndef softmax(z):\n    return box[0](z, 0)\n"
    "box.append(torch.softmax)\n",
    "sent into a generator": "def keep():\n    held = []\n    while True:\n"
    "        got = yield held\n        held.append(got)\n"
    "g = keep()\nheld = next(g)\ng.send(torch.softmax)\n"
    "def softmax(z):\n    return held[0](z, 0)\n",
    "carried by an exception": "try:\n    raise LookupError([torch.softmax])\n"
    "except LookupError as err:\n    box = err.args[0]\n"
    "def softmax(z):\n    return box[0](z, 0)\n",
    "a class's attribute": "class Box:\n    pass\nBox.f = staticmethod(torch.softmax)\n"
    "def softmax(z):\n    return Box.f(z, 0)\n",
    "setattr on a namespace": "import types\nns = types.SimpleNamespace()\n"
    "setattr(ns, 'f', torch.softmax)\ndef softmax(z):\n"
    "    return ns.f(z, 0)\n",
    "a match capture": "match [torch.softmax]:\n    case [f]:\n        pass\n"
    "def softmax(z):\n    return f(z, 0)\n",
    "a dictionary's item": "table = {}\ntable['f'] = F.softmax\ndef softmax(z):\n"
    "    return table['f'](z, dim=0)\n",
}


# Where each of STORED puts the refused function in: what it is refused as, and that line.
STORED_AS = {
    "appended after the def": ("torch.softmax", "cell 0, line 4"),
    "sent into a generator": ("torch.softmax", "cell 0, line 8"),
    "carried by an exception": ("torch.softmax", "cell 0, line 2"),
    "a class's attribute": ("torch.softmax", "cell 0, line 3"),
    "setattr on a namespace": ("torch.softmax", "cell 0, line 3"),
    "a match capture": ("torch.softmax", "cell 0, line 1"),
    "a dictionary's item": ("torch.nn.functional.softmax", "cell 0, line 2"),
}


@pytest.mark.parametrize("how", STORED)
def test_a_value_put_into_an_object_counts_for_the_name_that_holds_it(how):
    refused, _ = findings(STORED[how])
    assert [(f.what, f.where) for f in refused if f.kind == "refused"] == [STORED_AS[how]]


def test_a_module_is_not_what_is_passed_to_its_functions():
    """``torch.allclose(x, torch.softmax(x, 0))`` in a comparison does not make ``torch``
    hold torch.softmax for every answer that names torch."""
    code = HONEST + (
        "print(torch.allclose(softmax(torch.ones(3)), torch.softmax(torch.ones(3), 0)))\n"
    )
    assert findings(code) == ([], [])


def test_what_the_course_has_not_taught_is_flagged_in_an_exercise_that_refuses():
    """A softmax of notebook 01 built from attention, or from a loss's gradient: PyTorch
    offers the operation in other words, so the reader flags what the course has not shown
    by that exercise; later, where the course has shown it, it is the student's to use."""
    from conftest import REPO

    from autograder.trusted.vocabulary import Vocabulary

    early = Vocabulary(REPO / "solutions", "01_vector_attention", "ex3_tests")
    later = Vocabulary(REPO / "solutions", "08_language_model", "ex3_tests")
    for name in (
        "torch.nn.functional.scaled_dot_product_attention",
        "torch.nn.functional.cross_entropy",
        "torch.nn.TransformerEncoderLayer",
        "torch.jit.CompilationUnit",
        "torch.overrides.get_overridable_functions",
        "torch.serialization.pickle.loads",
        "torch.group_norm",
    ):
        assert not early.allows(name), name
    for name in (
        "torch.exp",
        "torch.einsum",
        "torch.float32",
        "torch.Tensor.max",
        "torch.linalg.vector_norm",
        "torch.nn.init.zeros_",
    ):
        assert early.allows(name), name
    assert later.allows("torch.nn.functional.cross_entropy")  # shown in 07
    assert later.allows("torch.nn.CrossEntropyLoss")  # the same operation
    assert later.allows("torch.softmax")  # built by the student in 01
    code = (
        "def softmax(z):\n    return F.scaled_dot_product_attention(z[None, None], "
        "z[None, None], z[None, None])\n"
    )
    program = Program([("the set-up cell", SETUP, False), ("cell 0", code, True)])
    [found] = Reader(program, shortcuts.SOFTMAX, vocabulary=early).findings(["softmax"])
    assert (found.kind, found.what) == (
        "untaught",
        "torch.nn.functional.scaled_dot_product_attention",
    )
    assert "line 2" in found.message()
