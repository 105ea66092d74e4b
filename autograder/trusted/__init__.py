"""The trusted checker: test cells run on the grader's side; the wire carries plain data
between it and the agent at the kernel's end."""
