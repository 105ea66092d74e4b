"""autograder/trusted/uses.py: what an answer reaches, read from its source as data."""

from __future__ import annotations

import pytest

from autograder.trusted.uses import Program, Reader
from course_checks import shortcuts

SETUP = ("import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
         "from course_checks import Checks, shortcuts\n")
HONEST = "def softmax(z):\n    e = torch.exp(z - z.max())\n    return e / e.sum()\n"


def findings(*cells: str, refuses=shortcuts.SOFTMAX, entries=("softmax",)):
    program = Program([("the set-up cell", SETUP, False)]
                      + [(f"cell {n}", code, True) for n, code in enumerate(cells)])
    reader = Reader(program, refuses)
    return reader.findings(entries), reader.anywhere()


REFUSED = {  # every way of reaching a refused function that the issue and reviews named
    "a direct call": ["def softmax(z):\n    return torch.softmax(z, 0)\n"],
    "an alias of the module": ["def softmax(z):\n    return F.softmax(z, dim=0)\n"],
    "a method": ["def softmax(z):\n    return z.softmax(0)\n"],
    "a default argument": ["def softmax(z, f=torch.softmax):\n    return f(z, 0)\n"],
    "a private name": ["def softmax(z):\n    return torch._softmax(z, 0, False)\n"],
    "functools.partial": ["import functools\n"
                          "softmax = functools.partial(torch.nn.functional.softmax, dim=0)\n"],
    "a closure": ["def make():\n    g = torch.softmax\n    def inner(z):\n        return g(z, 0)"
                  "\n    return inner\nsoftmax = make()\n"],
    "an alias in another cell": ["sm = torch.special.softmax\n",
                                 "def softmax(z):\n    return sm(z, 0)\n"],
    "from-import as": ["from torch import softmax as s\ndef softmax(z):\n    return s(z, 0)\n"],
    "a star import": ["from torch.nn.functional import *\n"],
    "getattr with a constant": ["def softmax(z):\n    return getattr(torch, 'softmax')(z, 0)\n"],
    "the package's answer": ["from transformer_course.attention import softmax as ref\n"
                             "def softmax(z):\n    return ref(z)\n"],
    "the in-kernel refusal switched off": ["shortcuts.refused = lambda *a, **k: None\n"
                                           "def softmax(z):\n    return torch.softmax(z, 0)\n"],
    "inside a %%time cell": ["%%time\ndef softmax(z):\n    return torch.softmax(z, 0)\n"],
    "log-softmax, exponentiated": ["def softmax(z):\n    return torch.log_softmax(z, 0).exp()\n"],
    "a module doing it": ["def softmax(z):\n    return nn.Softmax(dim=0)(z)\n"],
}


@pytest.mark.parametrize("how", REFUSED)
def test_a_refused_function_is_found_however_it_is_reached(how):
    refused, _ = findings(*REFUSED[how])
    assert [f for f in refused if f.kind == "refused"], how


def test_a_subclass_of_a_refused_class_is_refused():
    refused, _ = findings("class MHA(nn.MultiheadAttention):\n    pass\n",
                          refuses=shortcuts.MULTIHEAD, entries=["MHA"])
    assert [f.what for f in refused] == ["torch.nn.MultiheadAttention"]


def test_the_message_is_the_one_students_know_with_the_line():
    (finding,), _ = findings("\n\ndef softmax(z):\n    return F.softmax(z, 0)\n")
    assert finding.message() == ("this exercise asks you to write it yourself: your answer "
                                 "calls torch.nn.functional.softmax (cell 0, line 4)")


@pytest.mark.parametrize("code", [
    HONEST,
    # Comparing with PyTorch outside the answer costs nothing.
    HONEST + "print(torch.allclose(softmax(torch.ones(3)), torch.softmax(torch.ones(3), 0)))\n",
    HONEST + "%timeit softmax(torch.ones(3))\n",
    "class Block(nn.Module):\n    def softmax(self, z):\n        return z.exp() / z.exp().sum()\n"
    "    def forward(self, z):\n        return self.softmax(z)\n"
    "def softmax(z):\n    return Block()(z)\n",
])
def test_honest_answers_are_neither_refused_nor_flagged(code):
    assert findings(code) == ([], [])


@pytest.mark.parametrize("code, construct", [
    ("exec('def softmax(z): return torch.softmax(z, 0)')\n", "exec()"),
    ("globals()['softmax'] = torch.softmax\n", "globals()"),
    ("def softmax(z):\n    return getattr(torch, 'soft' + 'max')(z, 0)\n",
     "getattr() with a computed name"),
    ("import types\nsoftmax = types.FunctionType(F.relu.__code__, {})\n", "__code__"),
    ("import importlib\nsoftmax = importlib.import_module('torch').softmax\n", "importlib"),
    ("import sys\nsoftmax = sys.modules['torch'].softmax\n", "sys.modules"),
    ("!pip install something\n" + HONEST, "get_ipython()"),
    ("def softmax(z)\n    return z\n", "code that does not parse"),
])
def test_what_the_reader_cannot_see_through_is_flagged(code, construct):
    _, anywhere = findings(code)
    assert construct in [f.what for f in anywhere], anywhere
