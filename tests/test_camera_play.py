"""`play --camera` (issue 34): the camera read live while the table plays, on recorded
synthetic frames (no camera, no screen). A folder of frames replays a whole turn
through the table: check mode (no drift while the table matches), move input (the
active bot's miniature moved by hand becomes its plan; Enter commits it, journaled
with the camera's reading), a bumped miniature ringed on the table, F9 making the game
take the camera's place (a journaled correction); the journal replays to the same
state. The table's frames never wait for the camera."""
from __future__ import annotations

import json
import os
import random
import threading
import time
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2", reason="the camera extra (OpenCV) is not installed")

import pygame  # noqa: E402

from bottisota.core.actions import Forward, Move  # noqa: E402
from bottisota.engine.game import Game  # noqa: E402
from bottisota.engine.random_play import random_action  # noqa: E402
from bottisota.formats.content import find  # noqa: E402
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue  # noqa: E402
from bottisota.play.journal import journal_game, load  # noqa: E402
from bottisota.view.app import TableApp  # noqa: E402
from bottisota.viewmodel.camera_feed import CameraCheck  # noqa: E402
from bottisota.vision import calibration  # noqa: E402
from bottisota.vision.camera_model import overhead  # noqa: E402
from bottisota.vision.frames import folder_frames  # noqa: E402
from bottisota.vision.live import LiveCamera  # noqa: E402
from bottisota.vision.markers import assign  # noqa: E402
from bottisota.vision.synthetic import Marker, Scene, hand, render  # noqa: E402

pytestmark = pytest.mark.usefixtures("video")     # tests/conftest.py: no screen

WEBCAM = {"distortion": (-0.12, 0.03, 0.0, 0.0, 0.0), "tilt": (2.0, -1.5)}
SIZE = (1280, 800)


def game_at_a_move(tmp_path: Path) -> tuple[Game, Path]:
    """A journaled duel, played on at random until a bot's move is due and it can go
    5 cm forward."""
    rules = bundled_rules()
    cards, mods = load_catalogue()
    for seed in range(1, 30):
        game = Game.new(load_arena(find("arena", "duel"), rules), rules, cards, mods,
                        ["red", "blue"], seed=seed)
        journal = tmp_path / f"game-{seed}.jsonl"
        journal_game(game, str(journal))
        rng = random.Random(seed)
        for _n in range(40):
            bot = game.active_bot()
            if game.expected() == "over" or (
                    game.expected() == "move" and len(game.state.live_bots()) >= 2
                    and game.preview(Move(bot.id, (Forward(5.0),))).refusal is None):
                break
            game.act(random_action(game, rng))
        if game.expected() == "move":
            return game, journal
        game.journal.close()
    raise AssertionError("no duel reached a move with room for 5 cm")


def table_markers(game: Game, moved: dict[str, tuple[float, float, float]] | None = None
                  ) -> list[Marker]:
    ids = assign(list(game.state.bots))
    out = []
    for b in game.state.bots.values():
        if not b.on_table:
            continue
        x, y, facing = (moved or {}).get(b.id, (b.x, b.y, b.facing))
        out.append(Marker(ids[b.id], x, y, b.z + b.stats.height, facing))
    return out


def write_turn(folder: Path, model, game: Game, bumped_by: float = 1.2) -> tuple[str, str]:
    """Frames of a whole turn: the table as the referee has it; a hand moving the
    active bot's miniature 5 cm forward; it still there; then another bumped."""
    folder.mkdir()
    size = game.state.arena.size
    mover = game.active_bot()
    other = next(b for b in game.state.bots.values() if b.id != mover.id and b.on_table)
    fx, fy = mover.x, mover.y
    from bottisota.core.compass import vector

    vx, vy = vector(mover.facing)
    after = (fx + 5.0 * vx, fy + 5.0 * vy, mover.facing)
    start = Scene(size, table_markers(game))
    moved = Scene(size, table_markers(game, {mover.id: after}))
    bumped = Scene(size, table_markers(game, {mover.id: after,
                                              other.id: (other.x + bumped_by, other.y,
                                                         other.facing)}))
    shots = ([start] * 7 + [Scene(size, start.markers, [hand(fx, fy + 2 + n, z=14)])
                            for n in range(3)]
             + [moved] * 7 + [bumped] * 7)
    for n, scene in enumerate(shots):
        cv2.imwrite(str(folder / f"frame-{n:03d}.png"),
                    render(model, scene, blur=0.8, noise=2.0, jpeg=85, seed=n))
    return mover.id, other.id


def run_until(app: TableApp, done, seconds: float = 60.0) -> None:
    """Frames of the table until `done()` (the camera's thread reads meanwhile)."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "the camera's reading never came"
        app.step(1 / 60)
        time.sleep(0.005)


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def journal_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_recorded_turn_through_the_table_check_mode_move_input_and_f9(tmp_path):
    game, journal = game_at_a_move(tmp_path)
    model = overhead(game.state.arena.size, **WEBCAM)
    mover, other = write_turn(tmp_path / "frames", model, game)
    feed = LiveCamera(model, folder_frames(tmp_path / "frames"), recorded=True).start()
    try:
        app = TableApp(game, SIZE)
        check = CameraCheck(feed)
        app.camera_hooks.start(check)
        # check mode: the first still frames match the referee's table: no ring
        run_until(app, lambda: check.reading is not None)
        assert check.drifts == [] and check.move is None
        # move input: the active bot's miniature moved by hand becomes its plan
        run_until(app, lambda: check.move is not None)
        steps = check.move.steps
        assert check.move.planned.refusal is None
        assert len(steps) == 1 and isinstance(steps[0], Forward)
        assert steps[0].cm == pytest.approx(5.0, abs=0.2)
        assert app.vm.plan is not None and tuple(app.vm.plan.steps) == steps
        assert any("moved by hand" in line.text for line in app.vm.log.lines)
        key(pygame.K_RETURN)
        run_until(app, lambda: len(game.history) > 0 and isinstance(
            game.history[-1].action, Move) and game.history[-1].action.bot == mover)
        moved_line = journal_lines(journal)[-1]
        notes = moved_line["events"][:moved_line["notes"]]
        used = [n for n in notes if n["type"] == "camera_reading" and n["use"] == "move"]
        assert len(used) == 1 and used[0]["bot"] == mover and used[0]["frames"] >= 5
        # check mode after the action: the bumped miniature gets its ring
        run_until(app, lambda: [d.bot for d in check.drifts] == [other])
        assert check.drifts[0].distance == pytest.approx(1.2, abs=0.15)
        assert any(f"camera: {other} stands" in line.text for line in app.vm.log.lines)
        shot = Path(os.environ.get("CAMERA_SHOT", tmp_path / "rings.png"))   # README's picture
        pygame.image.save(app.draw(), str(shot))
        # F9: the game takes the camera's place, journaled as a correction with the reading
        bumped = game.state.bots[other]
        want = (check.drifts[0].seen.x, check.drifts[0].seen.y)
        key(pygame.K_F9)
        run_until(app, lambda: game.history[-1].action.__class__.__name__ == "Correct")
        assert (bumped.x, bumped.y) == pytest.approx(want, abs=0.01)
        line = journal_lines(journal)[-1]
        notes = line["events"][:line["notes"]]
        assert [n["use"] for n in notes if n["type"] == "camera_reading"][-1] == "correction"
        assert any(n["use"] == "check" and n["bot"] == other for n in notes)
        # once the game has the camera's place, the ring goes
        run_until(app, lambda: check.reading is not None and check.drifts == [])
    finally:
        feed.close()
    # the journal replays (verified) to the same state: same seed, same actions
    again = load(str(journal))
    for b in game.state.bots.values():
        a = again.state.bots[b.id]
        assert (a.x, a.y, a.facing) == (b.x, b.y, b.facing)
    assert again.state.dice.used == game.state.dice.used


class Stuck:
    """A camera that gives one frame and then hangs (a driver that stopped answering)."""

    def __init__(self, frame) -> None:
        self.frame, self.gate, self.given = frame, threading.Event(), 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.given:
            self.gate.wait(30)
            raise StopIteration
        self.given += 1
        return self.frame


def test_the_tables_frames_never_wait_for_the_camera(tmp_path):
    game, _journal = game_at_a_move(tmp_path)
    model = overhead(game.state.arena.size, **WEBCAM)
    stuck = Stuck(render(model, Scene(game.state.arena.size, table_markers(game))))
    feed = LiveCamera(model, stuck).start()
    try:
        app = TableApp(game, SIZE)
        app.camera_hooks.start(CameraCheck(feed))
        app.step(1 / 60)
        started = time.perf_counter()
        for _n in range(20):
            app.step(1 / 60)
        assert (time.perf_counter() - started) / 20 < 0.5   # the camera hangs; frames go on
        assert app.camera_hooks.check.reading is None
    finally:
        stuck.gate.set()
        feed.close()


def test_play_camera_headless_rings_a_bumped_miniature(tmp_path, capsys):
    """`bottisota play --resume GAME --camera FRAMES --headless --screenshot`: the
    recorded frames show one miniature 1.5 cm off; the table rings it and says so."""
    from bottisota.cli import main as cli_main

    game, journal = game_at_a_move(tmp_path)
    game.journal.close()
    model = overhead(game.state.arena.size, **WEBCAM)
    calibration.save(model, tmp_path / "config")
    other = next(b for b in game.state.bots.values() if b.id != game.active_bot().id)
    scene = Scene(game.state.arena.size,
                  table_markers(game, {other.id: (other.x + 1.5, other.y, other.facing)}))
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(6):
        cv2.imwrite(str(frames / f"{n:02d}.png"), render(model, scene, blur=0.8, noise=2.0,
                                                        seed=n))
    picture = tmp_path / "table.png"
    code = cli_main(["play", "--resume", str(journal), "--headless", "--camera", str(frames),
                     "--camera-folder", str(tmp_path / "config"), "--screenshot",
                     str(picture)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"camera: {other.id} stands 1.5 cm" in out
    assert picture.stat().st_size > 1000


def test_camera_options_need_the_camera(tmp_path, capsys):
    from bottisota.cli import main as cli_main

    assert cli_main(["play", "--headless", "--camera-side", "3"]) == 2
    assert "--camera" in capsys.readouterr().err
