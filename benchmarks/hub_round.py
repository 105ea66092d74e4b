"""Time a whole class round on a real JupyterHub for the course (as root; minutes).

    sudo .venv/bin/python benchmarks/hub_round.py --students 30

The hub is made as an administrator makes it (deploy/hub/install.py, through tests/hub.py),
then each student does, through the hub's and their server's HTTP API what the Assignments
tab and Validate do in a browser: log in with their password, start their server, fetch
notebook 01, answer it (one in three with a known mistake), validate it with the course's
checks, submit it. The instructor, as their own Unix user, collects, runs `make grade` and
releases the feedback; every student fetches theirs. Students act side by side, a few at a
time, as a class in a lab session would. Prints each phase's time; writes benchmarks/hub.md.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import sys
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
COURSE = HERE.parent
sys.path[:0] = [str(COURSE / "tests")]

import hub as hub_tools  # noqa: E402
from conftest import load, solution_sources, student_submission  # noqa: E402
from submissions import WRONG  # noqa: E402

A = "01_vector_attention"
COURSE_ID = "transformer-course"


class Student:
    """One student's browser, as HTTP: a cookie jar, the hub's XSRF token, an API token."""

    def __init__(self, hub: hub_tools.Hub, name: str):
        self.hub, self.name = hub, name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.token = ""

    def request(
        self, path: str, data: dict | None = None, method: str | None = None, timeout: float = 600
    ) -> str:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.hub.base + path, data=body, method=method)
        if self.token:
            request.add_header("Authorization", f"token {self.token}")
        with self.opener.open(request, timeout=timeout) as response:
            return response.read().decode()

    def cookie(self, name: str) -> str | None:
        return next(
            (c.value for c in self.jar if c.name == name and c.path.startswith("/hub")), None
        )

    def log_in_and_start(self) -> None:
        page = self.request("/hub/login")
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
        self.request(
            "/hub/login",
            {"_xsrf": xsrf, "username": self.name, "password": self.hub.passwords[self.name]},
        )
        request = urllib.request.Request(
            f"{self.hub.base}/hub/api/users/{self.name}/tokens",
            method="POST",
            data=json.dumps({"note": "benchmark", "expires_in": 3600}).encode(),
            headers={
                "X-XSRFToken": self.cookie("_xsrf") or xsrf,
                "Content-Type": "application/json",
            },
        )
        with self.opener.open(request, timeout=60) as response:
            self.token = json.loads(response.read())["token"]
        try:
            self.request(f"/hub/api/users/{self.name}/server", {}, method="POST")
        except urllib.error.HTTPError as error:  # 400: already running (the log-in started it)
            if error.code != 400:
                raise
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            user = json.loads(self.request(f"/hub/api/users/{self.name}"))
            if user["servers"].get("", {}).get("ready"):
                return
            time.sleep(0.5)
        raise TimeoutError(f"{self.name}'s server did not start")

    def action(self, what: str) -> None:
        self.request(
            f"/user/{self.name}/assignments/{what}", {"course_id": COURSE_ID, "assignment_id": A}
        )

    def answer(self, index: int) -> None:
        path = self.hub.home(self.name) / A / f"{A}.ipynb"
        answers = solution_sources(A)
        if index % 3 == 2:  # one in three makes a known mistake
            mistakes = list(WRONG[A].values())
            answers |= mistakes[index % len(mistakes)][0]
        self.hub.write_as(
            self.name, path, hub_tools.notebook_json(student_submission(load(path), answers))
        )

    def validate(self) -> str:
        return self.request(f"/user/{self.name}/assignments/validate", {"path": f"{A}/{A}.ipynb"})


def timed(timings: dict, name: str, work) -> None:
    started = time.perf_counter()
    work()
    timings[name] = round(time.perf_counter() - started, 1)
    print(f"{name}: {timings[name]} s", flush=True)


def write_section(path: Path, students: int, section: list[str]) -> None:
    """Put this class size's section into ``path``, replacing an earlier one of that size."""
    title = "# A class round on the course's JupyterHub"
    text = path.read_text() if path.exists() else title + "\n"
    sections = {
        int(m.group(1)): m.group(0)
        for m in re.finditer(r"^## (\d+) students\n.*?(?=^## |\Z)", text, re.M | re.S)
    }
    sections[students] = "\n".join(section) + "\n"
    path.write_text(title + "\n\n" + "".join(sections[n] for n in sorted(sections)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument(
        "--side-by-side", type=int, default=8, help="students acting at the same moment"
    )
    parser.add_argument("--out", type=Path, default=HERE / "hub.md")
    args = parser.parse_args(argv)
    if why := hub_tools.missing():
        sys.exit(f"no hub here: {why}")
    log = Path("/tmp") / "course-hub-bench.log"
    hub = hub_tools.Hub(args.students, log)
    timings: dict[str, float] = {}
    try:
        timed(timings, "set-up (deploy/hub/install.py)", hub.install)
        timed(timings, "hub start", hub.start)
        students = [Student(hub, name) for name in hub.students]

        def instructor(*command: str):
            done = hub.run(hub.instructor, *command, cwd=hub.clone)
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
            return done

        timed(timings, "release", lambda: instructor("nbgrader", "release_assignment", A))
        pool = ThreadPoolExecutor(args.side_by_side)

        def each(work):
            return list(pool.map(work, range(len(students))))

        timed(
            timings,
            "students log in (servers start)",
            lambda: each(lambda i: students[i].log_in_and_start()),
        )
        timed(timings, "students fetch", lambda: each(lambda i: students[i].action("fetch")))
        each(lambda i: students[i].answer(i))
        said = []
        timed(
            timings,
            "students validate",
            lambda: said.extend(each(lambda i: students[i].validate())),
        )
        failed = sum('"failed"' in text for text in said)
        timed(timings, "students submit", lambda: each(lambda i: students[i].action("submit")))
        timed(timings, "collect", lambda: instructor("nbgrader", "collect", A))
        graded = []
        timed(timings, "make grade", lambda: graded.append(instructor("make", "grade")))
        timed(timings, "release feedback", lambda: instructor("nbgrader", "release_feedback", A))
        timed(
            timings,
            "students fetch feedback",
            lambda: each(lambda i: students[i].action("fetch_feedback")),
        )
        pages = sum(
            1 for s in hub.students if list((hub.home(s) / A / "feedback").rglob(f"{A}.html"))
        )
        assert pages == len(students), f"{pages} of {len(students)} feedback pages fetched"
        summary = next(line for line in graded[0].stdout.splitlines() if line.startswith(A))
    finally:
        hub.close()
    round_ = sum(
        v for k, v in timings.items() if k not in ("set-up (deploy/hub/install.py)", "hub start")
    )
    section = [
        f"## {args.students} students",
        "",
        f"Measured by `sudo .venv/bin/python benchmarks/hub_round.py --students "
        f"{args.students}` ({args.side_by_side} students acting at once).",
        "",
        "| phase | seconds |",
        "| --- | ---: |",
        *[f"| {name} | {seconds} |" for name, seconds in timings.items()],
        f"| **the round, from release to feedback** | **{round_:.1f}** |",
        "",
        f"Validate found {failed} of {len(students)} notebooks short of full marks; "
        f"`make grade`: {summary}; every student fetched their feedback page.",
        "",
    ]
    write_section(args.out, args.students, section)
    print("\n".join(section))
    return 0


if __name__ == "__main__":
    sys.exit(main())
