"""`play --phones` with its threads (issue 15): the table's frame draws beside the
phones' answers, never under them.

The table's frame holds only the hub's `table_lock` (a seat's commit takes it
too); phones' pre-measures and plans hold only the hub's `lock`; what seats show
on the table is published as one snapshot; a phone's drag is answered for its
newest position only; the game's cache of move previews is replaced whole.
"""
from __future__ import annotations

import threading
import time

import pytest

from bottisota.core.actions import Forward, Move, Pass, Turn
from bottisota.engine.movement.moves import preview_move
from bottisota.view.app import TableApp
from bottisota.view.phone_links import PhoneTable
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.web.hub import Hub
from bottisota.web.protocol import parse
from bottisota.web.server import Phones
from bottisota.web.table_link import seat_links
from tests.test_web import TOKENS, advance, answer, client, new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def shooting_game():
    """Round 2, red's artillery (red-1) in its shooting phase, blue-1 across the table."""
    return advance(new_game())


def _table(game) -> tuple[TableApp, Hub]:
    hub = Hub(game, dict(TOKENS), commit=True)
    phones = Phones(hub, None, seat_links({"red": TOKENS["red"]}, "192.168.1.20", 8765))
    app = TableApp(game, (800, 600), robot_pace=0.0)
    app.phones = PhoneTable(phones, show_links=False)
    return app, hub


def _holding(lock, release: threading.Event, held: threading.Event) -> threading.Thread:
    """Another thread takes `lock` (a phone's long answer, or the table's frame) and
    keeps it until `release`."""
    def hold() -> None:
        with lock:
            held.set()
            release.wait(10)
    thread = threading.Thread(target=hold, daemon=True)
    thread.start()
    assert held.wait(5)
    return thread


def test_the_tables_frame_does_not_wait_for_a_phones_answer(video):
    game = advance(new_game())
    app, hub = _table(game)
    app.phones.frame(app, 1 / 60)
    release, held = threading.Event(), threading.Event()
    thread = _holding(hub.lock, release, held)      # a phone's pre-measure, still running
    try:
        start = time.perf_counter()
        app.phones.frame(app, 1 / 60)               # draws: it needs no answer's lock
        assert time.perf_counter() - start < 5
        assert app.phones.wait_ms < 100
    finally:
        release.set()
        thread.join(5)


def test_a_phones_plan_is_answered_while_the_table_draws_and_a_commit_waits(shooting_game):
    hub, c = client(shooting_game, commit=True)
    release, held = threading.Event(), threading.Event()
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        thread = _holding(hub.table_lock, release, held)      # the table mid-frame
        try:
            ws.send_json({"type": "plan", "id": 1, "bot": "red-1",
                          "steps": [{"forward": 2}]})
            assert answer(ws, 1)["type"] == "plan"            # a read: answered at once
            entries = len(shooting_game.history)
            ws.send_json({"type": "commit", "id": 2, "action": {"bot": "red-1", "pass": True}})
            time.sleep(0.3)
            assert len(shooting_game.history) == entries      # waits for the frame's end
        finally:
            release.set()
            thread.join(5)
        assert answer(ws, 2)["type"] == "done"
        assert len(shooting_game.history) == entries + 1


def test_a_drag_is_answered_for_its_newest_position_only(shooting_game):
    """While the server is busy, a waiting plan is replaced by a newer one (answered
    `superseded`); every message is answered once, in order, the newest with its plan."""
    hub, c = client(shooting_game)
    release, held = threading.Event(), threading.Event()
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        ws.receive_json()
        thread = _holding(hub.lock, release, held)            # a long answer in progress
        try:
            ws.send_json({"type": "plan", "id": 1, "bot": "blue-1", "steps": [{"forward": 1}]})
            time.sleep(0.3)                                   # taken up, waiting for the lock
            for mid, cm in ((2, 2), (3, 3), (4, 4)):
                ws.send_json({"type": "plan", "id": mid, "bot": "blue-1",
                              "steps": [{"forward": cm}]})
            ws.send_json({"type": "ping", "id": 5})
            time.sleep(0.3)                                   # all read while the lock is held
        finally:
            release.set()
            thread.join(5)
        replies = {}
        while 5 not in replies:
            m = ws.receive_json()
            if "re" in m:
                assert m["re"] not in replies                 # one answer a message
                replies[m["re"]] = m
    assert [replies[i]["type"] for i in (1, 2, 3, 4, 5)] == [
        "plan", "superseded", "superseded", "plan", "pong"]
    assert replies[4]["plan"]["steps"] == [{"forward": 4}]
    assert hub.desks["blue"].plan["steps"] == [{"forward": 4}]


def test_the_shown_work_is_published_as_the_core_measured_it(shooting_game, video):
    """The table draws the server's own answers while the game is as they were
    measured for, and measures again itself only once the game has moved on."""
    game = shooting_game
    app, hub = _table(game)
    seat = hub.seats["blue"]
    hub.handle(seat, parse('{"type": "show", "on": true}'))
    hub.handle(seat, parse('{"type": "plan", "bot": "blue-1", "steps": [{"forward": 3}]}'))
    mark, (shown,) = hub.on_table
    assert mark == hub.game_mark() and shown.seat == "blue"
    assert isinstance(shown.preview, MovePreview)
    fresh = preview_move(game.state, Move("blue-1", (Forward(3.0),)))
    assert shown.preview.result == fresh                      # the core's own walk
    (got,) = app.phones.shared(game)
    assert got == ("blue", None, None, shown.preview)         # drawn as published
    app.phones.frame(app, 1 / 60)
    assert app.act(_pass(game))                               # the table acts: red passes
    hub.handle(seat, parse('{"type": "plan", "bot": "blue-1", "steps": [{"forward": 2}]}'))
    assert hub.on_table[0] != hub.game_mark()      # the others' work not yet measured again
    (again,) = app.phones.shared(game)                        # so measured here
    assert again[0] == "blue" and again[3] is not hub.on_table[1][0].preview
    assert again[3].result == game.preview_move(game.state, Move("blue-1", (Forward(2.0),)))
    assert hub.poll() and hub.on_table[0] == hub.game_mark()  # the server's, once more


def _pass(game) -> Pass:
    return Pass(game.active_bot().id)


def test_the_preview_cache_is_one_pair_replaced_whole(shooting_game):
    """Game.preview_move keeps (the state's key, its answers) as one object: a
    thread that reads it never pairs one state's key with another's answers."""
    game = shooting_game
    move = Move("blue-1", (Forward(2.0), Turn(30.0)))
    first = game.preview_move(game.state, move)
    key, walks = game._walks
    assert walks[move] is first
    assert game.act(_pass(game)).ok                           # the state changed
    second = game.preview_move(game.state, move)
    new_key, new_walks = game._walks
    assert new_key != key and new_walks is not walks and move in new_walks
    assert second == preview_move(game.state, move)


def test_previews_from_many_threads_match_a_fresh_walk(shooting_game):
    game = shooting_game
    moves = [Move("blue-1", (Forward(0.5 + i * 0.25),)) for i in range(24)]
    expected = {m: preview_move(game.state, m) for m in moves}
    errors: list[object] = []

    def walk(offset: int) -> None:
        for i in range(60):
            m = moves[(i + offset) % len(moves)]
            if game.preview_move(game.state, m) != expected[m]:
                errors.append(m)

    threads = [threading.Thread(target=walk, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
