"""The grading machinery (the instructor's side; students never receive it).

    cells       nbgrader's cells as every part reads them: ids, sources, hidden checks
    kernels/    the sandbox and the kernels: bubblewrap, the walls, the fork server
    trusted/    the trusted checker, the data-only wire, and the agent at the kernel's end
    grading/    grading a class: the command, one student's job, the executors, nbgrader's
                hardened Execute step, the report and the feedback pages
    releases/   the student release: notebooks/ from solutions/, synced cells, the archive
    mutation/   mutation analysis: typed mutants of reference answers, and how many the
                checks kill

Dependencies point one way: grading uses kernels, trusted, mutation and releases;
mutation uses trusted; trusted and kernels use only ``cells``.
``nbgrader_config.py`` and ``student_lab/`` are configuration, found through
JUPYTER_CONFIG_PATH.
"""
