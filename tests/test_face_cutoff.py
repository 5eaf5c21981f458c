"""A cliff's face searched only as far as the walk can use it (R37, D29; issue 12): the
walk refuses a straight piece for a face only before where the piece stops, so the
search may stop once the face surely lies beyond that. Its answers are the full
search's wherever they are used, and the moves it judges are the same."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core.actions import Forward, Move, Refusal
from bottisota.core.compass import vector
from bottisota.engine.movement.geometry import EPS
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.movement.physics import higher_floor_reached
from bottisota.engine.movement.walk import _face_refuses
from tests.builders import arena, bot, card, state
from tests.test_cliff_edges import levels, start_and_path

WALKER = card(move=16)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_face_searched_up_to_a_stop_is_the_full_answer_where_used(data):  # R37 D29
    s = data.draw(levels())
    a, heading, length = start_and_path(data.draw, s)
    d = vector(heading)
    b = s.bots["a"]
    z0 = s.index.floor_z(*a)
    full = higher_floor_reached(s, b, a, d, length, z0)
    run = data.draw(st.floats(0.0, length))
    kind = data.draw(st.sampled_from([None, "teleport", "wall", "bot", "pit", "fall"]))
    first = None if kind is None else (run, 0, kind, None)
    matters = _face_refuses(length, first)
    cut = higher_floor_reached(s, b, a, d, length, z0, matters=matters)
    if full is None or not matters(full[0]):
        assert cut is None or cut == full
    else:
        assert cut == full


def test_a_face_beyond_a_wall_stop_is_not_searched_and_the_step_stops_at_the_wall():
    # R37 D29 D9: a wall at x = 15 stops the walker before the deck's face at x = 20,
    # so the step is not refused for the face (and the face is not looked for)
    deck = {"type": "platform", "id": "deck", "rect": [20, 0, 20, 60], "height": 4}
    wall = {"type": "wall", "id": "w", "rect": [15, 20, 1, 20], "height": 3}
    s = state(arena(deck, wall), bot("a", "red", (10, 30), 90, WALKER), round=2)
    r = preview_move(s, Move("a", (Forward(12.0),)))
    assert not isinstance(r, Refusal), r
    assert r.ended == "collision"
    assert abs(r.x - 14.0) < 1e-6
    assert _face_refuses(12.0, (4.0, 0, "wall", None))(4.0 - 2 * EPS)
    assert not _face_refuses(12.0, (4.0, 0, "wall", None))(4.0)
    assert _face_refuses(12.0, None)(12.0 + EPS / 2)


def test_a_face_before_the_end_of_the_step_still_refuses_it():  # R37 D29
    deck = {"type": "platform", "id": "deck", "rect": [20, 0, 20, 60], "height": 4}
    s = state(arena(deck), bot("a", "red", (10, 30), 90, WALKER))
    r = preview_move(s, Move("a", (Forward(12.0),)))
    assert isinstance(r, Refusal) and r.rule == "R37"
    assert abs(r.at[0] - 19.05) < 1e-6
