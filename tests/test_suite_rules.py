"""How the suite itself runs (tests/conftest.py): a test that needs the sandbox is skipped, and
says why, where none starts, but fails there under COURSE_REQUIRE_SANDBOX=1, as CI sets it;
and no test skips itself on the sandbox's account any more."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, REQUIRE_SANDBOX, require_sandbox

# A cheap test that needs the sandbox: its fixture decides before anything starts.
SANDBOX_TEST = (
    "tests/test_grading.py::test_forked_kernels_start_with_torch_imported_and_share_nothing"
)


def test_a_sandbox_that_starts_lets_the_test_run_either_way():
    require_sandbox(None, required=False)
    require_sandbox(None, required=True)


def test_no_sandbox_skips_with_the_reason_or_fails_where_it_is_required():
    with pytest.raises(pytest.skip.Exception, match="no sandbox here: bwrap is missing"):
        require_sandbox("bwrap is missing", required=False)
    with pytest.raises(
        pytest.fail.Exception,
        match=f"{REQUIRE_SANDBOX}=1, and no sandbox starts here: bwrap is missing",
    ):
        require_sandbox("bwrap is missing", required=True)


def test_no_test_skips_itself_for_want_of_the_sandbox():
    """The `bubblewrap` fixture is the one place that decides (an inline skip would pass CI
    with the sandbox untested)."""
    found = [
        f"{path.name}:{n}"
        for path in sorted(Path(__file__).parent.glob("*.py"))
        if path.name != Path(__file__).name
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"sandbox\.(available|problem)\(", line)
    ]
    assert found == [], found


def test_ci_requires_the_sandbox():
    run = (REPO / ".ci" / "run").read_text()
    assert f"export {REQUIRE_SANDBOX}=1\nmake test\n" in run


@pytest.mark.slow
@pytest.mark.parametrize("required", ["1", ""], ids=["required", "not required"])
def test_a_machine_without_bubblewrap_skips_or_fails_the_sandboxs_tests(tmp_path, required):
    """The suite run for real, with nothing on PATH but the environment's own tools (no
    bwrap): skipped, saying why; failed, saying why, under COURSE_REQUIRE_SANDBOX=1."""
    env = {
        **os.environ,
        "PATH": str(Path(sys.executable).parent),
        REQUIRE_SANDBOX: required,
        "PYTHONPATH": str(REPO),
    }
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rsE",
            SANDBOX_TEST,
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = run.stdout + run.stderr
    if required:
        assert run.returncode == 1 and "1 error" in said, said
        assert (
            f"{REQUIRE_SANDBOX}=1, and no sandbox starts here: bubblewrap (bwrap) is not installed"
        ) in said, said
    else:
        assert run.returncode == 0 and "1 skipped" in said, said
        assert "no sandbox here: bubblewrap (bwrap) is not installed" in said, said
