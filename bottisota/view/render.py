"""`bottisota render ARENA -o arena.png [--scale PX_PER_CM]`: the arena as a PNG, headless."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from bottisota.core.errors import InputError, Problem

DEFAULT_SCALE = 10.0     # px per cm
MARGIN = 40              # px around the table (grid labels live here)


def ensure_headless() -> None:
    """Use SDL's dummy video driver when there is no display (before pygame starts)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def find_arena_file(name: str) -> Path:
    """An arena path as given, else the bundled arena of that name (with or without .yaml)."""
    from bottisota.formats.content import arenas_dir

    candidates = [Path(name), arenas_dir() / name, arenas_dir() / f"{name}.yaml"]
    for c in candidates:
        if c.is_file():
            return c
    raise InputError([Problem(name, 0, 0, "", "no such arena file (nor a bundled arena of that name)")])


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
    draw_arena(surface, cam, arena, grid=True, goals=state is None)
    draw_belt_arrows(surface, cam, arena, 0.0)
    if state is not None:
        draw_state(surface, cam, state)
    if legend:
        draw_legend(surface, (table_w + 2 * MARGIN, MARGIN), arena)
    return surface, cam


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", metavar="ARENA", help="arena file, or the name of a bundled arena")
    p.add_argument("-o", "--output", default="arena.png", help="PNG to write (default arena.png)")
    p.add_argument("--scale", type=float, default=DEFAULT_SCALE, metavar="PX_PER_CM",
                   help=f"pixels per cm (default {DEFAULT_SCALE:g})")
    p.add_argument("--no-legend", action="store_true", help="leave out the legend panel")


def main(args: argparse.Namespace) -> int:
    """Draw the arena to a PNG; 0 on success, 2 (via InputError) on a bad file."""
    if not args.scale > 0:
        raise InputError([Problem("--scale", 0, 0, "", f"must be more than 0, not {args.scale:g}")])
    ensure_headless()
    arena = load_arena_file(args.arena)
    import pygame

    pygame.font.init()
    surface, _cam = render_arena(arena, args.scale, legend=not args.no_legend)
    out = Path(args.output)
    if out.parent and not out.parent.exists():
        raise InputError([Problem(str(out), 0, 0, "", "the folder to write into does not exist")])
    pygame.image.save(surface, str(out))
    print(f"wrote {out} ({surface.get_width()}x{surface.get_height()} px, {args.scale:g} px/cm)")
    return 0
