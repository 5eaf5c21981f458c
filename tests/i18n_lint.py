"""The catalogue lint: user-facing string literals not passed through `_`/`ngettext`/`N_`.

A literal counts as user-facing when its text (the f-string's fixed parts) holds a
word of letters and a space inside it. Docstrings, the arguments of the catalogue's own
calls, programmer errors (`raise ValueError(...)` and kin, `assert`), comparisons and
subscripts are not user-facing. Anything else that is not for people (file names,
SDL settings, YAML keys...) goes in the explicit allow-list of the test.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

CATALOGUE_CALLS = {"_", "ngettext", "N_", "gettext"}
PROGRAMMER_ERRORS = {"ValueError", "TypeError", "KeyError", "AssertionError", "RuntimeError",
                     "NotImplementedError", "IndexError", "AttributeError", "LookupError"}
_LETTERS = re.compile(r"[A-Za-z]{2,}")
_SPACE = re.compile(r"\s")


def _fixed_text(node: ast.AST) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return ""


def _call_name(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def user_facing_literals(path: Path, declarations: bool = True) -> list[tuple[int, str]]:
    """(line, text) of every literal in `path` the lint counts as user-facing and
    untranslated; `declarations=False` leaves out literals outside functions (the field
    docs of the YAML formats, which go into the JSON Schemas and stay English)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    if not declarations:
        inside: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inside.update(id(sub) for sub in ast.walk(node))
        skip.update(id(n) for n in ast.walk(tree) if id(n) not in inside)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and _call_name(node) in CATALOGUE_CALLS:
            for sub in ast.walk(node):
                if sub is not node.func:
                    skip.add(id(sub))
        if isinstance(node, ast.Call) and _call_name(node).startswith(("log", "debug", "info",
                                                                      "warning", "exception")):
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id in ("log", "logger", "logging", "_log"):
                for sub in ast.walk(node):
                    skip.add(id(sub))
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) \
                and _call_name(node.exc) in PROGRAMMER_ERRORS:
            for sub in ast.walk(node.exc):
                skip.add(id(sub))
        if isinstance(node, (ast.Assert, ast.Compare, ast.Subscript)):
            for sub in ast.walk(node):
                skip.add(id(sub))
        if isinstance(node, ast.JoinedStr):
            for v in node.values:
                skip.add(id(v))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        text = _fixed_text(node)
        if text and _LETTERS.search(text) and _SPACE.search(text.strip()):
            found.append((node.lineno, text))
    return sorted(found)


def shadowed_underscore(path: Path) -> list[int]:
    """Lines where a function binds `_` (a throwaway name) in a module that imports the
    catalogue's `_`: there `_("...")` would call the throwaway."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports_it = any(isinstance(n, ast.ImportFrom) and any(a.name == "_" and a.asname is None
                                                           for a in n.names)
                     for n in tree.body)
    if not imports_it:
        return []
    return sorted({n.lineno for n in ast.walk(tree)
                   if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)}
                  | {n.lineno for n in ast.walk(tree)
                     if isinstance(n, ast.arg) and n.arg == "_"})
