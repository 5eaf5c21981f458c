"""Shaping the arena on the preview: select a feature and drag it, rotate it by its
handle, resize it by its corner, add one from the palette, delete it; undo and redo;
measure; see what a bot on a spot sees and where a bot from a spot can get to.

Every change is made to the file through `formats.arena_edit.ArenaEditor` (the YAML
stays the truth, comments and layout kept) and checked again at once by the preview.
Moves snap to a grid (0.5 cm; Shift: free) and to the edges of the table and of other
features (within 0.6 cm); turns snap to 15° (Shift: 1°).

Mouse: click a feature to select it; drag it to move it; drag the round handle above
it to turn it; drag the square handle at its corner to resize it. Keys: Del deletes,
Ctrl+Z / Ctrl+Y undo and redo, R / Shift+R turn by 15°, arrows nudge by the grid,
M measures, V shows sight from a spot, G shows where ground bots from a spot can go,
Esc ends a tool (and closes the preview when no tool is on).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame
from shapely.affinity import translate
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

from bottisota.core.arena import Arena, Feature
from bottisota.core.compass import heading
from bottisota.core.i18n import N_, _, number
from bottisota.formats.arena_edit import PALETTE, ArenaEditor, EditError
from bottisota.play.reach import Reach
from bottisota.view import style
from bottisota.view.camera import Camera

GRID = 0.5                      # cm: where moves and new features snap
EDGE_SNAP = 0.6                 # cm: an edge this close to another edge snaps to it
TURN_STEP = 15.0                # degrees a turn snaps to
HANDLE_PX = 9                   # handle size on screen
ROTATE_HANDLE_CM = 3.0          # the turn handle stands this far above the shape
SIGHT_RAYS = 240
EYE_HEIGHT = 2.0                # cm above its floor: a bot's figure (D3)
SELECTED = (255, 255, 255)
HANDLE = (255, 200, 60)
MEASURE = (120, 220, 255)
SIGHT_FILL = (255, 255, 160, 60)
REACH_FILL = (120, 230, 120, 70)

TOOLS: tuple[tuple[str, str], ...] = (
    ("select", N_("Select")), ("measure", N_("Measure (M)")), ("sight", N_("Sight (V)")),
    ("reach", N_("Reach (G)")), ("undo", N_("Undo")), ("redo", N_("Redo")),
    ("delete", N_("Delete")))


def snap(value: float, free: bool = False) -> float:
    return value if free else round(value / GRID) * GRID


def same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """Two cache keys alike: the objects in them the very same ones (an arena's equality
    would compare every feature), the plain values equal."""
    return len(a) == len(b) and all(
        x is y or (isinstance(x, (str, int, float, tuple)) and x == y)
        for x, y in zip(a, b, strict=True))


def bearing(cx: float, cy: float, x: float, y: float) -> float:
    """The facing from (cx, cy) to (x, y): 0 = up (+y), clockwise (D2)."""
    return heading(x - cx, y - cy)


@dataclass
class Drag:
    """A mouse drag under way: what it does and where it started (table cm)."""

    kind: str                    # move | rotate | resize | measure
    start: tuple[float, float]
    now: tuple[float, float]
    angle0: float = 0.0


@dataclass
class EditTool:
    """The editing state of one preview: the file's editor, the selection, the tool."""

    editor: ArenaEditor
    selected: int | None = None             # the feature's index in the file
    tool: str = "select"                    # select | measure | sight | reach | add:KIND
    drag: Drag | None = None
    measure: tuple[tuple[float, float], tuple[float, float]] | None = None
    spot: tuple[float, float] | None = None  # the spot of the sight or reach view
    message: str = ""
    buttons: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    changed: bool = False                   # an edit was made: write and check again
    # the sight or reach view worked out for (tool, spot, arena, reach): not again each frame
    view_cache: tuple[tuple[object, ...], object] | None = None
    overlay_cache: tuple[tuple[object, ...], pygame.Surface] | None = None

    # --- what is where ------------------------------------------------------------------

    @staticmethod
    def feature(arena: Arena, index: int | None) -> Feature | None:
        return next((f for f in arena.features if f.index == index), None)

    def pick(self, arena: Arena, x: float, y: float) -> int | None:
        """The feature under a point: the smallest that covers it (a wall on a platform
        before the platform)."""
        p = Point(x, y)
        hits = [f for f in arena.features if f.shape.buffer(0.3).covers(p)]
        return min(hits, key=lambda f: f.shape.area).index if hits else None

    def handles(self, arena: Arena) -> dict[str, tuple[float, float]]:
        """The selected feature's handles in table cm: turn (above it) and resize (its
        upper-right corner)."""
        f = self.feature(arena, self.selected)
        if f is None:
            return {}
        x0, y0, x1, y1 = f.shape.bounds
        c = f.shape.centroid
        return {"rotate": (c.x, y1 + ROTATE_HANDLE_CM), "resize": (x1, y1)}

    # --- input --------------------------------------------------------------------------

    def press(self, arena: Arena, cam: Camera, pos: tuple[int, int], shift: bool) -> None:
        x, y = cam.to_cm(*pos)
        if self.tool.startswith("add:"):
            kind = self.tool[4:]
            fid = self.editor.new_id(kind) if kind == "teleporter" else None
            self._do(lambda: self.editor.add(kind, snap(x, shift), snap(y, shift), fid),
                     _("added a {kind}").format(kind=kind))
            self.selected = max((f.index for f in arena.features), default=-1) + 1
            self.tool = "select"
            return
        if self.tool == "measure":
            self.drag = Drag("measure", (x, y), (x, y))
            return
        if self.tool in ("sight", "reach"):
            self.spot = (x, y)
            return
        for name, (hx, hy) in self.handles(arena).items():
            px, py = cam.to_px(hx, hy)
            if abs(px - pos[0]) <= HANDLE_PX and abs(py - pos[1]) <= HANDLE_PX:
                f = self.feature(arena, self.selected)
                assert f is not None
                c = f.shape.centroid
                self.drag = Drag(name, (x, y), (x, y), bearing(c.x, c.y, x, y))
                return
        self.selected = self.pick(arena, x, y)
        if self.selected is not None:
            self.drag = Drag("move", (x, y), (x, y))

    def motion(self, cam: Camera, pos: tuple[int, int]) -> None:
        if self.drag is not None:
            self.drag.now = cam.to_cm(*pos)

    def release(self, arena: Arena, cam: Camera, pos: tuple[int, int], shift: bool) -> None:
        drag, self.drag = self.drag, None
        if drag is None:
            return
        x, y = cam.to_cm(*pos)
        f = self.feature(arena, self.selected)
        if drag.kind == "measure":
            self.measure = (drag.start, (x, y))
            return
        if f is None:
            return
        index = f.index
        if drag.kind == "move":
            dx, dy = self.snapped_move(arena, f, x - drag.start[0], y - drag.start[1], shift)
            if abs(dx) > 1e-9 or abs(dy) > 1e-9:
                self._do(lambda: self.editor.move(index, dx, dy),
                         _("moved {name} by {dx}, {dy} cm").format(
                             name=f.label, dx=number(dx, 2), dy=number(dy, 2)))
        elif drag.kind == "rotate":
            c = f.shape.centroid
            turn = (bearing(c.x, c.y, x, y) - drag.angle0 + 180.0) % 360.0 - 180.0
            turn = round(turn) if shift else round(turn / TURN_STEP) * TURN_STEP
            if turn:
                self._do(lambda: self.editor.rotate(index, turn),
                         _("turned {name} by {deg}°").format(name=f.label, deg=number(turn)))
        elif drag.kind == "resize":
            x0, y0, _x1, _y1 = f.shape.bounds
            w, h = snap(x, shift) - x0, snap(y, shift) - y0
            if w > 0 and h > 0:
                self._do(lambda: self.editor.resize(index, w, h),
                         _("resized {name} to {w} x {h} cm").format(
                             name=f.label, w=number(w, 2), h=number(h, 2)))

    def key(self, arena: Arena, event: pygame.event.Event) -> bool:
        """A key for the editor; False when it is not one (the preview takes it)."""
        ctrl = bool(event.mod & pygame.KMOD_CTRL)
        shift = bool(event.mod & pygame.KMOD_SHIFT)
        f = self.feature(arena, self.selected)
        if ctrl and event.key == pygame.K_z:
            self.button(arena, "redo" if shift else "undo")
        elif ctrl and event.key == pygame.K_y:
            self.button(arena, "redo")
        elif event.key in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.button(arena, "delete")
        elif event.key == pygame.K_r and f is not None:
            index, turn = f.index, -TURN_STEP if shift else TURN_STEP
            self._do(lambda: self.editor.rotate(index, turn),
                     _("turned {name} by {deg}°").format(name=f.label, deg=number(turn)))
        elif event.key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN) \
                and f is not None:
            step = GRID * (4 if shift else 1)
            dx = {pygame.K_LEFT: -step, pygame.K_RIGHT: step}.get(event.key, 0.0)
            dy = {pygame.K_DOWN: -step, pygame.K_UP: step}.get(event.key, 0.0)
            index = f.index
            self._do(lambda: self.editor.move(index, dx, dy),
                     _("moved {name} by {dx}, {dy} cm").format(
                         name=f.label, dx=number(dx, 2), dy=number(dy, 2)))
        elif event.key == pygame.K_m:
            self.tool = "measure"
        elif event.key == pygame.K_v:
            self.tool = "sight"
        elif event.key == pygame.K_g:
            self.tool = "reach"
        elif event.key == pygame.K_ESCAPE and (self.tool != "select" or self.selected is not None):
            self.tool, self.selected, self.spot, self.measure = "select", None, None, None
        else:
            return False
        return True

    def button(self, arena: Arena, name: str) -> None:
        """A panel button (or its key): a tool, undo, redo, delete, or a palette kind."""
        if name == "undo":
            if self.editor.undo():
                self.changed, self.message = True, _("undone")
        elif name == "redo":
            if self.editor.redo():
                self.changed, self.message = True, _("redone")
        elif name == "delete":
            f = self.feature(arena, self.selected)
            if f is not None:
                index = f.index
                self._do(lambda: self.editor.delete(index),
                         _("deleted {name}").format(name=f.label))
                self.selected = None
        elif name in PALETTE:
            self.tool = f"add:{name}"
            self.message = _("click on the table to place the {kind}").format(kind=name)
        else:
            self.tool = name
            self.spot = None

    def click_panel(self, arena: Arena, pos: tuple[int, int]) -> bool:
        for rect, name in self.buttons:
            if rect.collidepoint(pos):
                self.button(arena, name)
                return True
        return False

    def _do(self, edit, done: str) -> None:
        try:
            if edit():
                self.changed, self.message = True, done
        except EditError as err:
            self.message = _("cannot edit this file that way: {why}").format(why=err)

    # --- snapping -----------------------------------------------------------------------

    def snapped_move(self, arena: Arena, f: Feature, dx: float, dy: float, free: bool
                     ) -> tuple[float, float]:
        """The move with the feature's edges snapped to the table's and other features'
        edges within EDGE_SNAP, else its lower-left corner snapped to the grid."""
        if free:
            return dx, dy
        x0, y0, x1, y1 = f.shape.bounds
        xs = [0.0, arena.size[0]]
        ys = [0.0, arena.size[1]]
        for other in arena.features:
            if other.index != f.index:
                ox0, oy0, ox1, oy1 = other.shape.bounds
                xs += [ox0, ox1]
                ys += [oy0, oy1]

        def best(lo: float, hi: float, d: float, lines: list[float]) -> float:
            options = [(abs(line - (edge + d)), line - edge) for edge in (lo, hi)
                       for line in lines if abs(line - (edge + d)) <= EDGE_SNAP]
            if options:
                return min(options)[1]
            return snap(lo + d) - lo

        return best(x0, x1, dx, xs), best(y0, y1, dy, ys)

    # --- views --------------------------------------------------------------------------

    @staticmethod
    def sight_area(arena: Arena, x: float, y: float, floor: float) -> object:
        """Where a bot's eye on (x, y) sees to (D3: its figure's top): rays stopped by
        walls, doors and floors higher than its eye (the rules' own lines read heights
        along the way; this is the designer's quick look)."""
        eye = floor + EYE_HEIGHT
        blockers = [f.shape for f in arena.features if f.type in ("wall", "door")
                    and (f.height is None or f.height > eye)]
        blockers += [f.shape for f in arena.features if f.type == "platform"
                     and (f.height or 0.0) > eye]
        wall = unary_union(blockers) if blockers else None
        far = math.hypot(*arena.size)
        points = []
        for k in range(SIGHT_RAYS):
            a = 2 * math.pi * k / SIGHT_RAYS
            end = (x + far * math.sin(a), y + far * math.cos(a))
            ray = LineString([(x, y), end])
            reach = far
            if wall is not None and ray.intersects(wall):
                hit = ray.intersection(wall)
                reach = Point(x, y).distance(hit)
            points.append((x + reach * math.sin(a), y + reach * math.cos(a)))
        return Polygon(points).intersection(box(0, 0, *arena.size))

    # --- drawing ------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, arena: Arena, cam: Camera, reach: Reach | None,
             reach_from) -> None:
        """The selection, its handles, a drag's ghost, the measure and the views."""
        overlay = self._overlay(surface.get_size(), arena, cam, reach, reach_from)
        if overlay is not None:
            surface.blit(overlay, (0, 0))
        if self.spot is not None and self.tool in ("sight", "reach"):
            pygame.draw.circle(surface, HANDLE, cam.to_ipx(*self.spot), 6, 2)
        f = self.feature(arena, self.selected)
        if f is not None:
            self._outline(surface, cam, f.shape, SELECTED, 3)
            if self.drag is not None and self.drag.kind == "move":
                dx = self.drag.now[0] - self.drag.start[0]
                dy = self.drag.now[1] - self.drag.start[1]
                self._outline(surface, cam, translate(f.shape, dx, dy), HANDLE, 2)
            for name, (hx, hy) in self.handles(arena).items():
                px, py = cam.to_ipx(hx, hy)
                if name == "rotate":
                    c = f.shape.centroid
                    pygame.draw.line(surface, HANDLE, cam.to_ipx(c.x, f.shape.bounds[3]),
                                     (px, py), 2)
                    pygame.draw.circle(surface, HANDLE, (px, py), HANDLE_PX)
                else:
                    pygame.draw.rect(surface, HANDLE, pygame.Rect(px - HANDLE_PX // 2 - 2,
                                                                  py - HANDLE_PX // 2 - 2,
                                                                  HANDLE_PX + 4, HANDLE_PX + 4))
        line = self.measure
        if self.drag is not None and self.drag.kind == "measure":
            line = (self.drag.start, self.drag.now)
        if line is not None:
            (ax, ay), (bx, by) = line
            pygame.draw.line(surface, MEASURE, cam.to_ipx(ax, ay), cam.to_ipx(bx, by), 3)
            text = _("{d} cm, facing {a}°").format(d=number(math.hypot(bx - ax, by - ay), 1),
                                                  a=number(bearing(ax, ay, bx, by), 0))
            surface.blit(style.label(text, 22, MEASURE), cam.to_ipx(bx, by))

    def _overlay(self, size: tuple[int, int], arena: Arena, cam: Camera, reach: Reach | None,
                 reach_from) -> pygame.Surface | None:
        """The sight or reach view shaded on a see-through layer, drawn again only when the
        spot, the tool, the arena or the camera changes."""
        view = self._view(arena, reach, reach_from)
        if view is None:
            return None
        key = (view, size, cam.scale, cam.origin)
        if self.overlay_cache is not None and same(self.overlay_cache[0], key):
            return self.overlay_cache[1]
        overlay = pygame.Surface(size, pygame.SRCALPHA)
        if self.tool == "sight":
            for poly in getattr(view, "geoms", [view]):
                pts = [cam.to_px(px, py) for px, py in poly.exterior.coords]
                if len(pts) >= 3:
                    pygame.draw.polygon(overlay, SIGHT_FILL, pts)
        elif reach is not None:
            cell = max(1, round(cam.length(reach.cell)))
            for k in view.nonzero()[0]:             # type: ignore[attr-defined]
                i, j = int(k) % reach.nx, int(k) // reach.nx
                px, py = cam.to_px(i * reach.cell, (j + 1) * reach.cell)
                overlay.fill(REACH_FILL, pygame.Rect(round(px), round(py), cell, cell))
        self.overlay_cache = (key, overlay)
        return overlay

    def _view(self, arena: Arena, reach: Reach | None, reach_from) -> object:
        """The sight area or the reached cells from the spot, worked out once per spot,
        tool and loaded arena (the preview draws 30 frames a second)."""
        if self.spot is None or self.tool not in ("sight", "reach"):
            return None
        key = (self.tool, self.spot, arena, reach)
        if self.view_cache is not None and same(self.view_cache[0], key):
            return self.view_cache[1]
        view: object = None
        if self.tool == "sight":
            floor = 0.0
            if reach is not None:
                k = reach.index(*self.spot)
                floor = float(reach.z[k]) if k is not None else 0.0
            view = self.sight_area(arena, *self.spot, floor)
        elif reach is not None:
            view = reach_from(*self.spot)
        self.view_cache = (key, view)
        return view

    @staticmethod
    def _outline(surface: pygame.Surface, cam: Camera, shape, colour, width: int) -> None:
        for poly in getattr(shape, "geoms", [shape]):
            ring = getattr(poly, "exterior", None)
            if ring is None:
                continue
            pts = [cam.to_px(px, py) for px, py in ring.coords]
            if len(pts) >= 2:
                pygame.draw.lines(surface, colour, True, pts, width)

    def draw_panel(self, surface: pygame.Surface, x: int, y: int, width: int) -> int:
        """The tool buttons and the palette; the height used."""
        self.buttons = []
        top = y
        bx = x
        for name, text in TOOLS:
            on = self.tool == name
            img = style.label(_(text), 18, style.BACKGROUND if on else style.TEXT)
            rect = pygame.Rect(bx, y, img.get_width() + 12, 26)
            if rect.right > x + width:
                bx, y = x, y + 30
                rect = pygame.Rect(bx, y, img.get_width() + 12, 26)
            pygame.draw.rect(surface, style.TEXT if on else style.PANEL, rect)
            pygame.draw.rect(surface, style.TEXT_DIM, rect, 1)
            surface.blit(img, (rect.x + 6, rect.y + 5))
            self.buttons.append((rect, name))
            bx = rect.right + 6
        y += 34
        surface.blit(style.label(_("add:"), 18, style.TEXT_DIM), (x, y + 5))
        bx = x + 44
        for kind in PALETTE:
            on = self.tool == f"add:{kind}"
            img = style.label(kind, 18, style.BACKGROUND if on else style.TEXT)
            rect = pygame.Rect(bx, y, img.get_width() + 12, 26)
            if rect.right > x + width:
                bx, y = x + 44, y + 30
                rect = pygame.Rect(bx, y, img.get_width() + 12, 26)
            fill = style.FEATURE_FILL.get(kind, style.PANEL)
            pygame.draw.rect(surface, style.TEXT if on else fill, rect)
            pygame.draw.rect(surface, style.TEXT_DIM, rect, 1)
            surface.blit(style.label(kind, 18, style.BACKGROUND if on
                                     else style.contrast_text(fill)), (rect.x + 6, rect.y + 5))
            self.buttons.append((rect, kind))
            bx = rect.right + 6
        y += 34
        if self.message:
            surface.blit(style.label(self.message, 18, style.TEXT), (x, y))
            y += 24
        return y - top
