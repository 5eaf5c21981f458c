"""JSON Schemas (draft 2020-12) of the file formats, generated from their declarations.

Written from the same declarations the validator uses (spec.py), so editors
(yaml-language-server) complete keys and flag mistakes as you type: each
property has a description, records are closed (`additionalProperties:
false`, so an unknown key is named), features are told apart by `type` with
if/then and actions by the key they hold. Point a file at its schema with a
first line such as
`# yaml-language-server: $schema=../assets/schema/arena.schema.json`.
The geometry checks (shapes on the table, overlaps, slopes that join) and
cross-file checks (card ids) are only in `bottisota check`.
`bottisota schema -o DIR` (bottisota.commands.schema) writes them.
"""
from __future__ import annotations

import json
from pathlib import Path

from bottisota.formats.spec import FORMATS
from bottisota.formats.spec_types import JsonSchema

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FILE_NAMES: dict[str, str] = {
    "arena": "arena.schema.json",
    "card": "bot-card.schema.json",
    "mod": "mod.schema.json",
    "rules": "rules.schema.json",
    "scenario": "scenario.schema.json",
    "robot": "robot.schema.json",
}
TITLES: dict[str, str] = {
    "arena": "Bottisota arena",
    "card": "Bottisota bot card (one card or a list)",
    "mod": "Bottisota mod or extra part (one or a list)",
    "rules": "Bottisota house rules",
    "scenario": "Bottisota scenario",
    "robot": "Bottisota robot personality",
}


def schema_of(kind: str) -> JsonSchema:
    """The JSON Schema of one format ('arena', 'card', 'mod', 'rules', 'scenario', 'robot')."""
    body = FORMATS[kind].schema()
    return {"$schema": DRAFT, "title": TITLES[kind], **body}


def schema_text(kind: str) -> str:
    """The schema as written to its file."""
    return json.dumps(schema_of(kind), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: str | Path) -> list[Path]:
    """Write every format's schema into the folder; the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, name in FILE_NAMES.items():
        path = folder / name
        path.write_text(schema_text(kind), encoding="utf-8")
        written.append(path)
    return written
