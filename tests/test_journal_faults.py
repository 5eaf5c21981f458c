"""Journals that survive faults (issue 16): kill -9 at random moments then resume, a torn
last line, a write that fails (disk full), two processes on one journal, unique names."""
import errno
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from bottisota.core.errors import JournalError, JournalWriteError
from bottisota.engine.game import Game
from bottisota.engine.random_play import play_random_game, random_action
from bottisota.formats.loading import bundled_rules
from bottisota.play import journal_file
from bottisota.play.journal import journal_game, load, new_journal_path, read, resume, state_digest
from tests.test_journal import snapshot

SEED = 17


def start(catalogue, duel, path, seed=SEED) -> Game:
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue", "green"], seed=seed)
    journal_game(game, path)
    return game


def clean_game(catalogue, duel, actions: int, seed=SEED) -> Game:
    """The same game played without a journal, for `actions` actions."""
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue", "green"], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        assert game.act(random_action(game, rng)).ok
    return game


# --- kill -9 at random moments ---------------------------------------------------------

def clean_digests(catalogue, duel, actions: int, seed=SEED) -> list[str]:
    """The state digest of a clean game (no journal) after each of its first actions."""
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue", "green"], seed=seed)
    rng, out = random.Random(seed), [state_digest(game.state)]
    for _ in range(actions):
        if game.expected() == "over":
            break
        assert game.act(random_action(game, rng)).ok
        out.append(state_digest(game.state))
    return out


def test_sigkill_at_50_random_moments_then_resume(catalogue, duel, tmp_path):
    """A forked child plays and journals a seeded game; it is killed (SIGKILL) at a random
    moment; resuming gives exactly the state of a clean game of as many actions, and
    the resumed game goes on and replays."""
    rng = random.Random(2026)
    clean = clean_digests(catalogue, duel, 400)
    seen = set()
    for trial in range(50):
        path = tmp_path / f"kill-{trial}.jsonl"
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:                                    # the child: play until killed
            try:
                os.close(ready_r)
                game = start(catalogue, duel, path)
                os.write(ready_w, b"x")
                rng_child = random.Random(SEED)
                for _ in range(400):
                    if game.expected() == "over":
                        break
                    game.act(random_action(game, rng_child))
            finally:
                os._exit(0)
        os.close(ready_w)
        os.read(ready_r, 1)                             # the header is written
        os.close(ready_r)
        time.sleep(rng.uniform(0.0, 0.12))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        size = path.stat().st_size
        game = resume(path)
        if game.journal.notice:
            assert "incomplete" in game.journal.notice
        actions = game.journal.actions
        seen.add(actions)
        assert path.stat().st_size <= size
        assert state_digest(game.state) == clean[actions], trial
        more = random.Random(trial)
        for _ in range(2):
            if game.expected() == "over":
                break
            assert game.act(random_action(game, more)).ok
        game.journal.close()
        if trial % 10 == 0:
            assert state_digest(load(path).state) == state_digest(game.state)
    assert len(seen) >= 10              # the kills fell at many different moments


# --- a torn last line ---------------------------------------------------------------------

def test_a_torn_last_line_is_reported_backed_up_and_resume_goes_on(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    play_random_game(game, random.Random(SEED), max_actions=12)
    game.journal.close()
    whole = path.read_bytes()
    lines = whole.splitlines(keepends=True)
    path.write_bytes(whole[:-len(lines[-1]) // 2])        # half the last line written
    later = resume(path)
    assert later.journal.notice.startswith("line 13 is incomplete")
    assert "backed up to game.jsonl.torn-line-13.bak" in later.journal.notice
    assert "goes on from action 11" in later.journal.notice
    assert (tmp_path / "game.jsonl.torn-line-13.bak").read_bytes() == \
        whole[:-len(lines[-1]) // 2]
    assert path.read_bytes() == b"".join(lines[:-1])
    assert snapshot(later) == snapshot(clean_game(catalogue, duel, 11))
    assert later.act(random_action(later, random.Random(1))).ok
    later.journal.close()
    assert snapshot(load(path)) == snapshot(later)


def test_replay_reports_a_torn_line_and_exits_0(catalogue, duel, tmp_path, capsys):
    from bottisota.cli import main as cli_main

    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    play_random_game(game, random.Random(SEED), max_actions=5)
    game.journal.close()
    with path.open("ab") as fh:
        fh.write(b'{"n":6,"action":{"type":"mo')
    assert cli_main(["replay", str(path)]) == 0
    captured = capsys.readouterr()
    assert "line 7 is incomplete" in captured.err and "replayed 5 actions" in captured.out


def test_a_journal_with_only_a_torn_header_is_refused(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_bytes(b'{"format":"bottisota-journal","vers')
    with pytest.raises(JournalError) as err:
        load(path)
    assert err.value.line == 1 and "header" in err.value.message


def test_a_torn_line_in_a_journal_held_by_a_game_is_left_alone(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    play_random_game(game, random.Random(SEED), max_actions=4)
    with path.open("ab") as fh:                  # what a write in progress looks like
        fh.write(b'{"n":5,')
    loaded = read(path)
    assert loaded.tail.kept and "left out" in loaded.notice
    assert path.read_bytes().endswith(b'{"n":5,')
    game.journal.close()


# --- a write that fails (disk full) --------------------------------------------------------

class FullDisk:
    """A journal file on a disk that fills up: writes put down part of the line, then
    fail with ENOSPC (as a real full disk does) while `full` is set."""

    def __init__(self, real):
        self.real = real
        self.full = True

    def write(self, data):
        if self.full:
            self.real.write(bytes(data[:max(1, len(data) // 2)]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.real.write(data)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_failed_write_leaves_the_game_where_the_journal_is(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    rng = random.Random(SEED)
    play_random_game(game, rng, max_actions=10)
    before, text = snapshot(game), path.read_bytes()
    disk = FullDisk(game.journal.fh)
    game.journal.fh = disk
    action = random_action(game, rng)
    with pytest.raises(JournalWriteError) as err:
        game.act(action)
    message = str(err.value)
    assert "No space left on device" in message and "taken back" in message
    assert snapshot(game) == before                         # the action undone in memory
    assert path.read_bytes() == text                        # no torn line left
    with pytest.raises(JournalWriteError):
        game.undo()                                         # an undo not journaled: not made
    assert snapshot(game) == before and path.read_bytes() == text
    disk.full = False                                       # space again: the game goes on
    assert game.act(action).ok
    play_random_game(game, rng, max_actions=5)
    game.undo()
    game.journal.close()
    assert snapshot(load(path)) == snapshot(game)


def test_a_failed_sync_is_taken_back_too(catalogue, duel, tmp_path, monkeypatch):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    rng = random.Random(3)
    play_random_game(game, rng, max_actions=6)
    before, text = snapshot(game), path.read_bytes()

    def failing_fsync(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(journal_file.os, "fsync", failing_fsync)
    with pytest.raises(JournalWriteError, match="Input/output error"):
        game.act(random_action(game, rng))
    assert snapshot(game) == before
    assert path.read_bytes() == text
    monkeypatch.undo()
    play_random_game(game, rng, max_actions=4)
    game.journal.close()
    assert snapshot(load(path)) == snapshot(game)


def test_the_table_tells_a_failed_write_in_words(catalogue, duel, tmp_path, video):
    import pygame

    from bottisota.view.app import TableApp

    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    rng = random.Random(SEED)
    play_random_game(game, rng, max_actions=4)
    app = TableApp(game, (960, 640))
    game.journal.fh = FullDisk(game.journal.fh)
    before = snapshot(game)
    assert app.act(random_action(game, rng)) is False
    assert snapshot(game) == before
    text, _tone = app.vm.message
    assert text.startswith("the journal ") and "could not be written" in text
    assert "OSError" not in text                     # in words, not an exception's name
    game.journal.close()
    pygame.display.quit()       # SDL's signal handlers go with it (forked workers need SIGTERM)


# --- two processes, one journal; unique names ---------------------------------------------

HOLD = """
import sys, time
from bottisota.play.journal import resume
game = resume(sys.argv[1])
print("holding", flush=True)
sys.stdin.readline()
"""


def test_two_processes_cannot_resume_one_journal(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    play_random_game(game, random.Random(SEED), max_actions=6)
    game.journal.close()
    other = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "holding"
        with pytest.raises(JournalError, match="in use by another game"):
            resume(path)
        with pytest.raises(JournalError, match="in use by another game"):
            start(catalogue, duel, path)             # nor start a new game over it
        assert len(load(path).history) == 6          # reading it is fine
    finally:
        other.stdin.close()
        other.wait(timeout=30)
    later = resume(path)                             # released when the other one ended
    later.journal.close()


def test_the_cli_refuses_a_second_resume_with_one_message(catalogue, duel, tmp_path):
    path = tmp_path / "game.jsonl"
    game = start(catalogue, duel, path)
    play_random_game(game, random.Random(SEED), max_actions=3)
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "bottisota", "play", "--resume", str(path)],
                          capture_output=True, text=True, timeout=120, env=env)
    game.journal.close()
    assert done.returncode == 2
    assert "in use by another game" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_sessions_started_in_the_same_second_get_their_own_files(tmp_path):
    names = {new_journal_path(tmp_path) for _ in range(5)}
    assert len(names) == 5 and all(p.exists() for p in names)
    code = ("import sys; from bottisota.play.journal_file import new_journal_path; "
            "print(new_journal_path(sys.argv[1]))")
    runs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True) for _ in range(4)]
    more = {r.communicate(timeout=60)[0].strip() for r in runs}
    assert len(more) == 4 and not more & {str(p) for p in names}
