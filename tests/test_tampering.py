"""The first look at a submission's code (autograder/grading/tampering.py): what reaches into
the test machinery becomes a "suspicious" event for the report, read as written."""

from __future__ import annotations

from autograder.grading import tampering


def code(text: str, grade_id: str | None = None, locked: bool = False) -> dict:
    meta = {"nbgrader": {"grade_id": grade_id, "locked": locked}} if grade_id else {}
    return {"cell_type": "code", "metadata": meta, "source": text, "outputs": []}


def test_it_names_hooks_exits_and_replaced_attributes_by_line():
    found = tampering.suspicious(
        "import torch\n"
        "get_ipython().input_transformers_post.append(f)\n"
        "torch.allclose = lambda *a, **k: True\n"
        "setattr(checking, 'close', None)\n"
        "import os; os._exit(0)\n"
    )
    assert found == [
        "line 2: rewrites later cells (IPython input transformers)",
        "line 3: replaces torch.allclose",
        "line 4: replaces an attribute of checking",
        "line 5: ends the kernel (os._exit)",
    ]


def test_names_are_taken_as_written_and_unparsable_cells_are_passed_over():
    assert tampering.suspicious("import torch as t\nt.allclose = None\n") == []
    assert tampering.suspicious("%timeit torch.allclose = None\n") == []
    assert tampering.suspicious("x = torch.allclose(a, b)\n") == []


def test_events_skip_locked_cells_and_say_whose_cell_it_was():
    release = {"cells": [code("", "setup", locked=True), code("", "ex1_answer")]}
    notebook = {
        "cells": [
            code("torch.matmul = None", "setup", locked=True),
            code("torch.matmul = None", "ex1_answer"),
            code("sys.displayhook = print"),
            {"cell_type": "markdown", "metadata": {}, "source": "torch.x = 1"},
        ]
    }
    assert tampering.events(notebook, release) == [
        {
            "kind": "suspicious",
            "cell": "ex1_answer",
            "message": "answer cell ex1_answer, line 1: replaces torch.matmul",
        },
        {
            "kind": "suspicious",
            "cell": None,
            "message": "a cell the student added, line 1: changes how results are displayed",
        },
        {
            "kind": "suspicious",
            "cell": None,
            "message": "a cell the student added, line 1: replaces sys.displayhook",
        },
    ]
