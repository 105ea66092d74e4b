"""What the notebooks' check cells use: the checks and their report, the diagnosis of known
mistakes, the shortcuts each exercise refuses, and the self-check table; and the student
release's own commands (``student_copy``: ``make update``).

It sits apart from the library students read (``transformer_course``), which it may use and
which never uses it. When grading, these same checks run in the grader's trusted checker
(``autograder/trusted/checker.py``), not in the student's kernel.
"""
