"""The journal's header (issue 32: made off the frame): the arena's shapes as data
that rebuild them exactly, worked out without building Shapely boxes, and the header
line spliced from the kept text of the rules, arena, cards and mods is the very line
`json.dumps` gives of the whole header (D8: a journal replays to the same state)."""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from shapely import get_coordinates

from bottisota.core.shapes import circle, rect
from bottisota.engine.game import Game
from bottisota.formats.loading import bundled_rules
from bottisota.play import journal
from bottisota.play.journal import journal_game
from bottisota.play.journal_data import arena_to_data, rect_ring, shape_data
from tests.builders import arena

finite = st.floats(-500, 500, allow_nan=False, allow_infinity=False)
size = st.floats(0.01, 500, allow_nan=False, allow_infinity=False)


@given(finite, finite, size, size)
def test_a_rectangles_ring_is_worked_out_as_shapely_builds_it(x, y, w, h):  # D8
    assert rect_ring(x, y, w, h) == get_coordinates(rect(x, y, w, h).exterior).tolist()


@given(st.floats(200, 800), st.floats(200, 800), st.floats(0.5, 80), st.integers(0, 4))
def test_rects_and_circles_are_written_as_such_and_rebuild_exactly(x, y, r, digits):  # D8
    x, y, r = round(x, digits), round(y, digits), round(r, digits) or 1.0
    box = arena({"type": "wall", "rect": [x, y, 2 * r, r]}, size=(1000, 1000))
    disc = arena({"type": "pit", "circle": [x, y, r]}, size=(1000, 1000))
    written = shape_data(box.features[0])
    assert list(written) == ["rect"]
    assert get_coordinates(rect(*written["rect"]).exterior).tolist() == \
        get_coordinates(box.features[0].shape.exterior).tolist()
    written = shape_data(disc.features[0])
    assert list(written) == ["circle"]
    assert get_coordinates(circle(*written["circle"]).exterior).tolist() == \
        get_coordinates(disc.features[0].shape.exterior).tolist()


def test_an_arena_is_put_into_data_once_and_kept():
    a = arena({"type": "wall", "rect": [10, 10, 5, 40]})
    assert arena_to_data(a) is arena_to_data(a)
    b = arena({"type": "wall", "rect": [10, 10, 5, 40]})
    assert arena_to_data(b) is not arena_to_data(a) and arena_to_data(b) == arena_to_data(a)


def test_the_spliced_header_is_the_whole_headers_json(tmp_path, catalogue, duel):  # D8
    cards, mods = catalogue
    game = Game.new(duel, bundled_rules(), cards, mods, ["red", "blue"], seed=4)
    journal_game(game, tmp_path / "g.jsonl").close()
    line = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()[0]
    header = json.loads(line)
    header.pop("digest", None)          # the line's seal (journal_file), after the header
    body = {k: v for k, v in header.items() if k not in ("rules", "arena", "arena_source",
                                                          "cards", "mods")}
    whole = {**{k: body[k] for k in list(body)[:-1]},
             **json.loads(journal.static_text(game.state)), "start": body["start"]}
    assert list(header) == list(whole) and header == whole
    assert list(header)[-6:] == ["rules", "arena", "arena_source", "cards", "mods", "start"]
