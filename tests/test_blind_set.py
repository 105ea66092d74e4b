"""The blind answer sets' format: every entry names a real answer cell, parses, and its
keywords compile. (Whether the grader scores and names the answers is measured elsewhere.)

Set A and set B were written by two authors, each blind to the other's set and to the checks,
set C (notebooks 09 and 10) by a third, sets D, E and F (all notebooks) by a fourth, a fifth
and a sixth, set H (08's AdamW and top-p exercises) by a seventh (tests/blind/README.md)."""

from __future__ import annotations

import ast
import functools
import importlib.util
import re

import pytest
from conftest import REPO, load, release_path

FIELDS = {"notebook", "cell", "code", "correct", "mistake", "keywords", "kind"}


# the sets, with the least number of one-mistake and correct answers each must hold, and the
# notebooks they cover
EARLIER = {f"0{n}" for n in range(1, 9)}
SETS = {
    "set_a": (80, 25, EARLIER),
    "set_b": (72, 16, EARLIER),
    "set_c": (40, 10, {"09", "10"}),
    "set_d": (70, 10, EARLIER | {"09", "10"}),
    "set_e": (150, 40, EARLIER | {"09", "10"}),
    "set_f": (80, 15, EARLIER | {"09", "10"}),
    "set_h": (25, 8, {"08"}),
}


def answers(name: str) -> list[dict]:
    spec = importlib.util.spec_from_file_location(name, REPO / "tests" / "blind" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.ANSWERS


@functools.cache
def answer_cells(notebook: str) -> set[str]:
    cells = load(release_path(notebook))["cells"]
    return {
        c["metadata"]["nbgrader"]["grade_id"]
        for c in cells
        if c["metadata"].get("nbgrader", {}).get("solution")
    }


ANSWERS = {name: answers(name) for name in SETS}


@pytest.mark.parametrize("name", SETS)
def test_the_set_is_large_enough_and_holds_both_kinds(name):
    wrong = [a for a in ANSWERS[name] if not a["correct"]]
    least_wrong, least_correct, notebooks = SETS[name]
    assert len(wrong) >= least_wrong and len(ANSWERS[name]) - len(wrong) >= least_correct
    assert {a["notebook"][:2] for a in wrong} == notebooks


@pytest.mark.parametrize(
    ("name", "index"), [(name, index) for name in SETS for index in range(len(ANSWERS[name]))]
)
def test_entry(name, index):
    entry = ANSWERS[name][index]
    assert set(entry) == FIELDS
    assert release_path(entry["notebook"]).is_file(), entry["notebook"]
    assert entry["cell"] in answer_cells(entry["notebook"]), entry["cell"]
    ast.parse(entry["code"])
    assert isinstance(entry["correct"], bool) and entry["kind"]
    if entry["correct"]:
        assert entry["mistake"] == "" and entry["keywords"] == []
        return
    assert entry["mistake"] and 1 <= len(entry["keywords"]) <= 5  # set F has two of one
    patterns = [re.compile(k, re.IGNORECASE) for k in entry["keywords"]]
    # the set's own description is one that the keywords accept
    assert any(p.search(entry["mistake"]) for p in patterns), entry["mistake"]
