"""pyproject.toml, constraints.txt and environment.yml describe the same environment; the
package itself asks only for ranges, which Colab's ready-made environment satisfies."""

from __future__ import annotations

import re
import tomllib

import yaml
from conftest import REPO

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def name(requirement: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", requirement).group(0).lower()


def pins() -> dict[str, str]:
    lines = (REPO / "constraints.txt").read_text().splitlines()
    found = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return {name(line): line for line in found}


def test_environment_yml_is_pyproject_with_the_constraints_applied():
    extras = PROJECT["optional-dependencies"]
    wanted = PROJECT["dependencies"] + extras["lab"] + extras["dev"]
    wanted = {pins().get(name(r), r) for r in wanted}
    conda = yaml.safe_load((REPO / "environment.yml").read_text())["dependencies"]
    pip_section = next(item["pip"] for item in conda if isinstance(item, dict))
    assert set(pip_section) - {"-e ."} == wanted
    assert "-e ." in pip_section  # the course package itself


def test_the_course_pins_the_pytorch_it_is_tested_with_and_the_package_only_a_range():
    assert pins() == {"torch": "torch==2.13.0"}
    requirements = {name(r): r for r in PROJECT["dependencies"]}
    assert requirements["torch"] == "torch>=2.2"
    assert all("==" not in r for r in requirements.values()), requirements


def test_grading_and_jupyter_are_not_requirements_of_the_package():
    # Installing the package on Colab (--no-deps) must leave `pip check` with nothing to say.
    required = {name(r) for r in PROJECT["dependencies"]}
    assert required == {"torch", "numpy", "matplotlib", "psutil", "tqdm"}
