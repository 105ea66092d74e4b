"""The student release: notebooks/ generated from solutions/ (release), the cells kept in
step across notebooks (sync_notebooks), and the archive students receive (student_release)."""
