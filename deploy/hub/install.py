"""Make this machine a JupyterHub for the course: run as root, as often as you like.

    sudo python3 deploy/hub/install.py --instructor ann --students class.txt   (or: make hub)

From the instructor's clone of the course, and never writing into it, this sets up:

- the Unix users: the instructor and every student of the class list (one name a line) who
  does not exist yet, each with a home only they can open and a password (new users' are in
  ``PREFIX/passwords.csv``, readable by root only);
- one Python environment for every single-user server, ``PREFIX/venv``, from a Python every
  user may run: JupyterHub, JupyterLab, nbgrader and the course's package, installed from a
  copy of the package's folders (pip builds in the copy, not in the clone);
- configurable-http-proxy (npm) in ``PREFIX/proxy``;
- nbgrader's exchange (``/srv/nbgrader/exchange``: every user may hand in, none may read
  another's hand-in) and the machine's nbgrader configuration, in the environment, that names
  it and the course;
- the servers' configuration: students get the course's Validate, the Assignments tab and
  the welcome notebook, without nbgrader's instructor tools; the instructor gets Formgrader,
  which loads the course's own configuration from the clone;
- the hub's configuration (``PREFIX/jupyterhub_config.py`` reading ``PREFIX/hub.json``) and a
  systemd unit to start it;
- the clone made private (solutions, hidden tests, gradebook: no other user may read them).

What it leaves to the administrator: how people log in (Unix passwords through PAM here;
an OAuth authenticator on a real site), HTTPS (the hub listens on 127.0.0.1 unless told
otherwise: put a TLS proxy in front), and resources per user (the local spawner does not
limit memory or CPU).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import pwd
import re
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # run by root in the instructor's clone: leave nothing there
HERE = Path(__file__).resolve().parent
COURSE = HERE.parents[1]
sys.path.insert(0, str(COURSE))
from autograder.grading import privacy  # noqa: E402 (the clone's own, found just above)

JUPYTERHUB = "jupyterhub>=6.1,<7"
PROXY = "configurable-http-proxy@5"
USER_NAME = re.compile(r"[a-z_][a-z0-9_-]{0,31}")
# What the environment is installed from: the package's folders and what pip reads to build
# it, and nothing else of the clone (no solutions, tests, git history or grading state).
INSTALLED = (
    "pyproject.toml",
    "README.md",
    "constraints.txt",
    "transformer_course",
    "course_checks",
    "autograder",
)
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.egg-info", ".ipynb_checkpoints")


def say(text: str) -> None:
    print(f"· {text}", flush=True)


def run(*command: str, **options) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **options)
    if result.returncode:
        sys.exit(
            f"{' '.join(command[:4])} … failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
    return result


def class_list(path: Path) -> list[str]:
    """Student names, one a line; blank lines and ``#`` comments ignored."""
    names = [line.split("#")[0].strip() for line in path.read_text().splitlines()]
    names = [name for name in names if name]
    if bad := [name for name in names if not USER_NAME.fullmatch(name)]:
        sys.exit(f"not Unix user names (lower-case letters, digits, - and _): {bad}")
    return list(dict.fromkeys(names))


def runnable_by_everyone(python: Path) -> bool:
    """Whether any user may run ``python``: the file and every folder on its real path."""
    real = python.resolve()
    return real.stat().st_mode & stat.S_IXOTH != 0 and all(
        folder.stat().st_mode & stat.S_IXOTH for folder in real.parents
    )


def users(instructor: str, students: list[str], prefix: Path) -> None:
    """Every course user exists, with a home only they can open; new users get a password."""
    passwords = prefix / "passwords.csv"
    made = []
    for name in [instructor, *students]:
        try:
            home = Path(pwd.getpwnam(name).pw_dir)
        except KeyError:
            run("useradd", "--create-home", "--shell", "/bin/bash", name)
            password = secrets.token_urlsafe(9)
            run("chpasswd", input=f"{name}:{password}\n")
            made.append((name, password))
            home = Path(pwd.getpwnam(name).pw_dir)
        home.chmod(0o700)  # classmates' work and the instructor's course, out of sight
    if made:
        fresh = not passwords.exists()
        with os.fdopen(
            os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a", newline=""
        ) as out:
            writer = csv.writer(out)
            if fresh:
                writer.writerow(["user", "password"])
            writer.writerows(made)
        say(f"{len(made)} users made; their passwords are in {passwords} (root only)")


def digest(folder: Path) -> str:
    """What the installed copy was made from, to skip an install that would change nothing."""
    sha = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        sha.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return sha.hexdigest()


def course_copy(destination: Path) -> Path:
    """What the environment is installed from, copied to ``destination``."""
    for name in INSTALLED:
        if (COURSE / name).is_dir():
            shutil.copytree(COURSE / name, destination / name, ignore=LEFT_OUT, symlinks=True)
        else:
            destination.mkdir(parents=True, exist_ok=True)
            shutil.copy(COURSE / name, destination / name, follow_symlinks=False)
    return destination


def environment(prefix: Path, python: Path) -> Path:
    """``PREFIX/venv`` with the hub, JupyterLab, nbgrader and the course (a copy of it)."""
    venv = prefix / "venv"
    if not runnable_by_everyone(python):
        sys.exit(
            f"{python} cannot be run by every user (its folders are closed): name one "
            "that can with --python, e.g. /usr/bin/python3"
        )
    if not (venv / "bin" / "python").exists():
        run(str(python), "-m", "venv", str(venv))
    with tempfile.TemporaryDirectory(prefix="course-install-") as tmp:
        copy = course_copy(Path(tmp) / "course")
        stamp, source = venv / "course-source.sha256", digest(copy)
        if stamp.exists() and stamp.read_text() == source:
            say(f"{venv}: the course is installed as it stands")
            return venv
        say(f"{venv}: installing JupyterHub, JupyterLab, nbgrader and the course (minutes)")
        run(
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            f"{copy}[lab,hub]",
            "-c",
            str(copy / "constraints.txt"),
        )
        stamp.write_text(source)
    run(str(venv / "bin" / "jupyter"), "labextension", "enable", "@jupyter/nbgrader")
    settings = venv / "share" / "jupyter" / "lab" / "settings"  # no pop-up about Jupyter news
    settings.mkdir(parents=True, exist_ok=True)
    shutil.copy(
        COURSE / "autograder" / "student_lab" / "lab_overrides.json", settings / "overrides.json"
    )
    return venv


def proxy(prefix: Path) -> Path:
    command = prefix / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
    if not command.exists():
        if not shutil.which("npm"):
            sys.exit(
                "npm is not installed: JupyterHub's proxy comes from npm "
                "(Debian: apt-get install npm)"
            )
        say("installing configurable-http-proxy (npm)")
        run("npm", "install", "--prefix", str(prefix / "proxy"), "--no-audit", "--no-fund", PROXY)
    return command


def exchange(root: Path) -> None:
    """nbgrader's exchange: anyone may enter and write (nbgrader keeps hand-ins apart)."""
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o1777)
    for folder in root.parents:
        if folder.stat().st_mode & stat.S_IXOTH == 0:
            sys.exit(f"students could not reach the exchange {root}: {folder} is closed")


def configuration(prefix: Path, venv: Path, settings: dict) -> None:
    """The hub's, the servers' and nbgrader's configuration, from deploy/hub/."""
    for role in ("student", "instructor"):
        shutil.copytree(HERE / role, prefix / "etc" / role, dirs_exist_ok=True)
    shutil.copy(HERE / "jupyterhub_config.py", prefix)
    (prefix / "hub.json").write_text(json.dumps(settings, indent=1))
    machine = venv / "etc" / "jupyter"
    machine.mkdir(parents=True, exist_ok=True)
    (machine / "nbgrader_config.py").write_text(
        "# The machine's nbgrader settings, for every server and command of this environment\n"
        "# (written by the course's deploy/hub/install.py).\n"
        "c = get_config()  # noqa: F821\n"
        f"c.Exchange.root = {settings['exchange']!r}\n"
        f"c.CourseDirectory.course_id = {settings['course_id']!r}\n"
    )
    welcome = COURSE / "notebooks" / "00_welcome.ipynb"
    if welcome.exists():
        shutil.copy(welcome, prefix / "etc" / "student" / "00_welcome.ipynb")
    unit = (HERE / "jupyterhub.service").read_text().format(prefix=prefix, venv=venv)
    (prefix / "jupyterhub.service").write_text(unit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instructor", required=True, help="the instructor's Unix user")
    parser.add_argument(
        "--students", type=Path, required=True, help="the class list: one user name a line"
    )
    parser.add_argument("--prefix", type=Path, default=Path("/opt/transformer-course"))
    parser.add_argument("--exchange", type=Path, default=Path("/srv/nbgrader/exchange"))
    parser.add_argument(
        "--python",
        type=Path,
        default=Path("/usr/bin/python3"),
        help="the Python (3.11+) the servers run, one every user may run",
    )
    parser.add_argument("--ip", default="127.0.0.1", help="where the hub listens")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--internal-ports",
        type=int,
        nargs=2,
        default=[8081, 8001],
        metavar=("HUB", "PROXY_API"),
        help="the hub's own and the proxy's API ports, on 127.0.0.1",
    )
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        sys.exit("the hub's set-up makes users and folders: run it as root (sudo)")
    os.umask(0o022)  # what it writes is read by every user's server (passwords excepted)
    students = class_list(args.students)
    if args.instructor in students:
        sys.exit(f"{args.instructor} is the instructor and cannot be a student too")
    prefix = args.prefix.resolve()
    prefix.mkdir(parents=True, exist_ok=True)
    prefix.chmod(0o755)
    users(args.instructor, students, prefix)
    venv = environment(prefix, args.python)
    settings = {
        "instructor": args.instructor,
        "students": students,
        "course": str(COURSE),
        "course_id": "transformer-course",
        "exchange": str(args.exchange.resolve()),
        "venv": str(venv),
        "proxy": str(proxy(prefix)),
        "ip": args.ip,
        "port": args.port,
        "internal_ports": args.internal_ports,
    }
    exchange(args.exchange.resolve())
    configuration(prefix, venv, settings)
    for said in privacy.make_private([COURSE]):
        say(said)
    say(f"ready: start the hub with  {venv}/bin/jupyterhub -f {prefix}/jupyterhub_config.py")
    say(
        f"or as a service:  cp {prefix}/jupyterhub.service /etc/systemd/system/ && "
        "systemctl enable --now jupyterhub"
    )
    say(f"then open http://{args.ip}:{args.port}/ (HTTPS, log-in and limits are yours to set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
