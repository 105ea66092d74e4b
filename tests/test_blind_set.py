"""The blind answer set's format: every entry names a real answer cell, parses, and its
keywords compile. (Whether the grader scores and names the answers is measured elsewhere.)"""

from __future__ import annotations

import ast
import functools
import importlib.util
import re

import pytest
from conftest import REPO, load, release_path

FIELDS = {"notebook", "cell", "code", "correct", "mistake", "keywords", "kind"}


def answers() -> list[dict]:
    spec = importlib.util.spec_from_file_location("set_a", REPO / "tests" / "blind" / "set_a.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ANSWERS


@functools.cache
def answer_cells(notebook: str) -> set[str]:
    cells = load(release_path(notebook))["cells"]
    return {c["metadata"]["nbgrader"]["grade_id"] for c in cells
            if c["metadata"].get("nbgrader", {}).get("solution")}


ANSWERS = answers()


def test_the_set_is_large_enough_and_holds_both_kinds():
    wrong = [a for a in ANSWERS if not a["correct"]]
    assert len(wrong) >= 80 and len(ANSWERS) - len(wrong) >= 25
    assert {a["notebook"][:2] for a in wrong} == {f"0{n}" for n in range(1, 9)}


@pytest.mark.parametrize("index", range(len(ANSWERS)))
def test_entry(index):
    entry = ANSWERS[index]
    assert set(entry) == FIELDS
    assert release_path(entry["notebook"]).is_file(), entry["notebook"]
    assert entry["cell"] in answer_cells(entry["notebook"]), entry["cell"]
    ast.parse(entry["code"])
    assert isinstance(entry["correct"], bool) and entry["kind"]
    if entry["correct"]:
        assert entry["mistake"] == "" and entry["keywords"] == []
        return
    assert entry["mistake"] and 2 <= len(entry["keywords"]) <= 5
    patterns = [re.compile(k, re.IGNORECASE) for k in entry["keywords"]]
    # the set's own description is one that the keywords accept
    assert any(p.search(entry["mistake"]) for p in patterns), entry["mistake"]
