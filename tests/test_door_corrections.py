"""The referee's hand on a door (R47: an automatic door is open while anyone touches it,
else closed): a correction holds a door open, or leaves it to R47 again, as a journaled
`door_held` event; undone like any other action, replayed from the journal to the same
state digest, and a journal without one keeps its old digests."""
from __future__ import annotations

import random

import pytest

from bottisota.core.actions import Correct
from bottisota.engine.game import Game
from bottisota.engine.modes import ScenarioMode
from bottisota.engine.random_play import play_random_game
from bottisota.formats.codec import action_from_dict, action_to_dict
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.play.journal import journal_game, load
from bottisota.play.journal_digest import digest_text, state_digest
from bottisota.play.scenario import parse_scenario, run, start_state, with_parts_deck

# tests/scenarios/r47_door.yaml's table: a door (feature #1) in a wall at x 30-32, y 25-35;
# the gunner (20, 33) and the far bot (45, 33) see each other only through it
ARENA = ("{size: [60, 60], features: [{type: wall, rect: [30, 0, 2, 25]}, "
         "{type: door, rect: [30, 25, 2, 10]}, {type: wall, rect: [30, 35, 2, 25]}]}")
POSITION = f"""
arena: {ARENA}
dice: [4, 1, 4, 1]
bots:
  - {{id: gunner, player: blue, card: {{locomotion: walker, move: 8, armour: 4, structure: 6,
      weapons: [{{name: Gun, kind: gun, mount: turret, range: 40, to_hit: 4, hits: 1}}]}},
      at: [20, 33], facing: 90}}
  - {{id: far, player: green, card: {{locomotion: walker, move: 8, armour: 4, structure: 6,
      weapons: []}}, at: [45, 33], facing: 0}}
"""
SHOOT = """
  - {bot: gunner, move: []}
  - {bot: gunner, shoot: [{weapon: Gun, target: far}]}
"""
HOLD = """
  - {bot: far, correct: {reason: the door is propped open, doors: {"#1": true}}}
"""
RELEASE = """
  - {bot: far, correct: {reason: the prop is taken away, doors: {"#1": false}}}
"""


def scenario(actions: str):
    return parse_scenario(POSITION + "actions:" + (actions or " []"))


def test_a_closed_door_blocks_the_shot_and_a_door_held_open_lets_it_through():
    closed = run(scenario(SHOOT))
    assert [r["action"] for r in closed.rejected] == [1]          # R47: closed, no sight
    assert closed.state.bots["far"].damage == 0
    held = run(scenario(HOLD + SHOOT))
    assert held.rejected == []
    assert held.state.held_open == ["#1"]
    assert held.state.bots["far"].damage == 1                    # 4 hits (4+), 1 fails armour
    assert {"type": "door_held", "door": "door #1", "key": "#1", "open": True,
            "cause": "correction"} in held.events
    again = run(scenario(HOLD + RELEASE + SHOOT))                  # left to R47: closed again
    assert again.state.held_open == []
    assert [r["action"] for r in again.rejected] == [3]
    assert again.state.bots["far"].damage == 0


def test_a_door_a_bot_touches_cannot_be_closed_and_an_unknown_door_is_refused():
    spec = scenario("")
    game = Game(with_parts_deck(start_state(spec)), mode=ScenarioMode())
    game.state.bots["far"].x, game.state.bots["far"].y = 33.0, 30.0   # its base on the door
    shut = game.act(Correct("far", "shut it", doors=(("#1", False),)))
    assert shut.refusal is not None and shut.refusal.rule == "R47"
    none = game.act(Correct("far", "a door", doors=(("#7", True),)))
    assert none.refusal is not None and "#7" in str(none.refusal)
    assert game.state.held_open == []


def test_holding_a_door_open_is_undone_like_any_other_action():
    spec = scenario("")
    game = Game(with_parts_deck(start_state(spec)), mode=ScenarioMode())
    before = state_digest(game.state)
    assert game.act(Correct("far", "the door is propped open", doors=(("#1", True),))
                    ).refusal is None
    assert game.state.held_open == ["#1"] and state_digest(game.state) != before
    assert game.undo()
    assert game.state.held_open == [] and state_digest(game.state) == before


@pytest.fixture
def door_arena(tmp_path):
    path = tmp_path / "door.yaml"
    path.write_text(f"name: door\n{ARENA[1:-1].replace('size:', 'size:', 1)}\n"
                    .replace(", features:", "\nfeatures:"))
    return load_arena(path)


def test_a_door_held_open_is_replayed_identically_from_the_journal(catalogue, door_arena,
                                                                   tmp_path):
    cards, mods = catalogue
    path = tmp_path / "game.jsonl"
    game = Game.new(door_arena, bundled_rules(), cards, mods, ["red", "blue"], seed=3)
    journal_game(game, path)
    play_random_game(game, random.Random(3), max_actions=4)
    bot = next(b for b in game.state.bots.values() if b.on_table)
    plain = digest_text(game.state)
    c = Correct(bot.id, "the door is propped open", doors=(("#1", True),))
    assert action_from_dict(action_to_dict(c)) == c
    assert game.act(c).refusal is None
    assert digest_text(game.state) == plain[:-1] + ',["#1"]]'     # in the digest, at the end
    play_random_game(game, random.Random(4), max_actions=6)
    again = load(path)
    assert again.state.held_open == ["#1"]
    assert state_digest(again.state) == state_digest(game.state)


def test_the_referees_hand_holds_the_nearest_door_open_with_d_and_enter():
    import pygame

    from bottisota.view.app import TableApp

    def press(k: int, mod: int = 0) -> None:
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0))

    pygame.font.init()
    app = TableApp(Game(with_parts_deck(start_state(scenario("")))), (1280, 800))
    press(pygame.K_F7)
    app.click_table(45.0, 33.0)                      # far in hand; the door #1 is nearest
    press(pygame.K_d)
    assert "door #1: held open" in app.correcting.lines(app.state)
    press(pygame.K_RETURN)
    assert app.state.held_open == ["#1"]
    assert "the referee holds door #1 open" in [ln.text for ln in app.vm.log.lines]
    press(pygame.K_d)                                 # again: left to R47
    press(pygame.K_RETURN)
    assert app.state.held_open == []
    press(pygame.K_z, pygame.KMOD_CTRL)               # undone: held open again
    assert app.state.held_open == ["#1"]
