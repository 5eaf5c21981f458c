"""`bottisota render ARENA -o FILE`: an arena as a build plan, the file type by extension.

- `.png`: `--scale` pixels per cm of table (default 20), with its DPI written in the
  file so that printing it at 100% gives the print ratio (1:1 unless `--ratio`).
- `.svg`: vector, millimetre units, 1 cm of table = 1 cm of paper at 1:1.
- `.pdf`: vector, tiled onto `--paper` pages (A4 or Letter) with overlap marks, page
  labels and an assembly map on page 1.
`--scale 1:2` (a ratio) prints at half size in every format. A PNG too large for
memory is refused with the largest scale that fits; PDFs of more than 500 pages too.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from bottisota.commands.options import add_content, add_rules, house_rules
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _, number
from bottisota.formats import content
from bottisota.formats.loading import load_arena

DEFAULT_PX_PER_CM = 20.0
FORMATS = (".png", ".svg", ".pdf")


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", metavar="ARENA", help=_("arena file, or the name of an arena"))
    p.add_argument("-o", "--output", default="arena.png",
                   help=_("file to write: .png, .svg or .pdf (default arena.png)"))
    p.add_argument("--scale", default=None, metavar="SCALE",
                   help=_("a print ratio such as 1:2 (any format), or for PNG pixels per cm "
                          "(default {default_px_per_cm})").format(
                            default_px_per_cm=number(DEFAULT_PX_PER_CM)))
    p.add_argument("--paper", choices=("a4", "letter", "a3"), default="a4", type=str.lower,
                   help=_("PDF page size (default a4)"))
    p.add_argument("--ids", action="store_true", help=_("write feature ids on the plan"))
    p.add_argument("--no-legend", "--no-key", dest="no_key", action="store_true",
                   help=_("leave out the key (height key and legend)"))
    p.add_argument("--findings", action="store_true",
                   help=_("mark the warnings of `bottisota check` at their spots"))
    add_content(p)
    add_rules(p)


def parse_scale(text: str | None, suffix: str) -> tuple[float, float | None]:
    """(print ratio, PNG px per cm or None) from `--scale`: `1:2`, `2:1` or a number."""
    if text is None:
        return 1.0, None
    if ":" in text:
        a, _sep, b = text.partition(":")
        try:
            ratio = float(b) / float(a)
        except (ValueError, ZeroDivisionError):
            ratio = -1.0
        if not ratio > 0 or ratio != ratio or ratio == float("inf"):
            raise InputError([Problem("--scale", 0, 0, "", _("'{text}': expected a ratio "
                                                             "such as 1:1 or 1:2").format(
                                                               text=text))])
        return ratio, None
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise InputError([Problem("--scale", 0, 0, "", _("'{text}': expected a ratio such as "
                                                         "1:2, or pixels per cm above 0 for "
                                                         "a PNG").format(
                                                           text=text))])
    if suffix != ".png":
        raise InputError([Problem("--scale", 0, 0, "", _("'{text}': for {suffix} give a "
                                                         "print ratio such as 1:1 or 1:2 "
                                                         "(pixels per cm are for PNG)").format(
                                                           text=text, suffix=suffix))])
    return 1.0, value


def main(args: argparse.Namespace) -> int:
    from bottisota.view.blueprint import build

    out = Path(args.output)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise InputError([Problem(str(out), 0, 0, "", _("cannot tell the file type from "
                                                        "'{v}': use .png, .svg or .pdf").format(
                                                          v=out.suffix or _('no extension')))])
    if not out.parent.exists():
        raise InputError([Problem(str(out), 0, 0, "", _("the folder to write into does not "
                                                        "exist"))])
    ratio, px_per_cm = parse_scale(args.scale, suffix)
    rules = house_rules(args)
    path = content.find("arena", args.arena)
    arena = load_arena(path, rules)
    findings = _findings(path, rules) if getattr(args, "findings", False) else []
    bp = build(arena, ids=args.ids, findings=findings)
    key = not args.no_key
    if suffix == ".svg":
        from bottisota.view.svg_out import write_svg

        write_svg(out, bp, ratio, key)
        print(_("wrote {out} (SVG, {v} x {v2} mm at 1:{ratio})").format(
                  out=out, v=number(arena.size[0] * 10 / ratio),
                  v2=number(arena.size[1] * 10 / ratio),
                  ratio=number(ratio)))
    elif suffix == ".pdf":
        from bottisota.view.pdf_out import MAX_PAGES, write_pdf

        try:
            t = write_pdf(out, bp, ratio, args.paper)
        except ValueError:
            raise InputError([Problem("--scale", 0, 0, "", _("at 1:{ratio} the plan needs "
                                                             "more than {max_pages} pages: "
                                                             "choose a smaller ratio such as "
                                                             "1:2").format(
                                   ratio=number(ratio), max_pages=MAX_PAGES))]) from None
        print(_("wrote {out} (PDF, 1:{ratio} on {cols} x {rows} {upper} pages + an "
                "assembly map = {pages} pages)").format(
                  out=out, ratio=number(ratio), cols=t.cols, rows=t.rows, upper=args.paper.upper(),
                  pages=t.pages))
    else:
        _write_png(out, bp, arena, ratio, px_per_cm or DEFAULT_PX_PER_CM, key)
    return 0


def _findings(path: Path, rules) -> list:
    from bottisota.commands.check import file_findings

    _kind, found, _data, _marks = file_findings(path, "arena", rules)
    return found


def _write_png(out: Path, bp, arena, ratio: float, px_per_cm: float, key: bool) -> None:
    from bottisota.view.render import (
        MAX_PIXELS,
        MAX_SIDE,
        largest_png_scale,
        png_size,
        write_png,
    )

    w, h = png_size(arena.size, px_per_cm, key, ratio)
    if max(w, h) > MAX_SIDE or w * h > MAX_PIXELS:
        best = largest_png_scale(arena.size, key, ratio)
        raise InputError([Problem("--scale", 0, 0, "", _("a PNG of {w} x {h} px "
                                                         "({px_per_cm} px per cm) is too "
                                                         "large (at most {max_side} px a "
                                                         "side and {max_pixels} million px): "
                                                         "use --scale {best} or less, or "
                                                         "write .pdf (1:1 tiled on pages) or "
                                                         ".svg for a full-size print").format(
                                                           w=w, h=h, px_per_cm=number(px_per_cm),
                                                           max_side=MAX_SIDE,
                                                           max_pixels=MAX_PIXELS // 1000000,
                                                           best=int(best)))])
    dpi = write_png(out, bp, px_per_cm, ratio, key)
    print(_("wrote {out} ({w}x{h} px, {px_per_cm} px/cm, {dpi} dpi = 1:{ratio} when "
            "printed at 100%)").format(
              out=out, w=w, h=h, px_per_cm=number(px_per_cm), dpi=number(dpi, 1, fixed=True),
              ratio=number(ratio)))
