"""The trusted checker's secret seeds: seeded generators still cross to the kernel."""

from __future__ import annotations

import base64
import pickle

import torch

from autograder.trusted.checker import KernelLink, secret_seeds


def test_a_secretly_seeded_generator_reaches_the_kernel_as_a_plain_one_in_the_same_state():
    with secret_seeds("a secret"):
        generator = torch.Generator().manual_seed(5)
        sent = KernelLink(executor=None).out(generator)
        expected = torch.randint(100, (8,), generator=generator)
    received = pickle.loads(base64.b64decode(sent["$object"]))  # what the kernel rebuilds
    assert type(received) is torch.Generator
    assert torch.equal(torch.randint(100, (8,), generator=received), expected)
    # ... and the secret changed the seed: not the generator a student could make.
    student_made = torch.Generator().manual_seed(5)
    assert not torch.equal(expected, torch.randint(100, (8,), generator=student_made))


def test_test_cells_read_from_the_kernel_only_the_answers_they_check():
    """Every name a test cell takes from the kernel is defined by an answer cell of its
    notebook (what the student wrote to be checked), never a variable of a demo cell; and
    the checker gets it as a handle to call, so a student who rebinds it cannot change an
    expected value (08's check once compared with the student's own UNKNOWN)."""
    import ast
    import builtins

    from conftest import ASSIGNMENTS, load, release_path

    from autograder.cells import grade_id, source
    from autograder.trusted.checker import _names

    for assignment in ASSIGNMENTS:
        cells = load(release_path(assignment))["cells"]
        meta = [c.get("metadata", {}).get("nbgrader", {}) for c in cells]
        setups = [c for c in cells if grade_id(c) == "setup"]
        assert len(setups) == 1, f"{assignment}: the checker needs one locked set-up cell"
        setup = _names(ast.parse(source(setups[0])))[1]
        answers = set().union(*(_names(ast.parse(source(c)))[1] for c, m in zip(cells, meta,
                                                                                 strict=True)
                                if m.get("solution") and c["cell_type"] == "code"))
        checker_defined = set(setup)
        for cell, m in zip(cells, meta, strict=True):
            if not (m.get("grade") and not m.get("solution")) or cell["cell_type"] != "code":
                continue
            loads, binds = _names(ast.parse(source(cell)))
            from_kernel = loads - binds - checker_defined - set(dir(builtins))
            assert from_kernel <= answers, (assignment, grade_id(cell), from_kernel - answers)
            checker_defined |= binds
