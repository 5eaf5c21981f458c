"""`Any` only where outside data enters (issue: one session behind every face).

In the packages mypy checks strictly, a module that uses `Any` says in a comment
("Any: ...") what outside data it stands for; the modules that hold only the core's
own values (movement, targeting, the state digest, label placing) use
none at all."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "bottisota"
STRICT = ("core", "formats", "geometry", "engine", "play", "robot", "viewmodel", "web")
NO_ANY = ("engine/movement", "engine/shooting/targeting.py",
          "play/journal_digest.py", "viewmodel/labels.py")
USES_ANY = re.compile(r"^(?:from typing import .*\bAny\b|    Any,$)", re.M)


def _modules(where: str) -> list[Path]:
    path = PACKAGE / where
    return [path] if path.suffix == ".py" else sorted(path.rglob("*.py"))


@pytest.mark.parametrize("package", STRICT)
def test_a_module_that_uses_any_says_what_outside_data_it_is(package):
    unexplained = [str(p.relative_to(PACKAGE)) for p in _modules(package)
                   if USES_ANY.search(p.read_text()) and "Any:" not in p.read_text()
                   and "Any below:" not in p.read_text()]
    assert unexplained == []


@pytest.mark.parametrize("where", NO_ANY)
def test_the_cores_own_values_are_typed_without_any(where):
    assert [str(p.relative_to(PACKAGE)) for p in _modules(where)
            if re.search(r"\bAny\b", p.read_text())] == []
