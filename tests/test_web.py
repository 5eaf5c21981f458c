"""Seats on phones (issue 15): the server driven in-process, over HTTP and websockets
(Starlette's TestClient). Every answer checked here is compared with the core's own."""
from __future__ import annotations

import json
import time
import warnings

import pytest

from bottisota.core.actions import Forward, Move, Pass, Place, Refusal, SetOverwatch, Turn
from bottisota.core.i18n import speaking, translated
from bottisota.engine.game import Game
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.shooting.premeasure import premeasure
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
from bottisota.play.journal import Journal, journal_game, resume, state_digest
from bottisota.web.app import make_app
from bottisota.web.hub import Hub
from bottisota.web.protocol import MAX_BYTES, ProtocolError, RateLimit, parse
from bottisota.web.table_link import public_host, seat_links, seat_url
from bottisota.web.tokens import seat_tokens, tokens_path

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKENS = {"red": "red-token-0123456789", "blue": "blue-token-0123456789",
          "table": "table-token-0123456789"}
SPOTS = {"red": (20.0, 36.0, 90.0), "blue": (40.0, 36.0, 270.0)}


def advance(game: Game, until_round: int = 2) -> Game:
    """Both seats place their bots facing each other across the duel table, move
    their minimum and pass, until round `until_round`'s first shooting phase."""
    while game.state.round < until_round or game.expected() != "shoot":
        bot, due = game.active_bot(), game.expected()
        if due == "place":
            x, y, f = SPOTS[bot.player]
            result = game.act(Place(bot.id, x, y, f))
        elif due == "move":
            steps = (Forward(bot.stats.min_move),) if bot.stats.min_move else ()
            result = game.act(Move(bot.id, steps))
        else:
            result = game.act(Pass(bot.id))
        assert result.ok, result.refusal
    return game


def new_game(journal: str | None = None) -> Game:
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "duel.yaml", rules)
    cards, mods = load_catalogue()
    # seed 2: red draws an artillery bot (Mortar), blue a tractor
    game = Game.new(arena, rules, cards, mods, ["red", "blue"], seed=2)
    if journal is not None:
        journal_game(game, journal)
    return game


@pytest.fixture
def shooting_game() -> Game:
    """Round 2, red's artillery (red-1 at 20,36) in its shooting phase, blue-1 at 40,36."""
    game = advance(new_game())
    assert (game.whose_turn(), game.expected(), game.active_bot().id) == ("red", "shoot", "red-1")
    return game


def client(game: Game, commit: bool = False, physical: bool = False, rate: float = 60.0):
    hub = Hub(game, dict(TOKENS), commit=commit, physical=physical)
    return hub, TestClient(make_app(hub, rate=rate))


def answer(ws, mid: int) -> dict:
    """Read until the reply to message `mid` (state pushes may come between)."""
    for _ in range(200):
        m = ws.receive_json()
        if m.get("re") == mid:
            return m
    raise AssertionError(f"no reply to {mid}")


# --- joining --------------------------------------------------------------------------------

def test_without_a_token_only_the_join_page_is_served(shooting_game):
    hub, c = client(shooting_game)
    join = c.get("/")
    assert join.status_code == 200 and "scan your seat's QR code" in join.text
    for bad in ("/s/nope", "/s/" + TOKENS["red"][:-1], "/s/" + TOKENS["red"] + "x"):
        page = c.get(bad)
        assert page.status_code == 404 and "scan your seat's QR code" in page.text
        assert "red-1" not in page.text and "<canvas" not in page.text
    assert c.get("/static/phone.js").status_code == 404
    assert c.get("/ws/" + TOKENS["red"]).status_code in (400, 404)
    with pytest.raises(WebSocketDisconnect) as refused:
        with c.websocket_connect("/ws/wrong-token") as ws:
            ws.receive_json()
    assert refused.value.code == 4403


def test_a_seat_link_serves_the_page_and_says_hello(shooting_game):
    hub, c = client(shooting_game)
    page = c.get("/s/" + TOKENS["red"])
    assert page.status_code == 200 and "<canvas" in page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in page.headers["content-security-policy"]
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        hello = ws.receive_json()
    assert hello["type"] == "hello" and hello["seat"] == "red" and not hello["table_seat"]
    assert hello["table"]["size"] == [60, 60]
    assert {f["label"] for f in hello["table"]["features"]} >= {
        "wall 'north-wall'",
        "pit 'centre-pit'",
    }
    bots = {b["id"]: b for b in hello["state"]["bots"]}
    assert bots["red-1"]["x"] == 20 and bots["red-1"]["player"] == "red"
    assert hello["state"]["turn"] == "red" and hello["state"]["phase"] == "shoot"


def test_no_path_or_journal_reaches_a_client(tmp_path):
    journal = tmp_path / "secret-game.jsonl"
    game = advance(new_game(str(journal)))
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    seen = []
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        seen.append(ws.receive_json())
        for i, msg in enumerate([
                {"type": "premeasure", "bot": "red-1", "weapon": "Mortar", "target": "blue-1"},
                {"type": "plan", "bot": "red-1", "steps": [{"forward": 3}]},
                {"type": "premeasure", "bot": "red-1", "weapon": "nope"},
                {"type": "commit", "action": {"bot": "red-1", "pass": True}}], start=1):
            ws.send_json({**msg, "id": i})
            seen.append(answer(ws, i))
    text = json.dumps(seen)
    assert str(tmp_path) not in text and "secret-game" not in text
    assert "arenas" not in text and "Traceback" not in text and ".yaml" not in text


# --- pre-measure and plan --------------------------------------------------------------------

def test_premeasure_is_the_cores(shooting_game):
    hub, c = client(shooting_game)
    core = premeasure(shooting_game.state, "red-1", "Mortar", "blue-1")
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:   # anyone may pre-measure any bot
        ws.receive_json()
        ws.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                      "target": "blue-1"})
        pm = answer(ws, 1)["premeasure"]
    assert pm["reach"] == round(core.reach, 2) and pm["focus"] == "blue-1"
    t = pm["targets"][0]
    want = core.target("blue-1")
    assert (t["bot"], t["need"], t["can_fire"]) == ("blue-1", want.need, True)
    assert t["chance"] == round(want.chance, 4) and t["distance"] == 20.0
    assert pm["blast"]["centre"] == "blue-1"                        # R34: the marker on the target
    assert [m["bot"] for m in pm["blast"]["members"]] == [m.bot for m in core.blast.members]
    assert isinstance(t["track"], list)                             # D15: the fire track


def test_a_target_that_cannot_be_shot_says_why(shooting_game):
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        # blue-1's own weapons from where it stands: each verdict with its reason
        bot = shooting_game.state.bots["blue-1"]
        for i, w in enumerate(bot.stats.weapons, start=1):
            if w.is_mine:
                continue
            ws.send_json({"type": "premeasure", "id": i, "bot": "blue-1", "weapon": w.name})
            pm = answer(ws, i)["premeasure"]
            core = premeasure(shooting_game.state, "blue-1", w.name)
            for got, want in zip(pm["targets"], core.targets, strict=True):
                assert got["can_fire"] == want.can_fire
                assert got["refusal"] == want.refusal
                if not want.can_fire:
                    assert got["refusal"] and got["refusal"][0] in "RD"   # a rule is cited


def test_plan_shows_the_cores_path_costs_and_refusal(shooting_game):
    game = shooting_game
    hub, c = client(game)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "plan", "id": 1, "bot": "blue-1",
                      "steps": [{"forward": 4}, {"turn": 45}, {"forward": 2}]})
        plan = answer(ws, 1)["plan"]
        core = game.preview(Move("blue-1", (Forward(4), Turn(45), Forward(2))))
        assert plan["move"]["spent"] == round(core.move.spent, 2)
        end = plan["move"]["path"][-1]
        assert (end["x"], end["y"]) == (round(core.move.x, 2), round(core.move.y, 2))
        # not blue's turn: the path is shown, with the turn refusal (D18)
        assert plan["refusal"]["rule"] == "D18" and not plan["legal"]
        # into the north wall: refused at that step, the legal part before it shown
        # a turn too wide for the card: refused at that step, with its rule, the legal
        # part before it drawn
        bad = Move("blue-1", (Forward(2), Turn(90), Forward(2)))
        want = preview_move(game.state, bad)
        assert isinstance(want, Refusal) and want.step == 1
        ws.send_json({"type": "plan", "id": 2, "bot": "blue-1",
                      "steps": [{"forward": 2}, {"turn": 90}, {"forward": 2}]})
        plan = answer(ws, 2)["plan"]
        assert plan["refusal"]["text"] == str(want) and plan["refusal"]["step"] == 1
        assert plan["move"] is None and plan["prefix"]["path"][-1]["x"] == 38.0
        # a seat plans only its own bots
        ws.send_json({"type": "plan", "id": 3, "bot": "red-1", "steps": [{"forward": 1}]})
        err = answer(ws, 3)
        assert err["type"] == "error" and "only its own bots" in err["message"]


def test_plan_shows_the_overwatch_shots_it_would_draw(shooting_game):
    game = shooting_game
    assert game.act(Pass("red-1")).ok
    # blue's turn: blue moves; red goes on overwatch in its next turn first
    while not (game.whose_turn() == "red" and game.expected() == "shoot"):
        bot = game.active_bot()
        result = game.act(Move(bot.id, (Forward(bot.stats.min_move),) if bot.stats.min_move
                               else ()) if game.expected() == "move" else Pass(bot.id))
        assert result.ok
    assert game.act(SetOverwatch("red-1")).ok
    assert game.whose_turn() == "blue" and game.expected() == "move"
    hub, c = client(game)
    move = Move("blue-1", (Forward(2),))
    core = game.preview(move)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "plan", "id": 1, "bot": "blue-1", "steps": [{"forward": 2}]})
        plan = answer(ws, 1)["plan"]
    assert [o["watcher"] for o in plan["offers"]] == [o.watcher for o in core.overwatch]
    assert plan["offers"] and plan["offers"][0]["watcher"] == "red-1"     # R23


# --- committing -------------------------------------------------------------------------------

def test_commit_on_own_turn_off_turn_and_for_another_seat(shooting_game):
    game = shooting_game
    before = len(game.history)
    hub, c = client(game, commit=True)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as blue:
        blue.receive_json()
        blue.send_json({"type": "commit", "id": 1, "action": {"bot": "blue-1", "pass": True}})
        off = answer(blue, 1)
        assert off["type"] == "error" and off["message"] == "it is red's turn, not blue's"
        blue.send_json({"type": "commit", "id": 2, "action": {"bot": "red-1", "pass": True}})
        wrong = answer(blue, 2)
        assert wrong["type"] == "error" and "acts only for its own bots" in wrong["message"]
        assert len(game.history) == before
        with c.websocket_connect("/ws/" + TOKENS["red"]) as red:
            red.receive_json()
            red.send_json({"type": "commit", "id": 3,
                           "action": {"bot": "red-1", "shoot": [{"weapon": "Mortar",
                                                                 "target": "blue-1"}]}})
            done = answer(red, 3)
            assert done["type"] == "done" and any("Mortar" in t for t in done["events"])
        assert len(game.history) == before + 1
        pushed = blue.receive_json()                     # every seat is told
        while pushed["type"] != "state":
            pushed = blue.receive_json()
        assert pushed["state"]["version"] >= 1


def test_commit_needs_phones_commit_except_for_the_table(shooting_game):
    game = shooting_game
    hub, c = client(game, commit=False)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "commit", "id": 1, "action": {"bot": "red-1", "pass": True}})
        assert "--phones-commit" in answer(ws, 1)["message"]
    with c.websocket_connect("/ws/" + TOKENS["table"]) as ws:
        assert ws.receive_json()["table_seat"]
        ws.send_json({"type": "commit", "id": 2, "action": {"bot": "red-1", "move": []}})
        refused = answer(ws, 2)
        assert refused["type"] == "refused" and refused["refusal"]["rule"] == "D18"
        ws.send_json({"type": "commit", "id": 3, "action": {"bot": "red-1", "pass": True}})
        assert answer(ws, 3)["type"] == "done"
    assert game.whose_turn() == "blue"


def test_physical_dice_are_typed_on_the_phone(shooting_game):
    game = shooting_game
    hub = Hub(game, dict(TOKENS), commit=True, physical=True)
    table_prompt = lambda purpose: pytest.fail("the table was asked for a phone's die")  # noqa: E731
    game.state.dice.ask = table_prompt        # a physical-dice game: the table's own prompt
    c = TestClient(make_app(hub))
    shot = {"bot": "red-1", "shoot": [{"weapon": "Mortar", "target": "blue-1"}]}
    before = state_digest(game.state)
    with c.websocket_connect("/ws/" + TOKENS["red"] + "?lang=fi") as ws:
        ws.receive_json()
        typed: list[int] = []
        for i in range(1, 20):
            ws.send_json({"type": "commit", "id": i, "action": shot, "dice": typed})
            reply = answer(ws, i)
            if reply["type"] != "dice":
                break
            assert state_digest(game.state) == before        # asked, nothing changed yet
            purpose = game.waiting.purpose                    # the core's English words
            with speaking("fi"):                              # told in the phone's language
                assert reply["need"] == translated(purpose) != purpose
            typed.append(6)
        assert reply["type"] == "done"
    rolls = game.history[-1].rolls
    assert [r.value for r in rolls] == typed and typed          # D8: the typed dice, in order
    assert game.state.dice.ask is table_prompt                  # the table asks its own again


# --- bad messages -----------------------------------------------------------------------------

@pytest.mark.parametrize("raw, words", [
    ("not json", "not JSON"),
    ("[1, 2]", "a JSON object"),
    ('{"type": "teleport"}', "unknown message type"),
    ('{"type": "plan", "bot": "blue-1", "steps": [{"forwrd": 2}]}', "did you mean 'forward'"),
    ('{"type": "plan", "bot": "blue-1", "steps": [{"forward": "far"}]}', "steps[0].forward"),
    ('{"type": "premeasure", "bot": "red-1"}', "'weapon' must be a name"),
    ('{"type": "premeasure", "bot": "red-1", "weapon": "Mortar", "at": [1e999, 2]}', "range"),
    ('{"type": "commit", "action": {"bot": "red-1", "fly": true}}', "action:"),
    ('{"type": "commit", "action": {"bot": "red-1", "pass": true}, "dice": [7]}', "1 to 6"),
    ('{"type": "ping", "extra": 1}', "unknown key 'extra'"),
    ('{"type": "plan", "bot": "blue-1", "steps": [], "hold_fire": [3]}', "'hold_fire' must be"),
    ('{"type": "show", "on": "yes"}', "'on' must be true or false"),
    ('{"type": "select", "bot": ""}', "'bot' must be a name"),
    ('{"type": "ping", "id": -1}', "'id' must be a whole number"),
])
def test_a_malformed_message_gets_a_clear_error_and_the_connection_stays(shooting_game, raw, words):
    hub, c = client(shooting_game, commit=True)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_text(raw)
        err = ws.receive_json()
        assert err["type"] == "error" and words in err["message"]
        ws.send_json({"type": "ping", "id": 7})
        assert answer(ws, 7)["type"] == "pong"


def test_an_oversized_message_is_refused_and_the_connection_stays(shooting_game):
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * MAX_BYTES}))
        assert "too long" in ws.receive_json()["message"]
        ws.send_bytes(b"{" + b" " * (MAX_BYTES + 10) + b"}")
        assert "too long" in ws.receive_json()["message"]
        ws.send_json({"type": "plan", "bot": "red-1", "steps": [{"forward": 1}] * 65})
        assert "at most 64 steps" in ws.receive_json()["message"]
        ws.send_json({"type": "ping", "id": 1})
        assert answer(ws, 1)["type"] == "pong"


def test_a_flood_of_1000_messages_is_bounded_and_the_game_unaffected(shooting_game):
    game = shooting_game
    digest, actions = state_digest(game.state), len(game.history)
    hub, c = client(game, commit=True)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        ws.receive_json()
        start = time.monotonic()
        for i in range(1000):
            ws.send_json({"type": "commit", "id": i,
                          "action": {"bot": "blue-1", "move": [{"forward": 1}]}})
        flooded = time.monotonic() - start
        time.sleep(1.1)                     # the bucket refills: the seat is heard again
        ws.send_json({"type": "ping", "id": 5000})
        replies = []
        while True:
            m = ws.receive_json()
            replies.append(m)
            if m.get("re") == 5000 or len(replies) > 1100:
                break
        answered = [m for m in replies if m.get("re") is not None and m.get("re") < 1000]
        told = [m for m in replies if "too many messages" in m.get("message", "")]
        # at most the burst plus what the rate refilled: the rest was dropped unread
        assert 60 <= len(answered) <= 60 + 60 * (time.monotonic() - start)
        assert len(answered) < 300 and flooded >= 0
        assert all(m["message"] == "it is red's turn, not blue's" for m in answered)
        assert told and len(told) <= 1000 // 100 + 1
        assert replies[-1] == {"type": "pong", "version": 0, "re": 5000}
    assert state_digest(game.state) == digest and len(game.history) == actions


def test_protocol_parse_and_rate_limit_units():
    m = parse('{"type": "premeasure", "id": 4, "bot": "a", "weapon": "Gun", "at": [1, 2]}')
    assert (m.type, m.id, m.at, m.target) == ("premeasure", 4, (1.0, 2.0), None)
    with pytest.raises(ProtocolError, match="not both"):
        parse('{"type": "premeasure", "bot": "a", "weapon": "G", "target": "b", "at": [1, 2]}')
    clock = [0.0]
    limit = RateLimit(rate=10, burst=5, clock=lambda: clock[0])
    assert [limit.allow() for _ in range(7)] == [True] * 5 + [False] * 2
    clock[0] = 0.3                                 # 3 tokens back
    assert [limit.allow() for _ in range(4)] == [True] * 3 + [False]
    assert limit.dropped == 3


# --- reconnect, show on table, resume ------------------------------------------------------------

def told_before(ws, mid: int, kind: str) -> dict | None:
    """Ping and read up to the pong: the last message of the kind sent before it, or
    None (every connection's messages go out in order, so what the server sent this
    phone before it answered the ping is there; a missing one fails, never hangs)."""
    ws.send_json({"type": "ping", "id": mid})
    found = None
    for _ in range(200):
        m = ws.receive_json()
        if m.get("re") == mid:
            return found
        if m.get("type") == kind:
            found = m
    raise AssertionError(f"no pong to {mid}")


def test_a_second_phone_on_one_seat_is_told_and_shows_the_same_desk(shooting_game):
    """Two phones (not tabs of one browser) hold blue's seat: each is told the other
    is there, a plan made on one is the other's desk too, and when one leaves the
    other is told it is alone again."""
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as first:
        assert first.receive_json()["type"] == "hello"
        assert told_before(first, 90, "screens") is None     # alone: nothing to tell
        with c.websocket_connect("/ws/" + TOKENS["blue"]) as second:
            assert second.receive_json()["type"] == "hello"
            assert told_before(second, 91, "screens")["others"] == 1
            assert told_before(first, 92, "screens")["others"] == 1
            first.send_json({"type": "plan", "id": 1, "bot": "blue-1",
                             "steps": [{"forward": 4}, {"turn": 45}]})
            planned = answer(first, 1)["plan"]
            told_before(first, 93, "desk")      # first's answers, its desk shared, are done
            desk = told_before(second, 94, "desk")
            assert desk is not None, "the second phone was not sent the seat's desk"
            assert desk["desk"]["plan"]["steps"] == [{"forward": 4}, {"turn": 45}]
            assert desk["desk"]["planned"] == planned
            second.send_json({"type": "clear", "id": 2})
            answer(second, 2)
            told_before(second, 95, "desk")
            desk = told_before(first, 96, "desk")
            assert desk is not None and desk["desk"]["plan"] is None
        for attempt in range(100):    # the server notices the close on its own time
            alone = told_before(first, 200 + attempt, "screens")
            if alone is not None:
                break
        assert alone is not None and alone["others"] == 0


def test_a_phone_that_reconnects_picks_up_where_it_was(shooting_game):
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                      "target": "blue-1"})
        first = answer(ws, 1)["premeasure"]
        ws.send_json({"type": "plan", "id": 2, "bot": "blue-1", "steps": [{"forward": 3}]})
        planned = answer(ws, 2)["plan"]
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as ws:
        desk = ws.receive_json()["desk"]
    assert desk["selected"] == "blue-1"
    assert desk["measure"]["weapon"] == "Mortar" and desk["premeasure"] == first
    assert desk["plan"]["steps"] == [{"forward": 3}] and desk["planned"] == planned


def test_show_on_table_pushes_the_seats_work_to_every_seat(shooting_game):
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["table"]) as table:
        table.receive_json()
        with c.websocket_connect("/ws/" + TOKENS["red"]) as red:
            red.receive_json()
            red.send_json({"type": "premeasure", "id": 1, "bot": "red-1", "weapon": "Mortar",
                           "target": "blue-1"})
            answer(red, 1)
            red.send_json({"type": "show", "id": 2, "on": True})
            assert answer(red, 2) == {"type": "shown", "on": True, "re": 2}
        pushed = table.receive_json()
        assert pushed["type"] == "state"
        assert pushed["shown"][0]["seat"] == "red"
        assert pushed["shown"][0]["premeasure"]["blast"]["centre"] == "blue-1"
    assert hub.shown()[0]["premeasure"]["weapon"] == "Mortar"    # what the table view reads
    (seat, measure, move), = hub.shown_work()                     # ... or measures itself
    assert (seat, measure["weapon"], measure["target"], move) == ("red", "Mortar", "blue-1", None)


def test_a_resumed_server_takes_the_same_links(tmp_path):
    journal = tmp_path / "game.jsonl"
    game = advance(new_game(str(journal)))
    tokens = seat_tokens(journal, ["red", "blue"])
    assert tokens_path(journal).is_file() and (tokens_path(journal).stat().st_mode & 0o077) == 0
    hub = Hub(game, tokens, commit=True)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + tokens["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "commit", "id": 1, "action": {"bot": "red-1", "pass": True}})
        assert answer(ws, 1)["type"] == "done"
    digest = state_digest(game.state)
    # the server stops; a new one resumes the journal: the same links work
    game.journal.close()          # the first server is gone, and its journal lock with it
    again = resume(journal)
    assert state_digest(again.state) == digest
    same = seat_tokens(journal, list(again.state.players))
    assert same == tokens
    c2 = TestClient(make_app(Hub(again, same, commit=True)))
    with c2.websocket_connect("/ws/" + tokens["blue"]) as ws:
        hello = ws.receive_json()
        assert hello["seat"] == "blue" and hello["state"]["turn"] == "blue"
        bot = hello["state"]["active"]
        ws.send_json({"type": "commit", "id": 2, "action": {"bot": bot, "move": []}})
        assert answer(ws, 2)["type"] in ("done", "refused")
    assert isinstance(again.journal, Journal)


# --- links and the serve command ----------------------------------------------------------------

def test_seat_links_carry_the_token_and_a_qr_code():
    links = seat_links(TOKENS, "192.168.1.20", 8765)
    assert [link.seat for link in links] == ["red", "blue"]
    assert links[0].url == "http://192.168.1.20:8765/s/" + TOKENS["red"]
    assert len(links[0].qr) == len(links[0].qr[0]) >= 21 and any(any(r) for r in links[0].qr)
    assert [link.seat for link in seat_links(TOKENS, "h", 1, table=True)][-1] == "table"
    assert seat_url("::1", 80, "t") == "http://[::1]:80/s/t"
    assert public_host("127.0.0.1") == "127.0.0.1"


def test_serve_prints_every_seats_link_first(tmp_path, monkeypatch, capsys):
    from bottisota.cli import build_parser
    from bottisota.commands import serve

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    calls = []
    monkeypatch.setattr(serve, "serve_forever",
                        lambda hub, host, port, sock=None: calls.append((host, port)))
    args = build_parser("serve").parse_args(["serve", "duel", "--seed", "2", "--port", "9999"])
    assert serve.main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("red: http://127.0.0.1:9999/s/")
    assert lines[1].startswith("blue: http://127.0.0.1:9999/s/")
    assert lines[2].startswith("table: http://127.0.0.1:9999/s/")
    assert calls == [("127.0.0.1", 9999)]                 # localhost unless --host says otherwise
    games = list((tmp_path / "bottisota" / "games").glob("*.seats.json"))
    assert len(games) == 1


def test_serve_refuses_bad_options_with_one_message(tmp_path, monkeypatch, capsys):
    from bottisota.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["serve", "--physical-dice"]) == 2
    assert "--phones-commit" in capsys.readouterr().err
    assert main(["serve", "no-such-arena"]) == 2
    assert main(["serve", "--players", "red,red"]) == 2


def test_start_phones_serves_a_running_game_beside_the_table(tmp_path):
    from bottisota.web.server import start_phones

    journal = tmp_path / "g.jsonl"
    game = advance(new_game(str(journal)))
    phones = start_phones(game, str(journal), host="127.0.0.1", port=0)
    try:
        assert [link.seat for link in phones.links] == ["red", "blue"]
        token = seat_tokens(journal, ["red", "blue"])["red"]
        assert phones.links[0].url == f"http://127.0.0.1:{phones.running.port}/s/{token}"
        import urllib.request

        with urllib.request.urlopen(phones.links[0].url, timeout=10) as page:
            assert page.status == 200 and b"<canvas" in page.read()
        with phones.hub.lock:                 # the table holds the lock while it acts
            assert game.act(Pass("red-1")).ok
        assert phones.hub.poll() and phones.hub.state()["state"]["turn"] == "blue"
    finally:
        phones.stop()


def test_after_a_commit_every_seat_gets_its_work_measured_again(shooting_game):
    game = shooting_game
    hub, c = client(game, commit=True)
    with c.websocket_connect("/ws/" + TOKENS["blue"]) as blue:
        blue.receive_json()
        blue.send_json({"type": "plan", "id": 1, "bot": "blue-1", "steps": [{"forward": 2}]})
        assert answer(blue, 1)["plan"]["refusal"]["rule"] == "D18"       # red's turn yet
        with c.websocket_connect("/ws/" + TOKENS["red"]) as red:
            red.receive_json()
            red.send_json({"type": "commit", "id": 2, "action": {"bot": "red-1", "pass": True}})
            assert answer(red, 2)["type"] == "done"
        got = {}
        while "plan" not in got:
            m = blue.receive_json()
            got[m["type"]] = m
        assert got["state"]["state"]["turn"] == "blue"
        assert got["plan"]["plan"]["legal"] and got["plan"]["plan"]["refusal"] is None


def test_select_clear_and_show_off(shooting_game):
    hub, c = client(shooting_game)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "select", "id": 1, "bot": "blue-1"})
        sel = answer(ws, 1)
        assert sel["bot"]["id"] == "blue-1" and sel["own"] is False
        ws.send_json({"type": "select", "id": 2, "bot": "ghost-9"})
        assert answer(ws, 2)["message"] == "there is no bot 'ghost-9' on the table"
        ws.send_json({"type": "premeasure", "id": 3, "bot": "red-1", "weapon": "Mortar"})
        answer(ws, 3)
        ws.send_json({"type": "show", "id": 4, "on": True})
        answer(ws, 4)
        assert hub.shown()
        ws.send_json({"type": "clear", "id": 5})
        assert answer(ws, 5)["type"] == "cleared"
        assert hub.shown() == [] and hub.desks["red"].measure is None
        assert hub.desks["red"].selected == "red-1"


# --- any message at all: a clear error or an answer, never a crash -------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _nested(inner):
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True)
    | st.text(max_size=12), _nested, max_leaves=12)
_messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["ping", "select", "premeasure", "plan", "clear", "show",
                              "commit", "undo", "redo", "other"])},
    optional={"bot": st.sampled_from(["red-1", "blue-1", "nobody", ""]) | _json,
              "weapon": st.sampled_from(["Mortar", "Pusher", "Tractor beam"]) | _json,
              "target": st.sampled_from(["red-1", "blue-1"]) | _json,
              "at": st.lists(st.floats(-100, 100), min_size=2, max_size=2) | _json,
              "steps": st.lists(st.sampled_from([{"forward": 2}, {"turn": 45}, {"back": 1},
                                                 {"loop": True}, {"lift": "up"}]), max_size=5)
              | _json,
              "action": st.sampled_from([{"bot": "red-1", "pass": True},
                                         {"bot": "blue-1", "move": [{"forward": 1}]},
                                         {"bot": "red-1", "shoot": [{"weapon": "Mortar",
                                                                    "at": [30, 30]}]}]) | _json,
              "on": _json, "dice": _json, "id": _json})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=st.lists(_messages, min_size=1, max_size=6))
def test_any_message_gets_an_answer_or_a_clear_error(messages):
    game = advance(new_game())
    hub = Hub(game, dict(TOKENS), commit=True)
    for seat in ("red", "blue", "table"):
        for m in messages:
            try:
                msg = parse(json.dumps(m))
            except ProtocolError as err:
                assert str(err) and "Traceback" not in str(err)
                continue
            answer = hub.handle(hub.seats[seat], msg)
            assert answer.replies and all(isinstance(r.get("type"), str) for r in answer.replies)
            for r in answer.replies:
                assert r.get("message") != "the referee could not answer that", (m, r)
            json.dumps(answer.replies)


def test_the_real_server_bounds_frames_and_answers_over_loopback(shooting_game):
    """uvicorn's own limit: a 9 kB message gets the clear error and the connection
    stays; a frame over 64 kB is refused by the server (close 1009), never read."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from bottisota.web.server import start_in_thread

    running = start_in_thread(Hub(shooting_game, dict(TOKENS)), "127.0.0.1", 0)
    url = f"ws://127.0.0.1:{running.port}/ws/{TOKENS['red']}"
    try:
        with connect(url) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            ws.send(json.dumps({"type": "ping", "pad": "x" * 9000}))
            assert "too long" in json.loads(ws.recv(timeout=10))["message"]
            ws.send(json.dumps({"type": "ping", "id": 1}))
            assert json.loads(ws.recv(timeout=10))["re"] == 1
            ws.send("x" * 100_000)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        with connect(url) as ws:                      # the seat connects again at once
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    finally:
        running.stop()


def test_the_page_needs_nothing_from_outside():
    """No CDN, no build step: the page's files name no outside address."""
    from importlib import resources

    for name in ("phone.html", "phone.js", "phone.css", "join.html"):
        text = resources.files("bottisota.web").joinpath("static", name).read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


def test_only_the_table_undoes_and_redoes(shooting_game):
    game = shooting_game
    hub, c = client(game, commit=True)
    digest, actions = state_digest(game.state), len(game.history)
    with c.websocket_connect("/ws/" + TOKENS["red"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "undo", "id": 1})
        assert answer(ws, 1)["message"] == "only the table may undo"
    with c.websocket_connect("/ws/" + TOKENS["table"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "undo", "id": 2})
        assert answer(ws, 2)["type"] == "done" and len(game.history) == actions - 1
        ws.send_json({"type": "redo", "id": 3})
        assert answer(ws, 3)["type"] == "done"
        ws.send_json({"type": "redo", "id": 4})
        assert answer(ws, 4)["message"] == "nothing to redo"
    assert state_digest(game.state) == digest and len(game.history) == actions


def test_a_game_played_from_the_phones_alone_replays_from_its_journal(tmp_path):
    """Two phones with --phones-commit play three rounds: place, move, shoot or pass,
    each on its own turn; the journal replays to the same state (D8, the one truth)."""
    from bottisota.play.journal import load

    journal = tmp_path / "phones.jsonl"
    game = new_game(str(journal))
    hub = Hub(game, dict(TOKENS), commit=True)
    c = TestClient(make_app(hub))
    with c.websocket_connect("/ws/" + TOKENS["red"]) as red, \
            c.websocket_connect("/ws/" + TOKENS["blue"]) as blue:
        phones = {"red": red, "blue": blue}
        for ws in phones.values():
            ws.receive_json()
        mid = 0
        while game.state.round <= 3 and not game.state.over:
            seat, bot, due = game.whose_turn(), game.active_bot(), game.expected()
            if due == "place":
                x, y, f = SPOTS[seat]
                action = {"bot": bot.id, "place": [x, y, f]}
            elif due == "move":
                action = {"bot": bot.id, "move": [{"forward": bot.stats.min_move}]
                          if bot.stats.min_move else []}
            else:
                pm = premeasure(game.state, bot.id, bot.stats.weapons[0].name)
                action = ({"bot": bot.id, "shoot": [{"weapon": pm.weapon,
                                                      "target": pm.can_hit()[0]}]}
                          if pm.can_hit() and game.legal(Pass(bot.id)) is None
                          and game.state.round > 1 else {"bot": bot.id, "pass": True})
            mid += 1
            phones[seat].send_json({"type": "commit", "id": mid, "action": action})
            reply = answer(phones[seat], mid)
            if reply["type"] == "refused":          # the core's word, e.g. no sight: pass
                mid += 1
                phones[seat].send_json({"type": "commit", "id": mid,
                                        "action": {"bot": bot.id, "pass": True}})
                reply = answer(phones[seat], mid)
            assert reply["type"] == "done", reply
    assert game.state.round > 3 or game.state.over
    assert state_digest(load(journal).state) == state_digest(game.state)
