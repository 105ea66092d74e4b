"""The instructor's servers on the course's hub (deploy/hub): Formgrader and nbgrader's
commands work on the instructor's clone, with the course's own configuration."""

import json
from pathlib import Path

c = get_config()  # noqa: F821 (given by traitlets)
hub = json.loads((Path(__file__).resolve().parents[2] / "hub.json").read_text())
load_subconfig(str(Path(hub["course"]) / "autograder" / "nbgrader_config.py"))  # noqa: F821
