"""The table painter: the view model and the game state -> the pixels of one window's
table (the laptop's and the projector's alike). It reads `TableInput`, built by the
controller each frame; it changes nothing but the window's cached `WindowLayers`
(and, for the laptop, the placed labels it reports back into the view model)."""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pygame

from bottisota.core.compass import vector
from bottisota.core.i18n import _, language
from bottisota.engine.game import Game
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.state import Bot
from bottisota.view import style
from bottisota.view.arena_layer import ArenaLayer, draw_belt_arrows
from bottisota.view.bots_layer import draw_state, player_colours
from bottisota.view.camera import Camera
from bottisota.view.label_layer import LabelSink, draw_labels
from bottisota.view.legend import draw_legend, legend_height, legend_width
from bottisota.view.margins import COLUMN_EMS, MarginLayout, column_width, layout
from bottisota.view.move_overlay import draw_move_preview
from bottisota.view.overlays import (
    ThreatLayer,
    column_band,
    draw_effects,
    draw_turn_strip,
    draw_winner,
    text_box,
    text_box_height,
    threat_legend_lines,
)
from bottisota.view.premeasure_overlay import (
    draw_arc_fill,
    draw_premeasure,
    draw_target_rings,
)
from bottisota.view.widgets import draw_ruler
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.labels import (
    ArenaText,
    BackgroundPass,
    LastPass,
    arena_texts,
    follow,
    still_standing,
)
from bottisota.viewmodel.model import ViewModel, turn_strip
from bottisota.viewmodel.sizes import TextSizes, reading_sizes, text_sizes

if TYPE_CHECKING:      # the threat view's module loads when it is first asked for
    from bottisota.viewmodel.threat import ThreatMap

LAYER_BUDGET_MS = 3.0    # a new arena drawing is made this long per frame
SPRITE_BUDGET_MS = 3.0   # new bot sprites are made this long per frame (others scaled)


class WindowLayers:
    """What one window keeps drawn between frames: its arena layer, threat shading, the
    arena with them baked in, and its placed labels (each window has its own camera)."""

    def __init__(self, arena: ArenaLayer) -> None:
        self.arena = arena
        self.threat = ThreatLayer()
        self.labels: list = []
        self.labels_key: tuple | None = None
        self.last_pass: LastPass | None = None         # the labels' last placing pass
        self.placing = BackgroundPass()                 # passes off the frame (`play`)
        self.base: tuple[tuple, pygame.Surface, pygame.Surface] | None = None   # key, shown, clean
        self.base_of: tuple[Any, Any] = (None, None)   # the pre-measure and threat map baked
        self.clean_of: tuple[tuple, pygame.Surface] | None = None   # what "clean" holds
        self.baked: list[pygame.Rect] = []           # the pixels baked into "clean"
        self.buffers: dict[tuple[str, tuple[int, int]], pygame.Surface] = {}
        self.sizes: TextSizes | None = None          # text sizes of the last settled zoom
        self.shown: Shown | None = None              # what the window's pixels show now
        self.margin: MarginDrawn | None = None       # the strips and legends drawn last

    def forget_shown(self) -> None:
        """Something else was drawn over the window: paint it whole next time."""
        self.shown = None

    def make_spares(self) -> bool:
        """Make one missing surface that later frames reuse (the arena layer's next
        drawing, the shading's copies of the layer, the threat shading's own); True if
        one was made. Called once a frame after the first (each costs milliseconds: not
        all in one frame, none in the first)."""
        if self.arena.make_spare():
            return True
        size = self.arena.drawn_size
        for name in ("clean", "base"):
            if size is not None and (name, size) not in self.buffers:
                self.buffers[(name, size)] = pygame.Surface(size)
                return True
        return self.threat.make_spare()


@dataclass
class Shown:
    """What a window's table pixels show (`key`: everything the painter read but the
    belts' phase), with the belts at `phase`; `regions`: where the belts' chevrons
    may be drawn."""

    key: tuple
    held: tuple                  # the objects whose ids the key holds (kept alive)
    phase: float
    regions: list[pygame.Rect]

@dataclass(frozen=True)
class PlaceGhost:
    """The bot about to be placed, under the pointer, with the core's verdict."""

    radius: float
    x: float
    y: float
    facing: float
    refusal: str | None


@dataclass(frozen=True)
class TableInput:
    """Everything the table painter reads for one frame."""

    game: Game
    vm: ViewModel
    robots: Mapping[str, object]    # the seats robots play (TableApp.robots)
    premeasure: Premeasure | None
    preview: MovePreview | None
    threat: ThreatMap | None
    focus: str | None
    shooter: Bot | None
    ghost: PlaceGhost | None
    belt_phase: float
    moving: bool
    settled: bool
    open_doors: tuple[str | int, ...]
    show_message: bool
    sprite_budget_ms: float | None = SPRITE_BUDGET_MS   # None: every bot exact (stills)
    labels_in_background: bool = False  # label passes on a thread, taken by a later frame


def paint_table(surface: pygame.Surface, cam: Camera, area: pygame.Rect, t: TableInput,
                layers: WindowLayers, laptop: bool, may_place: bool = True,
                may_keep: bool = False, reading: float | None = None) -> bool:
    """The table and everything on it, into `area`. Labels are placed afresh when what
    they label changed, unless `may_place` is False (the other window placed its labels
    this frame: these ride along with their anchors until the next frame). With
    `may_keep` (a window nothing else draws on), a frame that would show what the
    window shows already is not painted again, and when only the belts' chevrons
    moved, only the belts' regions are painted again (everything over them too, by
    the same calls, clipped to the regions). `reading`: the window shows the table
    itself (the projector), at this many pixels per true cm: every text is sized to be
    read from the view model's reading distance (`viewmodel.sizes.reading_sizes`).
    Returns whether labels were placed."""
    vm, state = t.vm, t.game.state
    if reading is not None:
        layers.sizes = reading_sizes(reading, vm.reading_distance_cm)
        layers.arena.least_text = layers.sizes.least
    elif t.settled or layers.sizes is None:  # a zoom under way keeps its first text sizes
        layers.sizes = text_sizes(cam.scale, surface.get_size(), vm.ui_scale)
    sizes = layers.sizes
    layer, at = layers.arena.surface(cam, surface.get_size(), settled=t.settled,
                                     budget_ms=LAYER_BUDGET_MS)
    shown = None
    if may_keep and t.settled and not t.moving and not vm.effects.items:
        key, held = _shown_key(surface, cam, area, t, layers, layer, at)
        last = layers.shown
        if last is not None and last.key == key:
            if last.phase != t.belt_phase:
                still = replace(t, sprite_budget_ms=None)   # as before: every bot exact
                for region in last.regions:
                    _paint(surface, cam, area, region, still, layers, layer, at, sizes,
                           laptop, None)
                last.phase = t.belt_phase
            return False
        shown = Shown(key, held, t.belt_phase, _belt_regions(cam, area, state.arena))
    layers.shown = None
    placed, exact = _paint(surface, cam, area, area, t, layers, layer, at, sizes, laptop,
                           may_place)
    threat = t.threat
    if (shown is not None and exact and layers.labels_key is not None
            and (threat is None or (threat.done and layers.threat.painted == len(threat.cells)))):
        layers.shown = shown               # the next frame may keep these pixels
    return placed


def _paint(surface: pygame.Surface, cam: Camera, area: pygame.Rect, clip: pygame.Rect,
           t: TableInput, layers: WindowLayers, layer: pygame.Surface, at: tuple[int, int],
           sizes: TextSizes, laptop: bool, may_place: bool | None) -> tuple[bool, bool]:
    """Paint the table into `area`, drawing only inside `clip`. `may_place` None: the
    labels placed for these very pixels are drawn again as they are (a belts' region
    painted again). Returns (labels placed, every bot drawn exactly)."""
    vm, state = t.vm, t.game.state
    surface.set_clip(clip)
    pm = t.premeasure
    if pm is None and t.threat is None:
        _fill_around(surface, area, pygame.Rect(at, layer.get_size()))
        surface.blit(layer, at)
    else:
        base = _base_layer(layers, layer, at, cam, state, pm, t.threat)
        _fill_around(surface, area, pygame.Rect(at, base.get_size()))
        surface.blit(base, at)
    if t.settled and not t.moving:
        layers.threat.expect(layer, cam)       # the size a threat shading would have
    draw_belt_arrows(surface, cam, state.arena, t.belt_phase)
    sink = LabelSink(sizes.table)
    unplaced = state.active if t.game.expected() == "place" else None
    colours = player_colours(state)
    exact = draw_state(surface, cam, state, vm.selected, t.open_doors, unplaced, sink,
                       exact=t.settled, budget_ms=t.sprite_budget_ms, least_text=sizes.least)
    if t.preview is not None and vm.plan is not None:
        draw_move_preview(surface, cam, state.bots[vm.plan.bot], t.preview, colours, state.bots,
                          sink)
    _draw_orders(surface, cam, t, sink)
    if pm is not None:
        draw_premeasure(surface, cam, state, pm, t.focus, None, arc_fill=False, sink=sink,
                        rings=False)
    if t.ghost is not None:
        _draw_place_ghost(surface, cam, t.ghost, sink)
    if vm.ruler is not None:
        draw_ruler(surface, cam, *vm.ruler)
    banners = draw_effects(surface, cam, vm.effects.items, area, sink, sizes.banner)
    margin = _draw_margin(surface, cam, area, t, sizes, colours)
    layers.margin = margin
    placed = False
    if may_place is not None:
        for text in _arena_texts(state.arena):             # after the bots': they place first
            sink.want(text.text, cam.to_px(*text.at), text.tone, key=text.key,
                      radius=cam.length(text.radius) + 2 if text.radius else 0.0)
        bounds = (area.x, area.y, area.w, area.h)
        # no label over a banner, a strip or a legend
        taken = [(float(r.x), float(r.y), float(r.w), float(r.h))
                 for r in (*banners, *margin.boxes)]
        key = (sink.key(), bounds, tuple(taken))
        if t.moving or (key != layers.labels_key and not may_place):   # labels ride along
            layers.labels = follow(layers.labels, sink.wishes)
            layers.labels_key = None
        elif key != layers.labels_key:
            answer = None
            if t.labels_in_background:      # asked on a thread, taken by a later frame
                answer = layers.placing.take(key)
                if answer is None:
                    last = layers.last_pass
                    layers.placing.ask(key, lambda: sink.place(bounds, taken, last))
                    layers.labels = still_standing(layers.labels, sink.wishes, sink.discs,
                                                   taken)
            else:
                answer = sink.place(bounds, taken, layers.last_pass)
            if answer is not None:
                layers.labels, left_out, layers.last_pass = answer
                layers.labels_key = key
                placed = True
                if laptop:
                    vm.labels, vm.labels_left_out = layers.labels, left_out
    draw_labels(surface, layers.labels, sink.size)
    winner = vm.effects.winner
    if winner is not None:
        draw_winner(surface, area, winner, sizes.banner)
    if laptop and t.show_message and vm.message is not None:
        low = margin.layout.strips[0].top if margin.layout.horizontal else area.bottom
        text_box(surface, [vm.message[0]], (area.x + 10, low - 10 - sizes.panel * 2),
                 sizes.panel, vm.message[1])
    surface.set_clip(None)
    return placed, exact


@dataclass
class MarginDrawn:
    """What a frame drew in the margin around the arena: where (`layout`) and the boxes
    of the strips and legends (the label pass places nothing over them)."""

    layout: MarginLayout
    boxes: list[pygame.Rect]


def _draw_margin(surface: pygame.Surface, cam: Camera, area: pygame.Rect, t: TableInput,
                 sizes: TextSizes, colours: dict[str, style.Colour]) -> MarginDrawn:
    """The turn strips and the legends, in the margin around the arena when it has room
    (`view.margins`)."""
    vm, state = t.vm, t.game.state
    table = pygame.Rect(cam.table_rect())
    strip = turn_strip(t.game, t.robots)
    width = column_width(area, table)
    column = (column_band(strip, width, sizes.panel, colours, list(colours))
              if width >= COLUMN_EMS * sizes.panel else None)
    lay = layout(area, table, sizes.panel, column.get_height() if column is not None else 0)
    boxes = list(draw_turn_strip(surface, lay, strip, sizes.panel, colours, list(colours),
                                 column))
    top = lay.strips[1].bottom if lay.horizontal else area.y
    if t.threat is not None:
        lines = threat_legend_lines(t.threat, vm.hover)
        width = max(lay.widest_free(), 0)
        if width < COLUMN_EMS * sizes.panel:
            width = min(area.w - 20, max(style.text_size(x, sizes.panel)[0] for x in lines) + 16)
        spot = lay.legend_spot(width, text_box_height(lines, sizes.panel, width),
                               (area.x + 10, top + 10))
        boxes.append(text_box(surface, lines, spot.topleft, sizes.panel, "plain", width=width))
    if vm.show_legend:
        size = max(20, sizes.least)
        width = legend_width(state.arena, size)
        spot = lay.legend_spot(width, legend_height(state.arena, size),
                               (area.right - width - 10, top + 10))
        boxes.append(draw_legend(surface, spot.topleft, state.arena, width, size))
    return MarginDrawn(lay, boxes)


def _shown_key(surface: pygame.Surface, cam: Camera, area: pygame.Rect, t: TableInput,
               layers: WindowLayers, layer: pygame.Surface, at: tuple[int, int]
               ) -> tuple[tuple, tuple]:
    """Everything a frame's picture depends on, but the belts' phase (the frame is
    settled and shows no result animation: the caller checks), and the objects whose
    identity it holds (kept alive with it, so that no id comes back)."""
    vm, game = t.vm, t.game
    state = game.state
    plan = vm.plan.all_steps() if vm.plan is not None else None
    threat = t.threat
    threat_key = (None if threat is None else
                  (id(threat), len(threat.cells), threat.done, threat.coarse_done, threat.most))
    held = (surface, layer, t.premeasure, t.preview, threat, t.shooter, state, game)
    key = (tuple(id(x) for x in held), surface.get_size(), tuple(area), cam, at,
           layers.arena.serial, vm.version, language(), vm.ui_scale, vm.selected, plan,
           tuple(vm.orders), vm.ruler, vm.show_legend, vm.hover, t.focus, t.ghost,
           t.open_doors, threat_key, t.game.expected(), turn_strip(game, t.robots),
           _state_key(state))
    return key, held


def _state_key(state: Any) -> tuple:
    """What the painters draw of the state: every bot's look and place, the mines,
    the goals, the turn."""
    return (state.round, state.phase, state.active, state.over,
            tuple((b.id, b.player, b.card.id, b.x, b.y, b.facing, b.z, b.radius, b.damage,
                   b.stats.structure, b.rust, b.leaflet, b.overwatch, b.destroyed, b.removed,
                   b.on_table) for b in state.bots.values()),
            tuple((m.x, m.y, m.r, m.active, m.player) for m in state.mines),
            tuple((g.x, g.y, g.r, g.points, g.taken) for g in state.goals))


def _belt_regions(cam: Camera, area: pygame.Rect, arena: Any) -> list[pygame.Rect]:
    """The window rectangles the belts' chevrons may be drawn in, at any phase."""
    out = []
    for f in arena.by_type("conveyor"):
        if not f.path:
            continue
        pts = [cam.to_px(x, y) for x, y in f.path]
        size = min(f.width or 2.0, 3.0) * 0.8          # as draw_belt_arrows sizes them
        pad = math.ceil(size * max(cam.scale, cam.scale_y) + 6)
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        r = pygame.Rect(math.floor(min(xs)) - pad, math.floor(min(ys)) - pad,
                        math.ceil(max(xs) - min(xs)) + 2 * pad + 1,
                        math.ceil(max(ys) - min(ys)) + 2 * pad + 1).clip(area)
        if r.w > 0 and r.h > 0:
            out.append(r)
    return out


def _base_layer(layers: WindowLayers, layer: pygame.Surface, at: tuple[int, int], cam: Camera,
                state: Any, pm: Any, threat: Any) -> pygame.Surface:
    """The arena layer with what stays put until the state changes baked in (the threat
    shading, the pre-measure's arc fill): one opaque blit per frame. While the threat
    map fills, only its new cells are painted into it."""
    corner = (round(cam.origin[0] - at[0], 3), round(cam.origin[1] - at[1], 3))
    key = (layers.arena.serial, id(layer), cam.scale, corner, id(pm), id(threat))
    local = cam.moved(corner)
    if (layers.base is None or layers.base[0] != key or layers.base_of[0] is not pm
            or layers.base_of[1] is not threat):        # (ids of objects gone may come back)
        layers.base_of = (pm, threat)
        clean = layer
        if pm is not None:
            clean = _clean_copy(layers, layer, key)
            layers.baked = [draw_arc_fill(clean, local, state.bots[pm.bot], pm),
                            *draw_target_rings(clean, local, state, pm)]
        base = clean
        if threat is not None:
            base = _buffer(layers, "base", clean)
            layers.threat.bake(base, clean, local, threat)
        layers.base = (key, base, clean)
    elif threat is not None and layers.threat.painted < len(threat.cells):
        layers.threat.patch(layers.base[1], layers.base[2], local, threat)
    return layers.base[1]


_texts: dict[int, tuple[Any, list[ArenaText]]] = {}


def _arena_texts(arena: Any) -> list[ArenaText]:
    """The arena's texts, worked out once per arena."""
    got = _texts.get(id(arena))
    if got is None or got[0] is not arena:
        if len(_texts) > 8:
            _texts.clear()
        got = _texts[id(arena)] = (arena, arena_texts(arena))
    return got[1]


def _clean_copy(layers: WindowLayers, layer: pygame.Surface, key: tuple) -> pygame.Surface:
    """The window's "clean" buffer holding the arena layer as it is: when it already
    holds this very layer with a pre-measure baked in, only the pixels that one
    covered are taken back from the layer (a new weapon or target chosen)."""
    held = (key[:4], layer)
    size_key = ("clean", layer.get_size())
    buf = layers.buffers.get(size_key)
    if buf is not None and layers.clean_of is not None and layers.clean_of[0] == held[0] \
            and layers.clean_of[1] is layer:
        for r in layers.baked:
            buf.blit(layer, r, r)
    else:
        buf = _buffer(layers, "clean", layer)
    layers.clean_of = held
    return buf


def _buffer(layers: WindowLayers, name: str, source: pygame.Surface) -> pygame.Surface:
    """A window's reused surface of `source`'s size holding a copy of it (no new
    surface of the window's size every time the shading is re-baked)."""
    key = (name, source.get_size())
    buf = layers.buffers.get(key)
    if buf is None:
        if len(layers.buffers) > 6:            # sizes of zooms gone by
            layers.buffers.clear()
        buf = layers.buffers[key] = source.copy()
    else:
        buf.blit(source, (0, 0))
    return buf


def _fill_around(surface: pygame.Surface, area: pygame.Rect, inner: pygame.Rect) -> None:
    """Background over the part of `area` that `inner` (a layer about to be blitted)
    leaves uncovered."""
    inner = inner.clip(area)
    if inner.w <= 0 or inner.h <= 0:
        surface.fill(style.BACKGROUND, area)
        return
    for r in (pygame.Rect(area.x, area.y, area.w, inner.y - area.y),
              pygame.Rect(area.x, inner.bottom, area.w, area.bottom - inner.bottom),
              pygame.Rect(area.x, inner.y, inner.x - area.x, inner.h),
              pygame.Rect(inner.right, inner.y, area.right - inner.right, inner.h)):
        if r.w > 0 and r.h > 0:
            surface.fill(style.BACKGROUND, r)


def _draw_orders(surface: pygame.Surface, cam: Camera, t: TableInput, sink: LabelSink) -> None:
    """The shots ordered so far: a line from the shooter to each target."""
    shooter = t.shooter
    if shooter is None:
        return
    for o in t.vm.orders:
        target = t.game.state.bots.get(o.target or "")
        if target is None:
            continue
        a, b = cam.to_px(shooter.x, shooter.y), cam.to_px(target.x, target.y)
        pygame.draw.line(surface, style.tone("dice"), a, b, 3)
        sink.want(_("{weapon} at {target}").format(weapon=o.weapon, target=target.id),
                  ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), "dice", key=f"order:{o.weapon}")


def _draw_place_ghost(surface: pygame.Surface, cam: Camera, g: PlaceGhost, sink: LabelSink) -> None:
    colour = style.REFUSAL if g.refusal else style.GHOST
    c = cam.to_px(g.x, g.y)
    r = cam.length(g.radius)
    pygame.draw.circle(surface, colour, c, r, 2)
    fx, fy = vector(g.facing)
    pygame.draw.line(surface, colour, c, cam.to_px(g.x + fx * g.radius, g.y + fy * g.radius), 2)
    if g.refusal:
        sink.want(g.refusal, c, "alarm", key="place", radius=r + 4)
