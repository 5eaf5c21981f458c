"""Where content lives: the bundled arenas, cards, mods and robots, and the
designer's own folders.

A designer's folder holds any of `arenas/`, `cards/` (bot cards; `bots/` also
works), `mods/`, `robots/` and `scenarios/`. Folders are added with `--content DIR`
(repeatable, first wins) or the `BOTTISOTA_PATH` variable (folders separated as
in PATH). A name given to a command is found as a path first, then in the
designer's folders in order, then among the bundled content; a miss lists what
exists, with a did-you-mean.
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import N_

ENV = "BOTTISOTA_PATH"
DEFAULT_ARENA = "warehouse.yaml"
SUBFOLDERS: dict[str, tuple[str, ...]] = {
    "arena": ("arenas",),
    "card": ("cards", "bots"),
    "mod": ("mods",),
    "robot": ("robots",),
    "scenario": ("scenarios",),
}
_BUNDLED_SUB = {"arena": "arenas", "card": "cards/bots", "mod": "cards/mods",
                "robot": "cards/robots", "scenario": ""}
_folders: list[Path] = []
# the package's folder (what importlib.resources would give for an unzipped package,
# without loading its zip readers at start-up)
PACKAGE_DIR = Path(__file__).parent.parent


def content_root() -> Path:
    """The folder that holds the bundled `arenas/` and `cards/`.

    In a source checkout (or an editable install) that is the project's top
    level; an installed wheel carries copies as the `bottisota.content` package.
    """
    package = PACKAGE_DIR
    top = package.parent
    if (top / "cards" / "rules.yaml").is_file() and (top / "arenas").is_dir():
        return top
    return package / "content"


def arenas_dir() -> Path:
    return content_root() / "arenas"


def cards_dir() -> Path:
    return content_root() / "cards"


def rules_file() -> Path:
    return cards_dir() / "rules.yaml"


def use_folders(folders: list[str] | None) -> None:
    """Set the designer's folders given with `--content` (they come before BOTTISOTA_PATH)."""
    missing = [f for f in folders or [] if not Path(f).is_dir()]
    if missing:
        raise InputError([Problem(f, 0, 0, "", N_("--content: no such folder")) for f in missing])
    _folders[:] = [Path(f) for f in folders or []]


def given_folders() -> list[str]:
    """The folders given with `--content` (to hand to worker processes)."""
    return [str(f) for f in _folders]


def user_folders() -> list[Path]:
    """The designer's folders: `--content` ones, then those of BOTTISOTA_PATH, each
    once however it is spelled (relative or absolute, a link, given both ways; the
    bundled content given as a folder is the bundled content)."""
    env = [Path(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip()]
    out: list[Path] = []
    seen = {_resolved(content_root())}
    for folder in [*_folders, *env]:
        real = _resolved(folder)
        if folder.is_dir() and real not in seen:
            seen.add(real)
            out.append(folder)
    return out


def _resolved(folder: Path) -> Path:
    try:
        return folder.resolve()
    except OSError:         # a loop of links: the spelling is all there is
        return folder.absolute()


def user_dirs(kind: str) -> list[Path]:
    """The designer's folders for one kind (arena, card, mod, robot, scenario)."""
    return [folder / sub for folder in user_folders() for sub in SUBFOLDERS[kind]
            if (folder / sub).is_dir()]


def bundled_dir(kind: str) -> Path | None:
    sub = _BUNDLED_SUB[kind]
    return content_root() / sub if sub else None


def yaml_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file()) if folder.is_dir() else []


def user_files(kind: str) -> list[Path]:
    """The designer's files of one kind, in folder order."""
    return [p for d in user_dirs(kind) for p in yaml_in(d)]


def available(kind: str) -> dict[str, Path]:
    """Names (file stems) of one kind: the designer's first, then the bundled ones."""
    out: dict[str, Path] = {}
    dirs = user_dirs(kind)
    bundled = bundled_dir(kind)
    if bundled is not None:
        dirs.append(bundled)
    for d in dirs:
        for p in sorted(d.glob("*.yaml")):
            out.setdefault(p.stem, p)
    return out


def find(kind: str, name: str) -> Path:
    """A file of this kind by path, or by name among the designer's and bundled content."""
    path = Path(name)
    if path.is_file():
        return path
    names = available(kind)
    stem = name[:-5] if name.endswith(".yaml") else name
    if stem in names and "/" not in name:
        return names[stem]
    close = difflib.get_close_matches(stem, list(names), n=1, cutoff=0.6)
    hint = N_(" — did you mean '{v}'?").format(v=close[0]) if close else ""
    known = ", ".join(sorted(names)) or "none"
    raise InputError([Problem(name, 0, 0, "",
            N_("no such {kind} file, nor a{v} {kind} of that name{hint} (known: {known})").format(
                kind=kind, v='n' * (kind[0] in 'ae'), hint=hint, known=known))])
