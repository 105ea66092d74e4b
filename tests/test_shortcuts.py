"""Every exercise refuses the shortcuts its test cell declares, in the student's own kernel
and when graded, and says so in its text; the solutions never trip over them."""

from __future__ import annotations

import ast
import json

import pytest
import torch
from conftest import (
    ASSIGNMENTS,
    REPO,
    load,
    nbgrader_meta,
    release_path,
    solution_path,
    solution_sources,
    student_submission,
)

from autograder.grading import grade as pipeline
from autograder.grading import records
from autograder.grading.executors import LocalPool
from autograder.grading.limits import Limits
from autograder.releases.sync_notebooks import REFUSES_PREFIX, _refused
from course_checks import selfcheck, shortcuts
from course_checks.checking import Checks

MESSAGE = "this exercise asks you to write it yourself: your answer calls"


def refusals(assignment: str) -> dict[str, tuple[str, ...]]:
    """Exercise prefix ("ex3_") -> what its test cell refuses."""
    found = {}
    for cell in load(solution_path(assignment))["cells"]:
        meta = nbgrader_meta(cell)
        if meta.get("grade") and _refused(cell):
            found[meta["grade_id"].split("_")[0] + "_"] = _refused(cell)
    return found


def taking_shortcuts(assignment: str) -> dict[str, str]:
    """Every answer of an exercise with refusals rewritten so that each of its functions
    calls the first refused shortcut, looked up when it runs."""
    answers = solution_sources(assignment)
    for prefix, names in refusals(assignment).items():
        for grade_id in [g for g in answers if g.startswith(prefix)]:
            tree = ast.parse(answers[grade_id])
            call = ast.parse(
                "from course_checks.shortcuts import _owner\n"
                f"owner, name = _owner({names[0]!r})\n"
                "return getattr(owner, name)()"
            ).body
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    node.body = call
            answers[grade_id] = ast.unparse(tree)
    return answers


def test_every_graded_notebook_declares_refusals_and_its_text_says_so():
    for assignment in ASSIGNMENTS:
        declared = refusals(assignment)
        assert declared, assignment
        text = json.dumps(load(release_path(assignment)), ensure_ascii=False)
        assert text.count(REFUSES_PREFIX) == len(declared), assignment
        for names in declared.values():
            assert all(f"`{shortcuts.short_name(n)}`" in text for n in names)


def test_a_refused_function_raises_and_is_put_back():
    original = torch.softmax
    namespace = {"alias": original}
    with shortcuts.refused(shortcuts.SOFTMAX, [namespace]):
        for call in (
            lambda: torch.softmax(torch.ones(2), 0),
            lambda: namespace["alias"](),
            lambda: torch.ones(2).softmax(0),
        ):
            with pytest.raises(shortcuts.ShortcutError, match=MESSAGE):
                call()
    assert torch.softmax is original and namespace["alias"] is original
    assert torch.ones(2).softmax(0).sum() == 1


def _neighbours():
    """Refused name -> a call of the package that reaches it through a function beside it."""
    from transformer_course import language_model as lm
    from transformer_course import modern

    model = lm.CharLM(5, d_model=8, n_heads=2, n_layers=1, max_len=8)
    prompt, logits = torch.zeros(1, 2, dtype=torch.long), torch.zeros(1, 5)

    def one_step():
        optimizer = lm.AdamW(model.parameters(), lr=0.0)
        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
        return lm.train(model, optimizer, scheduler, lambda step: (prompt, prompt), range(1))

    return {
        "transformer_course.language_model.attend_with_cache": lambda: model.step(
            prompt, lm.KVCache(1)
        ),
        "transformer_course.language_model.sample_next": lambda: lm.generate(model, prompt, 1),
        "transformer_course.language_model.top_p_filter": lambda: lm.sample_next(logits, top_p=0.9),
        "transformer_course.language_model.bits_per_character": one_step,
        "transformer_course.language_model.adamw_step": one_step,
        "transformer_course.language_model.train": lambda: lm.train_language_model(
            model, torch.arange(20) % 5, 1, block_size=4, batch_size=1, progress=False
        ),
        "transformer_course.modern.rms_norm": lambda: modern.RMSNorm(4)(torch.ones(4)),
        "transformer_course.modern.RMSNorm": lambda: modern.ModernBlock(8, 2),
        "transformer_course.modern.rotary_angles": lambda: modern.ModernLM(5, 8, 2, 1)(prompt),
        "transformer_course.modern.swiglu": lambda: modern.SwiGLU(4, 6)(torch.ones(4)),
        "transformer_course.modern.SwiGLU": lambda: modern.ModernBlock(8, 2),
        "transformer_course.modern.matched_hidden_size": lambda: modern.ModernBlock(8, 2),
        "transformer_course.modern.grouped_query_attention": lambda: modern.ModernLM(5, 8, 2, 1)(
            prompt
        ),
        "transformer_course.modern.ModernBlock": lambda: modern.ModernLM(5, 8, 2, 1),
        "transformer_course.modern.ModernLM": lambda: modern.from_char_lm(model),
    }


def test_a_refused_function_of_the_package_is_refused_to_its_neighbours_too():
    """The package's functions that call a refused one refuse it too (``generate`` draws
    with ``sample_next``, ``RMSNorm`` normalises with ``rms_norm``), whether they live where
    the refusal names it (``language_model``, ``modern``) or where it is defined."""
    for name, call in _neighbours().items():
        with shortcuts.refused([name]), pytest.raises(shortcuts.ShortcutError, match=MESSAGE):
            call()
        call()  # put back


def test_checks_report_the_shortcut_by_name():
    checks = Checks("Exercise 3 · softmax", points=2, refuses=shortcuts.SOFTMAX)
    z = torch.tensor([1.0, 2.0])
    assert not checks.close(
        "softmax", lambda: torch.nn.functional.softmax(z, 0), torch.softmax(z, 0)
    )
    assert checks.results[0][1] == f"{MESSAGE} F.softmax."


@pytest.mark.slow
def test_the_students_own_checks_refuse_shortcuts(tmp_path):
    """In the kernel, as a student runs the notebook: notebook 01's shortcuts fail."""
    path = tmp_path / "01.ipynb"
    answers = taking_shortcuts("01_vector_attention")
    path.write_text(
        json.dumps(student_submission(load(release_path("01_vector_attention")), answers))
    )
    result = selfcheck.check_notebook(path)
    by_name = {r.exercise: r for r in result.results}
    for exercise in ("Exercise 1 · project", "Exercise 2 · score", "Exercise 3 · softmax"):
        assert by_name[exercise].status == selfcheck.FAILED
        assert MESSAGE in by_name[exercise].diagnosis, by_name[exercise]
    assert by_name["Exercise 5 · weighted_sum"].status == selfcheck.PASSED  # refuses nothing


@pytest.fixture(scope="module")
def graded(tmp_path_factory, bubblewrap):
    grading = tmp_path_factory.mktemp("shortcuts") / "grading"
    for assignment in ASSIGNMENTS:
        path = grading / "submitted" / "shortcuts" / assignment / f"{assignment}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(
            json.dumps(
                student_submission(load(release_path(assignment)), taking_shortcuts(assignment))
            )
        )
    pipeline.grade_class(
        pipeline.Course(REPO, grading),
        LocalPool(2),
        ASSIGNMENTS,
        Limits(cell_timeout=30, notebook_timeout=120),
        progress=False,
    )
    return grading


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_grading_refuses_every_declared_shortcut(graded, assignment):
    result = json.loads(
        (graded / "autograded" / "shortcuts" / assignment / records.RESULT).read_text()
    )
    notebook = load(graded / "autograded" / "shortcuts" / assignment / f"{assignment}.ipynb")
    for cell in notebook["cells"]:
        grade_id = nbgrader_meta(cell).get("grade_id", "")
        if grade_id.split("_")[0] + "_" in refusals(assignment) and nbgrader_meta(cell).get(
            "grade"
        ):
            printed = "".join("".join(o.get("text", "")) for o in cell["outputs"])
            assert MESSAGE in printed, (grade_id, printed[:500])
            assert result["grades"][grade_id]["score"] == 0, grade_id
