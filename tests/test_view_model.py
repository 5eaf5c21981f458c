"""The view model (bottisota.viewmodel), tested without a screen: the words for every
event the core emits, label placement, text sizes, colours, guidance, confirmations,
the log across undo and resume, results on the table, the calibration file, the
journal created with the first action, and `bottisota` with no display."""
from __future__ import annotations

import ast
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bottisota
from bottisota.core.actions import Forward, Move, Pass, Place
from bottisota.engine.game import Game
from bottisota.engine.turns import turn_event
from bottisota.play.journal import load
from bottisota.view import style
from bottisota.view.app import TableApp
from bottisota.viewmodel import calibration_store as cs
from bottisota.viewmodel.guidance import danger, shooting_options
from bottisota.viewmodel.labels import (
    LabelWish,
    place_labels,
    place_labels_plainly,
    rect_meets_disc,
    rects_overlap,
)
from bottisota.viewmodel.log import GameLog
from bottisota.viewmodel.results import effects_of
from bottisota.viewmodel.session import LazyJournal, build_game, new_journal_path, robot_seats
from bottisota.viewmodel.sizes import CAP_PER_SIZE, TABLE_LABEL_CM, cap_height_cm, text_sizes
from bottisota.viewmodel.words import EVENT_WORDS, describe
from tests.builders import arena, bot, card, state, weapon

CORE = Path(bottisota.__file__).parent
CORE_PACKAGES = ("core", "engine", "play", "robot", "geometry")   # formats: schema "type"s


def core_event_types() -> set[str]:
    """Every event type the core can emit: `"type": "<kind>"` in a dict it builds."""
    kinds: set[str] = set()
    for pkg in CORE_PACKAGES:
        for path in (CORE / pkg).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Dict):
                    for k, v in zip(node.keys, node.values, strict=True):
                        if (isinstance(k, ast.Constant) and k.value == "type"
                                and isinstance(v, ast.Constant) and isinstance(v.value, str)):
                            kinds.add(v.value)
    kinds.update({"crash", "collision"})          # built as "crash" if crash else "collision"
    return kinds


def test_every_event_type_the_core_emits_has_words():
    kinds = core_event_types()
    assert len(kinds) > 50
    missing = sorted(k for k in kinds if k not in EVENT_WORDS)
    assert not missing, f"event types without words: {missing}"


def test_hits_read_the_amount_the_event_carries():
    text = describe({"type": "hits", "bot": "red-2", "amount": 2, "cause": "Gun"})
    assert text == "red-2 takes 2 hits (Gun)"


def test_words_for_real_games_never_show_a_question_mark_or_a_dict():
    seen: set[str] = set()
    for seed in (1, 2, 3):
        game, _ = build_game("warehouse", ["red", "blue"], seed, None, None)
        robots = robot_seats(["red", "blue"], ["red", "blue"], game)
        events = list(game.start_events)
        for _ in range(60):
            if game.expected() == "over":
                break
            bot = game.active_bot()
            action = robots[bot.player].decide(game)
            notes = robots[bot.player].take_events()
            res = game.act(action, notes)
            if res.refusal is not None:
                res = game.act(Pass(bot.id))
            events += res.events
        for e in events:
            text = describe(e)
            seen.add(e["type"])
            assert "?" not in text and "{" not in text and "[[" not in text, (e, text)
            assert not text.startswith(e["type"].replace("_", " ") + ":"), (e, text)
    assert {"to_hit", "bot_moved", "turn"} <= seen


# --- labels -------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(50, 750), st.floats(50, 550)), min_size=2, max_size=30))
def test_placed_labels_never_overlap_each_other_or_a_bot(points):
    discs = [(x, y, 12.0) for x, y in points]
    wishes = [LabelWish(f"bot{i} 4+ 50%", (90, 20), (x, y), 4, "plain", f"b{i}")
              for i, (x, y) in enumerate(points)]
    placed, left_out = place_labels(wishes, discs, (0, 0, 800, 600), {f"b{i}": 12.0
                                                                      for i in range(len(points))})
    assert len(placed) + left_out == len(wishes)
    for i, a in enumerate(placed):
        assert 0 <= a.rect[0] and a.rect[0] + a.rect[2] <= 800
        for b in placed[i + 1:]:
            assert not rects_overlap(a.rect, b.rect)
        for d in discs:
            assert not rect_meets_disc(a.rect, d)


def test_a_crowded_label_moves_away_with_a_leader_line():
    discs = [(100.0, 100.0, 10.0), (125.0, 100.0, 10.0), (100.0, 125.0, 10.0)]
    wishes = [LabelWish(t, (80, 18), (d[0], d[1]), 4, "plain", t) for t, d in
              zip(("a", "b", "c"), discs, strict=True)] + [
                  LabelWish("blocked by wall 'crate'", (160, 18), (110, 110), 4, "alarm", "x")]
    placed, left_out = place_labels(wishes, discs, (0, 0, 400, 400))
    assert left_out == 0 and any(p.leader for p in placed)


def test_the_table_view_places_its_labels_without_overlaps():
    from bottisota.view.screenshots import screenshot_game

    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1920, 1080))
    app.actions.choose_weapon(1)
    app.vm.aim = "s1"
    app.update(0.0)
    app.draw()
    texts = [lb.text for lb in app.vm.labels]
    assert "no sight: door 'bay-door'" in texts                  # why not, in words
    assert not any("%" in t for t in texts if t.startswith("no sight"))
    rects = [lb.rect for lb in app.vm.labels]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not rects_overlap(a, b)


# --- sizes and colours ----------------------------------------------------------------------

def test_font_metrics_match_the_size_model():
    pygame.font.init()
    for size in (20, 40, 80):
        cap = pygame.font.Font(None, size).metrics("H")[0][3]
        assert cap >= CAP_PER_SIZE * size - 0.5          # the model never over-states a capital


def test_table_labels_are_at_least_8_mm_tall_at_true_scale():
    for px_per_cm in (8.0, 12.8, 25.6, 40.0):                   # 1080p to 4K projectors
        sizes = text_sizes(px_per_cm, (1920, 1080))
        assert cap_height_cm(sizes.table, px_per_cm) >= TABLE_LABEL_CM - 1e-9


def test_panel_text_scales_with_the_window_and_the_ui_scale():
    small, big = text_sizes(10, (800, 600)), text_sizes(10, (3840, 2160))
    assert big.panel >= 2 * small.panel - 2
    assert text_sizes(10, (1920, 1080), 1.5).panel > text_sizes(10, (1920, 1080)).panel


def _lab(c):
    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    r, g, b = (((v / 255 + 0.055) / 1.055) ** 2.4 if v / 255 > 0.04045 else v / 255 / 12.92
               for v in c)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def test_goal_blast_spray_and_ui_colours_collide_with_no_player_colour():
    ui = {"goal": style.FEATURE_FILL["goal"], "blast": style.BLAST, "spray": style.CORRIDOR,
          "refusal": style.REFUSAL, "ghost": style.GHOST, "legal": style.LEGAL}
    for name, c in ui.items():
        for p, pc in style.OKABE_ITO.items():
            assert math.dist(_lab(c), _lab(pc)) > 20, (name, p)


def test_every_text_tone_reads_4_5_to_1_on_labels_and_the_panel():
    for name, c in style.TONES.items():
        assert style.contrast(c, style.LABEL_BACK) >= 4.5, name
        assert style.contrast(c, style.PANEL) >= 4.5, name


def test_players_have_distinct_shapes():
    players = ["red", "blue", "orange", "sky", "green", "purple", "yellow"]
    marks = [style.seat_mark(players, p) for p in players]
    assert len(set(marks)) == len(players)


# --- guidance and confirmations ---------------------------------------------------------------

def duel(round_=2, phase="shoot", **kw) -> Game:
    s = state(arena({"type": "pit", "rect": [20, 25, 30, 35], "id": "hole"}),
              bot("a", "red", (10, 30), 90, card(locomotion="wheeled", move=12, turn=3,
                                                  weapons=[weapon()])),
              bot("b", "blue", (30, 20), 270, card(weapons=[weapon()])),
              round=round_, dice=[6] * 20)
    turn_event(s, s.bots["a"], phase)
    return Game(s)


def test_round_one_says_no_shooting_with_the_rule_and_that_p_passes():  # R7
    game = duel(round_=1)
    opts = shooting_options(game, "a", "reload")
    assert opts[0].name == "Fire" and "R7" in opts[0].why_not
    app = TableApp(game, (1280, 800))
    app.update(0.0)
    app.draw()
    head = app.frame.panel_input().headline
    assert "R7" in head and "P passes" in head
    app.actions.fire()
    assert "R7" in app.vm.message[0]


def test_a_move_into_a_pit_needs_a_second_enter():  # R42
    game = duel(phase="move")
    app = TableApp(game, (1280, 800))
    app.vm.plan.forward(12.0)
    pv = app.actions.move_preview()
    assert danger(pv, game.state.bots["a"]) is not None
    app.actions.commit_move()
    assert game.history == [] and app.vm.confirm is not None
    assert "Enter again" in app.vm.message[0]
    app.actions.commit_move()
    assert len(game.history) == 1 and game.state.bots["a"].destroyed


def test_the_turn_strip_and_snapshot_are_plain_data():
    game = duel()
    app = TableApp(game, (1280, 800))
    snap = app.vm.snapshot(game)
    json.dumps(snap)
    assert snap["turn"]["line"] == "Round 2 - red to shoot (a)"
    assert [s["player"] for s in snap["turn"]["seats"]] == ["red", "blue"]


# --- the log, results --------------------------------------------------------------------------

def test_undo_strikes_the_undone_lines_and_redo_restores_them():
    game = duel(phase="move")
    app = TableApp(game, (1280, 800))
    app.act(Move("a", (Forward(2.0),)))
    moved = [ln for ln in app.vm.log.lines if ln.entry == 1]
    assert moved and not any(ln.undone for ln in moved)
    app.actions.undo()
    assert all(ln.undone for ln in app.vm.log.lines if ln.entry == 1)
    app.actions.redo()
    assert not any(ln.undone for ln in app.vm.log.lines if ln.entry == 1)


def test_a_resumed_log_holds_the_game_and_shows_the_latest_turn():
    game, _ = build_game("duel", ["red", "blue"], 5, None, None)
    log = GameLog.of_game(game)
    assert log.lines and log.scroll == 0
    assert log.visible(3) == log.lines[-3:]


def test_a_shot_shows_its_dice_and_damage_on_the_table():
    game = duel()
    app = TableApp(game, (1280, 800))
    app.actions.choose_weapon(1)
    app.actions.toggle_order("b")
    app.actions.fire()
    texts = [e.text for e in app.vm.effects.items]
    assert any(t.startswith("b: HIT 6") for t in texts)
    assert any("structure" in t for t in texts) or any("armour holds" in t for t in texts)


def test_no_label_is_placed_over_a_banner(monkeypatch):
    # results' markers and names go around the banners over the table, not under them
    import bottisota.view.table_painter as painter
    from bottisota.viewmodel.results import BANNER, MARK, Effect

    boxes: list = []
    real = painter.draw_effects

    def recorded(*args, **kw):
        boxes[:] = real(*args, **kw)
        return boxes

    monkeypatch.setattr(painter, "draw_effects", recorded)
    pygame.display.init()
    game = duel()
    app = TableApp(game, (1280, 800))
    app.actions.choose_weapon(1)
    app.actions.toggle_order("b")
    app.actions.fire()
    app.vm.effects.add([Effect(BANNER, "a banner as wide as the table " * 3)])
    app.step()
    (box,) = boxes
    for k in range(5):                            # markers right under the banner
        at = app.windows.camera.to_cm(box.x + box.w * (k + 1) / 6, box.centery)
        app.vm.effects.add([Effect(MARK, f"marker {k}", at=at, tone="bad")])
    app.step()
    assert [b.topleft for b in boxes] == [box.topleft]
    assert {f"marker {k}" for k in range(5)} <= {label.text for label in app.vm.labels}
    for label in app.vm.labels:
        x, y, w, h = label.rect
        for box in boxes:
            assert not (x < box.right and box.left < x + w and y < box.bottom and box.top < y + h)


def test_effects_give_a_winner_screen_at_game_over():
    fx = effects_of([{"type": "game_over", "winners": ["red"], "reason": "last player",
                      "scores": {"red": 3, "blue": 0}}], duel().state)
    assert fx[0].kind == "winner" and "red wins" in fx[0].text and "?" not in fx[0].text


# --- the calibration file ------------------------------------------------------------------------

def test_calibration_is_saved_atomically_per_display_and_both_axes(tmp_path):
    path = tmp_path / "displays.json"
    cs.save_calibration("display0-1920x1080", cs.Calibration(12.5, 12.6), path)
    cs.save_calibration("display1-1280x720", cs.Calibration(20.0, 20.0), path)
    loaded = cs.read_calibrations(path)
    assert loaded.displays["display0-1920x1080"] == cs.Calibration(12.5, 12.6)
    assert loaded.displays["display1-1280x720"].y == 20.0
    assert not list(tmp_path.glob(".displays-*"))            # no temporary file left


@pytest.mark.parametrize("text", [
    '{"display0": {"px_per_cm": 1e308}}', '{"display0": {"px_per_cm": Infinity}}',
    '{"display0": {"px_per_cm": NaN}}', "[" * 25000 + "]" * 25000, '{"display0": ',
    '"just a string"', '{"display0": {"px_per_cm_x": -3, "px_per_cm_y": 10}}',
])
def test_a_hostile_calibration_file_is_ignored_with_a_message(tmp_path, text):
    path = tmp_path / "displays.json"
    path.write_text(text, encoding="utf-8")
    loaded = cs.read_calibrations(path)
    assert loaded.displays == {} and loaded.messages


def test_a_bad_entry_never_loses_the_other_displays(tmp_path):
    path = tmp_path / "displays.json"
    path.write_text('{"display0-a": {"px_per_cm": 1e308}, "display1-b": {"px_per_cm": 15}}',
                    encoding="utf-8")
    cs.save_calibration("display2-c", cs.Calibration(9.0, 9.0), path)
    data = json.loads(path.read_text(encoding="utf-8"))["displays"]
    assert set(data) == {"display1-b", "display2-c"}


def test_an_unreadable_calibration_file_is_kept_aside_when_saving(tmp_path):
    path = tmp_path / "displays.json"
    path.write_text("{not json", encoding="utf-8")
    cs.save_calibration("display0", cs.Calibration(9.0, 9.0), path)
    assert (tmp_path / "displays.json.bad").read_text(encoding="utf-8") == "{not json"


def test_a_calibration_that_does_not_fit_offers_fit_to_window():
    game = duel()
    app = TableApp(game, (800, 600), calibration=cs.Calibration(40.0, 40.0))
    app.vm.true_scale = True
    app.windows.camera = app.windows.fit_camera()
    assert "F3 fits it" in app.vm.message[0]


# --- journals and the command ---------------------------------------------------------------------


def test_the_journal_file_appears_with_the_first_action(tmp_path):
    path = new_journal_path(tmp_path)
    game, _ = build_game("duel", ["red", "blue"], 7, None, path)
    assert isinstance(game.journal, LazyJournal) and not path.exists()
    bot = game.active_bot()
    spot = next((x, y) for x in range(5, 60, 3) for y in range(5, 40, 3)
                if game.legal(Place(bot.id, x, y, 0.0)) is None)
    assert game.act(Place(bot.id, *spot, 0.0)).ok
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and '"seed":7' in lines[0]
    assert load(path).state.bots[bot.id].pos == game.state.bots[bot.id].pos


def test_journal_names_never_collide(tmp_path):
    first = new_journal_path(tmp_path)
    first.write_text("x", encoding="utf-8")
    assert new_journal_path(tmp_path) != first


def test_with_no_display_bottisota_says_so_and_exits_2():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    # within 5 s on a machine to itself; a shared machine's load stretches every wall clock
    # alike (a hang would not finish at all: the timeout)
    limit = 5.0 * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "bottisota"], env=env, capture_output=True,
                         text=True, timeout=30)
    assert time.monotonic() - started < limit
    assert out.returncode == 2 and "no display" in out.stderr and "--headless" in out.stderr
    assert "Traceback" not in out.stderr


def test_headless_play_runs_robot_seats_to_a_stop(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path))
    shot = tmp_path / "end.png"
    out = subprocess.run([sys.executable, "-m", "bottisota", "play", "duel", "--headless",
                          "--robot", "red,blue", "--seed", "3", "--frames", "12",
                          "--screenshot", str(shot)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Round ") and shot.exists()
    assert list((tmp_path / "bottisota" / "games").glob("game-*.jsonl"))


def test_f11_where_full_screen_fails_keeps_the_window_and_says_so(monkeypatch):
    pygame.display.init()
    screen = pygame.display.set_mode((640, 480))
    app = TableApp(duel(), (640, 480), screen=screen)

    def fail():
        raise pygame.error("no full screen on this driver")

    monkeypatch.setattr(pygame.display, "toggle_fullscreen", fail)
    app.windows.toggle_fullscreen()
    assert "full screen is not available" in app.vm.message[0]


def test_true_scale_uses_both_axes_of_the_calibration():
    from bottisota.view.camera import Camera

    cam = Camera.centred((60.0, 40.0), (1000, 800), 10.0, 1.1)      # 10 px/cm across, 11 up
    (x0, y0), (x1, y1) = cam.to_px(0, 0), cam.to_px(10, 10)
    assert x1 - x0 == pytest.approx(100.0) and y0 - y1 == pytest.approx(110.0)
    assert cam.to_cm(*cam.to_px(12.5, 7.5)) == pytest.approx((12.5, 7.5))
    game = duel()
    app = TableApp(game, (1600, 900), calibration=cs.Calibration(10.0, 11.0))
    app.vm.true_scale = True
    app.windows.camera = app.windows.fit_camera()
    assert app.windows.camera.scale == 10.0 and app.windows.camera.scale_y == pytest.approx(11.0)


def _key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_tab_docks_then_hides_the_panel_and_the_table_takes_the_window():
    pygame.display.init()
    app = TableApp(duel(), (1600, 900))
    assert app.windows.panel_rect is not None and app.windows.table_area.w < 1600
    _key(pygame.K_TAB)
    app.step()
    area = app.windows.table_area
    assert app.vm.panel == "bottom" and area.h < 900 and area.w == 1600
    _key(pygame.K_TAB)
    app.step()
    assert app.vm.panel == "hidden" and app.windows.table_area == pygame.Rect(0, 0, 1600, 900)


def test_f4_steps_the_ui_scale_and_the_panel_text_grows():
    pygame.display.init()
    app = TableApp(duel(), (1600, 900))
    before = app.windows.sizes().panel
    _key(pygame.K_F4)
    app.step()
    assert app.vm.ui_scale > 1.0 and app.windows.sizes().panel > before


def test_robot_seats_wait_their_pace_and_n_skips_it():
    pygame.display.init()
    game, _ = build_game("duel", ["red", "blue"], 11, None, None)
    app = TableApp(game, (1000, 700), robots=robot_seats(["red", "blue"], ["red", "blue"], game),
                   robot_pace=5.0)
    app.step()
    assert game.history == []                # the first frame shows the table first
    app.step()
    assert len(game.history) == 1            # then the first robot acts at once
    for _ in range(5):
        app.step()
    assert len(game.history) == 1            # then waits its pace, results showing
    _key(pygame.K_n)
    app.step()
    assert len(game.history) == 2


def test_the_projector_shows_the_table_alone_and_the_laptop_keeps_the_panel():
    from bottisota.view.projector import ProjectorWindow

    pygame.display.init()
    app = TableApp(duel(), (1280, 800))
    app.windows.projector = ProjectorWindow((1920, 1080), cs.Calibration(12.8, 12.8))
    app.vm.panel = "hidden"                   # hidden on one screen; with two, the laptop keeps it
    app.windows.camera = app.windows.fit_camera()
    assert app.windows.panel_rect is not None
    app.step()
    cam = app.windows.projector.camera
    assert cam.scale == 12.8                  # true scale on the projector
    right = app.windows.projector.surface.get_at((1919, 540))[:3]
    assert tuple(right) != style.PANEL


def test_full_screen_that_fails_at_start_falls_back_to_a_window_with_a_message(monkeypatch):
    from bottisota.commands import play

    pygame.display.init()
    real = pygame.display.set_mode

    def no_full_screen(size, flags=0, *a, **kw):
        if flags & pygame.FULLSCREEN:
            raise pygame.error("this driver cannot go full screen")
        return real(size, flags, *a, **kw)

    monkeypatch.setattr(pygame.display, "set_mode", no_full_screen)
    screen, note = play._open_window((800, 600), True)
    assert screen.get_size() == (800, 600) and "full screen is not available" in note


def test_with_a_projector_open_f2_calibrates_the_projector_display():
    from bottisota.view.projector import ProjectorWindow

    pygame.display.init()
    saved = {}
    app = TableApp(duel(), (1280, 800))
    app.windows.projector = ProjectorWindow((1920, 1080), None)
    app.windows.calibration_key = lambda: "display1-1920x1080"
    app.windows.calibration_saver = lambda key, cal: saved.setdefault(key, cal)
    _key(pygame.K_F2)
    app.step()
    assert app.calibration is not None
    for k in (pygame.K_RETURN, pygame.K_RETURN):
        _key(k)
    app.step()
    assert "display1-1920x1080" in saved and app.windows.projector.calibration is not None
    assert app.windows.calibration_value is None           # the laptop's own scale is untouched
    app.step()
    assert app.windows.projector.camera.scale == pytest.approx(saved["display1-1920x1080"].x)


def test_a_game_without_a_journal_shows_no_journal_line():
    app = TableApp(duel(), (1280, 800))      # no journal: nothing to name
    app.update(0.0)
    app.draw()
    assert app.frame.panel_input().journal == ""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 800), st.floats(0, 600), st.floats(5, 160),
                          st.floats(5, 40), st.floats(0, 30)), min_size=1, max_size=60),
       st.lists(st.tuples(st.floats(0, 800), st.floats(0, 600), st.floats(1, 40)), max_size=40),
       st.lists(st.tuples(st.floats(0, 800), st.floats(0, 600), st.floats(1, 200),
                          st.floats(1, 60)), max_size=3))
def test_flat_label_placement_equals_the_plain_one(labels, discs, taken):
    """The flat placement pass (run in the frame that shows new labels) places every
    label exactly where the plain, shape-by-shape pass does."""
    wishes = [LabelWish(f"l{i}", (w, h), (x, y), key=f"k{i}")
              for i, (x, y, w, h, _r) in enumerate(labels)]
    radii = {f"k{i}": r for i, (*_xywh, r) in enumerate(labels)}
    args = (wishes, discs, (0.0, 0.0, 800.0, 600.0), radii, taken)
    assert place_labels(*args) == place_labels_plainly(*args)
