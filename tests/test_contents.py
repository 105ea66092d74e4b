"""Notebooks open as they are: the course's servers hand JupyterLab each Python notebook with
this environment's language_info, which is what JupyterLab would write into it once the kernel
starts (so an untouched notebook is not marked changed); the file itself is not written."""

from __future__ import annotations

import asyncio
import json

from conftest import REPO, release_path

from course_checks.contents import CourseContents
from course_checks.student_copy import kernel_language_info


def test_a_notebook_is_handed_over_with_this_kernels_language_info(tmp_path):
    released = release_path("01_vector_attention")
    (tmp_path / "01.ipynb").write_bytes(released.read_bytes())
    assert json.loads(released.read_text())["metadata"]["language_info"] == {"name": "python"}
    model = asyncio.run(CourseContents(root_dir=str(tmp_path)).get("01.ipynb"))
    assert model["content"]["metadata"]["language_info"] == kernel_language_info()
    assert (tmp_path / "01.ipynb").read_bytes() == released.read_bytes()  # file untouched
    listing = asyncio.run(CourseContents(root_dir=str(tmp_path)).get("", content=True))
    assert [item["name"] for item in listing["content"]] == ["01.ipynb"]


def test_every_server_of_the_course_uses_it():
    for folder in ("autograder/student_lab", "deploy/hub/student", "deploy/hub/instructor"):
        config = json.loads((REPO / folder / "jupyter_server_config.json").read_text())
        assert (
            config["ServerApp"]["contents_manager_class"] == "course_checks.contents.CourseContents"
        ), folder
