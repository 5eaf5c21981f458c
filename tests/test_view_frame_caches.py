"""The view's frame caches change nothing that is shown: the same frames, pixel for
pixel, with the caches and with them emptied before every frame; the words under a
pre-measure's targets are the core's answer in the language spoken now."""
from __future__ import annotations

import json

import pygame
import pytest

from bottisota.core.i18n import set_language
from bottisota.view import premeasure_overlay
from bottisota.view.app import TableApp
from bottisota.view.premeasure_overlay import target_texts
from bottisota.view.projector import ProjectorWindow
from bottisota.view.screenshots import screenshot_game
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.targets import target_words, verdict
from bottisota.web.protocol import parse
from tests.test_web_table import advance, new_game, table_and_phones

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


def two_windows() -> TableApp:
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800), robot_pace=0.0)
    app.windows.projector = ProjectorWindow((1600, 900), Calibration(12.8, 12.8))
    app.step(0.0)
    app.actions.choose_weapon(1)
    return app


def frames(app: TableApp, count: int, empty_caches: bool) -> list[tuple[bytes, bytes]]:
    """`count` frames of both windows (the mouse over a target from the second on)."""
    out = []
    for i in range(count):
        if empty_caches:
            premeasure_overlay._words.clear()
        if i == 1:
            app.controls.mouse = app.windows.camera.to_px(62.0, 22.0)   # s1: its sight line shown
        app.step(1.0 / 60.0)
        out.append((pygame.image.tobytes(app.windows.surface, "RGB"),
                    pygame.image.tobytes(app.windows.projector.surface, "RGB")))
    return out


def test_both_windows_show_the_same_pixels_with_and_without_the_word_cache():
    cached = frames(two_windows(), 4, empty_caches=False)
    fresh = frames(two_windows(), 4, empty_caches=True)
    assert len(cached) == len(fresh) == 4
    for (laptop_a, projector_a), (laptop_b, projector_b) in zip(cached, fresh, strict=True):
        assert laptop_a == laptop_b
        assert projector_a == projector_b


def test_target_words_are_the_cores_answer_and_follow_the_language():  # R19 R22 D14
    app = two_windows()
    pm = app.actions.premeasure()
    assert pm is not None and pm.targets
    try:
        for lang in ("en", "fi", "en"):
            set_language(lang)
            texts = target_texts(pm)
            assert texts is target_texts(pm)                 # worked out once
            for t in pm.targets:
                tone = "clear" if t.can_fire else "dim" if verdict(t) == "arc" else "alarm"
                assert texts[t.bot] == (target_words(t, pm), tone)
        set_language("fi")
        fi = target_texts(pm)
        set_language("en")
        en = target_texts(pm)
        far = next((t for t in pm.targets if t.distance % 1), None)
        if far is not None and far.can_fire:                 # a decimal comma in Finnish
            assert fi[far.bot][0] != en[far.bot][0]
    finally:
        set_language("en")


def test_a_seat_dragging_its_plan_has_only_its_own_plan_measured_again(video):
    game = advance(new_game())
    app, hub, _client = table_and_phones(game)
    app.vm.panel = "hidden"
    app.windows.camera = app.windows.fit_camera()
    app.phones.show_links = False
    seats = {"red": "red-1", "table": "blue-1"}
    for seat, bot in seats.items():
        hub.handle(hub.seats[seat], parse('{"type": "show", "on": true}'))
        hub.handle(hub.seats[seat], parse(json.dumps(
            {"type": "plan", "bot": bot, "steps": [{"forward": 1.5}]})))
    first = {seat: pv for seat, _pm, _focus, pv in app.phones.shared(game)}
    assert set(first) == set(seats) and all(pv is not None for pv in first.values())
    hub.handle(hub.seats["red"], parse(
        '{"type": "plan", "bot": "red-1", "steps": [{"forward": 2.0}]}'))
    second = {seat: pv for seat, _pm, _focus, pv in app.phones.shared(game)}
    assert second["table"] is first["table"]            # unchanged: not measured again
    assert second["red"] is not first["red"]
    assert second["red"].move.steps != first["red"].move.steps
    cached = pygame.image.tobytes(app.phones.frame(app, 0.0), "RGB")
    app.phones._seats.clear()                            # every seat measured afresh
    app.phones._work = None
    assert pygame.image.tobytes(app.phones.frame(app, 0.0), "RGB") == cached


def test_threat_shading_baked_cell_by_cell_equals_the_whole_shading_blitted():
    """A new threat map's first cells are shaded one by one into the cached layer (no
    blit of the whole table's shading): the same pixels as blitting the whole shading
    over the clean layer, when switched on, while filling and for a map made anew."""
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "move"), (1280, 800), robot_pace=0.0)
    app.step(0.0)
    for _round in range(2):
        app.frame.threat = None                     # as after a change of the state: a new map
        app.vm.threat_on = True
        for _frame in range(4):
            app.step(1.0 / 60.0)
            key, base, clean = app.windows.layers.base
            shading = app.windows.layers.threat._surface
            assert shading is not None
            expected = clean.copy()
            tw, th = app.state.arena.size
            local = app.windows.camera.moved(key[3])
            left, bottom = local.to_px(0, 0)
            expected.blit(shading, (round(left), round(bottom - shading.get_height())))
            assert pygame.image.tobytes(base, "RGB") == pygame.image.tobytes(expected, "RGB")
        assert app.frame.threat.cells
        app.vm.threat_on = False
        app.step(1.0 / 60.0)


def belt_game():
    """The warehouse with bots on its belt (under the chevrons) and around it."""
    from bottisota.engine.game import Game
    from bottisota.engine.setup import new_state
    from bottisota.engine.turns import turn_event
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import bundled_rules, load_arena

    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "warehouse.yaml", rules)
    spots = [(10.0, 20.0), (18.0, 20.0), (30.0, 27.0), (24.0, 26.0), (60.0, 30.0), (70.0, 50.0)]
    bots = [{"id": f"b{i}", "player": ("red", "blue")[i % 2],
             "card": ("artillery", "scout", "hunter")[i % 3], "at": list(at),
             "facing": (i * 70) % 360} for i, at in enumerate(spots)]
    state = new_state(arena, rules, bots, dice=1, round=2)
    turn_event(state, state.bots["b0"], "shoot")
    return Game(state)


def projector_frames(keep: bool) -> list[bytes]:
    """The projector's frames through hovering, a weapon, the threat view and a pan."""
    pygame.font.init()
    app = TableApp(belt_game(), (1280, 800), robot_pace=0.0)
    app.frame.sprite_budget_ms = None
    app.frame.keep_frames = keep
    app.windows.projector = ProjectorWindow((1600, 900), Calibration(12.8, 12.8))
    out = []

    def frames(n: int) -> None:
        for _i in range(n):
            app.step(1.0 / 60.0)
            out.append(pygame.image.tobytes(app.windows.projector.surface, "RGB"))

    frames(6)
    app.actions.choose_weapon(1)
    frames(5)
    # over b1, on the belt
    app.controls.mouse = tuple(round(v) for v in app.windows.camera.to_px(18.0, 20.0))
    frames(5)
    app.vm.threat_on = True
    # as many frames as the clock gives,
    while (app.frame.threat is None or not app.frame.threat.done
           # all shaded
           or app.windows.projector.layers.threat.painted < len(app.frame.threat.cells)):
        app.step(1.0 / 60.0)
    app.frame._belt_phase = 0.25                     # both runs on: the belts where they were
    frames(5)
    app.vm.threat_on = False
    app.actions.choose_weapon(1)
    projector = app.windows.projector
    projector.camera = projector.camera_for(app.state.arena.size).panned(40, -25)
    frames(6)
    return out


def test_the_projector_keeps_or_repaints_its_belts_with_the_same_pixels():
    """The projector window keeps pixels that would not change and paints only the
    belts' regions again while only their chevrons move (bots on the belt, labels and
    lines over it drawn again there): the same frames as painting every frame whole."""
    kept = projector_frames(keep=True)
    whole = projector_frames(keep=False)
    assert len(kept) == len(whole)
    assert len(set(kept)) > 5                  # the chevrons move, the picture changes
    for i, (a, b) in enumerate(zip(kept, whole, strict=True)):
        assert a == b, f"frame {i} differs"


def test_a_new_premeasure_is_baked_over_the_old_ones_pixels_taken_back():
    """Choosing another weapon or bot takes back only the old arc's and rings' pixels
    from the arena layer before baking the new ones: the same pixels as a fresh copy
    of the layer with the new pre-measure baked in."""
    from bottisota.view.premeasure_overlay import draw_arc_fill, draw_target_rings

    pygame.font.init()
    app = TableApp(belt_game(), (1280, 800), robot_pace=0.0)
    app.step(0.0)
    shooter = app.active_bot()
    checked = 0
    for weapon, selected in ((1, shooter.id), (2, shooter.id), (1, "b2"), (1, shooter.id)):
        app.vm.selected, app.vm.weapon = selected, None
        app.actions.choose_weapon(weapon)
        app.step(1.0 / 60.0)
        pm = app.actions.premeasure()
        if pm is None:
            continue
        key, _base, clean = app.windows.layers.base
        layer = app.windows.layers.clean_of[1]
        expected = layer.copy()
        local = app.windows.camera.moved(key[3])
        draw_arc_fill(expected, local, app.state.bots[pm.bot], pm)
        draw_target_rings(expected, local, app.state, pm)
        assert pygame.image.tobytes(clean, "RGB") == pygame.image.tobytes(expected, "RGB")
        checked += 1
    assert checked >= 3


def test_arena_layers_drawn_again_reuse_their_surfaces_with_the_same_pixels():
    """A layer drawn again (a settled zoom, a pan past its edge) reuses its surfaces
    (the layer before, the grid's translucent layer, the zoomed view's): the same
    pixels as the arena drawn afresh on a new surface."""
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import bundled_rules, load_arena
    from bottisota.view.arena_layer import ArenaLayer
    from bottisota.view.camera import Camera

    arena = load_arena(arenas_dir() / "warehouse.yaml", bundled_rules())
    layer = ArenaLayer(arena)
    size = (1280, 800)
    cam = Camera.fit(arena.size, size)
    layer.surface(cam, size)
    for factor in (1.15, 1.15, 1 / 1.15, 1.3):
        cam = cam.zoomed(factor, (500, 400))
        layer.surface(cam, size, settled=False)              # shown scaled while zooming
        while True:
            shown, at = layer.surface(cam, size, settled=True, budget_ms=1.0)
            if layer._next is None and abs(layer._scale - cam.scale) < 1e-9:
                break
        fresh, fresh_at = ArenaLayer(arena).surface(cam, size)   # a new layer, drawn at once
        assert at == fresh_at
        assert pygame.image.tobytes(shown, "RGB") == pygame.image.tobytes(fresh, "RGB")


def threat_switched_on(spare: bool) -> tuple[TableApp, bytes]:
    """The laptop's frames before and after the threat view is switched on, with the
    shading's surface made ahead (in the light frames before) or not."""
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "move"), (1280, 800), robot_pace=0.0)
    app.spare_budget_ms = 1e9                # every frame counts as light (a loaded machine)
    for _frame in range(10):
        app.step(0.0)
    made = app.windows.layers.threat._spare
    assert made is not None                  # made ahead by a light frame, transparent
    if not spare:
        app.windows.layers.threat._spare = None
    app.vm.threat_on = True
    app.frame.threat = None
    app.step(0.0)
    if spare:
        shading = app.windows.layers.threat
        assert shading._surface is made and shading._spare is None
    else:
        assert app.windows.layers.threat._surface is not made
    for _frame in range(2000):                # the map filled (a budget of time a frame)
        if threat_shown(app):
            break
        app.step(0.0)
    app.step(0.0)
    return app, pygame.image.tobytes(app.windows.surface, "RGB")


def test_the_threat_shading_made_ahead_shows_the_same_pixels_as_one_made_on_switching():
    (_, ahead), (_, fresh) = threat_switched_on(spare=True), threat_switched_on(spare=False)
    assert ahead == fresh


def threat_filled(patch_px: int, monkeypatch) -> tuple[bytes, int]:
    """The laptop's pixels once the threat map is filled and all shaded, with at most
    `patch_px` pixels of new cells shaded a frame; and the most cells shaded a frame."""
    from bottisota.view import overlays

    monkeypatch.setattr(overlays, "PATCH_PX", patch_px)
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "move"), (1280, 800), robot_pace=0.0)
    app.step(0.0)
    app.vm.threat_on = True
    most = 0
    for _frame in range(2000):
        painted = app.windows.layers.threat.painted
        app.step(0.0)
        key, base, clean = app.windows.layers.base
        shading = app.windows.layers.threat._surface
        assert shading is not None
        if app.windows.layers.threat.painted > painted and painted:
            most = max(most, app.windows.layers.threat.painted - painted)
        expected = clean.copy()                     # what is shaded so far, exactly
        left, bottom = app.windows.camera.moved(key[3]).to_px(0, 0)
        expected.blit(shading, (round(left), round(bottom - shading.get_height())))
        assert pygame.image.tobytes(base, "RGB") == pygame.image.tobytes(expected, "RGB")
        if threat_shown(app):
            break
    assert threat_shown(app)
    app.step(0.0)
    return pygame.image.tobytes(app.windows.surface, "RGB"), most


def test_threat_cells_shaded_a_few_a_frame_end_as_all_at_once(monkeypatch):
    spread, most = threat_filled(1, monkeypatch)        # one cell a frame
    assert most == 1
    whole, _ = threat_filled(10**9, monkeypatch)
    assert spread == whole


def threat_shown(app):
    """The threat map is complete and the window's threat layer painted all of it."""
    threat = app.frame.threat
    return threat.done and app.windows.layers.threat.painted == len(threat.cells)
