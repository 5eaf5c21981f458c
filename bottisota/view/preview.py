"""The designer's live preview window: the arena redrawn whenever one of its files is
saved, the findings of `bottisota check` marked at their spots and listed, and what
is under the mouse (floor height, features, which bots can reach it).

`Preview.step()` does one turn of the loop (watch the files, handle events, draw), so
tests drive it headless and the command loops it.
"""
from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame
from shapely.geometry import Point

from bottisota.core.arena import Arena
from bottisota.core.i18n import _, number
from bottisota.formats.lint import ERROR
from bottisota.play.reach import Reach
from bottisota.view import style
from bottisota.view.camera import Camera
from bottisota.view.render import MARGIN, render_arena

PANEL_W = 460
POLL = 0.25                     # seconds between looks at the files
ERROR_COLOUR = (255, 32, 96)
WARNING_COLOUR = (255, 170, 0)


@dataclass
class Loaded:
    """What one load of the files gave: the arena (None when it does not load), the
    findings, and the ground reach."""

    arena: Arena | None
    findings: list
    reach: Reach | None = None


@dataclass
class Preview:
    """The preview of one arena (and any card files checked beside it)."""

    files: list[Path]
    load: Callable[[], Loaded]
    scale: float = 8.0
    generation: int = 0                       # how many times the files were (re)loaded
    state: Loaded | None = None
    last_good: Arena | None = None
    mouse: tuple[int, int] | None = None
    stamps: dict = field(default_factory=dict)
    surface: pygame.Surface | None = None
    camera: Camera | None = None
    next_poll: float = 0.0
    quit: bool = False

    def _stamp(self) -> dict:
        out: dict[Path, tuple[int, int] | None] = {}
        for f in self.files:
            try:
                st = os.stat(f)
                out[f] = (st.st_mtime_ns, st.st_size)
            except OSError:
                out[f] = None
        return out

    def reload_if_changed(self) -> bool:
        """Load again when a file's time or size changed (or on the first call)."""
        stamps = self._stamp()
        if self.state is not None and stamps == self.stamps:
            return False
        self.stamps = stamps
        self.state = self.load()
        if self.state.arena is not None:
            self.last_good = self.state.arena
        self.generation += 1
        return True

    def step(self, now: float, events: list | None = None) -> None:
        """One turn of the loop: poll the files, take events, draw."""
        if now >= self.next_poll:
            self.next_poll = now + POLL
            self.reload_if_changed()
        for event in events if events is not None else pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                             and event.key in (pygame.K_ESCAPE, pygame.K_q)):
                self.quit = True
            elif event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
        self.draw()

    # --- what the designer sees -------------------------------------------------------------

    def table_point(self, px: tuple[int, int]) -> tuple[float, float] | None:
        if self.camera is None or self.last_good is None:
            return None
        x, y = self.camera.to_cm(*px)
        w, h = self.last_good.size
        return (x, y) if 0 <= x <= w and 0 <= y <= h else None

    def hover_lines(self, x: float, y: float) -> list[str]:
        """Floor height, features and reach at a table point."""
        arena = self.last_good
        if arena is None:
            return []
        reach = self.state.reach if self.state else None
        p = Point(x, y)
        here = [f.label for f in arena.features if f.shape.buffer(0.05).covers(p)]
        lines = [_("x {x}  y {y} cm").format(x=number(x, 1), y=number(y, 1))]
        if reach is not None:
            k = reach.index(x, y)
            if k is not None:
                lines.append(_("floor height {v} cm").format(v=number(reach.z[k])))
            lines.append(_("reached by: {x}").format(x=reach.who_reaches(x, y)))
        lines.append("features: " + (", ".join(here) if here else _("none (open floor)")))
        return lines

    def draw(self) -> pygame.Surface:
        arena = self.last_good
        findings = self.state.findings if self.state else []
        if arena is not None:
            table, cam = render_arena(arena, self.scale, legend=False)
            self.camera = cam
        else:
            table = pygame.Surface((600, 400))
            table.fill(style.BACKGROUND)
        height = max(table.get_height(), 600)
        surface = pygame.Surface((table.get_width() + PANEL_W, height))
        surface.fill(style.BACKGROUND)
        surface.blit(table, (0, 0))
        if arena is not None:
            for f in findings:
                at = spot_of(f, arena)
                if at is None:
                    continue
                cx, cy = cam.to_px(*at)
                colour = ERROR_COLOUR if f.level == ERROR else WARNING_COLOUR
                pygame.draw.circle(surface, colour, (cx, cy), max(10, self.scale * 2), 3)
                surface.blit(style.label(f.code, 20, colour), (cx + 12, cy - 22))
        self._panel(surface, table.get_width() + 10, findings)
        self.surface = surface
        screen = pygame.display.get_surface()
        if screen is not None:
            if screen.get_size() != surface.get_size():
                screen = pygame.display.set_mode(surface.get_size())
            screen.blit(surface, (0, 0))
            pygame.display.flip()
        return surface

    def _panel(self, surface: pygame.Surface, x: int, findings: list) -> None:
        y = MARGIN // 2
        name = self.last_good.name if self.last_good else self.files[0].name
        surface.blit(style.label(_("{name}  (reload {generation})").format(
                                     name=name, generation=self.generation), 24, style.TEXT),
                     (x, y))
        y += 30
        errors = sum(f.level == ERROR for f in findings)
        summary = (_("{errors} errors, {findings} warnings").format(
                       errors=errors, findings=len(findings) - errors) if findings
                   else _("no errors, no warnings"))
        if self.state is not None and self.state.arena is None:
            summary += _(" - showing the last good version")
        surface.blit(style.label(summary, 20, ERROR_COLOUR if errors else style.TEXT_DIM), (x, y))
        y += 26
        for f in findings[:14]:
            colour = ERROR_COLOUR if f.level == ERROR else WARNING_COLOUR
            where = f"{Path(f.file).name}:{f.line}" if f.line else Path(f.file).name
            for i, chunk in enumerate(_wrap(f"{f.code} {where}: {f.message}", 52)[:3]):
                surface.blit(style.label(("" if i == 0 else "   ") + chunk, 18, colour), (x, y))
                y += 19
            y += 4
        if self.mouse is not None:
            point = self.table_point(self.mouse)
            if point is not None:
                y = max(y + 10, surface.get_height() - 110)
                for line in self.hover_lines(*point):
                    surface.blit(style.label(line, 20, style.TEXT), (x, y))
                    y += 22


def spot_of(finding, arena: Arena) -> tuple[float, float] | None:
    """Where a finding is on the table: its own spot, else the feature its key path names."""
    if getattr(finding, "at", None) is not None:
        return finding.at
    match = re.match(r"(?:arena\.)?features\[(\d+)\]", finding.path or "")
    if match and int(match.group(1)) < len(arena.features):
        p = arena.features[int(match.group(1))].shape.representative_point()
        return (p.x, p.y)
    return None


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    return lines + [line] if line else lines


def run_window(preview: Preview, frames: int | None = None, fps: int = 10) -> None:
    """Open the window and loop until it is closed (or after `frames` frames)."""
    pygame.display.init()           # not pygame.init(): no audio thread (simulate forks)
    pygame.font.init()
    pygame.display.set_caption(_("bottisota preview: {name}").format(name=preview.files[0].name))
    pygame.display.set_mode((800, 600))
    count = 0
    while not preview.quit:
        started = time.monotonic()
        preview.step(started)
        count += 1
        if frames is not None and count >= frames:
            break
        # time.sleep, not pygame.time.Clock: a Clock starts SDL's timer thread, which
        # stays for the life of the process (and a process with threads forks badly)
        time.sleep(max(0.0, 1.0 / fps - (time.monotonic() - started)))
    pygame.display.quit()          # the font cache stays (other views share it)
