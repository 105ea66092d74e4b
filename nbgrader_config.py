"""nbgrader's commands look for this file in the folder they run from: run from the
repository root (`nbgrader export`, `nbgrader db student list`, ...), they find the course's
configuration here, without JUPYTER_CONFIG_PATH, instead of starting an empty gradebook."""

load_subconfig("autograder/nbgrader_config.py")  # noqa: F821 (given by traitlets)
