"""Where the bundled arenas and cards are: the source checkout, or the installed copy."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent   # the bottisota package


def content_root() -> Path:
    """The folder that holds `arenas/` and `cards/`.

    In a source checkout (or an editable install) that is the project's top
    level; an installed wheel carries copies under `bottisota/content/`.
    """
    top = _PACKAGE.parent
    if (top / "cards" / "rules.yaml").is_file() and (top / "arenas").is_dir():
        return top
    return _PACKAGE / "content"


def arenas_dir() -> Path:
    return content_root() / "arenas"


def cards_dir() -> Path:
    return content_root() / "cards"


def rules_file() -> Path:
    return cards_dir() / "rules.yaml"


DEFAULT_ARENA = "warehouse.yaml"
