"""Your copy of the course: the student release's ``make`` commands that look after it.

    python -m course_checks.student_copy match-python notebooks   # once, when .venv is made
    python -m course_checks.student_copy update FROM               # make update FROM=...

**match-python.** When JupyterLab opens a notebook, its kernel reports its Python
(``language_info``: the version, among others) and JupyterLab writes that into the notebook's
metadata; if it differs from what the file holds, a notebook you have not touched opens
marked as changed. So once the course's environment exists, its Python is written into
every notebook, and they open as they are.

**update.** A new version of the course from your instructor, without losing your answers.
``FROM`` is the new version: a folder, a ``.tar.gz`` archive, or an address ``git clone``
accepts. Each release lists its files in ``MANIFEST.json``, so the update knows what the
instructor changed: a file the new version leaves as it was stays as you have it; a changed
one replaces yours; a changed notebook you have worked on becomes the new version's notebook
with your work carried over: every answer cell you changed (nbgrader's checksum of the cell
no longer matches its source) and every cell you added yourself, after the cell it followed.
Whatever is replaced is kept first, whole, in ``backups/<date and time>/``. Notebooks the new
version adds arrive; notebooks it no longer has stay.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from course_checks.cells import source

NOTEBOOKS = "notebooks"
# Written by `make student-release` into the release: its version, every file's SHA-256, and
# the ids of every notebook's cells (what was released, to tell your changes from the new).
MANIFEST = "MANIFEST.json"


def kernel_language_info() -> dict:
    """What this environment's Python kernel reports to JupyterLab as ``language_info``."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


def match_python(folder: Path, language_info: dict | None = None) -> list[Path]:
    """Write this Python's ``language_info`` into every notebook under ``folder`` that
    holds another; returns the notebooks changed. Only that metadata changes."""
    language_info = language_info or kernel_language_info()
    changed = []
    for path in sorted(folder.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        notebook = json.loads(path.read_text())
        if notebook.get("metadata", {}).get("language_info") != language_info:
            notebook.setdefault("metadata", {})["language_info"] = language_info
            path.write_text(_dumps(notebook))
            changed.append(path)
    return changed


def _dumps(notebook: dict) -> str:
    """Jupyter's own layout: one-space indent, UTF-8 kept."""
    return json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def _nbgrader(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def answered(cell: dict) -> bool:
    """Whether an answer cell holds something other than what the release gave: nbgrader
    stored the checksum of the cell as released, and an edit changes it."""
    import nbformat
    from nbgrader.utils import compute_checksum

    meta = _nbgrader(cell)
    if not meta.get("solution") or "checksum" not in meta:
        return False
    cell = nbformat.from_dict({**cell, "source": source(cell)})
    return compute_checksum(cell) != meta["checksum"]


def carry_over(yours: dict, new: dict, released: set[str]) -> tuple[dict, list[str], int]:
    """``new`` with your answers and your own cells from ``yours``: the merged notebook, the
    answer cells carried over (by nbgrader's grade id), and how many cells of your own.
    ``released`` holds the ids of the cells your version was released with: any other cell
    is one you added."""
    merged = json.loads(json.dumps(new))
    cells = merged["cells"]
    by_grade_id = {_nbgrader(c)["grade_id"]: c for c in cells if _nbgrader(c).get("grade_id")}
    by_id = {c.get("id"): c for c in cells}
    carried: list[str] = []
    added = 0
    anchor = -1  # where the last cell both versions share sits in the merged notebook
    for cell in yours["cells"]:
        grade_id = _nbgrader(cell).get("grade_id")
        if grade_id in by_grade_id:
            assert grade_id is not None  # by_grade_id holds only cells with an id
            target = by_grade_id[grade_id]
            anchor = cells.index(target)
            if answered(cell) and _nbgrader(target).get("solution"):
                target["source"] = cell["source"]
                carried.append(grade_id)
        elif cell.get("id") in by_id:
            anchor = cells.index(by_id[cell.get("id")])
        elif not grade_id and cell.get("id") not in released:  # yours: after what it followed
            mine = {k: v for k, v in cell.items() if k not in ("outputs", "execution_count")}
            if cell["cell_type"] == "code":
                mine.update(outputs=[], execution_count=None)
            anchor += 1
            cells.insert(anchor, mine)
            added += 1
    return merged, carried, added


def fetch(source: str, into: Path) -> Path:
    """The new version's folder: ``source`` itself, its archive unpacked, or its clone."""
    path = Path(source).expanduser()
    if path.is_dir():
        return path
    if path.is_file():
        with tarfile.open(path) as tar:
            tar.extractall(into, filter="data")
        tops = [p for p in into.iterdir() if p.is_dir()]
        return tops[0] if len(tops) == 1 and not (into / NOTEBOOKS).is_dir() else into
    print(f"Fetching {source} ...", flush=True)
    clone = subprocess.run(
        ["git", "clone", "--quiet", "--depth", "1", source, str(into / "new")],
        capture_output=True,
        text=True,
    )
    if clone.returncode != 0:
        sys.exit(
            f"Could not fetch {source}: {clone.stderr.strip()}\nPass the new version as "
            "FROM=folder, FROM=archive.tar.gz or FROM=address."
        )
    return into / "new"


def manifest(folder: Path) -> dict:
    """The release's ``MANIFEST``: its version, every file's SHA-256, every notebook's cell
    ids; empty where there is none."""
    path = folder / MANIFEST
    return json.loads(path.read_text()) if path.is_file() else {}


def update(source: str, here: Path) -> int:
    old = manifest(here)
    old_files, old_cells = old.get("files", {}), old.get("cells", {})
    with tempfile.TemporaryDirectory() as tmp:
        new = fetch(source, Path(tmp))
        latest = manifest(new)
        if not latest or not (new / NOTEBOOKS).is_dir():
            sys.exit(f"{source} is not a version of the course (no {MANIFEST}, no notebooks/).")
        backup = here / "backups" / time.strftime("%Y-%m-%d_%H%M%S")

        def keep(name: str) -> None:
            (backup / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(here / name, backup / name)

        language_info = kernel_language_info() if _has_environment(here) else None
        report = []
        for name, digest in sorted(latest["files"].items()):
            target, incoming = here / name, new / name
            if not target.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(incoming, target)
                report.append(f"  {name}: new")
            elif old_files.get(name) == digest or _sha256(target) == digest:
                continue  # unchanged by the instructor: yours stays as it is
            elif name.endswith(".ipynb"):
                keep(name)
                merged, carried, added = carry_over(
                    json.loads(target.read_text()),
                    json.loads(incoming.read_text()),
                    set(old_cells.get(name, [])),
                )
                target.write_text(_dumps(merged))
                yours = [f"your answers to {', '.join(carried)}"] if carried else []
                yours += [f"{added} cells of your own"] if added else []
                report.append(
                    f"  {name}: updated" + (f", with {' and '.join(yours)}" if yours else "")
                )
            else:
                keep(name)
                shutil.copy(incoming, target)
                report.append(f"  {name}: updated")
        # A module the new version no longer has would still be imported: it goes (kept).
        for name in sorted(set(old_files) - set(latest["files"])):
            if not name.endswith(".ipynb") and (here / name).is_file():
                keep(name)
                (here / name).unlink()
                report.append(f"  {name}: removed (the new version has no such file)")
        shutil.copy(new / MANIFEST, here / MANIFEST)
    if language_info:
        match_python(here / NOTEBOOKS, language_info)
    print(f"From version {old.get('version', '(unknown)')} to {latest['version']}:")
    print("\n".join(report) if report else "  nothing changed.")
    if backup.exists():
        print(f"Your previous files are in {backup.relative_to(here)}/.")
    print("Run `make lab` as before: it first installs anything new the course needs.")
    return 0


def _has_environment(here: Path) -> bool:
    try:
        import ipykernel  # noqa: F401
    except ImportError:
        return False
    return (here / ".venv").is_dir()


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_checks.student_copy", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    match = commands.add_parser("match-python", help="write this Python into the notebooks")
    match.add_argument("folder", type=Path)
    new = commands.add_parser("update", help="update to a new version, keeping your answers")
    new.add_argument("source", help="the new version: a folder, a .tar.gz or an address")
    new.add_argument("--here", type=Path, default=Path.cwd(), help="your copy of the course")
    args = parser.parse_args(argv)
    if args.command == "match-python":
        match_python(args.folder)
        return 0
    return update(args.source, args.here.resolve())


if __name__ == "__main__":
    sys.exit(main())
