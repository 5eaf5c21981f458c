"""The project's documents, shipped in the wheel (`bottisota docs`), and the text of one
default (D1, D2, …) from docs/defaults.md (`bottisota explain D23`)."""
from __future__ import annotations

import re
from pathlib import Path

from bottisota.core.i18n import N_
from bottisota.formats.content import content_root

# name -> (file, what it is)
DOCUMENTS: dict[str, tuple[str, str]] = {
    "rules": ("rules.md", N_("the rules of Bottisota, R1 to R56")),
    "defaults": ("defaults.md", N_("the numbers and tests the rules leave out (D-numbers)")),
    "decisions": ("decisions.md", N_("the referee's readings where the rules are silent")),
    "formats": ("formats.md", N_("the YAML formats: arenas, bot cards, mods, house rules, "
                                 "scenarios and robot personalities")),
    "designing": ("designing.md", N_("the designer's tutorial: arenas, cards, checks, the "
                                     "preview, build plans and balance runs")),
    "architecture": ("ARCHITECTURE.md", N_("how the program is built, module by module")),
    "original": ("original-fi.txt", N_("the original Finnish rules")),
}
_DEFAULT = re.compile(r"^- (D\d+)\.\s")


def docs_dir() -> Path:
    """The folder of the documents (docs/ in a checkout, bottisota/content/docs in a wheel)."""
    return content_root() / "docs"


def document(name: str) -> Path | None:
    """The file of a document by its name (or file name), if there is one."""
    key = name.lower().removesuffix(".md").removesuffix(".txt")
    if key in DOCUMENTS:
        return docs_dir() / DOCUMENTS[key][0]
    for file, _what in DOCUMENTS.values():
        if file.lower() == name.lower():
            return docs_dir() / file
    return None


def defaults() -> dict[str, str]:
    """Every default's text by its number ("D23"), its lines joined."""
    out: dict[str, str] = {}
    current: str | None = None
    for line in (docs_dir() / "defaults.md").read_text(encoding="utf-8").splitlines():
        match = _DEFAULT.match(line)
        if match:
            current = match.group(1)
            out[current] = line[match.end():].strip()
        elif current and line.startswith("  ") and line.strip():
            out[current] += " " + line.strip()
        else:
            current = None
    return out
