"""`bottisota schema [-o DIR]`: write the JSON Schemas of the file formats."""
from __future__ import annotations

import argparse

from bottisota.core.i18n import _
from bottisota.formats.schema import write_schemas


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("-o", "--output", default="assets/schema", metavar="DIR",
                   help=_("folder to write the *.schema.json files into (default: assets/schema)"))


def main(args: argparse.Namespace) -> int:
    """Write the schemas and name each file written."""
    for path in write_schemas(args.output):
        print(_("wrote {path}").format(path=path))
    return 0
