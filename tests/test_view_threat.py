"""The threat view asks its sight lines in batches (`cells_threat`); every ruling must
be the one the core gives line by line (`cell_threat`, through `weapons_that_bear`):
weapons counted, overwatchers, shooters, on arenas with heights, slopes, doors,
sprays, melee, nose arcs and bots in the way."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.engine.game import Game
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.engine.setup import floor_height, new_state
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.viewmodel.threat import CELL_CM, cell_threat, cells_threat, threat_map
from tests.builders import arena, bot, card, state, weapon

MIXED = [weapon("Gun", range=30), weapon("Spray", kind="spray", range=20),
         weapon("Claw", kind="melee", range=0), weapon("Nose", mount="nose", range=45)]


def doors_and_heights():
    a = arena({"type": "wall", "rect": [38, 20, 4, 20], "height": 3},
              {"type": "door", "id": "d1", "rect": [38, 40, 4, 8]},
              {"type": "platform", "id": "deck", "rect": [55, 5, 20, 15], "height": 4},
              {"type": "ramp", "id": "up", "rect": [55, 20, 20, 8], "from": 0, "to": 4,
               "up": 180},
              {"type": "wall", "rect": [10, 45, 12, 2]})
    s = state(a, bot("me", "red", (10, 30), 90),
              bot("foe", "blue", (30, 30), 270, card(weapons=MIXED)),
              bot("foe2", "blue", (60, 12), 0, card(weapons=MIXED)),
              bot("foe3", "blue", (45, 44), 180, card(weapons=[weapon(range=60)])),
              bot("pal", "red", (24, 33), 0),
              bot("foe4", "blue", (70, 50), 270, card(weapons=MIXED)))
    s.bots["foe2"].overwatch = True
    s.bots["foe4"].overwatch = True
    return s


def warehouse(n: int = 16, seed: int = 3):
    rules = bundled_rules()
    a = load_arena(arenas_dir() / "warehouse.yaml", rules)
    g = Game(new_state(a, rules, [], dice=1, round=2))
    rng = random.Random(seed)
    idx = g.state.index
    bots, tries = [], 0
    cards = ("rammer", "artillery", "hunter", "scout", "brawler", "sniper", "hoverdrone")
    while len(bots) < n and tries < 5000:
        tries += 1
        x, y = rng.uniform(3, a.size[0] - 3), rng.uniform(3, a.size[1] - 3)
        if idx.disc_blocked(x, y, 1.5) is not None or not idx.inside_table(x, y, 1.5):
            continue
        if idx.features_at(x, y, ["pit", "teleporter", "lift", "conveyor"]):
            continue
        if any((x - b["at"][0]) ** 2 + (y - b["at"][1]) ** 2 < 16 for b in bots):
            continue
        if under_higher_floor(g.state, x, y, 3.0, floor_height(g.state, x, y)):
            continue                        # R37 D29: no base reaches under a higher floor
        bots.append({"id": f"b{len(bots)}", "player": ("red", "blue", "sky")[len(bots) % 3],
                     "card": cards[len(bots) % len(cards)], "at": [x, y],
                     "facing": rng.uniform(0, 360)})
    s = new_state(a, rules, bots, dice=1, round=2)
    for b in list(s.bots.values())[::4]:
        b.overwatch = True
    return s


def grid_points(s, step: float):
    tw, th = s.arena.size
    return [(x * step + 0.37, y * step + 0.41) for x in range(int(tw / step) + 1)
            for y in range(int(th / step) + 1)]


def per_line(s, viewer, points):
    enemies = [b for b in s.live_bots() if b.player != s.bots[viewer].player]
    return [cell_threat(s, viewer, enemies, x, y) for x, y in points]


def batched(s, viewer, points):
    enemies = [b for b in s.live_bots() if b.player != s.bots[viewer].player]
    return cells_threat(s, viewer, enemies, points)


@pytest.mark.parametrize("fast", [True, False])
def test_batched_threat_rules_as_the_core_does_line_by_line(fast):
    # R18 R19 R22 R23 R25 R28 R38 R47 D15
    s = doors_and_heights()
    points = grid_points(s, 2.5) + [(40.0, 44.0), (37.0, 44.0), (29.0, 30.0), (31.5, 30.0)]
    saved = FAST_PATHS.on
    FAST_PATHS.on = fast
    try:
        assert batched(s, "me", points) == per_line(s, "me", points)
    finally:
        FAST_PATHS.on = saved


def test_batched_threat_has_cells_of_every_kind():  # the comparison above is not vacuous
    s = doors_and_heights()
    answers = batched(s, "me", grid_points(s, 2.5))
    assert any(c == 0 for c, _w, _s in answers)
    assert any(c >= 3 for c, _w, _s in answers)
    assert any(w for _c, w, _s in answers)
    assert any(len(sh) >= 2 for _c, _w, sh in answers)


def test_a_door_the_viewer_would_open_counts_as_open():  # R47
    s = doors_and_heights()
    enemies = [b for b in s.live_bots() if b.player == "blue"]
    at_door = (37.2, 44.0)                      # the viewer's base touches door d1
    assert cells_threat(s, "me", enemies, [at_door]) == [cell_threat(s, "me", enemies, *at_door)]


def test_batched_threat_on_the_warehouse_with_many_bots():  # D15 R22 R38 R47
    s = warehouse(16)
    viewer = next(iter(s.bots))
    points = grid_points(s, 3.0)
    assert batched(s, viewer, points) == per_line(s, viewer, points)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 12))
def test_batched_threat_equals_per_line_on_random_tables(seed, n):  # D15 R22 R38
    s = warehouse(n, seed)
    rng = random.Random(seed)
    points = [(rng.uniform(0, s.arena.size[0]), rng.uniform(0, s.arena.size[1]))
              for _ in range(40)]
    for viewer in list(s.bots)[:2]:
        assert batched(s, viewer, points) == per_line(s, viewer, points)


def test_threat_map_fills_within_its_budget_coarse_first():
    s = warehouse(32)
    tm = threat_map(s, next(iter(s.bots)))
    frames = 0
    while not tm.done:
        tm.fill(4.0)
        frames += 1
        if tm.cells and tm.cells[-1].size <= CELL_CM:
            assert tm.coarse_done
    sizes = [c.size for c in tm.cells]
    assert sizes == sorted(sizes, reverse=True)          # every coarse cell before a fine one
    assert frames > 1
    c = tm.cells[-1]
    assert tm.at(c.x, c.y) is c


# --- the arena's texts go through the label pass -------------------------------------------

def test_arena_texts_are_placed_with_the_bot_labels_without_overlaps():
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.viewmodel.labels import arena_texts, rect_meets_disc, rects_overlap

    pygame.display.init()
    pygame.font.init()
    rules = bundled_rules()
    a = load_arena(arenas_dir() / "warehouse.yaml", rules)
    texts_wanted = {t.key for t in arena_texts(a)}
    s = warehouse(24, 5)
    app = TableApp(Game(s), (1920, 1080))
    app.step(0.0)
    labels = app.vm.labels
    keys = {lb.key for lb in labels}
    assert texts_wanted and texts_wanted <= keys                  # every feature text placed
    assert any(k in s.bots for k in keys)                         # beside the bots' names
    rects = [lb.rect for lb in labels]
    for i, r in enumerate(rects):
        for other in rects[i + 1:]:
            assert not rects_overlap(r, other)
    for b in s.live_bots():
        cx, cy = app.windows.camera.to_px(b.x, b.y)
        for r in rects:
            assert not rect_meets_disc(r, (cx, cy, app.windows.camera.length(b.radius)))
