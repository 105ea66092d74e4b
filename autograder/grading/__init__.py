"""Grading a class: `python -m autograder.grading` (what `make grade` runs), one student's
job, the executors, nbgrader's hardened Execute step, the report and the feedback pages."""
