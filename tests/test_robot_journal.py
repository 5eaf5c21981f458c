"""Robots in the journal (D8): decisions journaled as notes with their dice, seeded and
physical replays, undo/redo with robots, the view's robot seats, and `Game.reload`."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.actions import Forward, Move, Pass, Place
from bottisota.core.dice import Dice
from bottisota.core.errors import JournalError
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_game, journal_to, load
from bottisota.robot.match import decision_notes, play
from bottisota.robot.player import Robot
from tests.builders import ROBOT_TABLE, arena
from tests.test_journal import snapshot, write_resealed

ACTIONS = 30


def journaled(game: Game, path) -> Game:
    journal_game(game, path)
    return game


def robots_for(game: Game, names: dict[str, str]) -> dict[str, Robot]:
    robots = {p: Robot(p, find_personality(n)) for p, n in names.items()}
    for r in robots.values():
        r.peers = robots
        r.prepare(game)
    return robots


def robot_turns(game: Game, robots: dict[str, Robot], n: int) -> None:
    """n robot actions, each with its decisions as notes (as the view and simulate do)."""
    for _ in range(n):
        robot = robots[game.whose_turn()]
        action = robot.decide(game)
        result = game.act(action, decision_notes(robots, robot))
        assert result.refusal is None, result.refusal


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def check_notes_match_dice(line: dict) -> None:
    """The notes stand first; each decision's die is the next of the rolls made before
    the action (2d6: the sum of two), rolled for that robot's table."""
    notes = line["events"][:line.get("notes", 0)]
    pre = line["rolls"][:line.get("pre", 0)]
    assert all(e["type"] == "robot_decision" for e in notes)
    assert not any(e["type"] == "robot_decision" for e in line["events"][len(notes):])
    k = 0
    for e in notes:
        count = 2 if e["dice"] == "2d6" else 1
        rolls = pre[k:k + count]
        k += count
        assert sum(v for _p, v in rolls) == e["roll"]
        assert all(p.startswith(f"robot: {e['player']}'s {e['section']} table, '{e['rule']}'")
                   for p, _v in rolls)
        assert e["text"] == f"{e['player']} rolled {e['roll']} on '{e['rule']}': " \
                            f"{e['choice'].replace('_', ' ')}"
    assert k == len(pre)


def test_a_seeded_robot_game_is_journaled_with_its_decisions_and_replays_exactly(
        catalogue, duel, tmp_path, capsys):  # D8
    cards, mods = catalogue
    path = tmp_path / "robots.jsonl"
    record = play(duel, bundled_rules(), cards, mods,
                  [find_personality("aggressive"), find_personality("sniper")], seed=7,
                  round_limit=None, max_actions=ACTIONS, on_start=journal_to(path))
    assert record.refusals == [] and record.errors == []
    lines = lines_of(path)
    assert len(lines) == 1 + ACTIONS
    entries = lines[1:]
    # every place and move is decided on a table; a shot follows the move's intention
    decided = [line for line in entries if {"place", "move"} & set(line["action"])]
    assert decided and all(line["notes"] >= 1 and line["pre"] >= 1 for line in decided)
    for line in entries:
        check_notes_match_dice(line)
    sections = {e["section"] for line in entries for e in line["events"][:line.get("notes", 0)]}
    assert {"place", "turn"} <= sections
    assert sum(line.get("notes", 0) for line in entries) == record.decisions

    again = load(path)
    assert len(again.history) == ACTIONS
    assert [e.events for e in again.history] == [line["events"] for line in entries]
    assert [[[r.purpose, r.value] for r in e.rolls] for e in again.history] == \
        [line["rolls"] for line in entries]
    assert again.state.dice.used == sum(len(line["rolls"]) for line in lines[1:]) \
        + len(lines[0]["start"]["rolls"])
    assert cli_main(["replay", str(path)]) == 0
    assert f"replayed {ACTIONS} actions; every event matches" in capsys.readouterr().out


def test_a_robot_die_changed_by_hand_is_a_replay_difference(catalogue, duel, tmp_path):
    cards, mods = catalogue
    path = tmp_path / "robots.jsonl"
    play(duel, bundled_rules(), cards, mods,
         [find_personality("aggressive"), find_personality("sniper")], seed=7,
         round_limit=None, max_actions=6, on_start=journal_to(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[3])
    value = entry["rolls"][0][1]
    entry["rolls"][0][1] = value % 6 + 1          # the robot's die, not what the seed gives
    lines[3] = json.dumps(entry, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4 and "digest" in str(err.value)
    write_resealed(path, lines)                  # the chain recomputed: the replay finds it
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4 and "dice rolled are not the ones recorded" in str(err.value)


def test_a_physical_dice_robot_game_replays_from_the_typed_rolls(catalogue, duel, tmp_path):
    # D8: robots roll physical dice too; the replay asks nobody and uses the recorded values
    cards, mods = catalogue
    path = tmp_path / "physical.jsonl"
    typed = random.Random(4)
    game = journaled(Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"],
                    dice=Dice(ask=lambda purpose: typed.randint(1, 6))), str(path))
    robot_turns(game, robots_for(game, {"red": "aggressive", "blue": "sniper"}), 12)
    assert lines_of(path)[0]["dice"] == "physical"
    again = load(path)
    assert snapshot(again) == snapshot(game)
    assert [e.events for e in again.history] == [e.events for e in game.history]
    assert [e.rolls for e in again.history] == [e.rolls for e in game.history]


def test_undo_then_redo_with_robots_returns_the_same_state(catalogue, duel, tmp_path):
    cards, mods = catalogue
    path = tmp_path / "undo.jsonl"
    game = journaled(
        Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"], seed=11), str(path)
    )
    robots = robots_for(game, {"red": "aggressive", "blue": "sniper"})
    robot_turns(game, robots, 10)
    before, events = snapshot(game), [e.events for e in game.history]
    last = game.history[-1]
    assert game.undo() and game.undo()
    assert len(game.history) == 8
    robots[game.whose_turn()].decide(game)        # a robot rolls, then the player redoes
    decision_notes(robots)
    assert game.redo() and game.redo()
    assert snapshot(game) == before
    assert [e.events for e in game.history] == events
    assert (game.history[-1].pre, game.history[-1].notes) == (last.pre, last.notes)
    robot_turns(game, robots, 4)                  # the game goes on, and all of it replays
    again = load(path)
    assert snapshot(again) == snapshot(game)
    assert [e.events for e in again.history] == [e.events for e in game.history]


def test_notes_must_be_informational(catalogue, duel):
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"], seed=1)
    bot = game.state.active
    with pytest.raises(ValueError, match="informational"):
        game.act(Place(bot, 10, 10), [{"type": "damaged", "bot": bot, "amount": 1}])
    assert game.history == []


# --- the view's robot seats ------------------------------------------------------------

def test_the_view_builds_robot_seats_with_peers_and_journals_their_decisions(
        tmp_path, monkeypatch):  # R23
    pytest.importorskip("pygame")
    from bottisota.view.app import TableApp
    from bottisota.viewmodel.session import DEFAULT_PERSONALITY, robot_seats
    from tests.builders import bot, card, state, weapon

    table = tmp_path / "tester.yaml"
    table.write_text(ROBOT_TABLE, encoding="utf-8")
    gun = weapon("Gun", mount="nose", range=30)
    s = state(arena(size=(80, 60)), bot("a", "red", (10, 30), 90, card(weapons=[gun])),
              bot("b", "blue", (40, 30), 270, card(weapons=[gun]), overwatch=True),
              dice=[6, 5])
    s.players = ["red", "blue"]
    s.active, s.phase = "a", "move"
    game = Game(s)
    prepared: list[str] = []
    monkeypatch.setattr(Robot, "prepare", lambda self, g: prepared.append(self.player))
    robots = robot_seats([f"red:{table}", f"blue:{table}"], ["red", "blue"], game)
    assert sorted(prepared) == ["blue", "red"]
    assert all(r.peers is robots for r in robots.values())
    assert robots["red"].personality.name == "tester"
    assert robot_seats(["blue"], ["red", "blue"])["blue"].personality.name == DEFAULT_PERSONALITY

    app = TableApp(game, (1000, 700), robots=robots)
    assert app.actions.run_robot() is True
    # red rolls 6 (keep range 28 cm) and walks into blue's reach; blue's robot is asked
    # as a peer and rolls 5 on 'otherwise': hold
    entry = game.history[-1]
    assert entry.action == Move("a", (Forward(6.0),), ("b",))
    assert (entry.pre, entry.notes) == (2, 2)
    assert [(r.value, r.purpose) for r in entry.rolls] == [
        (6, "robot: red's turn table, 'enemy 10-40 cm, in arc'"),
        (5, "robot: blue's overwatch table, 'otherwise'")]
    assert [e["text"] for e in entry.events[:2]] == [
        f"red rolled 6 on 'enemy 10-40 cm, in arc': {robots['red'].decisions[0].choice}",
        "blue rolled 5 on 'otherwise': hold"]
    assert entry.events[2]["type"] != "robot_decision"
    assert app.session.notes == []
    log = [text for text in (ln.text for ln in app.vm.log.lines)]
    assert "blue rolled 5 on 'otherwise': hold fire" in log          # the log's words


# --- Game.reload -------------------------------------------------------------------------

def reload_game(catalogue, tmp_path: Path) -> Game:
    cards, mods = catalogue
    ground = {k: c for k, c in cards.items() if c.is_ground}
    game = journaled(Game.new(arena(size=(80, 60)), bundled_rules(), ground, mods, ["red", "blue"],
                    seed=3), str(tmp_path / "reload.jsonl"))
    for make in (lambda b: Place(b, 15, 30, 0), lambda b: Move(b, (Forward(3),)), Pass,
                 lambda b: Place(b, 65, 30, 180), lambda b: Move(b, (Forward(3),)), Pass,
                 lambda b: Move(b, (Forward(3),)), Pass):
        result = game.act(make(game.state.active))
        assert result.refusal is None, result.refusal
    return game


def positions(game: Game) -> list[tuple[str, float, float, float]]:
    return [(b.id, b.x, b.y, b.facing) for b in game.state.live_bots()]


def test_reload_keeps_the_game_when_the_new_arena_leaves_it_legal(catalogue, tmp_path):
    game = reload_game(catalogue, tmp_path)
    assert positions(game) == [("blue-1", 15.0, 36.0, 0.0), ("red-1", 65.0, 27.0, 180.0)]
    before, used = snapshot(game), game.state.dice.used
    walled = arena({"type": "wall", "rect": [70, 50, 4, 4]}, size=(80, 60))
    cards, mods = game.state.cards, game.state.mods
    assert game.reload(walled, cards, mods) is None
    assert game.state.arena is walled and len(game.history) == 8
    assert positions(game) == [("blue-1", 15.0, 36.0, 0.0), ("red-1", 65.0, 27.0, 180.0)]
    assert snapshot(game) == before and game.state.dice.used == used
    assert game.undo() and game.state.arena is walled      # undo replays on the new arena
    assert game.redo() and snapshot(game) == before
    assert game.act(Move("red-1", (Forward(3),))).refusal is None
    assert positions(game)[1] == ("red-1", 65.0, 24.0, 180.0)
    again = load(tmp_path / "reload.jsonl")                # the reload is journaled
    assert snapshot(again) == snapshot(game)
    assert again.state.arena.features[0].shape.equals(walled.features[0].shape)


def test_reload_refuses_and_keeps_the_old_game_when_an_action_no_longer_holds(
        catalogue, tmp_path):
    game = reload_game(catalogue, tmp_path)
    old_arena, before, history = game.state.arena, snapshot(game), list(game.history)
    blocked = arena(
        {"type": "wall", "rect": [10, 33.5, 10, 1]}, size=(80, 60)
    )  # blue's path (D4: 0.5 cm deep)
    refusal = game.reload(blocked, game.state.cards, game.state.mods)
    assert refusal is not None and refusal.rule == "R7"
    assert refusal.message.startswith("action 2 (blue-1 moves: forward 3) no longer holds: "
                                      "nobody may ram in the first round: blue-1 would hit wall")
    assert game.state.arena is old_arena and snapshot(game) == before
    assert game.history == history
    assert game.act(Move("red-1", (Forward(3),))).refusal is None
    assert snapshot(load(tmp_path / "reload.jsonl")) == snapshot(game)
