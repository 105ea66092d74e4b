"""The tables the rewrites of a reference answer draw on: which names share a role, which
functions and operators have a typed counterpart, which arguments are axes or counts, which
calls change a tensor in place, and the words that describe each operator and axis."""

from __future__ import annotations

import ast
import math
import re

import torch

# Operands of one role: swapping one for another is a typed mistake, not noise.
ROLE_FAMILIES = [
    {"Q", "K", "V"},
    {"q", "k", "v"},
    {"queries", "keys", "values"},
    {"x", "memory"},
    {"gamma", "beta"},
    {"generated", "target"},
    {"seq_len", "d_model"},
    {"pos", "i"},
    {"start_token", "end_token"},
    {"c", "s"},
    {"step", "warmup", "max_iters"},
    {"T", "S"},
    {"B", "T", "H", "d_head", "d_model", "n_heads"},
    {"W", "b", "x"},
    {"W1", "W2"},
    {"b1", "b2"},
    {"weights", "values"},
    {"h", "x"},
    {"query", "key", "value"},
]
_ROLE_SUFFIX = re.compile(r"^(.+?)_?([qkv]|\d)$")
SWAPS = {  # function or method names with their typed counterparts
    "max": ("min",),
    "min": ("max",),
    "amax": ("amin",),
    "amin": ("amax",),
    "argmax": ("argmin",),
    "argmin": ("argmax",),
    "sin": ("cos",),
    "cos": ("sin",),
    "tril": ("triu",),
    "triu": ("tril",),
    "sum": ("mean",),
    "mean": ("sum",),
    "relu": ("gelu", "silu"),
    "gelu": ("relu",),
    "silu": ("gelu", "relu"),
    "ReLU": ("GELU",),
    "GELU": ("ReLU",),
    "softmax": ("log_softmax",),
    "log_softmax": ("softmax",),
    "cross_entropy": ("nll_loss",),
    "clip_grad_norm_": ("clip_grad_value_",),
    "clip_grad_value_": ("clip_grad_norm_",),
    "cat": ("stack",),
    "stack": ("cat",),
    "train": ("eval",),
    "eval": ("train",),
    "log": ("log2", "log10"),
    "any": ("all",),
    "all": ("any",),
    "var": ("std",),
    "std": ("var",),
    "xavier_uniform_": ("normal_", "uniform_"),
    "kaiming_uniform_": ("normal_",),
}
# What a module's short name in an answer stands for, to tell whether a swapped-in
# function exists there (`torch.gelu` does not: it is `F.gelu`).
MODULES = {
    "torch": torch,
    "F": torch.nn.functional,
    "torch.nn.functional": torch.nn.functional,
    "nn": torch.nn,
    "torch.nn": torch.nn,
    "math": math,
}
# Functions whose positional argument at this index (method form, torch.* form) is an axis.
AXIS_ARGUMENT = {
    name: (0, 1)
    for name in (
        "sum",
        "mean",
        "softmax",
        "log_softmax",
        "amax",
        "amin",
        "argmax",
        "argmin",
        "cumsum",
        "unsqueeze",
        "var",
        "std",
        "logsumexp",
        "all",
        "any",
    )
} | {"cat": (None, 1), "stack": (None, 1)}
# Functions whose last positional argument is a count or an offset an answer may get off by
# one even when it is not a literal (a range's end, a triangle's diagonal, top-k's k).
COUNTED = {"range", "arange", "tril", "triu", "topk", "narrow"}
PRECEDENCE = {
    ast.Add: 1,
    ast.Sub: 1,
    ast.Mult: 2,
    ast.Div: 2,
    ast.FloorDiv: 2,
    ast.Mod: 2,
    ast.MatMult: 2,
    ast.Pow: 3,
}
INPLACE = {
    "masked_fill": "masked_fill_",
    "add": "add_",
    "sub": "sub_",
    "mul": "mul_",
    "div": "div_",
    "exp": "exp_",
    "clamp": "clamp_",
    "fill_diagonal": "fill_diagonal_",
}
OPERATOR_INPLACE = {ast.Add: "add_", ast.Sub: "sub_", ast.Mult: "mul_", ast.Div: "div_"}
ELEMENTWISE = {
    "relu",
    "gelu",
    "exp",
    "sqrt",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "softmax",
    "log",
    "abs",
    "float",
    "squeeze",
    "contiguous",
    "detach",
    "clone",
    "sorted",
}
# A dtype and the one of the same kind an answer may write instead (another width).
DTYPE_SWAPS = {
    "torch.long": "torch.int32",
    "torch.int64": "torch.int32",
    "torch.int32": "torch.long",
    "torch.int": "torch.long",
    "torch.float32": "torch.float64",
    "torch.float": "torch.float64",
    "torch.float64": "torch.float32",
    "torch.double": "torch.float32",
}
CAST_SWAPS = {"long": "int", "int": "long", "float": "double", "double": "float"}
# Methods that turn a tensor into another form of the same numbers.
CONVERSIONS = {"item", "tolist", "long", "int", "bool", "double", "numpy"}
OPERATOR_WORDS = {
    ast.Add: "adds",
    ast.Sub: "subtracts",
    ast.Mult: "multiplies",
    ast.Div: "divides",
    ast.MatMult: "multiplies matrices",
    ast.FloorDiv: "divides",
    ast.Pow: "raises to a power",
}
OPERATOR_VERBS = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide"}
OPERATOR_SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
COMPARE_SWAPS = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
AXES = (-1, -2, 0, 1)
AXIS_WORDS = {
    -1: "the last axis",
    -2: "the second-to-last axis",
    0: "the first axis",
    1: "the second axis",
}
