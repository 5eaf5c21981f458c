"""Undo and redo in a real game apply the game's own recorded events (D8) instead of
re-running the rules: the same game either way, for every action of seeded robot games."""
from __future__ import annotations

import copy

import pytest

from bottisota.engine.game import Game
from bottisota.engine.modes import ScenarioMode, StrictMode
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_to, read
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path
from tests.test_journal_fast import whole as whole_game


def whole(game: Game) -> tuple:
    """Everything the game holds that changes, copied (later acting appends to its lists)."""
    return copy.deepcopy(whole_game(game))


@pytest.fixture(scope="module")
def robot_game(catalogue, tmp_path_factory) -> Game:
    """A seeded 2-seat robot game on the warehouse, 150 actions (falls, shots, doors)."""
    cards, mods = catalogue
    rules = bundled_rules()
    path = tmp_path_factory.mktemp("undo") / "game.jsonl"
    play(load_arena(arena_path("warehouse"), rules), rules, cards, mods,
         [find_personality(p) for p in ("aggressive", "sniper")], seed=5, round_limit=None,
         time_limit=None, max_actions=150, on_start=journal_to(path))
    return read(path).game


def test_a_real_game_undoes_from_its_events_and_a_scenario_by_the_rules():  # D8
    assert StrictMode.rebuilds_from_events is True
    assert ScenarioMode.rebuilds_from_events is False     # its `fresh` set follows acting


def test_undo_and_redo_from_events_give_the_game_the_rules_give(robot_game):  # D8
    game = robot_game
    assert isinstance(game.mode, StrictMode) and len(game.history) == 150
    for step in range(0, 150, 7):                 # undo down the whole game, both ways
        by_events, by_rules = whole(game), None
        assert game.undo() is True                # by the mode: from the events
        undone_by_events = whole(game)
        assert game.redo() is True
        assert whole(game) == by_events           # redone: exactly where it was
        assert game.undo(recorded=False) is True  # the rules re-run
        by_rules = whole(game)
        assert by_rules == undone_by_events, f"undo {step}: events and rules differ"
        game.redo(recorded=False)
        for _ in range(min(7, len(game.history))):
            game.undo()
    assert len(game.history) == 0 and game.state.round == game.start_state.round
    while game.redo():                             # and back up to the end from the events
        pass
    assert len(game.history) == 150
