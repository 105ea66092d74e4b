"""Grading a class: `python -m autograder.grading` (what `make grade` runs), the limits, one
student's job (the submission checked and put right, the worker process and its zygote,
nbgrader's run), the executors, nbgrader's hardened Execute step, the report and the feedback
pages."""
