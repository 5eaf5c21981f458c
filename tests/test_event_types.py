"""Typed events: every kind the engine emits is declared once, and whole games
and every project scenario emit only events that match their declarations."""
import ast
import random
import typing
from pathlib import Path

import pytest

from bottisota.engine.event_types import EVENT_TYPES, Event, event_problems
from bottisota.engine.game import Game, check_notes
from bottisota.engine.random_play import play_random_game
from bottisota.engine.reducers import REDUCERS
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.play.scenario import load_scenario, run

PACKAGE = Path(__file__).resolve().parent.parent / "bottisota"
SCENARIOS = Path(__file__).parent / "scenarios"


def literal_event_types() -> set[str]:
    """Every `{"type": "..."}` written in the package's engine and robot code."""
    found = set()
    for folder in ("engine", "robot"):
        for path in (PACKAGE / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Dict):
                    for key, value in zip(node.keys, node.values, strict=True):
                        if isinstance(key, ast.Constant) and key.value == "type" \
                                and isinstance(value, ast.Constant):
                            found.add(value.value)
    return found


def test_every_event_type_written_in_the_code_is_declared():
    assert literal_event_types() - set(EVENT_TYPES) == set()


def test_every_reducer_handles_a_declared_type():
    assert set(REDUCERS) <= set(EVENT_TYPES)


def test_every_reducer_is_typed_for_its_own_kind_of_event():
    """The table holds reducers under one type; each one's event parameter is the
    declaration of the kind it is filed under (so mypy checks its reads)."""
    for kind, reducer in REDUCERS.items():
        hints = typing.get_type_hints(reducer)
        assert hints["e"] is EVENT_TYPES[kind], kind


def test_the_event_union_is_every_declared_kind():
    assert set(typing.get_args(Event)) == set(EVENT_TYPES.values())
    assert {"bot_moved", "damaged", "destroyed", "turn", "round"} <= set(REDUCERS)


def test_a_note_may_not_change_the_state():  # D8: notes are informational
    with pytest.raises(ValueError):
        check_notes([{"type": "damaged", "bot": "a", "amount": 1, "cause": "x"}])
    assert check_notes([{"type": "robot_decision", "text": "x"}])


def test_an_event_that_breaks_its_declaration_is_named():
    assert event_problems({"type": "damaged", "bot": "a", "amount": "two", "cause": "c"}) == [
        "damaged: amount='two' is not <class 'int'>"]
    assert event_problems({"type": "damaged", "bot": "a", "cause": "c"}) == [
        "damaged: missing key 'amount'"]
    assert event_problems({"type": "no_such"}) == ["unknown event type 'no_such'"]


def test_the_items_of_a_list_or_dict_are_checked_too():
    good = {"type": "pit", "bot": "a", "feature": "Pit", "at": [1.0, 2.5]}
    assert [p for p in event_problems(good) if "'at'" in p or "at=" in p] == []
    assert event_problems({**good, "at": ["1", 2.5]}) == [
        "pit: at=['1', 2.5] is not list[float]"]
    over = {"type": "game_over", "winners": ["red"], "scores": {"red": "3"}, "reason": "r"}
    assert any("scores" in p for p in event_problems(over))


@pytest.mark.parametrize("arena_file", sorted(p.name for p in arenas_dir().glob("*.yaml")))
def test_seeded_games_emit_only_declared_events(arena_file):
    cards, mods = load_catalogue()
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / arena_file, rules)
    seen = set()
    for seed in range(3):
        game = Game.new(arena, rules, cards, mods, ["red", "blue", "green"], seed=seed)
        play_random_game(game, random.Random(seed), max_actions=150)
        events = game.start_events + [e for entry in game.history for e in entry.events]
        for event in events:
            assert event_problems(event) == [], event
            seen.add(event["type"])
    assert {"turn", "bot_moved", "placed"} <= seen


def test_every_project_scenario_emits_only_declared_events():
    for path in sorted(SCENARIOS.glob("*.yaml")):
        if path.name.startswith("invalid"):
            continue
        outcome = run(load_scenario(path))
        for event in outcome.events:
            assert event_problems(event) == [], (path.name, event)
