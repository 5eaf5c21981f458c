"""`bottisota schema [-o DIR]`: JSON Schemas (draft 2020-12) of the file formats.

Written from the same descriptions the validator uses (formats_spec.py), so
editors (yaml-language-server) complete keys and flag mistakes as you type.
Point a file at its schema with a first line such as
`# yaml-language-server: $schema=../assets/schema/arena.schema.json`.
The geometry checks (shapes on the table, overlaps, slopes that join) and
cross-file checks (card ids) are only in `bottisota check`.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from bottisota.formats.spec import FORMATS

DRAFT = "https://json-schema.org/draft/2020-12/schema"
FILE_NAMES: dict[str, str] = {
    "arena": "arena.schema.json",
    "card": "bot-card.schema.json",
    "mod": "mod.schema.json",
    "rules": "rules.schema.json",
    "scenario": "scenario.schema.json",
}
TITLES: dict[str, str] = {
    "arena": "Bottisota arena",
    "card": "Bottisota bot card (one card or a list)",
    "mod": "Bottisota mod or extra part (one or a list)",
    "rules": "Bottisota house rules",
    "scenario": "Bottisota scenario",
}


def schema_of(kind: str) -> dict:
    """The JSON Schema of one format ('arena', 'card', 'mod', 'rules', 'scenario')."""
    body = FORMATS[kind].schema()
    return {"$schema": DRAFT, "title": TITLES[kind], **body}


def write_schemas(folder: str | Path) -> list[Path]:
    """Write every format's schema into the folder; the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, name in FILE_NAMES.items():
        path = folder / name
        path.write_text(json.dumps(schema_of(kind), indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        written.append(path)
    return written


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", default="assets/schema", metavar="DIR",
                   help="folder to write the *.schema.json files into (default: assets/schema)")


def main(args: argparse.Namespace) -> int:
    """Write the schemas and name each file written."""
    for path in write_schemas(args.output):
        print(f"wrote {path}")
    return 0
