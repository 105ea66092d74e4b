"""A real JupyterHub for the course on this machine, as deploy/hub/install.py makes one.

Used by tests/test_hub.py and benchmarks/hub_round.py. It needs root (to make Unix users),
npm (the hub's proxy) and a Python every user may run (Debian's /usr/bin/python3). The
users it makes have names that start with a random tag, so that nothing else on the machine
is touched, and are removed with their homes when it is closed.
"""

from __future__ import annotations

import csv
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = Path("/usr/bin/python3")


def missing() -> str | None:
    """Why no hub can be made here, or None."""
    if os.geteuid() != 0:
        return "making Unix users needs root"
    for tool in ("useradd", "userdel", "npm", "git"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    if not SYSTEM_PYTHON.exists():
        return f"no {SYSTEM_PYTHON} for the servers' environment"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Hub:
    """A course hub: an instructor with a clone of this working tree, ``students``, the
    shared environment, the exchange and JupyterHub, all under one temporary folder."""

    def __init__(self, students: int, log: Path):
        tag = "h" + secrets.token_hex(3)
        self.instructor = f"{tag}-ann"
        self.students = [f"{tag}-s{i:02d}" for i in range(students)]
        self.root = Path(tempfile.mkdtemp(prefix="course-hub-", dir="/tmp"))
        self.root.chmod(0o755)  # students reach the exchange through it
        self.prefix, self.exchange = self.root / "hub", self.root / "exchange"
        self.port, self.log = free_port(), log
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.passwords: dict[str, str] = {}
        self.clone: Path | None = None
        self.timings: dict[str, float] = {}

    # --- the instructor's machine, as an administrator makes it --------------------------

    def install(self) -> None:
        """The instructor's clone (this working tree), then deploy/hub/install.py as root."""
        started = time.perf_counter()
        subprocess.run(
            ["useradd", "--create-home", "--shell", "/bin/bash", self.instructor], check=True
        )
        self.passwords[self.instructor] = secrets.token_urlsafe(9)  # an account of their own
        subprocess.run(
            ["chpasswd"],
            input=f"{self.instructor}:{self.passwords[self.instructor]}\n",
            text=True,
            check=True,
        )
        home = Path(pwd.getpwnam(self.instructor).pw_dir)
        self.clone = home / "transformer-course"
        files = (
            subprocess.run(
                ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                cwd=REPO,
                capture_output=True,
                check=True,
            )
            .stdout.decode()
            .split("\0")
        )
        for name in filter(None, files):
            if (REPO / name).is_file():
                (self.clone / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(REPO / name, self.clone / name)
        subprocess.run(["chown", "-R", f"{self.instructor}:", str(self.clone)], check=True)
        (self.root / "class.txt").write_text("\n".join(self.students) + "\n")
        installed = subprocess.run(
            [
                sys.executable,
                str(self.clone / "deploy/hub/install.py"),
                "--instructor",
                self.instructor,
                "--students",
                str(self.root / "class.txt"),
                "--prefix",
                str(self.prefix),
                "--exchange",
                str(self.exchange),
                "--port",
                str(self.port),
                "--internal-ports",
                str(free_port()),
                str(free_port()),
            ],
            capture_output=True,
            text=True,
            timeout=1200,
        )
        self.log.write_text(installed.stdout + installed.stderr)
        assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
        with (self.prefix / "passwords.csv").open() as rows:  # the students install.py made
            self.passwords |= {row["user"]: row["password"] for row in csv.DictReader(rows)}
        self.timings["install"] = time.perf_counter() - started

    def start(self) -> None:
        started = time.perf_counter()
        with open(self.log, "a") as out:
            self.process = subprocess.Popen(
                [
                    str(self.prefix / "venv/bin/jupyterhub"),
                    "-f",
                    str(self.prefix / "jupyterhub_config.py"),
                ],
                cwd=self.prefix,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{self.base}/hub/login", timeout=2) as page:
                    if page.status == 200:
                        self.timings["start"] = time.perf_counter() - started
                        return
            except OSError:
                time.sleep(0.3)
        raise AssertionError("the hub did not answer:\n" + self.log.read_text()[-3000:])

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        for user in [self.instructor, *self.students]:
            subprocess.run(["pkill", "-KILL", "-u", user], capture_output=True)
        for user in [self.instructor, *self.students]:
            subprocess.run(["userdel", "--remove", user], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)

    # --- acting as one of its users -------------------------------------------------------

    @staticmethod
    def home(user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    def environment(self, user: str) -> dict[str, str]:
        """What that user's server gives their terminal (deploy/hub/jupyterhub_config.py)."""
        venv = self.prefix / "venv"
        who = "instructor" if user == self.instructor else "student"
        env = {
            "HOME": pwd.getpwnam(user).pw_dir,
            "USER": user,
            "LANG": "C.UTF-8",
            "PATH": f"{venv}/bin:/usr/local/bin:/usr/bin:/bin",
            "JUPYTER_CONFIG_PATH": str(self.prefix / "etc" / who),
        }
        if who == "instructor":
            env["COURSE_VENV"] = str(venv)
        return env

    def run(
        self, user: str, *command: str, cwd: Path | None = None, timeout: float = 900
    ) -> subprocess.CompletedProcess:
        """``command`` as ``user`` (runuser), in their home or ``cwd``."""
        home = Path(pwd.getpwnam(user).pw_dir)
        return subprocess.run(
            [
                "runuser",
                "-u",
                user,
                "--",
                "env",
                "-i",
                *[f"{k}={v}" for k, v in self.environment(user).items()],
                *command,
            ],
            cwd=cwd or home,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def write_as(self, user: str, path: Path, text: str) -> None:
        """Replace a file in ``user``'s home as an editor would, keeping its owner."""
        path.write_text(text)
        owner = pwd.getpwnam(user)
        os.chown(path, owner.pw_uid, owner.pw_gid)

    def login(self, page, user: str) -> None:
        """Log in through the hub's page; back once the user's JupyterLab is on screen."""
        page.goto(f"{self.base}/hub/login")
        page.fill("#username_input", user)
        page.fill("#password_input", self.passwords[user])
        page.click("#login_submit")
        page.wait_for_selector(".jp-LabShell", timeout=180_000)


def notebook_json(notebook: dict) -> str:
    return json.dumps(notebook, indent=1, ensure_ascii=False)
