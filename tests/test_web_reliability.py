"""A server no client can stall and no page can borrow (issue 28): bounded sends, the
upgrade's Host and Origin checked, seat tokens revoked when a robot takes the seat, a
taken port refused cleanly, a phone told why a commit failed on a full disk."""
from __future__ import annotations

import base64
import json
import logging
import os
import socket
import threading
import time

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.errors import JournalWriteError
from bottisota.web import app as web_app
from bottisota.web.hub import Hub
from bottisota.web.protocol import parse
from bottisota.web.server import bind, start_in_thread
from bottisota.web.tokens import seat_tokens, tokens_path
from tests.test_web import TOKENS, advance, client, new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def shooting_game():
    return advance(new_game())


def upgrade(port: int, token: str, host: str | None = None, origin: str | None = None,
            rcvbuf: int | None = None) -> tuple[socket.socket, bytes]:
    """A raw websocket upgrade: the socket and the server's response head."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    head = [f"GET /ws/{token} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}",
            "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)).decode(),
            "Sec-WebSocket-Version: 13"] + ([f"Origin: {origin}"] if origin else [])
    sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1)
        if not chunk:
            break
        data += chunk
    return sock, data


def frame(text: str) -> bytes:
    """One masked client text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = len(payload)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + size.to_bytes(2)
    return head + mask + masked


def test_upgrades_from_another_origin_or_host_are_refused(shooting_game):
    running = start_in_thread(Hub(shooting_game, dict(TOKENS)), "127.0.0.1", 0)
    port, token = running.port, TOKENS["red"]
    try:
        for host, origin in ((None, "http://evil.example"), ("attacker.example", None),
                             (f"attacker.example:{port}", f"http://attacker.example:{port}")):
            sock, head = upgrade(port, token, host, origin)
            sock.close()
            assert not head.startswith(b"HTTP/1.1 101"), (host, origin, head)
        for host, origin in ((None, f"http://127.0.0.1:{port}"), (f"localhost:{port}", None)):
            sock, head = upgrade(port, token, host, origin)
            sock.close()
            assert head.startswith(b"HTTP/1.1 101"), (host, origin, head)
    finally:
        running.stop()


def test_a_stalled_reader_never_holds_up_the_other_seats(shooting_game, monkeypatch, caplog):
    """A seat that never reads while four others play: the others' updates never stop
    for more than 1 s, and the stalled one is dropped with its reason (the send
    timeout shortened from 5 s to 1 s, the run from 60 s to 8 s)."""
    from websockets.sync.client import connect

    monkeypatch.setattr(web_app, "SEND_SECONDS", 1.0)
    caplog.set_level(logging.WARNING, logger="bottisota.web")
    game = shooting_game
    hub = Hub(game, dict(TOKENS), commit=True)
    listener = bind("127.0.0.1", 0)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)   # fills in seconds
    running = start_in_thread(hub, "127.0.0.1", 0, sock=listener)
    port, stop = running.port, threading.Event()
    arrivals: dict[int, list[float]] = {k: [] for k in range(4)}
    sizes: dict[int, int] = {}

    def read(k: int, seat: str) -> None:
        with connect(f"ws://127.0.0.1:{port}/ws/{TOKENS[seat]}") as ws:
            while not stop.is_set():
                try:
                    got = ws.recv(timeout=0.5)
                except TimeoutError:
                    continue
                arrivals[k].append(time.monotonic())
                sizes[k] = sizes.get(k, 0) + len(got)

    readers = [threading.Thread(target=read, args=(k, seat), daemon=True)
               for k, seat in enumerate(("red", "blue", "table", "red"))]
    for t in readers:
        t.start()
    weapon = game.state.bots["red-1"].stats.weapons[0].name
    measure = {"type": "premeasure", "bot": "red-1", "weapon": weapon, "target": "blue-1"}
    stalled, head = upgrade(port, TOKENS["blue"], rcvbuf=4096)
    assert head.startswith(b"HTTP/1.1 101")
    started = time.monotonic()
    try:
        k = 0
        while time.monotonic() - started < 8.0:
            with hub.table_lock, hub.lock:          # the table plays on: every change is
                (game.undo if k % 2 == 0 else game.redo)()      # pushed to every seat
            try:                    # pre-measures whose answers it never reads
                for _ in range(5):
                    stalled.sendall(frame(json.dumps(measure)))
            except OSError:
                pass
            k += 1
            time.sleep(0.1)
    finally:
        ended = time.monotonic()
        stop.set()
        for t in readers:
            t.join(timeout=5)
        stalled.close()
        running.stop()
    for k, times in arrivals.items():
        times = [t for t in times if t > started + 0.5] + [ended]    # silence at the end too
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert len(times) > 20 and max(gaps) <= 1.0, (k, len(times), max(gaps, default=None))
    assert any("connection dropped" in r.getMessage() for r in caplog.records), sizes


def test_a_seat_a_robot_takes_gets_a_new_token(tmp_path, shooting_game):
    journal = tmp_path / "g.jsonl"
    before = seat_tokens(journal, ["red", "blue"])
    after = seat_tokens(journal, ["red", "blue"], robots=["blue"])
    assert after["red"] == before["red"] and after["table"] == before["table"]
    assert after["blue"] != before["blue"]
    assert json.loads(tokens_path(journal).read_text())["seats"]["blue"] == after["blue"]
    hub = Hub(shooting_game, after, commit=True, robots={"blue": object()})
    assert hub.seat_for(before["blue"]) is None            # the old link opens nothing
    _hub, http = client(shooting_game)
    from starlette.websockets import WebSocketDisconnect
    http.app = web_app.make_app(hub)
    with pytest.raises(WebSocketDisconnect), http.websocket_connect(f"/ws/{before['blue']}"):
        pass


def test_a_phone_is_told_in_words_when_the_journal_cannot_be_written(shooting_game,
                                                                       monkeypatch):
    hub = Hub(shooting_game, dict(TOKENS), commit=True)

    def full(*args, **kw):
        raise JournalWriteError("/where/game.jsonl", "No space left on device")

    monkeypatch.setattr(shooting_game, "act", full)
    msg = parse(json.dumps({"type": "commit", "id": 3, "action": {"bot": "red-1", "pass": True}}))
    answer = hub.handle(hub.seats["red"], msg)
    words = answer.replies[0]["message"]
    assert "No space left on device" in words and "disk space" in words
    assert "/where" not in words                    # no path reaches a phone


def _taken_port() -> tuple[socket.socket, int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock, sock.getsockname()[1]


def test_serve_on_a_taken_port_says_so_and_leaves_no_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    taken, port = _taken_port()
    try:
        assert cli_main(["serve", "duel", "--port", str(port)]) == 2
    finally:
        taken.close()
    err = capsys.readouterr()
    assert f"cannot listen on 127.0.0.1:{port}" in err.err and "--port" in err.err
    assert "http://" not in err.out                  # no link printed
    assert not list(tmp_path.rglob("*.json*"))       # no journal, no seats file


def test_play_phones_on_a_taken_port_says_so_and_leaves_no_files(tmp_path, monkeypatch,
                                                                 capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    taken, port = _taken_port()
    try:
        code = cli_main(["play", "duel", "--headless", "--phones", "--host", "127.0.0.1",
                         "--phones-port", str(port), "--frames", "1"])
    finally:
        taken.close()
    assert code == 2
    assert "cannot listen on" in capsys.readouterr().err
    assert not list(tmp_path.rglob("*.json*"))


def test_play_phones_says_where_it_listens(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert cli_main(["play", "duel", "--headless", "--phones", "--host", "127.0.0.1",
                     "--phones-port", "0", "--frames", "1"]) == 0
    out = capsys.readouterr().out
    assert "listening on this machine only (127.0.0.1)" in out
    assert "red: http://127.0.0.1:" in out


def test_headless_play_whose_journal_cannot_be_written_exits_74(tmp_path, monkeypatch,
                                                                capsys):
    (tmp_path / "bottisota").mkdir()
    (tmp_path / "bottisota" / "games").write_text("a file where the games folder goes")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code = cli_main(["play", "duel", "--robot", "red,blue", "--headless", "--seed", "1"])
    assert code == 74
    assert "could not be written" in capsys.readouterr().err
