"""The designer's live preview window: the arena redrawn whenever one of its files is
saved, the findings of `bottisota check` marked at their spots and listed, and what
is under the mouse (floor height, features, which bots can reach it). With an
`EditTool` (view.preview_edit) the arena is shaped on the map itself: every change is
written to the file and checked again at once.

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
from bottisota.view.preview_edit import EditTool
from bottisota.view.render import MARGIN, render_arena

PANEL_W = 520
POLL = 0.1                      # seconds between looks at the files
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
    tool: EditTool | None = None              # None: a bundled arena, shown read-only
    # the arena drawn for (arena, scale): drawn again only after a reload or a new scale
    drawn: tuple[Arena, float, pygame.Surface, Camera] | None = None

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
        if self.tool is not None:
            self.tool.editor.reread()       # saved from a text editor: edit on from there
        self.generation += 1
        return True

    def step(self, now: float, events: list | None = None) -> None:
        """One turn of the loop: poll the files, take events, draw."""
        if now >= self.next_poll:
            self.next_poll = now + POLL
            self.reload_if_changed()
        for event in events if events is not None else pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit = True
            elif event.type == pygame.KEYDOWN:
                if self.tool is not None and self.last_good is not None \
                        and self.tool.key(self.last_good, event):
                    continue
                if event.key in (pygame.K_ESCAPE, pygame.K_q):
                    self.quit = True
            elif event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
                if self.tool is not None and self.camera is not None:
                    self.tool.motion(self.camera, event.pos)
            elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) \
                    and event.button == 1:
                self._click(event)
        if self.tool is not None and self.tool.changed:
            self.tool.changed = False
            self.tool.editor.save()
            self.stamps = {}
            self.reload_if_changed()        # checked again at once, not at the next poll
        self.draw()

    def _click(self, event: pygame.event.Event) -> None:
        tool, arena, cam = self.tool, self.last_good, self.camera
        if tool is None or arena is None or cam is None:
            return
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        on_table = self.table_point(event.pos) is not None or tool.drag is not None
        if event.type == pygame.MOUSEBUTTONUP:
            tool.release(arena, cam, event.pos, shift)
        elif not tool.click_panel(arena, event.pos) and on_table:
            tool.press(arena, cam, event.pos, shift)

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
            if self.drawn is None or self.drawn[0] is not arena or self.drawn[1] != self.scale:
                self.drawn = (arena, self.scale, *render_arena(arena, self.scale, legend=False))
            table, cam = self.drawn[2], self.drawn[3]
            self.camera = cam
        else:
            table = pygame.Surface((600, 400))
            table.fill(style.BACKGROUND)
        height = max(table.get_height(), 600)
        surface = pygame.Surface((table.get_width() + PANEL_W, height))
        surface.fill(style.BACKGROUND)
        surface.blit(table, (0, 0))
        if arena is not None:
            draw_links_and_respawns(surface, cam, arena)
            if self.tool is not None:
                reach = self.state.reach if self.state else None
                self.tool.draw(surface, arena, cam, reach,
                               reach.from_spot if reach is not None else lambda x, y: None)
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
        if self.tool is not None:
            y += self.tool.draw_panel(surface, x, y, PANEL_W - 20)
        else:
            surface.blit(style.label(_("a bundled arena: copy it into your own folder to "
                                       "edit it here"), 18, style.TEXT_DIM), (x, y))
            y += 24
        errors = sum(f.level == ERROR for f in findings)
        summary = (_("{errors} errors, {findings} warnings").format(
                       errors=errors, findings=len(findings) - errors) if findings
                   else _("no errors, no warnings"))
        if self.state is not None and self.state.arena is None:
            summary += (_(" - showing the last good version") if self.last_good is not None
                        else _(" - the file has not loaded yet: fix the errors listed"))
        surface.blit(style.label(summary, 20, ERROR_COLOUR if errors else style.TEXT_DIM), (x, y))
        y += 26
        bottom = surface.get_height() - 120
        for n, f in enumerate(findings):
            colour = ERROR_COLOUR if f.level == ERROR else WARNING_COLOUR
            where = f"{Path(f.file).name}:{f.line}" if f.line else Path(f.file).name
            chunks = _wrap(f"{f.code} {where}: {f.message}", 58)      # whole: did-you-mean too
            if y + 19 * len(chunks) > bottom:
                surface.blit(style.label(_("… and {n} more (bottisota check lists them)")
                                         .format(n=len(findings) - n), 18, colour), (x, y))
                y += 19
                break
            for i, chunk in enumerate(chunks):
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


def draw_links_and_respawns(surface: pygame.Surface, cam: Camera, arena: Arena) -> None:
    """Teleporter links (dashed: each leads to any other, R53) and every goal's respawn
    spots, numbered in turn (D23)."""
    tps = [f.shape.centroid for f in arena.by_type("teleporter")]
    for i, a in enumerate(tps):
        for b in tps[i + 1:]:
            ax, ay = cam.to_px(a.x, a.y)
            bx, by = cam.to_px(b.x, b.y)
            length = max(1.0, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
            steps = int(length // 12)
            for k in range(0, steps, 2):
                t0, t1 = k / steps, min(1.0, (k + 1) / steps)
                pygame.draw.line(surface, style.FEATURE_FILL.get("teleporter", style.TEXT),
                                 (ax + (bx - ax) * t0, ay + (by - ay) * t0),
                                 (ax + (bx - ax) * t1, ay + (by - ay) * t1), 2)
    for goal in arena.by_type("goal"):
        for n, (x, y) in enumerate(goal.respawn, start=1):
            px, py = cam.to_ipx(x, y)
            pygame.draw.circle(surface, WARNING_COLOUR, (px, py), 7, 2)
            pygame.draw.line(surface, WARNING_COLOUR, (px - 10, py), (px + 10, py), 2)
            pygame.draw.line(surface, WARNING_COLOUR, (px, py - 10), (px, py + 10), 2)
            surface.blit(style.label(f"{goal.id or _('goal')} R{n}", 18, WARNING_COLOUR),
                         (px + 10, py - 22))


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


def fit_to_desktop(preview: Preview) -> None:
    """A scale at which the map and the panel fit the desktop (the window's title bar and
    a task bar left free)."""
    arena = preview.last_good
    sizes = pygame.display.get_desktop_sizes() if pygame.display.get_init() else []
    if arena is None or not sizes:
        return
    dw, dh = sizes[0]
    w, h = arena.size
    fit = min((dw - 40 - PANEL_W - 2 * MARGIN) / w, (dh - 100 - 2 * MARGIN) / h)
    preview.scale = max(2.0, min(preview.scale, fit))


def run_window(preview: Preview, frames: int | None = None, fps: int = 10) -> None:
    """Open the window and loop until it is closed (or after `frames` frames)."""
    os.environ.setdefault("SDL_VIDEO_CENTERED", "1")    # never opened partly off-screen
    pygame.display.init()           # not pygame.init(): no audio thread (simulate forks)
    pygame.font.init()
    pygame.display.set_caption(_("bottisota preview: {name}").format(name=preview.files[0].name))
    preview.reload_if_changed()
    fit_to_desktop(preview)
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
