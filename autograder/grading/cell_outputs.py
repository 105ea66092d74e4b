"""The outputs the grader writes into a notebook's cells: an error of its own (a cell not
run, a kernel replaced), a test cell's report from the trusted checker, and the notice that
a cell's output was cut. Only text the grader made, as nbformat outputs."""

from __future__ import annotations

from nbformat.notebooknode import NotebookNode

from autograder.trusted.checker import error_lines

CUT = "\n[output cut: too long]\n"


def error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(
        output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"]
    )


def stdout(text: str) -> NotebookNode:
    return NotebookNode(output_type="stream", name="stdout", text=text)


def checks_outputs(
    report: str, value: object, failure: BaseException | None, max_chars: int
) -> list[NotebookNode]:
    """A test cell's outputs from the checker's run of it: the checks' report (at most
    ``max_chars`` of it), then the error that stopped them or the cell's last value."""
    outputs = []
    if report:
        outputs.append(stdout(report[:max_chars] + (CUT if len(report) > max_chars else "")))
    if failure is not None:
        outputs.append(
            NotebookNode(
                output_type="error",
                ename=type(failure).__name__,
                evalue=str(failure),
                traceback=error_lines(failure),
            )
        )
    elif value is not None:
        outputs.append(
            NotebookNode(
                output_type="execute_result",
                metadata={},
                execution_count=None,
                data={"text/plain": repr(value)},
            )
        )
    return outputs
