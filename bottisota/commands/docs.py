"""`bottisota docs [NAME]`: the project's documents, shipped with it: a list, or one
printed whole (`bottisota docs formats`); `--path` prints where they are."""
from __future__ import annotations

import argparse

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _
from bottisota.formats.docs import DOCUMENTS, docs_dir, document
from bottisota.formats.spec_types import did_you_mean


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", metavar="NAME",
                   help=_("a document: {names}; none lists them").format(
                       names=", ".join(DOCUMENTS)))
    p.add_argument("--path", action="store_true",
                   help=_("print the document's file (or the folder) instead of its text"))


def main(args: argparse.Namespace) -> int:
    """List the documents, or print one."""
    if not args.name:
        if args.path:
            print(docs_dir())
            return 0
        width = max(len(n) for n in DOCUMENTS)
        for name, (file, what) in DOCUMENTS.items():
            print(f"{name:<{width}}  {_(what)} ({file})")
        print(_("print one with: bottisota docs NAME (the files are in {folder})").format(
            folder=docs_dir()))
        return 0
    path = document(args.name)
    if path is None or not path.is_file():
        raise InputError([Problem(args.name, 0, 0, "", _("no such document")
                                  + did_you_mean(args.name, list(DOCUMENTS))
                                  + _("; the documents: {names}").format(
                                      names=", ".join(DOCUMENTS)))])
    print(path if args.path else path.read_text(encoding="utf-8"), end="" if not args.path
          else "\n")
    return 0
