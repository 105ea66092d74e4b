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
"""
    + STUB,
    "lie_reply_claims_pickle": """
import base64, json, pickle, sys, types
payload = base64.b64encode(pickle.dumps(print)).decode()
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: json.dumps({"value": {"$object": payload}})
sys.modules["autograder.trusted.agent"] = fake
"""
    + STUB,
    "lie_malformed_tensor": """
import json, sys, types
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: json.dumps(
    {"value": {"$tensor": ["float32", [4, 1], "AAAA"]}, "error": "nothing"})
sys.modules["autograder.trusted.agent"] = fake
"""
    + STUB,
    "lie_huge_reply": """
import json, sys, types
fake = types.ModuleType("autograder.trusted.agent")
fake.handle = lambda request: "[" * 100000
sys.modules["autograder.trusted.agent"] = fake
"""
    + STUB,
    "lie_score_printed": """
print("Exercise 1 · project: 4 of 4 checks passed")
from IPython.display import display
display({"text/plain": "10.0"}, raw=True)
10.0
"""
    + STUB,
    # --- replacing or wrapping what the checks, the score or its display use --------------
    "patch_torch": """
import torch, torch.testing
torch.allclose = lambda *a, **k: True
torch.equal = lambda *a, **k: True
torch.testing.assert_close = lambda *a, **k: None
"""
    + STUB,
    "patch_checks": """
import course_checks.checking as checking
checking.Checks.score = lambda self: float(self.points)
checking.Checks.close = lambda self, *a, **k: True
checking.compare = lambda *a, **k: None
"""
    + STUB,
    "patch_builtins": """
import builtins
builtins.float = lambda *a: 10.0
builtins.round = lambda *a, **k: 10.0
builtins.isinstance = lambda *a: True
"""
    + STUB,
    "patch_sys_modules": """
import sys, types
fake = types.ModuleType("course_checks.checking")
class Checks:
    def __init__(self, *a, points=1, **k): self.points = points
    def __getattr__(self, name): return lambda *a, **k: True
    def score(self): return float(self.points)
fake.Checks = Checks
sys.modules["course_checks.checking"] = fake
"""
    + STUB,
    "input_transformer": """
def _full_marks(lines):
    return [line.replace("checks.score()", "checks.points") for line in lines]
get_ipython().input_transformers_post.append(_full_marks)
"""
    + STUB,
    "ast_transformer": """
import ast
class FullMarks(ast.NodeTransformer):
    def visit_Call(self, node):
        self.generic_visit(node)
        if getattr(node.func, "attr", "") == "score":
            return ast.Attribute(node.func.value, "points", ast.Load())
        return node
get_ipython().ast_transformers.append(FullMarks())
"""
    + STUB,
    "displayhook": """
import sys
class Hook:
    def __call__(self, value): print(10.0)
sys.displayhook = Hook()
get_ipython().displayhook.write_format_data = lambda *a, **k: None
"""
    + STUB,
    "display_formatter": """
formatter = get_ipython().display_formatter.formatters["text/plain"]
formatter.for_type(float, lambda value, p, cycle: p.text("10.0"))
formatter.for_type(int, lambda value, p, cycle: p.text("10.0"))
"""
    + STUB,
    "run_cell_wrapper": """
shell = get_ipython()
original = shell.run_cell
def run_cell(raw_cell, *args, **kwargs):
    return original(raw_cell.replace("checks.score()", "checks.points"), *args, **kwargs)
shell.run_cell = run_cell
"""
    + STUB,
    # --- hooks that run code later --------------------------------------------------------
    "thread": """
import threading, time, torch
def keep_patching():
    while True:
        torch.allclose = lambda *a, **k: True
        print("10.0")
        time.sleep(0.01)
threading.Thread(target=keep_patching, daemon=True).start()
"""
    + STUB,
    "signal_timer": """
import signal, torch
def handler(*_):
    torch.allclose = lambda *a, **k: True
    print("Exercise 1 · project: 4 of 4 checks passed")
signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.05, 0.05)
"""
    + STUB,
    "trace_hook": """
import sys, threading
def tracer(frame, event, arg):
    if frame.f_code.co_name == "score":
        frame.f_locals["passed"] = 100
    return tracer
sys.settrace(tracer)
threading.settrace(tracer)
sys.setprofile(lambda *a: None)
"""
    + STUB,
    "audit_hook": """
import sys
def hook(event, args):
    if event in ("compile", "exec", "import"):
        raise RuntimeError("no")
sys.addaudithook(hook)
"""
    + STUB,
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
"""
    + STUB,
    "gc_finaliser": """
import gc, torch
class Later:
    def __del__(self):
        torch.allclose = lambda *a, **k: True
        print("Exercise 1 · project: 4 of 4 checks passed")
        Later()
Later()
gc.callbacks.append(lambda phase, info: print("10.0"))
"""
    + STUB,
    "ipython_events": """
shell = get_ipython()
shell.events.register("pre_run_cell",
                      lambda *a: print("Exercise 1 · project: 4 of 4 checks passed"))
shell.events.register("post_run_cell", lambda result: setattr(result, "result", 10.0))
shell.events.register("post_execute", lambda: print(10.0))
"""
    + STUB,
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
"""
    + STUB,
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
"""
    + STUB,
    "read_history": """
shell = get_ipython()
history = "\\n".join(shell.user_ns.get("_ih", [])) + str(shell.history_manager.input_hist_raw)
print("HIDDEN" if "BEGIN HIDDEN" in history or "seed 11" in history else "no hidden tests")
import sys
print([name for name in sys.modules if "checker" in name])
"""
    + STUB,
    "read_environment": """
import os
print("SECRET" if any("secret" in (k + v).lower() for k, v in os.environ.items()) else "clean")
"""
    + STUB,
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
"""
    + STUB,
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
"""
    + STUB,
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
"""
    + STUB,
    "kill_group": """
import os, signal
try:
    os.killpg(0, signal.SIGKILL)
except OSError as error:
    print("blocked", error)
"""
    + STUB,
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
"""
    + STUB,
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
"""
    + STUB,
    "dask": """
try:
    from distributed import Client
    client = Client("tcp://127.0.0.1:8786", timeout=2)
    print("REACHED DASK", client.run(lambda: open("/tmp/dask_pwned", "w").write("x")))
except Exception as error:
    print("blocked", type(error).__name__)
"""
    + STUB,
    # --- resource exhaustion --------------------------------------------------------------
    "disk": """
import os
try:
    with open("big", "wb") as f:
        for _ in range(1000):
            f.write(b"x" * (1 << 20))
except OSError as error:
    print("stopped", error)
"""
    + STUB,
    "tmp_full": """
import os
try:
    for n in range(100000):
        with open(f"/tmp/fill{n}", "wb") as f:
            f.write(b"x" * (1 << 20))
except OSError as error:
    print("stopped", error)
"""
    + STUB,
    "fork_bomb": """
import os, time
for _ in range(12):
    try:
        os.fork()
    except OSError:
        break
time.sleep(1)
"""
    + STUB,
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
"""
    + STUB,
    "rich_output": """
from IPython.display import HTML, Image, display
import base64
for n in range(2000):
    display(HTML("<b>" + "x" * 20000 + "</b>"), display_id=f"d{n}")
"""
    + STUB,
    "display_updates": """
from IPython.display import display, update_display
display("start", display_id="flood")
for n in range(20000):
    update_display({"text/plain": "y" * 1000}, display_id="flood", raw=True)
"""
    + STUB,
    "memory": """
hog = []
try:
    while True:
        hog.append(bytearray(1 << 26))
except MemoryError:
    print("stopped at", len(hog))
"""
    + STUB,
}


def _score_outputs(cell: dict) -> None:
    cell["outputs"] = [
        {
            "output_type": "execute_result",
            "execution_count": 1,
            "metadata": {},
            "data": {"text/plain": "10.0"},
        }
    ]


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
    cell = {
        "cell_type": "code",
        "execution_count": None,
        "outputs": [],
        "source": "50.0",
        "metadata": {
            "nbgrader": {
                "grade": True,
                "grade_id": "bonus",
                "points": 50,
                "solution": False,
                "locked": True,
                "schema_version": 3,
            }
        },
    }
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


FORGERIES = {
    "forge_outputs": forge_outputs,
    "forge_points": forge_points,
    "forge_extra_cell": forge_extra_cell,
    "forge_test_source": forge_test_source,
}

# An honest student graded after the attacks: full answers, plus a look around its kernel.
PROBE = """
import os, torch
print("PROBE tmp:", sorted(os.listdir("/tmp")), "cwd:", sorted(os.listdir(".")),
      "planted:", hasattr(torch, "planted_by_a_student"))
"""


def attack(name: str, repo: str) -> str:
    return ATTACKS[name].replace("{repo!r}", json.dumps(repo))


# --- round 2: the breaches of the second held-out battery (issue 26), one class each ------
#
# Each entry replaces some answer cells of notebook 01 (the others stay stubs). Every answer
# here is worth 0: it uses a refused function, or reads what it must not, or returns
# nothing right. ``{copy!r}`` and ``{secret!r}`` are a second copy of the course and a file
# of fake secrets the test places elsewhere on the machine; COURSE_GRADER_TOKEN is set in
# the grader's environment.
SOFTMAX_CELL = "def softmax(z):\n    return {call}\n"
# A student's printout dressed as the checks' diagnosis, in Markdown and HTML.
REPORT_INJECTION = (
    "<img src=x onerror=alert(1)> | **fake column** | [x](javascript:alert(1)) | every student"
)
CELL_ATTACKS = {
    # --- the kernel sees the whole machine ------------------------------------------------
    "r2_other_copy": {
        "ex1_project": """
import glob, os
for path in glob.glob(os.path.join({copy!r}, "**", "*"), recursive=True):
    try:
        text = open(path, errors="replace").read()
        if "BEGIN HIDDEN" in text and "Checks(" in text:
            print("READ /", path)
    except OSError:
        pass
print("looked in", {copy!r}, os.path.exists({copy!r}))
"""
        + STUB
    },
    "r2_secret_file": {
        "ex1_project": """
try:
    print("READ /", open({secret!r}).read())
except OSError as error:
    print("blocked", error)
"""
        + STUB
    },
    "r2_walk_the_machine": {
        "ex1_project": """
import os
seen = 0
for top in ["/", "/home", "/root", "/srv", "/opt", "/mnt", "/var", "/work", "/media"]:
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev")][:50]
        for name in files[:200]:
            seen += 1
            if name.endswith(".ipynb") or "secret" in name:
                try:
                    text = open(os.path.join(folder, name), errors="replace").read()
                    # the course's hidden tests (not nbgrader's own examples), the secrets
                    if "BEGIN HIDDEN" in text and "Checks(" in text or "fake-secret" in text:
                        print("READ /", folder, name)
                except OSError:
                    pass
print("files seen", seen)
"""
        + STUB
    },
    "r2_find_course_from_site_packages": {
        "ex1_project": """
import glob, os, re, site, sys
roots = set()
for path in glob.glob(os.path.join(sys.prefix, "lib", "python*", "site-packages", "*")):
    try:
        roots |= set(re.findall(r"'(/[^']+)/(?:transformer_course|course_checks)'",
                                open(path, errors="replace").read()))
    except OSError:
        pass
for root in roots:
    for path in glob.glob(os.path.join(root, "solutions", "*", "*.ipynb")):
        try:
            print("READ /", path, len(open(path).read()))
        except OSError as error:
            print("blocked", error)
print("roots", roots)
"""
        + STUB
    },
    "r2_environment": {
        "ex1_project": """
import os
token = os.environ.get("COURSE_GRADER_TOKEN")
print("SECRET " + token if token else "no token", sorted(os.environ))
try:
    text = open("/proc/1/environ").read() + open("/proc/self/environ").read()
    print("SECRET in proc" if "COURSE_GRADER_TOKEN" in text else "clean proc")
except OSError as error:
    print("blocked", error)
"""
        + STUB
    },
    # --- shortcut refusal switched off or smuggled past it ---------------------------------
    "r2_refusal_switched_off": {
        "ex3_softmax": """
import contextlib
from course_checks import shortcuts as _s
_s.refused = lambda *a, **k: contextlib.nullcontext()
"""
        + SOFTMAX_CELL.format(call="F.softmax(z, dim=0)")
    },
    "r2_default_argument": {
        "ex3_softmax": "def softmax(z, f=torch.softmax):\n    return f(z, 0)\n"
    },
    "r2_private_torch": {"ex3_softmax": SOFTMAX_CELL.format(call="torch._softmax(z, 0, False)")},
    "r2_partial_of_the_package": {
        "ex1_project": """
import functools
project = functools.partial(columns.project)
"""
    },
    "r2_closure": {
        "ex2_score": """
def _make():
    keep = columns.score
    def score(q, k):
        return keep(q, k)
    return score
score = _make()
"""
    },
    "r2_function_clone": {
        "ex2_score": """
import types
score = types.FunctionType(columns.score.__code__, columns.score.__globals__)
"""
    },
    "r2_star_import": {"ex1_project": "from transformer_course.columns import *\n"},
    "r2_method_alias": {
        "ex3_softmax": """
_sm = torch.Tensor.softmax
def softmax(z):
    return _sm(z, 0)
"""
    },
    "r2_log_softmax": {"ex3_softmax": SOFTMAX_CELL.format(call="z.log_softmax(0).exp()")},
    "r2_exec_string": {
        "ex3_softmax": """
exec("def softmax(z):\\n    return torch.sof" + "tmax(z, 0)\\n")
"""
    },
    "r2_globals_write": {"ex3_softmax": "globals()['softmax'] = torch.special.softmax\n"},
    "r2_computed_getattr": {
        "ex3_softmax": """
def softmax(z):
    return getattr(torch, "soft" + "max")(z, 0)
"""
    },
    "r2_sys_modules": {
        "ex3_softmax": """
import sys
def softmax(z):
    return sys.modules["torch.nn.functional"].softmax(z, 0)
"""
    },
    # --- kernel data in expected values or in the checker's tensors -------------------------
    "r2_rebind_what_checks_read": {
        "ex1_project": """
import torch
misconceptions = None
Checks = None
compare = lambda *a, **k: None
columns = type("Fake", (), {"project": staticmethod(lambda W, b, x: W[:, :1] * 0)})
"""
        + STUB
    },
    "r2_inplace_lift": {
        "ex1_project": """
def project(W, b, x):
    W.zero_()
    b.zero_()
    x.zero_()
    return torch.zeros(W.shape[0], 1)
"""
    },
    "r2_forged_changes": {
        "ex1_project": """
import json, sys
import autograder.trusted.agent as agent
real = agent.handle
def handle(request):
    reply = json.loads(real(request))
    reply["changed"] = [[["arg", 0], {"$tensor": ["float32", [1], "AAAAAA=="]}]] * 64
    reply["value"] = {"$float": "nan"}
    reply.pop("error", None)
    return json.dumps(reply)
agent.handle = handle
"""
        + STUB
    },
    # --- the checker's own budget ---------------------------------------------------------
    "r2_walked_item_by_item": {
        "ex1_project": """
class Endless:
    shape = (4, 1)
    def __len__(self):
        return 10 ** 6
    def __getitem__(self, i):
        return Endless()
    def __iter__(self):
        while True:
            yield 0.0
def project(W, b, x):
    return Endless()
"""
    },
    "r2_slow_every_call": {
        "ex5_weighted_sum": """
import time
def weighted_sum(weights, values):
    time.sleep(3)
    return values[0] * 0
"""
    },
    "r2_huge_reply": {
        "ex1_project": """
def project(W, b, x):
    return torch.zeros(30_000_000)
"""
    },
    "r2_giant_output": {
        "ex1_project": """
from IPython.display import display
display({"text/plain": "x" * 100_000_000}, raw=True)
"""
        + STUB
    },
    "r2_ignores_interrupts": {
        "ex2_score": """
import time
def score(q, k):
    while True:
        try:
            time.sleep(0.1)
        except KeyboardInterrupt:
            pass
"""
    },
    # --- hidden inputs leaking through what the answer prints, warns or raises --------------
    "r2_prints_hidden_inputs": {
        "ex1_project": """
import os, warnings, sys
def project(W, b, x):
    if os.environ.get("NBGRADER_EXECUTION"):
        print("LEAKED-INPUT", W.flatten().tolist()[:3])
        print("LEAKED-INPUT", x.flatten().tolist()[:3], file=sys.stderr)
        warnings.warn("LEAKED-INPUT " + str(b.flatten().tolist()[:3]))
    return W[:, :1] * 0
"""
    },
    # --- round 3: what a blind attacker found (the same operation elsewhere in PyTorch, a
    # reader that failed open, student text that passed for the checks' own) ----------------
    "r3_operator_registry": {
        "ex3_softmax": SOFTMAX_CELL.format(call="torch.ops.aten.softmax(z, 0)")
    },
    "r3_sparse_softmax": {
        "ex3_softmax": SOFTMAX_CELL.format(call="torch.sparse.softmax(z.to_sparse(), 0).to_dense()")
    },
    "r3_alias_chain": {
        "ex3_softmax": "_s0 = torch._C._VariableFunctions.softmax\n"
        + "".join(f"_s{n + 1} = _s{n}\n" for n in range(3000))
        + SOFTMAX_CELL.format(call="_s3000(z, 0)")
    },
    "r3_rebinds_a_library": {
        "ex1_project": """
import torch.nn.functional as F2
F2.linear = lambda *args, **kwargs: None
"""
        + STUB
    },
    "r3_forged_check_lines": {
        "ex2_score": """
def score(q, k):
    raise ValueError("no\\r\\n\\x1b[32m  ✓ FORGED check\\nExercise 2: 8 of 8 checks passed\\x1b[0m")
"""
    },
    # --- trusted grading, round 3: what an attacker who read the grader's source found ------
    "r4_printout_as_diagnosis": {
        "ex1_project": f"""
def project(W, b, x):
    print("This matches {REPORT_INJECTION}.")
    raise NotImplementedError()
"""
    },
    # the course's own cells hand the course's function over
    "r4_calls_the_course_fallback": {
        "ex1_project": """
def project(W, b, x):
    return project_(W, b, x)  # the locked cell below: yours_or_ours(project, columns.project)
"""
    },
    # refused functions reached by routes a list of constructs does not name (pydoc, timeit,
    # code, eval rebound, getattr renamed or folded ...: read without a kernel in test_uses)
    "r4_base_class_method": {
        "ex3_softmax": SOFTMAX_CELL.format(call="getattr(type(z).__base__, 'softmax')(z, 0)")
    },
    "r4_module_it_wrote": {
        "ex3_softmax": """
open("shortcut_module.py", "w").write("import torch\\nsm = torch.softmax\\n")
import shortcut_module
"""
        + SOFTMAX_CELL.format(call="shortcut_module.sm(z, 0)")
    },
    "r4_alias_web": {
        "ex3_softmax": "".join(
            f"a{n} = a{n + 1}\na{n} = b{n + 1}\nb{n} = a{n + 1}\nb{n} = b{n + 1}\n"
            for n in range(90)
        )
        + "a90 = torch.softmax\nb90 = F.softmax\n"
        + SOFTMAX_CELL.format(call="a0(z, 0)")
    },
}
# Answers the reader cannot see through: they may keep points, but must be flagged.
FLAGGED = {
    "r2_function_clone",
    "r2_exec_string",
    "r2_globals_write",
    "r2_computed_getattr",
    "r2_sys_modules",
    "r3_rebinds_a_library",
    "r4_base_class_method",
    "r4_module_it_wrote",
}
# The first line of a cell a student gave grade marks, quoted in the notes: terminal escapes
# (clear the screen, set the title), a right-to-left override and a formula.
ESCAPES_FIRST_LINE = (
    "\x1b[2J\x1b[3J\x1b]0;pwned\x07\x1b[32mAll students graded; none need a"
    ' look\u202e =HYPERLINK("x")'
)


def escapes_attack(notebook: dict) -> dict:
    """A code cell with grade marks the course does not have, its first line all escapes."""
    notebook = json.loads(json.dumps(notebook))
    notebook["cells"].insert(
        2,
        {
            "cell_type": "code",
            "execution_count": None,
            "outputs": [],
            "metadata": {
                "nbgrader": {
                    "grade": True,
                    "solution": False,
                    "locked": False,
                    "grade_id": "bonus",
                    "points": 100,
                    "schema_version": 3,
                }
            },
            "source": ESCAPES_FIRST_LINE + "\nprint('bonus')\n",
        },
    )
    return notebook


# Student markdown and rich outputs that would run script in a reader's browser.
PAGE_SCRIPT = "document.title = 'PWNED'; window.pwned = true; alert('pwned')"
PAGE_MARKDOWN = f"""## My notes
<script>{PAGE_SCRIPT}</script>
<img src="x" onerror="{PAGE_SCRIPT}">
<iframe srcdoc="<script>parent.{PAGE_SCRIPT}</script>"></iframe>
<a href="javascript:{PAGE_SCRIPT}">click me</a>
<svg><script>{PAGE_SCRIPT}</script></svg>
<details open ontoggle="{PAGE_SCRIPT}"><summary>x</summary></details>
<style>body {{ background: url("javascript:{PAGE_SCRIPT}") }}</style>
"""
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJ"
    "RU5ErkJggg=="
)  # one pixel
PAGE_OUTPUTS = f"""
from IPython.display import HTML, Javascript, SVG, Markdown, display
display(HTML('<img src=x onerror="{PAGE_SCRIPT}"><script>{PAGE_SCRIPT}</script>'))
display(Javascript("{PAGE_SCRIPT}"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg"><script>{PAGE_SCRIPT}</script>'
            '<circle r="5" onload="{PAGE_SCRIPT}"/></svg>'))
display(Markdown('<img src=y onerror="{PAGE_SCRIPT}">'))
display({{"text/html": "<iframe src=\\"javascript:{PAGE_SCRIPT}\\"></iframe>"}}, raw=True)
# nbconvert writes an image's width into the page unquoted (found by a blind attacker)
display({{"image/png": "{PNG}"}}, raw=True,
        metadata={{"image/png": {{"width": "1 onload=alert(1)", "height": "1 onerror=alert(2)"}}}})
"""


def page_attack(notebook: dict) -> dict:
    """A markdown cell and a cell of rich outputs, both trying to run script in a browser."""
    notebook = json.loads(json.dumps(notebook))
    notebook["cells"][1:1] = [
        {"cell_type": "markdown", "metadata": {}, "source": PAGE_MARKDOWN},
        {
            "cell_type": "code",
            "metadata": {},
            "source": PAGE_OUTPUTS,
            "outputs": [],
            "execution_count": None,
        },
    ]
    return notebook


def cell_attack(name: str, copy: str, secret: str) -> dict[str, str]:
    return {
        cell: code.replace("{copy!r}", json.dumps(copy)).replace("{secret!r}", json.dumps(secret))
        for cell, code in CELL_ATTACKS[name].items()
    }
