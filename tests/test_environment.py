"""pyproject.toml and environment.yml describe the same environment."""

from __future__ import annotations

import tomllib

import yaml
from conftest import REPO


def test_environment_yml_pins_the_same_packages_as_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pyproject = set(project["dependencies"]) | set(project["optional-dependencies"]["dev"])
    conda = yaml.safe_load((REPO / "environment.yml").read_text())["dependencies"]
    pip_section = next(item["pip"] for item in conda if isinstance(item, dict))
    assert set(pip_section) - {"-e ."} == pyproject
    assert "-e ." in pip_section  # the course package itself


def test_torch_is_pinned_to_the_cpu_build_on_disk():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "torch==2.13.0" in project["dependencies"]
