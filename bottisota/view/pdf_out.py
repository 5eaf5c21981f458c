"""A build plan as PDF: vector drawing operators written directly (no dependency), the
table at a print ratio (1:1 by default) tiled onto A4 or Letter pages.

Page 1 is the assembly map: the whole table shrunk to fit, the tiles drawn over it
with their labels (A1 is the top-left tile), and the key. Every further page is one
tile: the plan clipped to the printable area, dashed lines where the next tile
overlaps (cut along one, glue over the other), corner marks and a label such as
"B2 - column B of 3, row 2 of 2 - glue B1 above, A2 left".
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass
from pathlib import Path

from bottisota.core.i18n import _, number
from bottisota.view.blueprint import INK, Blueprint, Circle, Item, Line, Shape, Text, scale_bar
from bottisota.view.svg_out import Paper, arrow_head

PT = 72.0 / 25.4                  # points per mm
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4),
                                          "a3": (297.0, 420.0)}
MARGIN = 10.0                     # mm of unprinted border on each side
OVERLAP = 10.0                    # mm each tile shares with its neighbour
LABEL = 7.0                       # mm at the foot of a tile page for its label
MAX_PAGES = 500


@dataclass(frozen=True)
class Tiling:
    """How a plan of `width` x `height` mm is cut onto pages."""

    paper: tuple[float, float]    # mm, as printed (landscape when wider)
    cols: int
    rows: int
    area: tuple[float, float]     # printable mm per tile (plan part)

    @property
    def step(self) -> tuple[float, float]:
        return self.area[0] - OVERLAP, self.area[1] - OVERLAP

    @property
    def pages(self) -> int:
        return 1 + self.cols * self.rows


def _fit(length: float, area: float) -> int:
    if length <= area:
        return 1
    return 1 + math.ceil((length - area) / (area - OVERLAP))


def tiling(width: float, height: float, paper: str) -> Tiling:
    """The tiling (portrait or landscape, whichever needs fewer pages)."""
    pw, ph = PAPERS[paper]
    best = None
    for w, h in ((pw, ph), (ph, pw)):
        area = (w - 2 * MARGIN, h - 2 * MARGIN - LABEL)
        t = Tiling((w, h), _fit(width, area[0]), _fit(height, area[1]), area)
        if best is None or t.cols * t.rows < best.cols * best.rows:
            best = t
    assert best is not None                     # two orientations tried
    return best


def _col_name(i: int) -> str:
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


def tile_name(col: int, row: int) -> str:
    return f"{_col_name(col)}{row + 1}"


# --- content streams --------------------------------------------------------------------

def _pdf_text(s: str) -> str:
    raw = s.encode("latin-1", "replace").decode("latin-1")
    return raw.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") or "0"


class Canvas:
    """PDF operators in mm with y down from the page's top (converted to points)."""

    def __init__(self, page_h: float) -> None:
        self.h = page_h
        self.ops: list[str] = []

    def p(self, x: float, y: float) -> str:
        return f"{_n(x * PT)} {_n((self.h - y) * PT)}"

    def colour(self, rgb, stroke: bool) -> None:
        r, g, b = (c / 255 for c in rgb)
        self.ops.append(f"{_n(r)} {_n(g)} {_n(b)} {'RG' if stroke else 'rg'}")

    def path(self, rings, fill=None, stroke=None, width=0.3, dash=False, close=True) -> None:
        if fill is None and stroke is None:
            return
        for ring in rings:
            if not ring:
                continue
            self.ops.append(f"{self.p(*ring[0])} m " + " ".join(f"{self.p(*q)} l"
                                                              for q in ring[1:]))
            if close:
                self.ops.append("h")
        if fill is not None:
            self.colour(fill, False)
        if stroke is not None:
            self.colour(stroke, True)
            self.ops.append(f"{_n(width * PT)} w")
            self.ops.append("[3 2] 0 d" if dash else "[] 0 d")
        op = "B*" if fill is not None and stroke is not None else "f*" if fill is not None else "S"
        self.ops.append(op)

    def circle(self, cx: float, cy: float, r: float, fill=None, stroke=None, width=0.3) -> None:
        k = 0.5523 * r
        pts = [(cx + r, cy), (cx, cy - r), (cx - r, cy), (cx, cy + r)]
        ctrl = [((cx + r, cy - k), (cx + k, cy - r)), ((cx - k, cy - r), (cx - r, cy - k)),
                ((cx - r, cy + k), (cx - k, cy + r)), ((cx + k, cy + r), (cx + r, cy + k))]
        self.ops.append(f"{self.p(*pts[0])} m")
        for i in range(4):
            (a, b), end = ctrl[i], pts[(i + 1) % 4]
            self.ops.append(f"{self.p(*a)} {self.p(*b)} {self.p(*end)} c")
        self.ops.append("h")
        if fill is not None:
            self.colour(fill, False)
        if stroke is not None:
            self.colour(stroke, True)
            self.ops.append(f"{_n(width * PT)} w [] 0 d")
        self.ops.append("B" if fill is not None and stroke is not None else
                        "f" if fill is not None else "S")

    def text(self, x: float, y: float, s: str, size: float, rgb=INK, anchor="start",
             bold=False) -> None:
        width = 0.52 * size * len(s)          # Helvetica's mean advance, close enough to centre
        if anchor == "middle":
            x -= width / 2
        elif anchor == "end":
            x -= width
        self.colour(rgb, False)
        self.ops.append(f"BT /{'F2' if bold else 'F1'} {_n(size * PT * 1.35)} Tf "
                        f"{self.p(x, y)} Td ({_pdf_text(s)}) Tj ET")

    def clip(self, x: float, y: float, w: float, h: float) -> None:
        self.ops.append(f"{self.p(x, y + h)} {_n(w * PT)} {_n(h * PT)} re W n")

    def item(self, item: Item, to, k: float) -> None:
        if isinstance(item, Shape):
            self.path([[to(*q) for q in ring] for ring in item.rings], item.fill, item.stroke,
                      item.width, item.dash)
        elif isinstance(item, Line):
            pts = [to(*q) for q in item.points]
            self.path([pts], None, item.stroke, item.width, item.dash, close=False)
            if item.arrow and len(pts) >= 2:
                self.path([arrow_head(pts[-2], pts[-1], max(2.0, item.width * 6))], item.stroke)
        elif isinstance(item, Circle):
            cx, cy = to(item.x, item.y)
            self.circle(cx, cy, item.r * k, item.fill, item.stroke, item.width)
        elif isinstance(item, Text):
            x, y = to(item.x, item.y)
            self.text(x, y, item.text, item.size, item.colour, item.anchor, item.bold)

    def stream(self) -> bytes:
        return "\n".join(self.ops).encode("latin-1")


def _assembly(bp: Blueprint, paper: Paper, t: Tiling, ratio: float, paper_name: str) -> Canvas:
    """Page 1: the whole plan shrunk, the tiles over it, the key."""
    pw, ph = t.paper
    c = Canvas(ph)
    c.text(MARGIN, MARGIN + 6,
           _("{title}: build plan at 1:{ratio} on {n} {paper} pages ({cols} x {rows})").format(
               title=bp.title, ratio=number(ratio), n=t.cols * t.rows, paper=paper_name.upper(),
               cols=t.cols, rows=t.rows), 5.0,
           bold=True)
    c.text(MARGIN, MARGIN + 11,
           _("Print at 100% (actual size, no 'fit to page') and measure the scale bar."), 3.0)
    c.text(MARGIN, MARGIN + 15.5,
           _("Tiles overlap by {overlap} mm: trim each page along its dashed lines and "
             "glue it over its neighbours.").format(overlap=number(OVERLAP)), 3.0)
    key_w, key_h = bp.key_size
    avail_w, avail_h = pw - 2 * MARGIN, ph - 2 * MARGIN - 24 - key_h - 12
    if avail_h < 40:                  # no room for the key below: the map takes the page
        avail_h = ph - 2 * MARGIN - 24
    s = min(avail_w / paper.width, avail_h / paper.height)
    ox, oy = MARGIN, MARGIN + 21
    to = lambda x, y: (ox + paper(x, y)[0] * s, oy + paper(x, y)[1] * s)  # noqa: E731
    for item in bp.items:
        if isinstance(item, Text) and item.size < 3.0 and s < 0.5:
            continue                  # grid labels would be a blur at this size
        c.item(item, to, paper.k * s)
    sx, sy = t.step
    for row in range(t.rows):
        for col in range(t.cols):
            x0, y0 = ox + col * sx * s, oy + row * sy * s
            w = min(t.area[0], paper.width - col * sx) * s
            h = min(t.area[1], paper.height - row * sy) * s
            c.path([[(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)]], None,
                   (0, 90, 200), 0.4, dash=True)
            c.text(x0 + 2, y0 + 6, tile_name(col, row), 5.0, (0, 90, 200), bold=True)
    key_y = oy + paper.height * s + 10
    if key_y + key_h > ph - MARGIN:
        return c
    for item in bp.key:
        c.item(item, lambda x, y: (MARGIN + x, key_y + y), 1.0)
    return c


def _tile(bp: Blueprint, paper: Paper, t: Tiling, col: int, row: int) -> Canvas:
    pw, ph = t.paper
    c = Canvas(ph)
    sx, sy = t.step
    ox, oy = col * sx, row * sy                     # this tile's corner on the plan, mm
    aw, ah = t.area
    c.ops.append("q")
    c.clip(MARGIN, MARGIN, aw, ah)
    to = lambda x, y: (MARGIN - ox + paper(x, y)[0], MARGIN - oy + paper(x, y)[1])  # noqa: E731
    for item in bp.items:
        c.item(item, to, paper.k)
    c.ops.append("Q")
    # every tile its own whole scale bar, in the top margin: never cut by a tile's edge
    bar, bar_h = scale_bar(paper.ratio, aw)
    for item in bar:
        c.item(item, lambda x, y: (MARGIN + x, MARGIN - bar_h - 1 + y), 1.0)
    # where the neighbours overlap: dashed lines to trim along and glue over
    mark = (0, 90, 200)
    if col < t.cols - 1:
        x = MARGIN + sx
        c.path([[(x, MARGIN), (x, MARGIN + ah)]], None, mark, 0.3, dash=True, close=False)
    if row < t.rows - 1:
        y = MARGIN + sy
        c.path([[(MARGIN, y), (MARGIN + aw, y)]], None, mark, 0.3, dash=True, close=False)
    for x, y in ((MARGIN, MARGIN), (MARGIN + aw, MARGIN), (MARGIN, MARGIN + ah),
                 (MARGIN + aw, MARGIN + ah)):
        for dx, dy in ((4, 0), (0, 4)):
            sxn = -1 if x > MARGIN else 1
            syn = -1 if y > MARGIN else 1
            c.path([[(x - sxn * 6 * (dx > 0), y - syn * 6 * (dy > 0)),
                     (x - sxn * 2 * (dx > 0), y - syn * 2 * (dy > 0))]], None, INK, 0.2,
                   close=False)
    neighbours = []
    if row > 0:
        neighbours.append(_("{col} above").format(col=tile_name(col, row - 1)))
    if col > 0:
        neighbours.append(_("{col} left").format(col=tile_name(col - 1, row)))
    glue = _(" - glue over {neighbours}").format(
               neighbours=', '.join(neighbours)) if neighbours else ""
    c.text(MARGIN, ph - MARGIN + 1,
           _("{tile}: column {col} of {last_col}, row {row} of {rows}{glue}   |   {title}, "
             "page {page} of {pages}").format(
               tile=tile_name(col, row), col=_col_name(col), last_col=_col_name(t.cols - 1),
               row=row + 1, rows=t.rows, glue=glue, title=bp.title, page=2 + row * t.cols + col,
               pages=t.pages), 3.2, bold=True)
    return c


def pdf_bytes(bp: Blueprint, ratio: float = 1.0, paper_name: str = "a4") -> bytes:
    """The whole PDF document."""
    paper = Paper(bp, ratio)
    t = tiling(paper.width, paper.height, paper_name)
    if t.pages > MAX_PAGES:
        raise ValueError(f"{t.pages} pages at 1:{ratio:g}: more than {MAX_PAGES}")
    pages = [_assembly(bp, paper, t, ratio, paper_name)]
    pages += [_tile(bp, paper, t, col, row) for row in range(t.rows) for col in range(t.cols)]
    return _document(pages, t.paper)


def _document(pages: list[Canvas], size: tuple[float, float]) -> bytes:
    objects: list[bytes] = []
    n_pages = len(pages)
    page_ids = [5 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{i} 0 R" for i in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
                   b"/Encoding /WinAnsiEncoding >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
                   b"/Encoding /WinAnsiEncoding >>")
    w, h = size[0] * PT, size[1] * PT
    for i, page in enumerate(pages):
        content_id = page_ids[i] + 1
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {_n(w)} {_n(h)}] "
                       f"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
                       f"/Contents {content_id} 0 R >>".encode())
        data = zlib.compress(page.stream())
        objects.append(f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode()
                       + data + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            .encode())
    return bytes(out)


def write_pdf(path: str | Path, bp: Blueprint, ratio: float = 1.0, paper: str = "a4") -> Tiling:
    data = pdf_bytes(bp, ratio, paper)
    Path(path).write_bytes(data)
    p = Paper(bp, ratio)
    return tiling(p.width, p.height, paper)
