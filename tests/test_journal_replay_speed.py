"""The shortcuts a resuming read takes (issue #12, journal replay speed) give exactly
what the plain way gives: the state digest's text, the JSON limits, the checks of
actions and events (docs/decisions.md D8)."""
from __future__ import annotations

import hashlib
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.engine.game import Game
from bottisota.formats.json_text import JsonLimitError, _may_be_deeper, loads_limited
from bottisota.formats.limits import LimitError
from bottisota.formats.limits import check_json_text as token_scan
from bottisota.formats.loading import bundled_rules
from bottisota.play.journal_data import default
from bottisota.play.journal_digest import ROWS_KEPT, digest_text, state_digest


def reference_text(state) -> str:
    """The state digest's text as the journal format defines it (`json.dumps` of one
    list, compact): what every journal's recorded digests were taken of."""
    bots = [[b.id, b.player, b.card.id, b.x, b.y, b.z, b.facing, b.damage, b.destroyed,
             b.removed, b.overwatch, b.rust, b.leaflet, b.moved, b.parts, sorted(b.ammo.items()),
             b.new, b.docked, b.part_from] for b in state.bots.values()]
    data = [state.round, state.active, state.phase, state.players, sorted(state.scores.items()),
            sorted(state.kills.items()), state.deck, state.parts_deck, state.out, state.played,
            state.next_id, state.over, state.dice.used, bots,
            [[m.id, m.owner, m.weapon, m.x, m.y, m.z, m.r, m.magnetic, m.active]
             for m in state.mines],
            [[g.feature, g.x, g.y, g.points, g.spots_left, g.taken] for g in state.goals],
            *([state.held_open] if state.held_open else [])]     # doors held open, if any
    return json.dumps(data, default=default, separators=(",", ":"))


def _game(catalogue, duel) -> Game:
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"], seed=4)
    return game


def test_the_digest_text_is_the_formats_text_part_for_part(catalogue, duel):  # D8
    # values that compare equal but are written differently (1, 1.0 and true; 0.0 and
    # -0.0; a numpy number) never share a part's text, whatever was written before
    game = _game(catalogue, duel)
    state = game.state
    bot = next(iter(state.bots.values()))
    parts: dict[bytes, str] = {}
    seen = set()
    for x in (12.0, 12, 12.0, 0.0, -0.0, 0, 0.0, np.float64(12.0), 12.0, True, 1, 1.0,
              np.float64(-0.0), -0.0, 3.25):
        bot.x = x
        bot.damage = 1 if x != 3.25 else 1.0
        text = digest_text(state, parts)
        assert text == digest_text(state) == reference_text(state)
        assert state_digest(state, parts) == hashlib.sha256(
            reference_text(state).encode()).hexdigest()[:16]
        seen.add(text)
    assert len(seen) == 9      # 12.0 12 0.0 -0.0 0 true 1 1.0 3.25 with damage 1.0


def test_a_part_changed_in_place_is_written_again(catalogue, duel):  # D8
    # lists and mappings change in place (the same object): their items count
    game = _game(catalogue, duel)
    state = game.state
    bot = next(iter(state.bots.values()))
    parts: dict[bytes, str] = {}
    changes = [lambda: bot.parts.append("turbo"), lambda: bot.ammo.update({"x": 2}),
               lambda: bot.ammo.update({"x": 2.0}), lambda: bot.ammo.update({"x": True}),
               lambda: bot.ammo.pop("x"), lambda: bot.parts.clear(),
               lambda: state.deck.append("scout"), lambda: state.deck.pop(0),
               lambda: state.scores.update({"red": 1.0}), lambda: state.kills.update({"blue": 1}),
               lambda: state.played.append("red"), lambda: state.out.append("blue"),
               lambda: state.players.reverse(), lambda: state.parts_deck.clear()]
    for goal in state.goals:
        changes += [lambda g=goal: g.spots_left.append((1.0, 2.0)),
                    lambda g=goal: g.spots_left.pop(), lambda g=goal: setattr(g, "taken", True)]
    assert digest_text(state, parts) == reference_text(state)
    for change in changes:
        change()
        assert digest_text(state, parts) == reference_text(state)


def test_the_digest_of_every_state_of_robot_games_is_the_formats(catalogue, duel, tmp_path):
    # D8: after every action of seeded robot games with mines, the kept parts give
    # the text json.dumps gives (the journal's recorded digests are taken of it)
    from bottisota.formats.robot_tables import find_personality
    from bottisota.play.journal import journal_to
    from bottisota.robot.match import play

    cards, mods = catalogue
    path = tmp_path / "robots.jsonl"
    play(duel, bundled_rules(), cards, mods, [find_personality("aggressive"),
                                               find_personality("sniper")], seed=5,
         round_limit=None, time_limit=None, max_actions=80, on_start=journal_to(path))
    lines = path.read_text().splitlines()
    game = Game.new(duel, bundled_rules(), cards, mods, ["aggressive", "sniper"],
                    dice=None, seed=json.loads(lines[0])["seed"])
    parts: dict[bytes, str] = {}
    from bottisota.play.journal import read
    replayed = read(path, verify=False).game
    for entry in replayed.history:
        game.apply_recorded(entry)
        assert digest_text(game.state, parts) == reference_text(game.state)
    assert len(replayed.history) == 80


def test_the_digest_parts_kept_are_bounded(catalogue, duel):
    game = _game(catalogue, duel)
    state = game.state
    parts: dict[bytes, str] = {}
    for k in range(3000):
        state.goals[0] = type(state.goals[0])(0, k / 8, 1.0, 1.0, 1)   # a new object each time
        assert digest_text(state, parts) == reference_text(state)
    assert len(parts) <= ROWS_KEPT


MARKS = st.sampled_from(["[", "]", "{", "}", '"', "\\", '\\"', '"a"', '"[["', '"]}"', '""',
                         "1", ",", ":", " ", "[" * 30, "]" * 30, "{" * 40, "}" * 40, '"x[y"'])


@settings(max_examples=500, deadline=None)
@given(parts=st.lists(MARKS, max_size=16), depth=st.sampled_from([2, 8, 64]))
def test_the_quick_depth_check_never_passes_what_the_token_scan_refuses(parts, depth):
    text = "".join(parts)
    raw = text.encode()
    if not _may_be_deeper(raw, depth):
        token_scan(text, max_depth=depth)     # no LimitError
    try:
        token_scan(text, max_depth=depth)
    except LimitError as err:
        if "nested" in err.message:
            assert _may_be_deeper(raw, depth)


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(MARKS, max_size=16))
def test_a_deep_line_is_read_or_refused_as_before(parts):
    text = '{"a":' + "".join(parts) + "}"
    outcomes = []
    for raw in (text.encode(), None):
        try:
            outcomes.append(("value", repr(loads_limited(text, raw=raw))))
        except JsonLimitError as err:
            outcomes.append(("refused", str(err), err.column))
    assert outcomes[0] == outcomes[1]


def _read(text: str, raw: bytes | None):
    try:
        return "value", repr(loads_limited(text, raw=raw))
    except JsonLimitError as err:
        return "refused", str(err), err.column


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-2 ** 70, max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([-0.0, 0.0, 1e22, 1e-7])
    | st.text(max_size=6) | st.sampled_from(["\ud800", "ä€😀", "\x00\x1f", '"\\/']),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=4),
    max_leaves=12)
EDITS = st.sampled_from(["", "1e400", "-1e400", "NaN", "Infinity", "1" * 20, "-" + "9" * 19,
                         "18446744073709551616", "9223372036854775807", "0.1e-400", " ", ",",
                         "\x0c", "\xa0", "\ufeff", "[", "]", "}", '"', "\\", "'a'", "01", "1.",
                         ".5", "+1", "-0", "1E+5", '"\\ud83d\\ude00"', '"\\u12"', "tru",
                         "1e309", "-1.7976931348623159e308", "1.7976931348623158e308", "2e-324",
                         "4.9e-324", "-0e5", "1.0E-400", "9007199254740993", "0.30000000000000004"])


@settings(max_examples=600, deadline=None)
@given(value=VALUES, ascii_only=st.booleans(), edit=EDITS, where=st.integers(0, 400))
def test_a_line_reads_the_same_values_or_the_same_refusal_with_the_bytes(value, ascii_only,
                                                                          edit, where):
    # the quick decoder (when installed) gives exactly the values the standard one
    # gives, type for type (1 and 1.0, 0.0 and -0.0, a whole number past 64 bits)
    text = json.dumps({"v": value}, ensure_ascii=ascii_only)
    if edit:
        k = where % (len(text) + 1)
        text = text[:k] + edit + text[k:]
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return                       # a lone surrogate is no UTF-8 line
    assert _read(text, raw) == _read(text, None)


def test_without_orjson_a_line_reads_alike(monkeypatch):
    import bottisota.formats.json_text as jl
    texts = ['{"a":[1,2.5,-0.0,"x"]}', '{"n":' + "9" * 25 + "}", '{"f":1e400}', "[NaN]",
             '{"s":"\\ud800"}', '{"a":1,"a":2}']
    with_it = [_read(t, t.encode()) for t in texts]
    monkeypatch.setattr(jl, "orjson", None)
    assert [_read(t, t.encode()) for t in texts] == with_it == [_read(t, None) for t in texts]
