"""Notebooks open as they are: not marked changed before anyone has touched them.

When a notebook's kernel starts, JupyterLab writes what the kernel says of its Python
(``language_info``: the version, the lexer, ...) into the notebook's metadata; the course's
notebooks hold only the language's name, so every notebook opened looked changed. The
course's Jupyter servers (``make lab``, ``make instructor``, a hub's, the student release's)
hand notebooks to JupyterLab with this environment's ``language_info`` already in place,
which is what JupyterLab would write; the file changes only when the student saves.
"""

from __future__ import annotations

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

from course_checks.student_copy import kernel_language_info


class CourseContents(AsyncLargeFileManager):
    """Jupyter's own file manager, with Python notebooks given this kernel's language_info."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if model.get("type") == "notebook" and model.get("content"):
            metadata = model["content"].get("metadata", {})
            language = metadata.get("kernelspec", {}).get(
                "language", metadata.get("language_info", {}).get("name")
            )
            if language == "python":
                metadata["language_info"] = kernel_language_info()
        return model
