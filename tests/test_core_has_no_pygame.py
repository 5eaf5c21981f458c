"""Nothing outside bottisota/view/ (and the commands that draw) imports pygame
(ARCHITECTURE.md, design.md habit 1); the view model (bottisota/viewmodel/) is checked
like the core."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import bottisota

PACKAGE = Path(bottisota.__file__).resolve().parent
VIEW = PACKAGE / "view"
DRAWING_COMMANDS = {PACKAGE / "commands" / "play.py"}     # `bottisota play` opens the window


def core_modules() -> list[str]:
    """Every module of the package except bottisota.view.* (and its own __main__)."""
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if VIEW in path.parents or path.name == "__main__.py" or path in DRAWING_COMMANDS:
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


BLOCKER = r"""
import importlib, importlib.abc, json, sys

class NoPygame(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pygame" or name.startswith("pygame."):
            raise ImportError("pygame is blocked: the core must not import it")
        return None

sys.meta_path.insert(0, NoPygame())
failed = {}
for name in json.loads(sys.argv[1]):
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
leaked = sorted(m for m in sys.modules if m == "pygame" or m.startswith("pygame."))
print(json.dumps({"failed": failed, "leaked": leaked}))
"""


def test_every_core_module_imports_with_pygame_blocked():
    modules = core_modules()
    assert "bottisota.geometry.arena_index" in modules and "bottisota.cli" in modules
    assert "bottisota.viewmodel.model" in modules and "bottisota.viewmodel.session" in modules
    assert not any(m == "bottisota.view" or m.startswith("bottisota.view.") for m in modules)
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    out = subprocess.run([sys.executable, "-c", BLOCKER, json.dumps(modules)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["failed"] == {}
    assert report["leaked"] == []


def test_the_blocker_does_block_pygame():
    out = subprocess.run([sys.executable, "-c", BLOCKER, json.dumps(["pygame"])],
                         capture_output=True, text=True, timeout=60)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert "pygame" in report["failed"] and "blocked" in report["failed"]["pygame"]


def imported_names(source: str) -> set[str]:
    """Top-level names of every module an import statement in the source names."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                node.func, "id", "")) in ("import_module", "__import__"):
            if node.args and isinstance(node.args[0], ast.Constant):
                names.add(str(node.args[0].value).split(".")[0])
    return names


def test_no_import_statement_outside_view_names_pygame():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if VIEW in path.parents or path in DRAWING_COMMANDS:
            continue
        if "pygame" in imported_names(path.read_text(encoding="utf-8")):
            offenders.append(str(path.relative_to(PACKAGE.parent)))
    assert offenders == []


def test_the_static_scan_sees_every_import_form():
    source = "import pygame.draw\nfrom pygame import Rect\nimportlib.import_module('pygame')\n"
    assert imported_names(source) == {"pygame"}
    assert "pygame" in imported_names("def f():\n    import pygame\n")
    assert "pygame" not in imported_names("from .view import pygame_free\n")
