"""`play --phones` (issue 15): the table view and the phone seats on one game, headless.

The phones are in-process websocket clients (Starlette's TestClient, its own thread);
the table is a `TableApp` on a plain surface, each frame run by `PhoneTable.frame`
under the server's lock, as `bottisota play --phones` runs it.
"""
from __future__ import annotations

import threading
import time
import warnings

import pygame
import pytest

from bottisota.core.actions import Forward, Move, Pass, SetOverwatch
from bottisota.engine.shooting.premeasure import premeasure
from bottisota.play.journal import read, state_digest
from bottisota.view.app import TableApp
from bottisota.view.phone_links import PhoneTable
from bottisota.viewmodel.session import robot_seats
from bottisota.web.app import make_app
from bottisota.web.hub import Hub
from bottisota.web.server import Phones, start_phones
from bottisota.web.table_link import seat_links
from tests.test_web import SPOTS, TOKENS, advance, answer, new_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def table_and_phones(game, robots=None, commit=True):
    """The table view and a phone server on the same game (no socket: TestClient)."""
    hub = Hub(game, dict(TOKENS), commit=commit, robots=robots)
    phones = Phones(hub, None, seat_links({"red": TOKENS["red"], "blue": TOKENS["blue"]},
                                          "192.168.1.20", 8765))
    app = TableApp(game, (1280, 800), robots=robots, robot_pace=0.0)
    app.phones = PhoneTable(phones)
    return app, hub, TestClient(make_app(hub))


def lines(app) -> list[str]:
    return [ln.text for ln in app.vm.log.lines if not ln.undone]


def test_a_phones_commit_reaches_the_tables_state_log_and_journal(video, tmp_path):
    journal = tmp_path / "game.jsonl"
    game = advance(new_game(str(journal)))           # round 2, red-1 to shoot
    app, hub, c = table_and_phones(game)
    app.phones.frame(app, 1 / 60)
    version, entries = app.vm.version, len(game.history)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "commit", "id": 1, "action": {"bot": "red-1", "pass": True}})
        assert answer(ws, 1)["type"] == "done"
    app.phones.frame(app, 1 / 60)
    assert len(game.history) == entries + 1 and app.vm.version > version
    assert lines(app)[-2:] == ["from red's phone:", "red-1 passes"] or \
        "from red's phone:" in lines(app)
    assert "red-1 passes" in lines(app)
    # the journal holds it: a replay of the file gives the table's state
    replayed = read(journal).game
    assert state_digest(replayed.state) == state_digest(game.state)
    assert replayed.history[-1].action == Pass("red-1")
    # the table's own caches follow (its selection is the new active bot's)
    assert app.active_bot().player == "blue"


def test_a_table_action_is_seen_by_the_phone(video):
    game = advance(new_game())
    app, hub, c = table_and_phones(game, commit=False)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        hello = ws.receive_json()
        assert hello["state"]["turn"] == "red"
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0,
                                             unicode="p"))     # the laptop passes for red
        app.phones.frame(app, 1 / 60)
        assert game.history[-1].action == Pass("red-1")
        for _ in range(50):                              # the server's watcher pushes it
            m = ws.receive_json()
            if m["type"] == "state" and m["state"]["version"] > hello["state"]["version"]:
                break
        assert m["state"]["turn"] == "blue" and m["state"]["active"] == "blue-1"
    # the table logged its own action once, with no phone named
    assert "red-1 passes" in lines(app) and not any("phone" in t for t in lines(app))


def test_what_a_seat_shows_is_drawn_on_the_table_and_the_links_toggle(video):
    game = advance(new_game())
    app, hub, c = table_and_phones(game)
    app.vm.panel = "hidden"
    app.windows.camera = app.windows.fit_camera()
    app.phones.show_links = False
    plain = pygame.image.tobytes(app.phones.frame(app, 1 / 60), "RGB")
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                      "target": "blue-1"})
        answer(ws, 1)
        ws.send_json({"type": "show", "id": 2, "on": True})
        answer(ws, 2)
    work = app.phones.shared(game)
    assert [(seat, pm.bot, pm.weapon, focus) for seat, pm, focus, _ in work] == \
        [("red", "red-1", "Mortar", "blue-1")]
    shown = pygame.image.tobytes(app.phones.frame(app, 1 / 60), "RGB")
    assert shown != plain
    # F6 shows the links: white QR cards at the foot of the table
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F6, mod=0, unicode=""))
    surface = app.phones.frame(app, 1 / 60)
    assert app.phones.show_links and "seat links shown" in app.vm.log.lines[-1].text
    area = app.windows.table_area
    strip = [surface.get_at((x, y))[:3] == (255, 255, 255)
             for x in range(area.x, area.right, 8)
             for y in range(area.bottom - 300, area.bottom, 8)]
    assert sum(strip) > len(strip) // 5


def test_the_table_seat_undoing_from_a_browser_strikes_the_tables_log(video):
    game = advance(new_game())
    app, hub, c = table_and_phones(game)
    passes = lines(app).count("red-1 passes")
    with c.websocket_connect("/ws/" + TOKENS["table"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "commit", "id": 1, "action": {"bot": "red-1", "pass": True}})
        answer(ws, 1)
        app.phones.frame(app, 1 / 60)
        assert lines(app).count("red-1 passes") == passes + 1
        assert "from table's phone:" in lines(app)
        ws.send_json({"type": "undo", "id": 2})
        assert answer(ws, 2)["type"] == "done"
        app.phones.frame(app, 1 / 60)
        assert lines(app).count("red-1 passes") == passes and app.active_bot().id == "red-1"
        ws.send_json({"type": "redo", "id": 3})
        answer(ws, 3)
        app.phones.frame(app, 1 / 60)
        assert lines(app).count("red-1 passes") == passes + 1
        assert app.active_bot().player == "blue"


def _phone_plays_red(client, game, hub, until_round, stop, errors, commits):
    """Red on its phone: plans (a drag) and commits whenever it is red's turn."""
    try:
        with client.websocket_connect("/ws/" + TOKENS["red"]) as ws:
            ws.receive_json()
            mid = 0
            while not stop.is_set():
                with hub.lock:                       # what the phone's screen says now
                    if game.state.round > until_round or game.expected() == "over":
                        break
                    bot, due = game.active_bot(), game.expected()
                    red = bot is not None and bot.player == "red"
                    if red and due == "place":
                        action = {"bot": bot.id, "place": list(SPOTS["red"])}
                    elif red and due == "move":
                        action = {"bot": bot.id, "move": [{"forward": bot.stats.min_move}]}
                    elif red:
                        action = {"bot": bot.id, "pass": True}
                    else:
                        action = None
                    mine = next((b.id for b in game.state.bots.values()
                                 if b.player == "red" and b.on_table), None)
                mid += 1
                if mine is not None:                 # a drag update, whoever's turn it is
                    ws.send_json({"type": "plan", "id": mid, "bot": mine,
                                  "steps": [{"forward": 0.5 + (mid % 20) * 0.1}]})
                    answer(ws, mid)
                if action is not None:
                    mid += 1
                    ws.send_json({"type": "commit", "id": mid, "action": action})
                    reply = answer(ws, mid)
                    if reply["type"] == "done":
                        commits.append(action)
                    elif reply["type"] not in ("refused", "error"):
                        errors.append(reply)
                time.sleep(0.002)
    except Exception as err:         # reported by the test
        errors.append(err)


def test_no_race_when_the_phone_and_the_table_act_at_once(video, tmp_path):
    """Red commits from its phone and drags a plan without pause while the table's
    robot plays blue frame after frame: every action lands whole, in turn, journaled."""
    journal = tmp_path / "race.jsonl"
    game = new_game(str(journal))
    robots = robot_seats(["blue"], ["red", "blue"], game)
    app, hub, c = table_and_phones(game, robots=robots)
    stop, errors, commits = threading.Event(), [], []
    phone = threading.Thread(target=_phone_plays_red,
                             args=(c, game, hub, 3, stop, errors, commits), daemon=True)
    phone.start()
    deadline = time.monotonic() + 60
    frames = 0
    while phone.is_alive() and time.monotonic() < deadline:
        app.phones.frame(app, 1 / 60)
        frames += 1
    stop.set()
    phone.join(10)
    assert not errors, errors
    assert game.state.round > 3 or game.expected() == "over"
    assert commits and frames > 10
    assert not any("could not act" in t or "refused" in t for t in lines(app))
    # every red action is in the log once, named as the phone's, and the journal
    # rebuilds exactly the state both sides played into
    assert sum(t == "from red's phone:" for t in lines(app)) == len(commits)
    assert [e.action.bot.startswith("red") for e in game.history].count(True) == len(commits)
    replayed = read(journal).game
    assert state_digest(replayed.state) == state_digest(game.state)


def test_robot_watchers_answer_a_phones_move():
    """Red's phone commits a move past blue-1 on overwatch, blue played by a robot:
    the robot's overwatch table decides fire or hold (R23), the decision journaled
    as the move's note and the move's hold_fire as it decided, as at the table."""
    game = advance(new_game())                       # round 2: red-1 (20, 36), blue-1 (40, 36)
    assert game.act(Pass("red-1")).ok
    assert game.act(Move("blue-1", ())).ok
    assert game.act(SetOverwatch("blue-1")).ok       # round 3: red-1 to move, in blue's sight
    robots = robot_seats(["blue"], ["red", "blue"], game)
    hub = Hub(game, dict(TOKENS), commit=True, robots=robots)
    move = Move("red-1", (Forward(7.0),))
    assert [o.watcher for o in game.preview(move).overwatch] == ["blue-1"]
    reply = hub.handle(hub.seats["red"], parse_commit_move("red-1", 7.0)).replies[0]
    assert reply["type"] == "done"
    entry = game.history[-1]
    notes = entry.events[:entry.notes]
    (decision,) = [e for e in notes if e["type"] == "robot_decision"]
    assert decision["player"] == "blue"
    held = "blue-1" in entry.action.hold_fire
    fired = any(e["type"] == "overwatch_fire" for e in entry.events)
    assert held != fired                             # it did as its table said
    assert any(t.startswith("OVERWATCH") or "blue-1" in t for t in reply["events"]) or held


def parse_commit_move(bot: str, cm: float):
    import json

    from bottisota.web.protocol import parse

    return parse(json.dumps({"type": "commit", "action": {"bot": bot, "move": [{"forward": cm}]}}))


def test_start_phones_listens_and_gives_the_human_seats_links(video, tmp_path):
    game = advance(new_game())
    robots = robot_seats(["blue"], ["red", "blue"], game)
    phones = start_phones(game, str(tmp_path / "g.jsonl"), host="127.0.0.1", port=0,
                          robots=robots)
    try:
        assert [link.seat for link in phones.links] == ["red"]
        assert phones.links[0].url.startswith(f"http://127.0.0.1:{phones.running.port}/s/")
        assert phones.hub.robots is robots and not phones.hub.drive_robots
    finally:
        phones.stop()


# --- one source of words: the phone reads what the table reads --------------------------------

def test_the_phones_words_are_the_tables():
    from bottisota.viewmodel.log import QUIET
    from bottisota.viewmodel.model import turn_line
    from bottisota.viewmodel.targets import target_words, verdict
    from bottisota.viewmodel.words import describe
    from bottisota.web import snapshot

    game = advance(new_game())
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    core = premeasure(game.state, "red-1", "Mortar", "blue-1")
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        hello = ws.receive_json()
        assert hello["state"]["line"] == turn_line(game) == "Round 2 - red to shoot (red-1)"
        ws.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                      "target": "blue-1"})
        pm = answer(ws, 1)["premeasure"]
        for got, t in zip(pm["targets"], core.targets, strict=True):
            assert got["words"] == target_words(t, core) and got["verdict"] == verdict(t)
            assert got["refusal"] == t.refusal        # the core's reason, with its rule
        ws.send_json({"type": "commit", "id": 2, "action": {"bot": "red-1", "pass": True}})
        done = answer(ws, 2)
    table = [describe(e) for e in game.history[-1].events if e["type"] not in QUIET]
    assert done["events"] == table and "red-1 passes" in table
    assert not hasattr(snapshot, "_WORDS") and not hasattr(snapshot, "words")
    # a refusal reads as the table says it: the core's rule and reason
    ref = snapshot.refusal_json(game.legal(Pass("red-1")))
    assert ref["text"] == str(game.legal(Pass("red-1"))) and ref["rule"]


# --- robot seats in a served game (`serve --robot blue`) ----------------------------------------

def test_a_served_robot_plays_its_seat_and_journals_its_decisions(tmp_path):
    journal = tmp_path / "served.jsonl"
    game = new_game(str(journal))
    robots = robot_seats(["blue"], ["red", "blue"], game)
    hub = Hub(game, dict(TOKENS), commit=True, robots=robots, drive_robots=True, robot_pace=0)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        mid = 0
        deadline = time.monotonic() + 60
        while game.state.round <= 2 and game.expected() != "over":
            assert time.monotonic() < deadline
            with hub.lock:
                bot, due = game.active_bot(), game.expected()
            if bot.player == "blue":            # the server's watcher plays it: wait
                time.sleep(0.05)
                continue
            action = ({"bot": bot.id, "place": list(SPOTS["red"])} if due == "place" else
                      {"bot": bot.id, "move": [{"forward": bot.stats.min_move}]}
                      if due == "move" else {"bot": bot.id, "pass": True})
            mid += 1
            ws.send_json({"type": "commit", "id": mid, "action": action})
            assert answer(ws, mid)["type"] == "done"
        # the table's seat may not act for the robot, nor red's phone
        with hub.lock:
            if game.whose_turn() == "blue":
                bot = game.active_bot()
                reply = hub.handle(hub.seats["table"], parse_commit(bot.id)).replies[0]
                assert reply["message"] == "it is blue's turn, and a robot plays blue"
    blue = [e for e in game.history if e.action.bot.startswith("blue")]
    assert len(blue) >= 4 and any(e.notes and e.events[0]["type"] == "robot_decision" for e in blue)
    assert state_digest(read(journal).game.state) == state_digest(game.state)


def parse_commit(bot: str):
    import json

    from bottisota.web.protocol import parse

    return parse(json.dumps({"type": "commit", "action": {"bot": bot, "pass": True}}))


def test_serve_refuses_robots_with_physical_dice_and_bad_seats(capsys):
    from bottisota.cli import main

    assert main(["serve", "--robot", "green"]) == 2
    assert "'green' is not one of the players" in capsys.readouterr().err
    assert main(["serve", "--robot", "blue", "--physical-dice", "--phones-commit"]) == 2
    assert "cannot use --physical-dice" in capsys.readouterr().err


def test_play_phone_options_need_phones(capsys):
    from bottisota.cli import main

    assert main(["play", "--headless", "--phones-commit"]) == 2
    assert "--phones-commit" in capsys.readouterr().err


def test_seat_tokens_are_saved_before_plays_journal_folder_exists(tmp_path):
    from bottisota.web.tokens import seat_tokens, tokens_path

    journal = tmp_path / "not-yet" / "games" / "game-1.jsonl"    # `play` writes it later
    tokens = seat_tokens(journal, ["red", "blue"])
    assert tokens_path(journal).is_file() and seat_tokens(journal, ["red", "blue"]) == tokens
