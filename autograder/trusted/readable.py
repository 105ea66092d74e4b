"""What the reader reads through, and what it flags as opaque wherever an answer names it:
the modules an answer may import, the objects and builtins that reach code it cannot see,
and the attributes an answer may use."""

from __future__ import annotations

import operator

# The modules an answer may import without a flag: what the course teaches with and Python's
# plain helpers, none of which turns text into code or fetches an object by a computed name
# (where one can, that object is in OPAQUE_OBJECTS). Anything else (a module the notebook
# wrote, importlib, pickle, pydoc, timeit, code, inspect, ctypes ...) is flagged.
READABLE_MODULES = {
    "torch",
    "math",
    "cmath",
    "numpy",
    "transformer_course",
    "matplotlib",
    "itertools",
    "functools",
    "collections",
    "typing",
    "dataclasses",
    "random",
    "time",
    "datetime",
    "statistics",
    "operator",
    "copy",
    "warnings",
    "contextlib",
    "enum",
    "fractions",
    "decimal",
    "numbers",
    "abc",
    "re",
    "json",
    "csv",
    "heapq",
    "bisect",
    "array",
    "struct",
    "textwrap",
    "pprint",
    "sys",
    "os",
    "pathlib",
    "io",
    "types",
    "__future__",
    "IPython",
    "tqdm",
}
# Within those, what reaches code or objects the reader cannot see.
OPAQUE_OBJECTS = (
    "types.FunctionType",
    "types.CodeType",
    "types.LambdaType",
    "sys.modules",
    "operator.attrgetter",
    "operator.methodcaller",
    "IPython.core",
    "IPython.get_ipython",
    "torch.ops",
    "torch.library",
    "sys._getframe",
    "typing.get_type_hints",
    "typing.ForwardRef",
)
# Builtins that run or fetch code given as text or reach namespaces: flagged wherever named.
OPAQUE_BUILTINS = {
    "exec",
    "eval",
    "compile",
    "__import__",
    "vars",
    "globals",
    "locals",
    "breakpoint",
    "get_ipython",
}
NAMED_ACCESS = {"getattr", "setattr", "delattr"}  # readable with a constant name only
# Dunder attributes an answer may use: Python's operator protocol (as the operator module
# names it) and a few plain ones. Any other is flagged (``__base__``, ``__dict__`` ...), and
# the attributes of frames and code objects too.
PLAIN_DUNDERS = {
    name
    for name in dir(operator)
    if name.startswith("__")
    and name.endswith("__")
    and getattr(getattr(operator, name), "__module__", None) in ("operator", "_operator")
} | {
    "__init__",
    "__name__",
    "__qualname__",
    "__doc__",
    "__module__",
    "__len__",
    "__iter__",
    "__next__",
    "__enter__",
    "__exit__",
    "__repr__",
    "__str__",
    "__hash__",
    "__bool__",
    "__post_init__",
}
INTROSPECTION = {
    "f_globals",
    "f_locals",
    "f_back",
    "f_builtins",
    "gi_frame",
    "cr_frame",
    "ag_frame",
    "co_code",
    "co_consts",
    "tb_frame",
}
