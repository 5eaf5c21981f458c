"""The view's parts on their own: camera, move plan, calibration, threat map,
placing, physical dice, the designers' reload, the event words."""
from __future__ import annotations

import argparse

import pygame
import pytest

from bottisota.commands.play import configure_parser
from bottisota.core.actions import Back, Forward, Strafe, Turn
from bottisota.engine.game import Game
from bottisota.engine.turns import turn_event
from bottisota.view import calibration
from bottisota.view.app import TableApp
from bottisota.view.camera import Camera
from bottisota.view.help import help_lines
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.threat import threat_map
from bottisota.viewmodel.words import describe
from tests.builders import arena, bot, card, state, weapon

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


# --- camera ---------------------------------------------------------------------------

def test_camera_fit_centres_the_table_with_y_up():  # D1
    cam = Camera.fit((120.0, 90.0), (1248, 948), margin=24)
    assert cam.scale == pytest.approx(10.0)
    assert cam.to_px(0, 0) == pytest.approx((24.0, 924.0))       # lower-left corner
    assert cam.to_px(120, 90) == pytest.approx((1224.0, 24.0))   # upper-right corner
    assert cam.to_cm(*cam.to_px(33.33, 71.07)) == pytest.approx((33.33, 71.07))


def test_camera_zoom_keeps_the_point_under_the_mouse():
    cam = Camera.fit((60.0, 60.0), (800, 800))
    before = cam.to_cm(300, 200)
    zoomed = cam.zoomed(2.0, (300, 200))
    assert zoomed.scale == pytest.approx(cam.scale * 2)
    assert zoomed.to_cm(300, 200) == pytest.approx(before)


def test_true_scale_camera_draws_one_cm_as_the_calibrated_pixels():
    cam = Camera.centred((60.0, 60.0), (1000, 800), 37.8)
    a, b = cam.to_px(10.0, 10.0), cam.to_px(20.0, 10.0)
    assert b[0] - a[0] == pytest.approx(378.0)


# --- the move plan --------------------------------------------------------------------

def test_plan_merges_straight_steps_and_the_opposite_key_eats_into_them():
    plan = MovePlan("a")
    plan.forward(1.0)
    plan.forward(1.0)
    plan.forward(0.1)
    assert plan.steps == [Forward(2.1)]
    plan.forward(-0.6)
    assert plan.steps == [Forward(1.5)]
    plan.forward(-2.0)
    assert plan.steps == [Back(0.5)]


def test_plan_keeps_45_degree_turns_apart_but_merges_free_turns():  # R8 R10 R15
    plan = MovePlan("a")
    plan.turn(45.0)
    plan.turn(45.0)
    assert plan.steps == [Turn(45.0), Turn(45.0)]
    free = MovePlan("w")
    free.free_turn(15.0)
    free.free_turn(15.0)
    free.free_turn(-1.0)
    assert free.steps == [Turn(29.0)]


def test_a_dragged_step_joins_the_plan_when_released():
    plan = MovePlan("a")
    plan.forward(2.0)
    plan.drag_straight(3.456)
    assert plan.all_steps() == (Forward(2.0), Forward(3.46))
    plan.end_drag()
    assert plan.steps == [Forward(5.46)] and plan.tail is None
    plan.drag_strafe(90.0, 1.5)
    plan.end_drag()
    assert plan.steps[-1] == Strafe(90.0, 1.5)


# --- calibration ----------------------------------------------------------------------

def test_calibration_ruler_takes_both_axes_and_enter_gives_px_per_cm():
    screen = calibration.CalibrationScreen(10.0)              # 10 cm = 100 px
    for _ in range(3):
        screen.handle(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=pygame.KMOD_SHIFT),
            (800, 600),
        )
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0), (800, 600))
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0), (800, 600))
    assert not screen.done and screen.across == pytest.approx(12.9)   # 129 px over 10 cm
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=pygame.KMOD_SHIFT),
                  (800, 600))
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0), (800, 600))
    assert screen.done and screen.result.x == pytest.approx(12.9)
    assert screen.result.y == pytest.approx(11.9)


# --- threat view ----------------------------------------------------------------------

def threat_state():
    a = arena({"type": "wall", "rect": [38, 20, 4, 20]})
    return state(a, bot("me", "red", (10, 30), 90),
                 bot("foe", "blue", (30, 30), 270, card(weapons=[weapon()])))


def test_threat_counts_enemy_weapons_that_reach_each_cell():  # R18 R22
    tm = threat_map(threat_state(), "me")
    tm.fill(10_000)
    assert tm.done
    assert tm.at(10.0, 50.0).weapons == 1      # 28.3 cm from the foe, in the open
    assert tm.at(50.0, 30.0).weapons == 0      # behind the wall
    assert tm.at(70.0, 30.0).weapons == 0      # 40 cm: out of range


def test_threat_marks_cells_an_overwatcher_covers():  # R23
    s = threat_state()
    s.bots["foe"].overwatch = True
    tm = threat_map(s, "me")
    tm.fill(10_000)
    assert tm.at(10.0, 50.0).watchers == ("foe",)
    assert tm.at(50.0, 30.0).watchers == ()


# --- placing a drawn bot, physical dice -----------------------------------------------

def test_a_click_places_the_drawn_bot_where_the_core_allows():  # R6
    from bottisota.viewmodel.session import build_game

    game, _path = build_game("duel", ["red", "blue"], 5, None, None)
    assert game.expected() == "place"
    app = TableApp(game, (1200, 800))
    bot_id = game.state.active
    wall = app.windows.camera.to_px(30.0, 12.0)                     # on the south wall: refused
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN,
                                         pos=(round(wall[0]), round(wall[1])), button=1))
    app.step()
    assert game.expected() == "place" and app.vm.message[0].startswith("refused: R6")
    pos = app.windows.camera.to_px(20.0, 12.0)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(pos[0]), round(pos[1])), button=1)
    )
    app.step()
    placed = game.state.bots[bot_id]
    assert abs(placed.x - 20.0) <= 0.1 and abs(placed.y - 12.0) <= 0.1
    assert game.expected() == "move"


def test_physical_dice_are_typed_in_on_screen():  # D8
    screen = pygame.display.set_mode((800, 600))
    a = arena()
    s = state(a, bot("a", "red", (10, 30), 90), bot("b", "blue", (30, 30), 270))
    turn_event(s, s.bots["a"], "move")
    app = TableApp(Game(s), (800, 600), screen=screen)
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_9, mod=0, unicode="9", scancode=0)
    )
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_4, mod=0, unicode="4", scancode=0)
    )
    assert app.ask_die("to-hit: a's Gun vs b, needs 4+") == 4
    assert "die typed in: 4" in app.vm.log.lines[-1].text


# --- designers' reload ----------------------------------------------------------------

def test_edit_mode_shows_a_broken_arena_on_screen_and_reloads_a_fixed_one(tmp_path):
    from bottisota.view.edit_reload import EditReloader
    from bottisota.viewmodel.session import build_game

    path = tmp_path / "mine.yaml"
    path.write_text("name: Mine\nsize: [60, 40]\nfeatures: []\n", encoding="utf-8")
    game, _ = build_game(str(path), ["red", "blue"], 1, None, None)
    app = TableApp(game, (1000, 700))
    reloader = EditReloader(path, lambda: build_game(str(path), ["red", "blue"], 1, None, None)[0])
    path.write_text("name: Mine\nsize: [60, 40]\nfeatures:\n  - {type: wal, rect: [1, 1, 2, 2]}\n",
                    encoding="utf-8")
    assert reloader.poll(app, force=True) is False
    assert reloader.error is not None and "mine.yaml" in reloader.error
    assert any("mine.yaml" in text for text in (ln.text for ln in app.vm.log.lines))
    path.write_text("name: Mine\nsize: [80, 40]\nfeatures: []\n", encoding="utf-8")
    assert reloader.poll(app, force=True) is True
    assert app.game.state.arena.size == (80.0, 40.0)
    app.step()



def test_edit_reload_keeps_the_games_rules_file_and_sets(tmp_path):
    """--edit reloads with --rules FILE (read again) and --set, not the bundled rules."""
    from bottisota.commands.play import edit_loader, game_rules
    from bottisota.view.edit_reload import EditReloader
    from bottisota.viewmodel.session import build_game

    path = tmp_path / "mine.yaml"
    path.write_text("name: Mine\nsize: [60, 40]\nfeatures: []\n", encoding="utf-8")
    rules_path = tmp_path / "house.yaml"
    rules_path.write_text("belt_speed: 3\n", encoding="utf-8")
    p = argparse.ArgumentParser()
    configure_parser(p)
    args = p.parse_args([str(path), "--rules", str(rules_path), "--set", "round_limit=9",
                         "--edit"])
    args.house_rules = game_rules(args)
    game, _ = build_game(str(path), ["red", "blue"], 1, None, None, rules=args.house_rules)
    app = TableApp(game, (1000, 700))
    reloader = EditReloader(path, edit_loader(args, game, path), [rules_path])
    assert rules_path in reloader.watch.files()
    rules_path.write_text("belt_speed: 4\n", encoding="utf-8")     # the designer's edit
    assert reloader.poll(app, force=True) is True
    assert app.game.state.rules.belt_speed == 4.0       # the file read again
    assert app.game.state.rules.round_limit == 9        # --set kept

# --- words, help, command line ----------------------------------------------------------

def test_events_read_as_plain_words():
    assert describe({"type": "to_hit", "bot": "a", "weapon": "Gun", "target": "b", "roll": 3,
                     "mod": -1, "need": 4, "hit": False}) == \
        "a's Gun at b: rolled 3 -1, needs 4+ - miss"
    assert describe({"type": "teleported", "bot": "a", "to": "tp-east"}) == \
        "teleported: bot a; to tp-east"


def test_help_lists_the_keys_of_issue_6():
    text = "\n".join(help_lines())
    for key in ("F1", "F11", "Ctrl+Z", "Enter", "Esc", "Right drag", "T", "1-6"):
        assert key in text


def test_play_command_line_takes_every_option_of_issue_6():
    p = argparse.ArgumentParser()
    configure_parser(p)
    args = p.parse_args(["arenas/duel.yaml", "--players", "red,blue,green", "--robot", "blue",
                         "--seed", "7", "--physical-dice", "--fullscreen", "--resume", "g.jsonl",
                         "--edit"])
    assert (args.arena, args.players, args.robot, args.seed) == (
        "arenas/duel.yaml", "red,blue,green", ["blue"], 7)
    assert args.physical_dice and args.fullscreen and args.edit and args.resume == "g.jsonl"


def test_the_wheel_over_the_panel_scrolls_the_log():
    a = arena()
    s = state(a, bot("a", "red", (10, 30), 90), bot("b", "blue", (30, 30), 270))
    turn_event(s, s.bots["a"], "move")
    app = TableApp(Game(s), (1280, 800))
    for i in range(30):
        app.say(f"line {i}")
    app.controls.mouse = (1200, 400)                                  # over the panel
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    app.step()
    assert app.vm.log.scroll == 6
    app.controls.mouse = (300, 300)                                   # over the table: zoom instead
    scale = app.windows.camera.scale
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.step()
    assert app.vm.log.scroll == 6 and app.windows.camera.scale == pytest.approx(scale * 1.15)


def test_a_door_shows_open_while_a_bot_touches_it():  # R47
    from bottisota.view import style

    a = arena({"type": "door", "rect": [30, 40, 2, 6]})
    s = state(a, bot("a", "red", (29.0, 43.0), 90), bot("b", "blue", (10, 10), 270))
    turn_event(s, s.bots["b"], "move")
    app = TableApp(Game(s), (1280, 800))
    app.step()
    at = app.windows.camera.to_ipx(31.3, 44.7)
    assert tuple(app.windows.surface.get_at(at))[:3] == style.DOOR_OPEN
    s.bots["a"].x = 20.0                                     # nobody touches it: closed
    app.vm.version += 1
    app.step()
    assert tuple(app.windows.surface.get_at(at))[:3] == style.FEATURE_FILL["door"]


def test_robot_seats_may_be_listed_with_commas():
    from bottisota.core.errors import InputError
    from bottisota.viewmodel.session import parse_robot_specs

    assert parse_robot_specs(["red,blue:sniper"], ["red", "blue"]) == [("red", ""),
                                                                       ("blue", "sniper")]
    with pytest.raises(InputError):
        parse_robot_specs(["green"], ["red", "blue"])
