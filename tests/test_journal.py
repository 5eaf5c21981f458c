"""The journal (D8): written as the game goes, replayed exactly, undo/redo, resume, refusals."""
import json
import random
from unittest.mock import ANY

import pytest

from bottisota.cli import main as cli_main
from bottisota.commands.dice_prompt import prompt_dice
from bottisota.core.errors import JournalError
from bottisota.engine.game import Game
from bottisota.engine.random_play import play_random_game, random_action
from bottisota.formats.loading import bundled_rules
from bottisota.play.journal import journal_game, load, resume
from bottisota.play.journal_file import seal


def snapshot(game: Game):
    s = game.state
    return (s.round, s.phase, s.active, s.players, dict(s.scores), dict(s.kills), list(s.deck),
            list(s.parts_deck), list(s.out), s.over, s.dice.used,
            [(b.id, b.card.id, b.x, b.y, b.z, b.facing, b.damage, b.destroyed, b.removed,
              b.overwatch, b.moved, b.rust, b.leaflet, list(b.parts), dict(b.ammo))
             for b in s.bots.values()],
            [(m.id, m.x, m.y, m.active) for m in s.mines],
            [(g.x, g.y, g.taken) for g in s.goals])


def write_resealed(path, lines) -> None:
    """Write lines (JSON objects, with or without digests) as a journal whose digest chain
    holds: what a forger who recomputes the chain would write. The replay must still
    find every edit that changes the game."""
    prev, out = "", []
    for line in lines:
        data = json.loads(line) if isinstance(line, str) else dict(line)
        data.pop("digest", None)
        text, prev = seal(json.dumps(data, separators=(",", ":")), prev)
        out.append(text)
    path.write_text("\n".join(out) + "\n")


def new_game(catalogue, duel, path, seed=5, players=("red", "blue", "green"), **kw) -> Game:
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, list(players), seed=seed, **kw)
    journal_game(game, path)
    return game


def test_replay_of_a_200_action_seeded_game_is_exact(catalogue, duel, tmp_path):  # D8
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    n = play_random_game(game, random.Random(5), max_actions=200)
    assert n == 200
    lines = path.read_text().splitlines()
    assert len(lines) == 201 and json.loads(lines[0])["dice"] == "seeded"
    again = load(path)
    assert snapshot(again) == snapshot(game)
    assert [e.events for e in again.history] == [json.loads(line)["events"] for line in lines[1:]]


def test_a_game_started_without_a_seed_records_one_and_replays(catalogue, duel, tmp_path):  # D8
    cards, mods = catalogue
    path = tmp_path / "game.jsonl"
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"])
    journal_game(game, path)
    play_random_game(game, random.Random(3), max_actions=30)
    header = json.loads(path.read_text().splitlines()[0])
    assert isinstance(header["seed"], int)
    assert snapshot(load(path)) == snapshot(game)


def test_a_torn_last_line_is_backed_up_and_dropped(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(1), max_actions=10)
    game.journal.close()
    text = path.read_text()
    path.write_text(text[:-25])
    again = load(path)
    assert len(again.history) == 9
    assert path.read_text() == "".join(text.splitlines(keepends=True)[:10])
    backup = tmp_path / "game.jsonl.torn-line-11.bak"
    assert backup.read_text() == text[:-25]


def test_a_journal_edited_by_hand_is_refused_at_its_line(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(1), max_actions=10)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[3])
    entry["action"]["bot"] = "nobody"
    lines[3] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4 and "digest" in err.value.message
    write_resealed(path, lines)                  # the chain recomputed: the replay finds it
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 4 and "refused on replay" in err.value.message


def test_an_event_changed_by_hand_is_a_replay_difference(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(1), max_actions=10)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[2])
    entry["events"][0]["x"] = 1234.5
    lines[2] = json.dumps(entry)
    write_resealed(path, lines)
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 3 and "replay differs at event 1" in err.value.message


def test_undo_and_redo_are_journaled_and_replayed(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(2), max_actions=30)
    done = snapshot(game)
    game.undo()
    game.undo()
    undone = snapshot(game)
    assert load(path) and snapshot(load(path)) == undone
    game.redo()
    game.redo()
    assert snapshot(game) == done
    assert snapshot(load(path)) == done
    assert [json.loads(line) for line in path.read_text().splitlines()[-4:]] == \
        [{"undo": True, "digest": ANY}] * 2 + [{"redo": True, "digest": ANY}] * 2


def test_resume_goes_on_writing_the_same_journal(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    rng = random.Random(4)
    play_random_game(game, rng, max_actions=20)
    game.journal.close()                     # one game at a time holds a journal
    later = resume(path)
    assert snapshot(later) == snapshot(game)
    for _ in range(15):
        if later.expected() == "over":
            break
        assert later.act(random_action(later, rng)).ok
    assert snapshot(load(path)) == snapshot(later)


def test_physical_dice_games_replay_from_the_typed_rolls(catalogue, duel, tmp_path):  # D8
    path = tmp_path / "game.jsonl"
    typing = random.Random(9)
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"],
                    dice=prompt_dice(lambda prompt: str(typing.randint(1, 6)), print))
    journal_game(game, path)
    play_random_game(game, random.Random(9), max_actions=40)
    header = json.loads(path.read_text().splitlines()[0])
    assert header["dice"] == "physical" and header["start"]["rolls"]
    again = load(path)                    # no input needed
    assert snapshot(again) == snapshot(game)


def test_replay_command_prints_a_summary_and_refuses_a_bad_journal(catalogue, duel, tmp_path,
                                                                   capsys):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(1), max_actions=8)
    assert cli_main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "replayed 8 actions; every event matches" in out and "scores: " in out
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:5] + [lines[5][:-3]] + lines[6:]) + "\n")
    assert cli_main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:6: the line is refused" in err and "Traceback" not in err


def test_each_line_carries_the_state_it_left_and_replay_checks_it(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = new_game(catalogue, duel, path)
    play_random_game(game, random.Random(1), max_actions=6)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[5])
    assert len(entry["state"]) == 16
    entry["state"] = "0" * 16
    lines[5] = json.dumps(entry)
    write_resealed(path, lines)
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 6 and "state after this action" in err.value.message
