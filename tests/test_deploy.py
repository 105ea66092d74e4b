"""The hub's set-up (deploy/hub) without a hub: its files agree with the course's own, and
its checks refuse what would make a broken or open hub. tests/test_hub.py runs it for real."""

from __future__ import annotations

import importlib.util
import json

import pytest
from conftest import REPO
from traitlets.config import PyFileConfigLoader

HUB = REPO / "deploy" / "hub"


def install_module():
    spec = importlib.util.spec_from_file_location("hub_install", HUB / "install.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def server_config(folder) -> dict:
    return json.loads((folder / "jupyter_server_config.json").read_text())["ServerApp"]


def test_a_hub_student_has_the_students_lab_and_the_assignments_tab():
    lab, hub = server_config(REPO / "autograder" / "student_lab"), server_config(HUB / "student")
    extensions = dict(lab["jpserver_extensions"])
    extensions["nbgrader.server_extensions.assignment_list"] = True  # the exchange is there
    assert hub["jpserver_extensions"] == extensions
    assert hub["contents_manager_class"] == lab["contents_manager_class"]
    hidden = json.loads((HUB / "student/labconfig/page_config.json").read_text())
    assert set(hidden["disabledExtensions"]) == {
        "@jupyter/nbgrader:course-list",
        "@jupyter/nbgrader:create-assignment",
        "@jupyter/nbgrader:formgrader",
    }


def test_the_instructors_server_lets_formgrader_be_framed_by_jupyterlab():
    """JupyterHub's servers send frame-ancestors 'none', which leaves Formgrader's tab blank."""
    config = server_config(HUB / "instructor")
    assert (
        config["tornado_settings"]["headers"]["Content-Security-Policy"] == "frame-ancestors 'self'"
    )
    assert config["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is True


def test_formgrader_carries_the_courses_script_policy_for_make_instructor_and_on_a_hub():
    for folder in (REPO / "autograder", HUB / "instructor"):
        assert server_config(folder)["jpserver_extensions"]["autograder.grading.formgrader_policy"]


def test_a_class_list_takes_user_names_only(tmp_path):
    install = install_module()
    good = tmp_path / "class.txt"
    good.write_text("alice\n# a comment\n\nbob  # and another\nalice\n")
    assert install.class_list(good) == ["alice", "bob"]
    bad = tmp_path / "bad.txt"
    bad.write_text("alice\nBob Smith\n../root\n")
    with pytest.raises(SystemExit, match="not Unix user names"):
        install.class_list(bad)


def test_a_python_in_a_closed_home_is_refused_for_the_servers(tmp_path):
    install = install_module()
    assert install.runnable_by_everyone(install.Path("/bin/sh"))
    closed = tmp_path / "home"
    closed.mkdir(mode=0o700)
    (closed / "python").write_text("")
    (closed / "python").chmod(0o755)
    assert not install.runnable_by_everyone(closed / "python")


def test_the_course_uses_the_exchange_the_machine_names(tmp_path, monkeypatch):
    import jupyter_core.paths

    machine = tmp_path / "etc" / "jupyter"
    machine.mkdir(parents=True)
    (machine / "nbgrader_config.py").write_text(
        "c = get_config()\nc.Exchange.root = '/srv/nbgrader/exchange'\n"
    )
    monkeypatch.setattr(jupyter_core.paths, "ENV_CONFIG_PATH", [str(machine)])
    course = PyFileConfigLoader("nbgrader_config.py", path=str(REPO / "autograder"))
    assert course.load_config().Exchange.root == "/srv/nbgrader/exchange"
    monkeypatch.setattr(jupyter_core.paths, "ENV_CONFIG_PATH", [str(tmp_path / "none")])
    monkeypatch.setattr(jupyter_core.paths, "SYSTEM_CONFIG_PATH", [])
    course = PyFileConfigLoader("nbgrader_config.py", path=str(REPO / "autograder"))
    assert course.load_config().Exchange.root == str(REPO / "grading" / "exchange")


def test_the_set_up_says_it_needs_root(monkeypatch, tmp_path):
    install = install_module()
    monkeypatch.setattr(install.os, "geteuid", lambda: 1000)
    (tmp_path / "class.txt").write_text("alice\n")
    with pytest.raises(SystemExit, match="run it as root"):
        install.main(["--instructor", "ann", "--students", str(tmp_path / "class.txt")])


def test_the_environment_is_installed_from_every_module_of_the_course(tmp_path):
    install = install_module()
    copy = install.course_copy(tmp_path / "course")
    for package in ("transformer_course", "course_checks", "autograder"):
        modules = {
            p.relative_to(REPO)
            for p in (REPO / package).rglob("*.py")
            if "__pycache__" not in p.parts
        }
        assert (
            modules and {p.relative_to(copy) for p in (copy / package).rglob("*.py")} == modules
        ), package
    assert sorted(p.name for p in copy.iterdir()) == sorted(install.INSTALLED)  # no more
