"""nbgrader's configuration for the course.

The repository root is the course directory: ``solutions/`` holds the source notebooks,
``notebooks/`` the generated student release, and everything nbgrader writes while grading
(gradebook, submitted, autograded, feedback) goes under ``grading/``, which git ignores.
Every command finds this file through the Makefile (``--config autograder/nbgrader_config.py``).
"""

from pathlib import Path

from autograder.grading.limits import Limits

# get_config: provided by traitlets when it loads this file
c = get_config()  # type: ignore[name-defined]  # noqa: F821

course_root = Path(__file__).resolve().parent.parent
(course_root / "grading").mkdir(exist_ok=True)  # SQLite creates the gradebook, not its folder

c.CourseDirectory.root = str(course_root)
c.CourseDirectory.course_id = "transformer-course"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.submitted_directory = "grading/submitted"
c.CourseDirectory.autograded_directory = "grading/autograded"
c.CourseDirectory.feedback_directory = "grading/feedback"
c.CourseDirectory.solution_directory = "grading/solution"
c.CourseDirectory.db_url = f"sqlite:///{course_root / 'grading' / 'gradebook.db'}"


def machine_exchange() -> str | None:
    """The exchange this machine names for every course, if it does: a shared machine's
    nbgrader_config.py in the Python environment's or the system's Jupyter configuration
    (deploy/hub writes the environment's). It would lose to this file, which nbgrader reads
    last, so it is read here."""
    from jupyter_core.paths import ENV_CONFIG_PATH, SYSTEM_CONFIG_PATH
    from traitlets.config import PyFileConfigLoader

    for folder in [*ENV_CONFIG_PATH, *SYSTEM_CONFIG_PATH]:
        if (Path(folder) / "nbgrader_config.py").is_file():
            machine = PyFileConfigLoader("nbgrader_config.py", path=folder).load_config()
            if "root" in machine.Exchange:
                return machine.Exchange.root
    return None


# nbgrader's exchange (release_assignment, fetch, submit, collect, feedback): the machine's
# (a hub's), or else one beside the rest of the grading state, which `make instructor` and
# its course tools find there.
c.Exchange.root = machine_exchange() or str(course_root / "grading" / "exchange")
if c.Exchange.root == str(course_root / "grading" / "exchange"):
    (course_root / "grading" / "exchange").mkdir(exist_ok=True)
# Hand-ins are collected only from the students they name, and never through a link
# (autograder/grading/exchange.py): on a shared machine students may attack the exchange.
c.ExchangeFactory.collect = "autograder.grading.exchange.CourseCollect"
# Only notebooks travel with an assignment; the helper package is installed, not copied.
# nbgrader's collect keeps the hand-in time and the key its feedback is released under.
c.CourseDirectory.include = ["*.ipynb", "timestamp.txt", "submission_secret.txt"]

# The answer-cell stub students see.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
# Committed notebooks carry no outputs, and the release must not either.
c.ClearOutput.enabled = True

# A cell that runs longer than this (an endless loop, say) is interrupted and scores 0;
# the rest of the notebook, and of the class, is still graded. The number is the course's
# limit on a cell (autograder/grading/limits.py), which `make grade` counts in CPU seconds.
c.Execute.timeout = int(Limits.cell_timeout)
# A deleted test cell is put back from the gradebook and graded, not left for manual grading.
c.OverwriteCells.add_missing_cells = True
# nbgrader gives a test cell that writes to stderr zero points: drop warning lines from stderr.
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = r"(?m)^.*Warning: .*$"

# Student markdown and outputs are hostile to whoever reads them: every HTML page nbgrader
# writes or serves (feedback, the Formgrader in the instructor's session) drops JavaScript
# outputs and cleans markdown and HTML by an allow-list (autograder/grading/safe_pages.py).
c.HTMLExporter.sanitize_html = True
c.HTMLExporter.filters = {
    "markdown2html": "autograder.grading.safe_pages.markdown2html",
    "clean_html": "autograder.grading.safe_pages.clean_html",
}
# Feedback pages read well offline: maths rendered to MathML when the page is written (no
# MathJax from a CDN), output text wrapped, exercises named in the contents.
c.GenerateFeedback.exporter_class = "autograder.grading.feedback_page.FeedbackExporter"
# `nbgrader export` (make export) adds a status column: submitted, or not submitted.
c.ExportApp.plugin_class = "autograder.grading.export.CsvExport"
# ipykernel warns on every kernel that runs over TCP unencrypted: kernels that declare support
# for it (python3's kernelspec does) get CurveZMQ keys from the kernel manager instead.
c.KernelManager.transport_encryption = "auto"
