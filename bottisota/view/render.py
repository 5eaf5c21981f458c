"""Headless drawing of an arena: the table view's look (`render_arena`, used for
screenshots) and the build plan rasterised for `bottisota render -o plan.png`."""
from __future__ import annotations

import os
from pathlib import Path

from bottisota.core.printable import printable

DEFAULT_SCALE = 10.0     # px per cm
MARGIN = 40              # px around the table (grid labels live here)


def ensure_headless() -> None:
    """Use SDL's dummy video driver when there is no display (before pygame starts)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def find_arena_file(name: str) -> Path:
    """An arena path as given, else an arena of that name (the designer's folders, then
    the bundled ones); a miss lists the arenas there are."""
    from bottisota.formats.content import find

    return find("arena", name)


def load_arena_file(name: str):
    """Load and validate an arena file (the loader's clear errors pass through)."""
    path = find_arena_file(name)
    from bottisota.formats.loading import load_arena

    return load_arena(path)


def render_arena(arena, scale: float = DEFAULT_SCALE, state=None, legend: bool = True):
    """The arena (and, given a state, its bots) on a new surface at `scale` px per cm."""
    import pygame

    from bottisota.view import style
    from bottisota.view.arena_layer import draw_arena, draw_belt_arrows
    from bottisota.view.bots_layer import draw_state
    from bottisota.view.camera import Camera
    from bottisota.view.legend import LEGEND_WIDTH, draw_legend, legend_height

    tw, th = arena.size
    table_w, table_h = round(tw * scale), round(th * scale)
    width = table_w + 2 * MARGIN + (LEGEND_WIDTH + MARGIN if legend else 0)
    height = max(table_h + 2 * MARGIN, (legend_height(arena) + 2 * MARGIN) if legend else 0)
    surface = pygame.Surface((width, height))
    surface.fill(style.BACKGROUND)
    cam = Camera(table=(float(tw), float(th)), scale=float(scale),
                 origin=(float(MARGIN), float(MARGIN + table_h)))
    draw_arena(surface, cam, arena, grid=True, goals=state is None,
               rules=state.rules if state is not None else None)
    draw_belt_arrows(surface, cam, arena, 0.0)
    if state is not None:
        draw_state(surface, cam, state)
    if legend:
        draw_legend(surface, (table_w + 2 * MARGIN, MARGIN), arena)
    return surface, cam


# --- build plans (bottisota render): the blueprint rasterised -------------------------------

MAX_SIDE = 16_384          # px: pygame surfaces larger than this are refused
MAX_PIXELS = 120_000_000   # px in all


KEY_COLUMN_CM = 19.6       # the key and scale bar beside the table (svg_out: 2 gaps + bar)


def png_size(size: tuple[float, float], px_per_cm: float, key: bool = True,
             ratio: float = 1.0) -> tuple[int, int]:
    """A plan's pixels: the table, and the key's column beside it (its paper mm at the
    print ratio)."""
    width = size[0] + (KEY_COLUMN_CM * ratio if key else 0.0)
    return max(1, round(width * px_per_cm)), max(1, round(size[1] * px_per_cm))


def largest_png_scale(size: tuple[float, float], key: bool = True, ratio: float = 1.0) -> float:
    """The largest px per cm a PNG of this table (and its key) may use."""
    width = size[0] + (KEY_COLUMN_CM * ratio if key else 0.0)
    by_side = MAX_SIDE / max(width, size[1])
    by_area = (MAX_PIXELS / (width * size[1])) ** 0.5
    return min(by_side, by_area)


def raster_plan(bp, px_per_cm: float, ratio: float = 1.0, key: bool = True):
    """The plan on a pygame surface: `px_per_cm` pixels per cm of table; texts and line
    widths are paper millimetres at print ratio 1:`ratio` (never below a readable size)."""
    import pygame

    from bottisota.view.blueprint import Circle, Line, Shape, Text, scale_bar
    from bottisota.view.svg_out import SCALE_BAR_W, Paper, arrow_head

    paper = Paper(bp, ratio)
    px_mm = px_per_cm / paper.k                # pixels per paper mm
    sheet_w, sheet_h = paper.sheet(key)
    w, h = max(1, round(sheet_w * px_mm)), max(1, round(sheet_h * px_mm))
    surface = pygame.Surface((w, h))
    surface.fill((255, 255, 255))
    fonts: dict[tuple[int, bool], pygame.font.Font] = {}

    def font(size_mm: float, bold: bool):
        px = max(11, round(size_mm * px_mm * 1.35)) + (1 if bold else 0)
        if (px, bold) not in fonts:      # no synthetic bold: it smears small labels
            fonts[(px, bold)] = pygame.font.Font(None, px)
        return fonts[(px, bold)]

    def lw(mm: float) -> int:
        return max(1, round(mm * px_mm))

    def draw(item, to, k):
        if isinstance(item, Shape):
            for i, ring in enumerate(item.rings):
                pts = [to(*q) for q in ring]
                if len(pts) < 3:
                    continue
                if item.fill is not None:
                    pygame.draw.polygon(surface, item.fill if i == 0 else (255, 255, 255), pts)
                if item.stroke is not None:
                    pygame.draw.lines(surface, item.stroke, True, pts, lw(item.width))
        elif isinstance(item, Line):
            pts = [to(*q) for q in item.points]
            if item.dash:
                _dashed(surface, item.stroke, pts, lw(item.width), 2.0 * px_mm)
            else:
                pygame.draw.lines(surface, item.stroke, False, pts, lw(item.width))
            if item.arrow and len(pts) >= 2:
                pygame.draw.polygon(surface, item.stroke,
                                    arrow_head(pts[-2], pts[-1], max(8, 2.0 * px_mm)))
        elif isinstance(item, Circle):
            cx, cy = to(item.x, item.y)
            r = max(2, round(item.r * k))
            if item.fill is not None:
                pygame.draw.circle(surface, item.fill, (cx, cy), r)
            if item.stroke is not None:
                pygame.draw.circle(surface, item.stroke, (cx, cy), r, lw(item.width))
        elif isinstance(item, Text):
            x, y = to(item.x, item.y)
            img = font(item.size, item.bold).render(printable(item.text), True, item.colour)
            ax = {"start": 0, "middle": img.get_width() / 2, "end": img.get_width()}[item.anchor]
            surface.blit(img, (x - ax, y - img.get_height() * 0.8))

    to_px = lambda x, y: (paper(x, y)[0] * px_mm, paper(x, y)[1] * px_mm)  # noqa: E731
    for item in bp.items:
        draw(item, to_px, paper.k * px_mm)
    if key:
        ox, oy = paper.key_origin()
        for item in bp.key:
            draw(item, lambda x, y: ((ox + x) * px_mm, (oy + y) * px_mm), px_mm)
        bx, by = paper.bar_origin()
        for item in scale_bar(ratio, SCALE_BAR_W)[0]:
            draw(item, lambda x, y: ((bx + x) * px_mm, (by + y) * px_mm), px_mm)
    return surface


def _dashed(surface, colour, pts, width: int, dash: float) -> None:
    import math

    import pygame

    dash = max(dash, 4.0)
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        n = max(1, int(length / dash))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            pygame.draw.line(surface, colour, (ax + (bx - ax) * t0, ay + (by - ay) * t0),
                             (ax + (bx - ax) * t1, ay + (by - ay) * t1), width)


def png_with_dpi(surface, dpi: float) -> bytes:
    """The surface as PNG bytes with a pHYs chunk saying its DPI (so it prints to scale)."""
    import io
    import struct
    import zlib

    import pygame

    buf = io.BytesIO()
    pygame.image.save(surface, buf, "plan.png")
    data = buf.getvalue()
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    head = 8 + 4 + 4 + 13 + 4              # signature and the IHDR chunk
    return data[:head] + chunk + data[head:]


def write_png(out: Path, bp, px_per_cm: float, ratio: float = 1.0, key: bool = True) -> float:
    """Rasterise the plan headless and write it as a PNG with its DPI; the DPI."""
    ensure_headless()
    import pygame

    pygame.font.init()
    surface = raster_plan(bp, px_per_cm, ratio, key)
    dpi = px_per_cm * ratio * 2.54
    Path(out).write_bytes(png_with_dpi(surface, dpi))
    return dpi
