"""Replaying a journal from its recorded events (resuming) against re-running every action
through the rules (`bottisota replay`): the same game, the same refusals at the same
lines, and what the event replay cannot see, said out loud (docs/decisions.md,
"Replaying a journal")."""
from __future__ import annotations

import collections
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bottisota.play.journal_file as jf
from bottisota.core.dice import Dice
from bottisota.core.errors import JournalError
from bottisota.engine.event_types import event_problems
from bottisota.engine.game import Game
from bottisota.engine.random_play import play_random_game
from bottisota.formats.json_text import JsonLimitError, loads_limited
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.formats.robot_tables import find_personality
from bottisota.play.journal import journal_game, journal_to, read, resume, state_digest
from bottisota.play.journal_data import plain
from bottisota.play.journal_events import well_formed
from bottisota.robot.match import play
from bottisota.robot.simulate import arena_path
from tests.test_journal import write_resealed

GAMES = [(arena, seats, seed) for arena in ("duel", "factory", "warehouse")
         # seeds whose games between them meet every kind of event the coverage test
         # names (4, not 3, since idle robots go looking for the enemy: issue 29)
         for seats, seed in ((("aggressive", "sniper"), 4),
                             (("scavenger", "aggressive", "sniper"), 11))]


def whole(game: Game) -> tuple:
    """Everything a game holds that changes, type for type (repr tells 1 from 1.0 and a
    list from a tuple), with its history and the dice stream's position."""
    s = game.state
    changing = (s.round, s.active, s.phase, s.players, s.scores, s.kills, s.deck, s.parts_deck,
                s.out, s.played, s.next_id, s.over, list(s.bots.values()), s.mines, s.goals)
    history = [(e.action, plain(e.events), e.rolls, e.pre, e.notes) for e in game.history]
    seeded = s.dice.ask is None and s.dice.forced is None     # the stream a seed drives
    return (repr(changing), s.dice.rolls, seeded and s.dice.state(), s.dice.forced, history,
            [e.action for e in game._redo], game._mark, state_digest(s))


def fast(path, **kw):
    """The replay resuming makes, and whether any line had to be re-run."""
    reran = []
    real = Game.replay

    def counted(self, *args, **kwargs):
        reran.append(args[0])
        return real(self, *args, **kwargs)

    Game.replay = counted
    try:
        loaded = read(path, verify=False, **kw)
    finally:
        Game.replay = real
    return loaded.game, reran


@pytest.fixture(scope="module")
def robot_journals(catalogue, tmp_path_factory) -> dict[tuple, Path]:
    """Seeded robot games on every bundled arena, two and three seats, 120 actions each."""
    cards, mods = catalogue
    rules = bundled_rules()
    folder = tmp_path_factory.mktemp("fast")
    out = {}
    for name, seats, seed in GAMES:
        path = folder / f"{name}-{len(seats)}.jsonl"
        play(load_arena(arena_path(name), rules), rules, cards, mods,
             [find_personality(p) for p in seats], seed=seed, round_limit=None,
             time_limit=None, max_actions=120, on_start=journal_to(path))
        out[name, seats, seed] = path
    return out


@pytest.mark.parametrize("game", GAMES, ids=[f"{a}-{len(s)}" for a, s, _ in GAMES])
def test_robot_games_replay_from_their_events_to_the_verified_game(game, robot_journals):  # D8
    path = robot_journals[game]
    verified = read(path).game
    replayed, reran = fast(path)
    assert reran == []                      # every line was vouched for by its events
    assert whole(replayed) == whole(verified)
    assert len(replayed.history) == 120


def test_the_robot_games_cover_falls_pushes_overwatch_mines_doors_and_belts(robot_journals):
    kinds = collections.Counter(
        e["type"] for path in robot_journals.values()
        for line in path.read_text().splitlines()[1:] for e in json.loads(line)["events"])
    for kind in ("fall", "collision", "overwatch_fire", "mine_dropped", "mine_strike",
                 "door_opened", "belt", "flight", "blast", "destroyed", "part_installed",
                 "goal_taken", "self_destruct", "status"):
        assert kinds[kind] > 0, kind


def test_a_resumed_game_goes_on_as_the_verified_one_would(robot_journals, tmp_path):
    # the dice stream, the history and the redo list are where the live game left them
    path = tmp_path / "resumed.jsonl"
    path.write_bytes(robot_journals["warehouse", ("aggressive", "sniper"), 4].read_bytes())
    game = resume(path)
    assert whole(game) == whole(read(path).game)
    assert game.undo() and game.undo() and game.redo()
    play_random_game(game, random.Random(2), max_actions=15)
    game.journal.close()
    assert whole(read(path).game) == whole(game) == whole(fast(path)[0])


def test_random_games_with_undo_and_redo_replay_alike(catalogue, duel, tmp_path):  # D8
    cards, mods = catalogue
    for seed in range(3):
        path = tmp_path / f"random-{seed}.jsonl"
        game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue", "green"], seed=seed)
        journal_game(game, path)
        rng = random.Random(seed)
        for _ in range(6):
            play_random_game(game, rng, max_actions=12)
            for _ in range(rng.randint(0, 3)):
                game.undo()
            for _ in range(rng.randint(0, 2)):
                game.redo()
        game.journal.close()
        replayed, reran = fast(path)
        assert reran == []
        assert whole(replayed) == whole(read(path).game) == whole(game)


def test_a_physical_dice_game_replays_from_the_typed_rolls(catalogue, duel, tmp_path):  # D8
    cards, mods = catalogue
    path = tmp_path / "physical.jsonl"
    typed = random.Random(4)
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"],
                    dice=Dice(ask=lambda purpose: typed.randint(1, 6)))
    journal_game(game, path)
    play_random_game(game, random.Random(4), max_actions=40)
    game.undo()
    game.journal.close()
    replayed, reran = fast(path)
    assert reran == []
    assert whole(replayed) == whole(read(path).game)


# --- a journal that does not hold: the same refusal, at the same line -------------------

def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _move_line(lines: list[dict]) -> int:
    return next(i for i, d in enumerate(lines) if "move" in d.get("action", {})
                and sum(e["type"] == "bot_moved" for e in d["events"]) >= 2)


def _last_bot_moved(d: dict) -> dict:
    return [e for e in d["events"] if e["type"] == "bot_moved"][-1]


def _rolled_line(lines: list[dict]) -> int:
    return next(i for i, d in enumerate(lines) if i and d.get("rolls"))


TAMPERS = {
    "another bot acts": lambda ls: ls[5]["action"].update(bot="nobody"),
    "where a move ends": lambda ls: _last_bot_moved(ls[_move_line(ls)]).update(x=1.0),
    "a die": lambda ls: ls[_rolled_line(ls)]["rolls"][0].__setitem__(
        1, ls[_rolled_line(ls)]["rolls"][0][1] % 6 + 1),
    "the state digest": lambda ls: ls[7].update(state="0" * 16),
    "an event dropped": lambda ls: ls[_move_line(ls)]["events"].pop(),
    "an event of no declared type": lambda ls: ls[4]["events"].append({"type": "teleported"}),
    "an event with a key of the wrong type": lambda ls: _last_bot_moved(
        ls[_move_line(ls)]).update(x="far"),
    "a note that changes the state": lambda ls: ls[3].update(
        notes=len(ls[3]["events"])),
    "notes out of range": lambda ls: ls[3].update(notes=99),
    "an undo with nothing to undo": lambda ls: ls.insert(1, {"undo": True}),
    "a redo with nothing to redo": lambda ls: ls.insert(6, {"redo": True}),
    "a second action for the same turn": lambda ls: ls.insert(6, dict(ls[5])),
    "an action line removed": lambda ls: ls.pop(6),
}


@pytest.mark.parametrize("kind", list(TAMPERS))
def test_a_forged_journal_is_refused_alike_from_its_events(kind, robot_journals, tmp_path):
    lines = _lines(robot_journals["factory", ("aggressive", "sniper"), 4])
    TAMPERS[kind](lines)
    path = tmp_path / "forged.jsonl"
    write_resealed(path, [json.dumps(d) for d in lines])     # the chain recomputed
    with pytest.raises(JournalError) as verified:
        read(path)
    with pytest.raises(JournalError) as replayed:
        read(path, verify=False)
    with pytest.raises(JournalError) as resumed:
        resume(path)
    assert (replayed.value.line, replayed.value.message) == \
        (resumed.value.line, resumed.value.message) == \
        (verified.value.line, verified.value.message)


def test_what_the_event_replay_cannot_see(robot_journals, tmp_path):
    # a forger who recomputes the chain and leaves every state digest true: a point the
    # bot passed through, a die shown in an informational event; resuming takes it, the
    # verified replay (`bottisota replay`) refuses it at its line
    lines = _lines(robot_journals["factory", ("aggressive", "sniper"), 4])
    k = _move_line(lines)
    [e for e in lines[k]["events"] if e["type"] == "bot_moved"][0].update(x=123.4)
    j = next(i for i, d in enumerate(lines) if any(e["type"] == "to_hit" for e in
                                                  d.get("events", [])))
    hit = next(e for e in lines[j]["events"] if e["type"] == "to_hit")
    hit["need"] = hit["need"] % 6 + 1
    path = tmp_path / "forged.jsonl"
    write_resealed(path, [json.dumps(d) for d in lines])
    replayed, _ = fast(path)
    assert len(replayed.history) == len(lines) - 1
    with pytest.raises(JournalError) as verified:
        read(path)
    assert verified.value.line == min(j, k) + 1 and "replay differs at event" in \
        verified.value.message


def test_an_edit_with_the_chain_kept_is_refused_at_its_line_either_way(robot_journals,
                                                                        tmp_path):
    text = robot_journals["duel", ("aggressive", "sniper"), 4].read_text().splitlines()
    text[9] = text[9].replace('"rolls":[', '"rolls": [', 1)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(text) + "\n")
    for verify in (True, False):
        with pytest.raises(JournalError) as err:
            read(path, verify=verify)
        assert err.value.line == 10 and "digest" in err.value.message


# --- the quick checks say what the slow ones say --------------------------------------

def _events(robot_journals) -> list[dict]:
    path = robot_journals["warehouse", ("scavenger", "aggressive", "sniper"), 11]
    return [e for line in path.read_text().splitlines()[1:] for e in json.loads(line)["events"]]


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                       | st.text(max_size=5), lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_an_event_is_well_formed_exactly_when_its_declaration_finds_nothing(
        data, robot_journals):
    event = dict(data.draw(st.sampled_from(_events(robot_journals))))
    how = data.draw(st.sampled_from(("as is", "drop", "add", "change", "type")))
    keys = sorted(event)
    if how == "drop":
        event.pop(data.draw(st.sampled_from(keys)))
    elif how == "add":
        event[data.draw(st.text(max_size=8))] = data.draw(JSONISH)
    elif how == "change":
        event[data.draw(st.sampled_from(keys))] = data.draw(JSONISH)
    elif how == "type":
        event["type"] = data.draw(st.sampled_from(("shot", "fall", "nothing", 3, None)))
    expected = isinstance(event.get("type"), str) and not event_problems(event)
    assert well_formed(event) == expected


def _outcome(text: str, raw: bytes | None):
    try:
        return "value", repr(loads_limited(text, raw=raw))
    except JsonLimitError as err:
        return "refused", str(err), err.column


NUMBERS = st.sampled_from(["1e400", "1E+400", "-1e308", "1e-400", "2.5e+99", "1e999",
                           "123456789012345678901234567890123456789", "9" * 41, "0.1",
                           "-0.0", "1" + "0" * 40 + "e5", "NaN", "-Infinity", "1e0400",
                           "1.5E-0400", "7e307", "12e306", '"1e400"', '"' + "9" * 50 + '"'])


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(NUMBERS | st.sampled_from(["[", "]", "{", "}", ",", ":", '"a"', " ",
                                                  "\ufeff", "true", "[" * 70, "]" * 70]),
                      max_size=12),
       shape=st.sampled_from(["[{}]", '{{"n":[{}]}}', "{}"]))
def test_reading_with_the_bytes_refuses_and_reads_exactly_as_before(parts, shape):
    text = shape.format(",".join(parts)) if "{}" in shape else "".join(parts)
    assert _outcome(text, text.encode("utf-8")) == _outcome(text, None)


@settings(max_examples=300, deadline=None)
@given(body=st.binary(max_size=80),
       tail=st.sampled_from([b"", b"}", b"\n", b'"}\n', b'"}x']),
       hexes=st.text("0123456789abcdefX", min_size=30, max_size=34))
def test_the_digest_is_found_where_it_was_found_before(body, tail, hexes):
    raw = body + b',"digest":"' + hexes.encode() + b'"}' + tail
    old = re.compile(rb',"digest":"([0-9a-f]{32})"\}$').search(raw)
    new = jf._SUFFIX.search(raw, max(0, len(raw) - jf._SUFFIX_BYTES - 1))
    assert (old and (old.span(), old.group(1))) == (new and (new.span(), new.group(1)))


def test_a_journal_with_a_reload_replays_alike(catalogue, tmp_path):
    # a designer's reload line is replayed as it was played: the game re-run on the new
    # data; the lines after it are replayed from their events again
    from tests.builders import arena
    from tests.test_robot_journal import reload_game

    game = reload_game(catalogue, tmp_path)
    walled = arena({"type": "wall", "rect": [70, 50, 4, 4]}, size=(80, 60))
    assert game.reload(walled, game.state.cards, game.state.mods) is None
    assert game.undo() and game.redo()
    play_random_game(game, random.Random(6), max_actions=10)
    game.journal.close()
    path = tmp_path / "reload.jsonl"
    replayed, reran = fast(path)
    assert len(reran) == 8                  # the reload re-runs the 8 actions before it
    assert whole(replayed) == whole(read(path).game) == whole(game)
