"""The Finnish catalogue says every game term the rules' way (docs/glossary.md, taken
from docs/original-fi.txt): a message using an English term has the Finnish term in
its translation, and no rejected synonym (keula, torni, luiska, ...) is used anywhere."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bottisota.core import i18n

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
ORIGINAL = ROOT / "docs" / "original-fi.txt"

# messages where the English word is not the game term, with why
NOT_THE_TERM = {
    ("loop", "the alias *{anchor} is used inside the value it names (a loop): refused"):
        "a YAML reference loop",
    ("round", "the polygon crosses itself at {at}; corners must go round once"):
        "'round' as in around",
    ("overwatch", "not a robot personality file: expected a mapping with name, place, turn "
                  "and overwatch"): "YAML keys",
}
_QUOTED = re.compile(r"`[^`]*`|'[^']*'|\{[^}]*\}|\([a-z0-9]+(-[a-z0-9]+)+\)")


def glossary() -> list[tuple[list[str], list[str], list[str], str]]:
    """(English terms, Finnish stems, rejected words, the rules' quote) per row."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("English", "") or set(cells[0]) <= {"-"}:
            continue
        split = lambda c: [w.strip() for w in c.split(",") if w.strip()]  # noqa: E731
        rows.append((split(cells[0]), split(cells[2]), split(cells[3]), cells[4].strip('"')))
    return rows


def finnish_messages() -> list[tuple[str, list[str]]]:
    cat = read_po(io.StringIO(i18n.catalogue_text("fi")), locale="fi")
    out = []
    for m in cat:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        out.append((ids[0], [s for s in strings if s]))
    return out


def test_the_glossary_has_every_term_of_the_issue():
    english = {t for row in glossary() for t in row[0]}
    assert {"nose", "turret", "spray", "ramp", "loop", "hover", "leaflet", "overwatch",
            "teleporter", "wheeled", "tracked", "walker", "flier", "melee", "rocket",
            "missile", "mine", "door", "belt", "lift", "pit", "cliff", "stairs",
            "service point", "part", "rust", "armour test", "damage point", "move phase",
            "shoot phase", "round", "blast", "collision"} <= english


@pytest.mark.parametrize("row", glossary(), ids=lambda r: r[0][0])
def test_the_glossary_quotes_the_original(row):
    """Each row's quote is the original Finnish rules' own text."""
    original = " ".join(ORIGINAL.read_text(encoding="utf-8").split())
    for piece in row[3].split("…"):
        assert " ".join(piece.split()) in original, piece


@pytest.mark.parametrize("row", glossary(), ids=lambda r: r[0][0])
def test_the_finnish_catalogue_uses_the_rules_term(row):
    """An English term in a message id means the Finnish term in its translation."""
    terms, stems, _rejected, _quote = row
    wrong = []
    for term in terms:
        pattern = re.compile(r"\b" + re.escape(term) + r"(s|es)?\b", re.I)
        for msgid, strings in finnish_messages():
            if (term, msgid) in NOT_THE_TERM or not pattern.search(_QUOTED.sub("", msgid)):
                continue
            for s in strings:
                if not any(stem.lower() in s.lower() for stem in stems):
                    wrong.append(f"{msgid!r} -> {s!r}")
    assert not wrong, f"{terms[0]}: translated without {stems}:\n" + "\n".join(wrong)


def test_no_rejected_synonym_in_the_finnish_catalogue():
    rejected = {w: row[0][0] for row in glossary() for w in row[2]}
    assert {"keula", "torni", "suihku", "luiska", "silmukka", "leijuja",
            "lentolehtinen"} <= set(rejected)
    found = [f"{w} (for {term}): {msgid!r} -> {s!r}"
             for msgid, strings in finnish_messages() for s in strings
             for w, term in rejected.items() if re.search(r"\b" + w, s, re.I)]
    assert not found, "\n".join(found)


def test_the_check_catches_a_synonym(monkeypatch):
    """The check fails on the catalogue as it was (keula for nose)."""
    text = i18n.catalogue_text("fi").replace('msgstr "nokka"', 'msgstr "keula"')
    assert text != i18n.catalogue_text("fi")
    monkeypatch.setattr(i18n, "catalogue_text", lambda lang: text)
    with pytest.raises(AssertionError):
        test_no_rejected_synonym_in_the_finnish_catalogue()
    nose = next(r for r in glossary() if r[0][0] == "nose")
    with pytest.raises(AssertionError):
        test_the_finnish_catalogue_uses_the_rules_term(nose)
