"""The phones share the session (issues 26, 30): every seat hears every event in
words, scores and the winner; a phone seat's watcher is asked (R23) and its answer
decides; a bot does not pre-measure itself through the hub."""
from __future__ import annotations

import warnings

import pytest

from bottisota.core.actions import Forward, Move, Pass, SetOverwatch
from bottisota.engine.game import Game
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.viewmodel.game_session import Session
from bottisota.web.app import make_app
from bottisota.web.hub import Hub
from bottisota.web.protocol import ProtocolError, parse

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKENS = {"red": "red-token-0123456789", "blue": "blue-token-0123456789",
          "table": "table-token-0123456789"}
SPOTS = {"red": (20.0, 36.0, 90.0), "blue": (40.0, 36.0, 270.0)}


def duel(round_limit: int | None = None) -> Game:
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "duel.yaml", rules)
    cards, mods = load_catalogue()
    return Game.new(arena, rules, cards, mods, ["red", "blue"], seed=2, round_limit=round_limit)


def step(game: Game) -> None:
    from bottisota.core.actions import Place

    bot, due = game.active_bot(), game.expected()
    if due == "place":
        action = Place(bot.id, *SPOTS[bot.player])
    elif due == "move":
        action = Move(bot.id, ())
    else:
        action = Pass(bot.id)
    assert game.act(action).ok


def until(game: Game, player: str, phase: str, round_: int = 2) -> Game:
    while not (game.state.round >= round_ and game.whose_turn() == player
               and game.expected() == phase):
        step(game)
    return game


def read_until(ws, kind: str, limit: int = 60) -> dict:
    for _ in range(limit):
        m = ws.receive_json()
        if m.get("type") == kind:
            return m
    raise AssertionError(f"no {kind} message")


def reply_to(ws, mid: int) -> dict:
    for _ in range(60):
        m = ws.receive_json()
        if m.get("re") == mid:
            return m
    raise AssertionError(f"no reply to {mid}")


def watched_move() -> tuple[Game, Move]:
    """Red's artillery (red-1 at 20,36) on overwatch; blue's tractor (blue-1 at 40,36)
    to move 2 cm west, inside red-1's 30 cm overwatch reach (R23)."""
    game = until(duel(), "red", "shoot", 3)
    assert game.act(SetOverwatch("red-1")).ok
    assert (game.whose_turn(), game.expected()) == ("blue", "move")
    move = Move("blue-1", (Forward(2),))
    assert [o.watcher for o in game.preview(move).overwatch] == ["red-1"]
    return game, move


def test_the_hub_refuses_a_bot_premeasuring_itself():
    game = until(duel(), "red", "shoot")
    hub = Hub(game, dict(TOKENS))
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                      "target": "red-1"})
        reply = read_until(ws, "error")
    assert reply["message"] == "'red-1' is not another bot on the table"
    assert hub.desks["red"].measure is None


@pytest.mark.parametrize("fire", [True, False])
def test_a_phone_seats_watcher_is_asked_and_its_answer_decides(fire):  # R23
    game, move = watched_move()
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    n = len(game.history)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as red, \
            c.websocket_connect("/ws/" + TOKENS["blue"]) as blue:
        red.receive_json()
        blue.receive_json()
        blue.send_json({"type": "commit", "id": 1,
                        "action": {"bot": "blue-1", "move": [{"forward": 2}]}})
        assert reply_to(blue, 1)["type"] == "asking"
        assert len(game.history) == n                        # nothing fired by itself
        assert hub.overwatch_ask(hub.seats["red"]) is not None
        ask = read_until(red, "overwatch_ask")
        assert (ask["watcher"], ask["mover"], ask["weapons"]) == ("red-1", "blue-1", ["Mortar"])
        assert 0 < ask["seconds"] <= 30
        state = hub.state()["state"]
        assert state["waiting"]["kind"] == "overwatch" and state["waiting"]["seat"] == "red"
        blue.send_json({"type": "overwatch_answer", "id": 2, "ask": ask["ask"], "fire": True})
        assert read_until(blue, "error")["message"] == "only red answers for its watcher"
        red.send_json({"type": "overwatch_answer", "id": 3, "ask": ask["ask"], "fire": fire})
        assert read_until(red, "done")["re"] == 3
    entry = game.history[-1]
    assert len(game.history) == n + 1 and entry.action.bot == "blue-1"
    fired = [e for e in entry.events if e["type"] == "overwatch_fire"]
    assert bool(fired) is fire
    assert ("red-1" in entry.action.hold_fire) is (not fire)
    assert hub.state()["state"]["waiting"] is None


def test_a_watcher_that_does_not_answer_in_time_holds():  # R23 overwatch_answer_seconds
    game, move = watched_move()
    now = [100.0]
    session = Session(game, clock=lambda: now[0])
    hub = Hub(game, dict(TOKENS), commit=True, session=session)
    hub.joined["red"] = 1                                   # red's phone holds its seat
    assert session.commit_move(move) is None
    ask = hub.overwatch_ask(hub.seats["red"])
    assert ask is not None and ask["seconds"] == 30.0
    assert hub.overwatch_ask(hub.seats["blue"]) is None
    now[0] += 29.0
    hub.poll()
    assert session.question is not None
    now[0] += 1.5
    hub.poll()                                              # time is up: red holds
    assert session.question is None and game.history[-1].action.hold_fire == ("red-1",)
    assert not [e for e in game.history[-1].events if e["type"] == "overwatch_fire"]


def test_without_a_phone_the_table_is_asked():
    game, move = watched_move()
    session = Session(game)
    Hub(game, dict(TOKENS), session=session)
    assert session.commit_move(move) is None
    waiting = session.waiting()
    assert (waiting.kind, waiting.seat, waiting.face) == ("overwatch", "red", "table")
    result = session.answer(False)
    assert result is not None and result.ok


def test_every_phone_hears_the_events_scores_and_the_winner():
    game = until(duel(round_limit=2), "red", "shoot")
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as blue:
        hello = blue.receive_json()
        assert hello["log"] and all(set(line) == {"seq", "text", "undone"}
                                    for line in hello["log"])
        assert hello["state"]["scores"] == {"red": 0, "blue": 0}
        assert hello["state"]["winner"] is None and hello["state"]["waiting"] is None
        seen = hello["log"][-1]["seq"]
        with c.websocket_connect("/ws/" + TOKENS["red"]) as red:
            red.receive_json()
            red.send_json({"type": "commit", "id": 1,
                           "action": {"bot": "red-1", "shoot": [{"weapon": "Mortar",
                                                                 "target": "blue-1"}]}})
            read_until(red, "done")
        told = read_until(blue, "events")
        assert [line["seq"] for line in told["lines"]] == \
            list(range(seen + 1, seen + 1 + len(told["lines"])))
        texts = " | ".join(line["text"] for line in told["lines"])
        assert told["lines"][0]["text"] == "red-1 fires its Mortar at blue-1"
        assert "blue-1 armour test: rolled" in texts            # the dice, in words
        with hub.table_lock, hub.lock:                      # the table plays on to the end
            while not game.state.over:
                step(game)
        for _ in range(60):                                 # the server's watcher tells blue
            state = read_until(blue, "state")["state"]
            if state["over"]:
                break
        assert state["winner"] is not None and "GAME OVER" in state["winner"]["text"]
        assert "round limit 2 reached" in state["winner"]["text"]
        assert state["scores"] == dict(game.state.scores)
        assert state["winner"]["players"] == game.history[-1].events[-1]["winners"]


def test_each_phone_hears_the_game_in_its_own_language():
    """A Finnish phone beside an English table and an English phone: the same shot
    reaches each in its own words (the feed, a refusal, the end), and the table goes
    on speaking English."""
    from bottisota.core.i18n import language, set_language, speaking
    from bottisota.viewmodel.words import describe

    set_language("en")
    game = until(duel(round_limit=2), "red", "shoot")
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["blue"] + "?lang=fi") as blue, \
            c.websocket_connect("/ws/" + TOKENS["red"], headers={"accept-language": "en"}) as red:
        assert "kierros" in " ".join(line["text"] for line in blue.receive_json()["log"])
        red.receive_json()
        blue.send_json({"type": "commit", "id": 1, "action": {"bot": "blue-1", "move": []}})
        refused = reply_to(blue, 1)
        assert refused["type"] == "error" and "vuoro" in refused["message"], refused
        blue.send_text("{not json")                 # read by the connection itself
        with speaking("fi"):
            try:
                parse("{not json")
            except ProtocolError as err:
                unreadable = str(err)
        assert read_until(blue, "error")["message"] == unreadable != ""
        red.send_json({"type": "commit", "id": 2,
                       "action": {"bot": "red-1", "shoot": [{"weapon": "Mortar",
                                                             "target": "blue-1"}]}})
        read_until(red, "done")
        fired = next(e for e in game.history[-1].events if e["type"] == "shot")
        with speaking("fi"):
            in_finnish = describe(fired)
        assert in_finnish != describe(fired)
        assert read_until(blue, "events")["lines"][0]["text"] == in_finnish
        assert read_until(red, "events")["lines"][0]["text"] == \
            "red-1 fires its Mortar at blue-1"
        with hub.table_lock, hub.lock:
            while not game.state.over:
                step(game)
        for _ in range(60):
            state = read_until(blue, "state")["state"]
            if state["over"]:
                break
        assert state["winner"]["text"].startswith("PELI PÄÄTTYI")
        assert language() == "en"          # the table's words stay the table's


def test_an_undo_at_the_table_strikes_the_lines_on_every_phone():
    game = until(duel(), "red", "shoot")
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as blue, \
            c.websocket_connect("/ws/" + TOKENS["table"]) as table:
        blue.receive_json()
        table.receive_json()
        table.send_json({"type": "commit", "id": 1, "action": {"bot": "red-1", "pass": True}})
        made = read_until(blue, "events")["lines"]
        assert made and not any(line["undone"] for line in made)
        table.send_json({"type": "undo", "id": 2})
        struck = read_until(blue, "events")["lines"]
    assert {line["seq"] for line in struck} == {line["seq"] for line in made}
    assert all(line["undone"] for line in struck)


def test_an_overwatch_answer_is_checked():
    assert parse('{"type": "overwatch_answer", "ask": "1-0", "fire": false}').fire is False
    for bad in ('{"type": "overwatch_answer", "ask": "1-0", "fire": "yes"}',
                '{"type": "overwatch_answer", "fire": true}',
                '{"type": "overwatch_answer", "ask": "1-0", "fire": true, "x": 1}'):
        with pytest.raises(ProtocolError):
            parse(bad)
