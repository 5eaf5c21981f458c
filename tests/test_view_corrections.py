"""The referee's hand: a correction drafted on the table (F7), journaled as one action
with its reason, undone like any other, replayed from the journal to the same state,
and told in the log as a correction."""
from __future__ import annotations

import random

import pygame
import pytest

from bottisota.core.actions import Correct
from bottisota.engine.game import Game
from bottisota.engine.random_play import play_random_game
from bottisota.formats.codec import action_from_dict, action_to_dict
from bottisota.formats.loading import bundled_rules
from bottisota.play.journal import journal_game, load
from bottisota.play.journal_digest import state_digest
from bottisota.view.app import TableApp
from bottisota.view.screenshots import screenshot_game

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


def press(app: TableApp, k: int, mod: int = 0) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))


def seeded_game(catalogue, duel, path) -> Game:
    """A seeded duel played 12 actions on, journaled at `path`."""
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"], seed=7)
    journal_game(game, path)
    play_random_game(game, random.Random(7), max_actions=12)
    return game


def test_a_correction_is_drafted_on_the_table_and_journaled_with_its_reason():
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800))
    press(app, pygame.K_F7)
    assert app.correcting.on
    assert not any("hand" in ln.text for ln in app.vm.log.lines)   # a view setting: not logged
    app.click_table(28.0, 40.0)                   # r1 in hand (not b1's turn: no matter)
    app.click_table(31.5, 42.0)                   # put it there
    press(app, pygame.K_e)                        # turn 15 degrees right
    for _ in range(3):
        press(app, pygame.K_EQUALS)               # damage 0 -> 3
    press(app, pygame.K_PAGEUP)                   # red's score 0 -> 1
    before = len(app.game.history)
    press(app, pygame.K_RETURN)
    assert len(app.game.history) == before + 1
    r1 = app.state.bots["r1"]
    assert (r1.x, r1.y, r1.facing, r1.damage) == (31.5, 42.0, 105.0, 3)
    assert app.state.scores["red"] == 1
    assert (app.state.active, app.game.expected()) == ("b1", "shoot")   # no turn ended
    action = app.game.history[-1].action
    assert isinstance(action, Correct) and action.reason == "a bumped miniature"
    words = [ln.text for ln in app.vm.log.lines]
    assert "the referee corrects r1: a bumped miniature" in words
    press(app, pygame.K_z, pygame.KMOD_CTRL)      # undone like any other action
    r1 = app.state.bots["r1"]
    assert (r1.x, r1.y, r1.facing, r1.damage) == (28.0, 40.0, 90.0, 0)
    assert app.state.scores["red"] == 0


def test_corrections_are_replayed_identically_from_the_journal(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = seeded_game(catalogue, duel, path)
    bot = next(b for b in game.state.bots.values() if b.on_table)
    armed = [w.name for w in bot.stats.weapons if w.ammo is not None]
    c = Correct(bot.id, "a misread die", at=(20.0, 20.0), facing=270.0, damage=1,
                ammo=tuple((w, 0) for w in armed[:1]), overwatch=True, rust=1, leaflet=2,
                score=4)
    assert action_from_dict(action_to_dict(c)) == c
    assert game.act(c).refusal is None
    play_random_game(game, random.Random(8), max_actions=6)
    again = load(path)
    assert state_digest(again.state) == state_digest(game.state)
    assert [type(e.action).__name__ for e in again.history].count("Correct") == 1


def test_a_correction_without_a_reason_or_off_the_table_is_refused():  # D1
    game = screenshot_game("b1", "shoot")
    assert game.legal(Correct("r1", " ")).rule == "D18"
    assert game.legal(Correct("r1", "bumped", at=(500.0, 10.0))).rule == "D1"
    assert game.legal(Correct("zz", "bumped")).rule == "D18"
