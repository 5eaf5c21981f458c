"""Bases, levels and cliff faces: a base meets another where their levels meet
along a slope (D4, D9, R43, R46), a ground bot's base never reaches under a
higher floor (R37, D16, D29), and a teleporter is free only where the arriving
bot could be set up (R53). Real positions, exact outcomes; the decisions are in
docs/decisions.md (D9, D29, R53)."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core.actions import Forward, Move, Refusal, Strafe, Turn
from bottisota.core.errors import InputError
from bottisota.engine.movement.moves import commit_move, preview_fling, preview_move
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.engine.movement.placing import check_place
from tests.builders import arena, bot, card, state

WALKER = card(move=16)
HOVER = card(locomotion="hover", move=12)
FLIER = card(locomotion="flier", move=16, turn=2)

RAMP = {"type": "ramp", "id": "slope", "rect": [30, 20, 10, 20], "from": 0, "to": 4, "up": 90}
ESCALATOR = {**RAMP, "type": "escalator", "id": "esc", "speed": 4}
TOP = {"type": "platform", "id": "top", "rect": [40, 10, 20, 40], "height": 4}
DECK = {"type": "platform", "id": "deck", "rect": [20, 0, 20, 60], "height": 4}


def go(s, *steps, bot_id="a"):
    return commit_move(s, Move(bot_id, tuple(steps)))


def pose(s, bot_id="a"):
    b = s.bots[bot_id]
    return (round(b.x, 2), round(b.y, 2), round(b.z, 2), round(b.facing, 1))


def kinds(result):
    return [e["type"] for e in result.events]


def figures_overlap(a, b, tol):
    """Two bases overlap beyond D4 and their figures share a level (D3)."""
    if a.z >= b.z + b.card.height or b.z >= a.z + a.card.height:
        return False
    return math.hypot(a.x - b.x, a.y - b.y) < a.radius + b.radius - tol - 1e-6


# --- levels along a slope (D4, D9, R43, R46) ----------------------------------------------

def test_walker_climbing_a_ramp_meets_a_bot_higher_up_it():  # D9 R43 D4
    # b stands 2.4 cm up the ramp: a level apart from a at the foot, not where they meet
    s = state(arena(RAMP, TOP), bot("a", "red", (25, 30), 90, WALKER),
              bot("b", "blue", (36, 30), 0, HOVER), seed=3)
    assert s.bots["b"].z == pytest.approx(2.4)
    preview = preview_move(s, Move("a", (Forward(12),)))
    hit = next(e for e in preview.events if e["type"] == "collision")
    assert hit["with"] == "b" and hit["at"] == [34.0, 30.0]
    r = go(s, Forward(12))
    assert pose(s) == (34.0, 30.0, 1.6, 90.0) and r.spent == pytest.approx(9.0)
    assert not figures_overlap(s.bots["a"], s.bots["b"], s.rules.contact_tolerance)


def test_walker_coming_down_a_ramp_meets_a_bot_at_its_foot():  # D9 R43
    s = state(arena(RAMP, TOP), bot("a", "red", (39, 30), 270, WALKER),
              bot("b", "blue", (31.5, 30), 0, HOVER), seed=4)
    r = go(s, Forward(8))
    assert "collision" in kinds(r)
    assert pose(s)[:2] == (33.5, 30.0)


def test_bot_flung_up_a_ramp_meets_a_bot_higher_up_it():  # D9 R29 R43
    s = state(arena(RAMP, TOP), bot("a", "red", (25, 30), 0, WALKER),
              bot("b", "blue", (36, 30), 0, HOVER))
    f = preview_fling(s, "a", 90.0, 12.0)
    assert f.stopped_by == "bot" and f.collisions == ["b"]
    assert (round(f.x, 2), round(f.y, 2), round(f.z, 2)) == (34.0, 30.0, 1.6)


def test_escalator_carries_a_bot_into_one_standing_higher_up_it():  # R46 D9
    # a ends its move 0.4 cm up the escalator; b is 2 cm higher (a level apart there)
    s = state(arena(ESCALATOR, TOP), bot("a", "red", (28, 30), 90, WALKER),
              bot("b", "blue", (36, 30), 0, HOVER), seed=5)
    r = go(s, Forward(3))
    assert "belt" in kinds(r) and "collision" in kinds(r)
    assert pose(s)[:2] == (34.0, 30.0)
    assert not figures_overlap(s.bots["a"], s.bots["b"], s.rules.contact_tolerance)


def test_base_under_an_overhang_stops_where_the_levels_meet():  # D3 D9 R43
    # b stands on a ledge beside the ramp, its base out over the ramp's side; a climbs the
    # ramp along the ledge's foot (touching its face, D4) and passes under b's base
    ledge = {"type": "platform", "id": "ledge", "rect": [30, 40, 10, 10], "height": 4}
    for bx, stop in ((35.0, 35.0), (35.3, 35.0), (36.5, 35.6282)):
        s = state(arena(RAMP, TOP, ledge), bot("a", "red", (31, 38.95), 90, WALKER),
                  bot("b", "blue", (bx, 40.75), 0, HOVER), seed=1)
        r = go(s, Forward(6))
        assert [e["with"] for e in r.events if e["type"] == "collision"] == ["b"]
        a = s.bots["a"]
        assert (a.x, a.y) == pytest.approx((stop, 38.95), abs=1e-4)
        # where its figure's top meets b's floor (2 + 2 = 4), or at first contact
        assert a.z == pytest.approx(0.4 * (stop - 30), abs=1e-4)
        assert not figures_overlap(a, s.bots["b"], s.rules.contact_tolerance)


def test_faller_still_lands_on_the_bot_below_rather_than_ramming_it():  # R39 R40
    s = state(arena(DECK), bot("a", "red", (30, 30), 90, WALKER),
              bot("b", "blue", (41.5, 30), 0), seed=6)
    r = go(s, Forward(12))
    assert "collision" not in kinds(r)
    fall = next(e for e in r.events if e["type"] == "fall")
    assert fall["lands_on"] == ["b"]


# --- a ground base never reaches under a higher floor (R37, D16, D29) ----------------------

def test_walker_may_drive_up_to_a_cliff_face_touching_it():  # D29 D4
    s = state(arena(DECK), bot("a", "red", (10, 30), 90, WALKER))
    r = go(s, Forward(9.05))
    assert not isinstance(r, Refusal) and pose(s) == (19.05, 30.0, 0.0, 90.0)


def test_step_that_would_put_the_base_under_a_higher_floor_is_refused():  # R37 D29 D30
    for cm in (9.2, 9.9, 10.5):
        s = state(arena(DECK), bot("a", "red", (10, 30), 90, WALKER))
        r = go(s, Forward(cm))
        assert isinstance(r, Refusal) and r.rule == "R37" and "platform 'deck'" in r.message
        assert r.at == pytest.approx((19.05, 30.0), abs=1e-6)
        assert pose(s) == (10.0, 30.0, 0.0, 90.0)            # nothing of it happens (D30)


def test_slanting_into_a_cliff_face_is_refused_where_the_rim_meets_it():  # R37 D29
    s = state(arena(DECK), bot("a", "red", (10, 30), 45, WALKER))
    r = go(s, Forward(14))
    assert isinstance(r, Refusal) and r.rule == "R37"
    assert r.at[0] == pytest.approx(19.05, abs=1e-6)         # the rim reaches x = 20.05


def test_walker_may_slide_along_a_cliff_foot_touching_it():  # D4 D29
    s = state(arena(DECK), bot("a", "red", (19.0, 10), 0, WALKER))
    r = go(s, Forward(12))
    assert not isinstance(r, Refusal) and pose(s) == (19.0, 22.0, 0.0, 0.0)


def test_side_of_a_ramp_is_a_face_its_foot_is_not():  # R43 D29
    s = state(arena(RAMP, TOP), bot("a", "red", (35, 14), 0, WALKER))
    r = go(s, Forward(5.5))                # the ramp's side rises 2 cm at x = 35: a face
    assert isinstance(r, Refusal) and r.rule == "R37"
    assert r.at == pytest.approx((35.0, 19.05), abs=1e-6)
    s = state(arena(RAMP, TOP), bot("a", "red", (25, 30), 90, WALKER))
    r = go(s, Forward(14))                 # up the ramp and onto the top: no face on the way
    assert not isinstance(r, Refusal) and pose(s) == (39.0, 30.0, 3.6, 90.0)


def test_flier_may_hover_with_its_base_over_a_higher_floor():  # R37 R41
    s = state(arena(DECK), bot("a", "red", (10, 30), 90, FLIER))
    r = go(s, Forward(9.5))
    assert not isinstance(r, Refusal) and pose(s)[:2] == (19.5, 30.0)


def test_set_up_refuses_a_ground_base_under_a_higher_floor():  # R6 R37 D29
    with pytest.raises(InputError) as refused:
        state(arena(DECK), bot("a", "red", (19.5, 30), 90, WALKER))
    assert "under a higher floor" in str(refused.value)
    s = state(arena(DECK), bot("a", "red", (19.0, 30), 90, WALKER),
              bot("f", "blue", (19.5, 40), 90, FLIER))          # touching; a flier hovers
    a = s.bots["a"]
    assert check_place(s, a, 19.04, 50) is None
    assert "under a higher floor" in check_place(s, a, 19.2, 50)
    assert check_place(s, a, 30.0, 30.0) is None


def test_push_into_a_cliff_face_stops_at_the_face_with_a_collision():  # R29 D9 D10 D29
    s = state(arena(DECK), bot("a", "red", (10, 30), 0, WALKER))
    f = preview_fling(s, "a", 90.0, 15.0)
    assert f.stopped_by == "cliff" and f.collisions == ["platform 'deck'"]
    assert (round(f.x, 2), round(f.y, 2), f.z) == (19.05, 30.0, 0.0)
    assert not under_higher_floor(s, f.x, f.y, 1.0, 0.0)


def test_conveyor_carries_a_bot_to_the_cliff_face_not_under_it():  # R44 D9 D29
    belt = {"type": "conveyor", "id": "belt", "path": [[5, 30], [19, 30]], "width": 4,
            "speed": 4}
    s = state(arena(DECK, belt), bot("a", "red", (12, 30), 0, WALKER), seed=7)
    r = go(s, Turn(45), Turn(45), Forward(4))
    assert "belt" in kinds(r) and "collision" in kinds(r)
    assert pose(s)[:2] == (19.05, 30.0)


# --- teleporter exits (R53) ---------------------------------------------------------------

TP_IN = {"type": "teleporter", "id": "tp-a", "circle": [30, 30, 1.5]}


def _exit(**kw):
    return {"type": "teleporter", "id": "tp-b", "circle": [60, 30, 1.5], **kw}


def _teleport_event(result):
    return next(e for e in result.events if e["type"] == "teleport")


@pytest.mark.parametrize("features, why", [
    ([_exit(circle=[60, 30, 0.5]), {"type": "wall", "id": "w", "rect": [60.6, 20, 4, 20]}],
     "a wall 0.4 cm into the arriving base"),
    ([_exit(), {"type": "platform", "id": "hi", "rect": [60.5, 0, 19.5, 60], "height": 4}],
     "a higher floor under its base"),
    ([_exit(circle=[79.4, 30, 0.5])], "its base off the table's end"),
])
def test_exit_where_a_ground_bot_could_not_stand_is_not_free(features, why):  # R53 D29 R2 D4
    # (an exit on a pit cannot be drawn: the arena check refuses a pit on a teleporter)
    s = state(arena(TP_IN, *features), bot("a", "red", (20, 30), 90, WALKER))
    r = go(s, Forward(12))
    tp = _teleport_event(r)
    assert tp["to"] is None and tp["candidates"] == [], why
    assert pose(s)[:2] == (32.0, 30.0)                        # walked over tp-a


def test_exit_beside_a_higher_floor_is_free_for_a_flier_but_not_in_a_wall():  # R53 R41
    s = state(arena(TP_IN, _exit(), {"type": "platform", "id": "hi", "rect": [60.5, 0, 19.5, 60],
                                     "height": 4}), bot("a", "red", (20, 30), 90, FLIER))
    r = go(s, Forward(12))
    assert _teleport_event(r)["to"] == "teleporter 'tp-b'"
    assert pose(s)[:2] == (60.0, 30.0)                        # the step ends there (D28)
    s = state(arena(TP_IN, _exit(circle=[60, 30, 0.5]),
                    {"type": "wall", "id": "w", "rect": [60.6, 20, 4, 20]}),
              bot("a", "red", (20, 30), 90, FLIER))
    assert _teleport_event(go(s, Forward(12)))["to"] is None


def test_exit_whose_arriving_base_would_overlap_a_bot_is_not_free():  # R53 D4
    # tiny teleporters: b stands clear of tp-b's circle but within reach of the arriving base
    small_in = {**TP_IN, "circle": [30, 30, 0.5]}
    s = state(arena(small_in, _exit(circle=[60, 30, 0.5])),
              bot("a", "red", (20, 30), 90, WALKER), bot("b", "blue", (61.8, 30), 0))
    r = go(s, Forward(12))
    assert _teleport_event(r)["to"] is None
    s = state(arena(small_in, _exit(circle=[60, 30, 0.5])),
              bot("a", "red", (20, 30), 90, WALKER), bot("b", "blue", (62.0, 30), 0))
    r = go(s, Forward(12))                                     # touching exactly: free (D4)
    assert _teleport_event(r)["to"] == "teleporter 'tp-b'"


# --- properties -----------------------------------------------------------------------------

ARENA = arena(RAMP, TOP, DECK | {"rect": [0, 45, 20, 15]},
              {"type": "wall", "id": "w", "rect": [10, 5, 2, 12]},
              {"type": "escalator", "id": "esc", "rect": [60, 20, 8, 10], "from": 0, "to": 4,
               "up": 270, "speed": 3},
              {"type": "teleporter", "id": "t1", "circle": [25, 40, 1.5]},
              {"type": "teleporter", "id": "t2", "circle": [59.5, 45, 1.5]})


@st.composite
def positions(draw):
    spots = []
    for _ in range(3):
        spots.append((draw(st.floats(1.5, 78.5)), draw(st.floats(1.5, 58.5)),
                       draw(st.sampled_from([0.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0]))))
    cards = draw(st.lists(st.sampled_from([WALKER, HOVER, FLIER, card(locomotion="wheeled",
                                                                          move=14, turn=3)]),
                          min_size=3, max_size=3))
    steps = draw(st.lists(st.one_of(
        st.builds(Forward, st.floats(0.5, 14.0)),
        st.builds(Strafe, st.sampled_from([-90.0, 90.0, 180.0]), st.floats(0.5, 4.0)),
        st.builds(Turn, st.sampled_from([-45.0, 45.0]))), min_size=1, max_size=3))
    return spots, cards, tuple(steps), draw(st.integers(0, 10_000))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(positions())
def test_no_base_rests_in_a_wall_under_a_floor_or_in_another_base(case):  # D4 D9 D29 R53
    spots, cards, steps, seed = case
    bots = []
    for k, ((x, y, f), c) in enumerate(zip(spots, cards, strict=True)):
        bots.append(bot("abc"[k], ["red", "blue", "green"][k], (x, y), f, c))
    try:
        s = state(ARENA, *bots, seed=seed)
    except InputError:
        return                                   # not a legal set-up: nothing to check
    r = commit_move(s, Move("a", steps))
    if isinstance(r, Refusal):
        return
    tol = s.rules.contact_tolerance
    live = [b for b in s.bots.values() if b.on_table and not b.destroyed]
    for b in live:
        assert s.index.inside_table(b.x, b.y, b.radius)
        assert s.index.disc_blocked(b.x, b.y, b.radius - tol, doors=False) is None
        if b.card.is_ground:
            assert not under_higher_floor(s, b.x, b.y, b.radius, b.z), f"{b.id} under a floor"
    for i, p in enumerate(live):
        for q in live[i + 1:]:
            assert not figures_overlap(p, q, tol + 1e-6), f"{p.id} and {q.id} overlap"


# --- random games with a designer's extra card and mod in the catalogue ----------------------

EXTRA_CARD = """\
id: climber
name: Climber
locomotion: walker
move: 11
turn: 2
armour: 4
structure: 5
copies: 2
weapons:
  - {name: Pop gun, kind: gun, mount: turret, range: 20, to_hit: 4, hits: 1}
"""
EXTRA_MOD = """\
id: grip
name: Grip
deck: parts
modifies: {move: 1}
"""


@pytest.fixture(scope="module")
def extra_catalogue(tmp_path_factory):
    """The catalogue with one more bot card and one more mod, from a designer's folder
    (the soak once found a base overlap only with such a catalogue)."""
    from bottisota.formats import content
    from bottisota.formats.loading import load_catalogue
    folder = tmp_path_factory.mktemp("designer")
    (folder / "cards").mkdir()
    (folder / "mods").mkdir()
    (folder / "cards" / "climber.yaml").write_text(EXTRA_CARD, encoding="utf-8")
    (folder / "mods" / "grip.yaml").write_text(EXTRA_MOD, encoding="utf-8")
    before = content.given_folders()
    content.use_folders([str(folder)])
    try:
        cards, mods = load_catalogue()
    finally:
        content.use_folders(before)
    assert "climber" in cards and "grip" in mods
    return cards, mods


def _soak_game(seed, cards, mods):
    from bottisota.formats.loading import arena_from_dict
    from tests import test_soak
    return test_soak.play(seed, arena_from_dict(test_soak.SMALL), cards, mods, {})


@pytest.mark.parametrize("seed", [322, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20])
def test_seeded_games_with_extra_cards_keep_bases_apart(seed, extra_catalogue):  # D4 D9 D29
    # every action checked: no base in a wall, off the table, under a higher floor (D29)
    # or in another on its level beyond D4, on the soak's small arena with its ramp
    assert _soak_game(seed, *extra_catalogue) > 0


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 100_000))
def test_any_seeded_game_with_extra_cards_keeps_bases_apart(seed, extra_catalogue):  # D4 D29
    assert _soak_game(seed, *extra_catalogue) > 0
