"""Property tests for shooting: refusals change nothing, the pre-measure agrees
with the resolved shot, spray membership matches a brute-force distance check
(R22, R28, R34, D4, D19)."""
from __future__ import annotations

import copy

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point
from test_shooting_world import events_of

from bottisota.core.actions import Refusal, Shoot, ShotOrder
from bottisota.core.dice import Dice
from bottisota.core.errors import InputError
from bottisota.engine.shooting.shots import check_shoot, premeasure, resolve_shoot, spray_members
from bottisota.formats.loading import bundled_rules
from bottisota.geometry.compiled import compile_arena
from tests import builders as B

ARENAS = [
    B.arena(),
    B.arena({"type": "wall", "id": "w", "rect": [38, 10, 3, 30]}),
    B.arena({"type": "wall", "id": "w", "rect": [20, 25, 30, 2]},
            {"type": "door", "id": "d", "rect": [50, 25, 6, 2]}),
    B.arena({"type": "platform", "id": "p", "rect": [45, 0, 35, 30], "height": 3},
            {"type": "wall", "id": "low", "rect": [30, 35, 2, 20], "height": 2.5}),
]
WEAPONS = [
    B.weapon("Gun", mount="nose", range=35),
    B.weapon("Turret", mount="turret", range=25, ammo=1),
    B.weapon("Claw", kind="melee", mount="nose", range=0),
    B.weapon("Spray", kind="spray", mount="turret", range=40),
    B.weapon("Rocket", kind="rocket", mount="nose", range=45),
    B.weapon("Missile", kind="missile", mount="turret", range=45),
    B.weapon("Shell", mount="turret", range=40, explosive=True),
    B.weapon("Mine", kind="mine", range=0),
]

coord = st.floats(min_value=3, max_value=77, allow_nan=False).map(lambda v: round(v, 2))
ycoord = st.floats(min_value=3, max_value=57, allow_nan=False).map(lambda v: round(v, 2))
facing = st.sampled_from([0, 45, 90, 135, 180, 225, 270, 315, 17.5])


@st.composite
def layouts(draw):
    """An arena, 3-6 bots that do not overlap each other, walls or the table edge."""
    arena = draw(st.sampled_from(ARENAS))
    n = draw(st.integers(3, 6))
    spots: list[tuple[float, float]] = []
    for _ in range(n):
        x, y = draw(coord), draw(ycoord)
        spots.append((x, y))
    for i, (x, y) in enumerate(spots):
        for (u, v) in spots[:i]:
            assume((x - u) ** 2 + (y - v) ** 2 >= 4.0)
        assume(compile_arena(arena, bundled_rules()).disc_blocked(x, y, 1.0) is None)
    bots = [B.bot(f"b{i}", f"p{i}", spot, draw(facing),
                  B.card(weapons=WEAPONS) if i == 0 else B.card())
            for i, spot in enumerate(spots)]
    try:                        # set up as in a game: no base under a higher floor (R6)
        B.state(arena, *bots)
    except InputError:
        assume(False)
    return arena, bots


FAST = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


def snapshot(state):
    return (copy.deepcopy(state.bots), dict(state.scores), dict(state.kills), state.dice.used)


@FAST
@given(layouts(), st.sampled_from([w["name"] for w in WEAPONS]), st.integers(1, 5),
       st.integers(1, 2), st.booleans())
def test_a_refused_shot_rolls_nothing_and_changes_nothing(layout, weapon, target, round_no, new):
    # R7 R18-R25 R49 R56 D19
    arena, bots = layout
    state = B.state(arena, *bots, seed=1, round=round_no)
    state.bots["b0"].new = new
    shoot = Shoot("b0", (ShotOrder(weapon, f"b{target}"),))
    before = snapshot(state)
    refusal = check_shoot(state, shoot)
    assert snapshot(state) == before
    result = resolve_shoot(state, shoot)
    if refusal is not None:
        assert isinstance(result, Refusal) and str(result) == str(refusal)
        assert state.dice.used == 0
        assert snapshot(state) == before
    else:
        assert not isinstance(result, Refusal)


@FAST
@given(layouts(), st.sampled_from([w["name"] for w in WEAPONS if w["kind"] != "mine"]))
def test_the_premeasure_agrees_with_the_resolved_shot(layout, weapon):
    # R22 R28 R34 D32: who can be targeted, and who is rolled against on a hit
    arena, bots = layout
    state = B.state(arena, *bots, dice=[6] * 200)
    pm = premeasure(state, "b0", weapon)
    assert state.dice.used == 0
    for t in pm.targets:
        shoot = Shoot("b0", (ShotOrder(weapon, t.bot),))
        assert t.can_fire == (check_shoot(state, shoot) is None), (t, check_shoot(state, shoot))
        if not t.can_fire:
            continue
        aimed = premeasure(state, "b0", weapon, target=t.bot)
        trial = state.copy()
        trial.dice = Dice(forced=[6] * 200)
        events = resolve_shoot(trial, shoot)
        rolled = [e["target"] for e in events_of(events, "to_hit")]
        if aimed.kind == "spray":
            assert rolled == list(aimed.corridor_members)
        elif aimed.blast is not None:
            assert rolled == [m.bot for m in aimed.blast.members]
        else:
            assert rolled == [t.bot]       # a 6 hits: nothing flies on


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(coord, ycoord, st.sampled_from([0.5, 1.0, 1.5])), min_size=1,
                max_size=12),
       coord, ycoord, coord, ycoord)
def test_spray_members_are_the_bots_within_reach_of_the_segment(discs, sx, sy, ex, ey):
    # R28 D4: brute force with shapely distances, one bot at a time
    bots = [B.bot("s", "s", (sx, sy), 0, B.card(weapons=[B.weapon("Spray", kind="spray")]))]
    for i, (x, y, r) in enumerate(discs):
        bots.append(B.bot(f"m{i}", f"m{i}", (x, y), 0, B.card(base=2 * r)))
    state = B.state(B.arena(), bots[0])
    for one in bots[1:]:        # overlapping discs are fine here: set each up on its own
        placed = B.state(B.arena(), one).bots[one["id"]]
        state.bots[placed.id] = placed
    shooter = state.bots["s"]
    line = LineString([(sx, sy), (ex, ey)]) if (sx, sy) != (ex, ey) else Point(sx, sy)
    tol = state.rules.contact_tolerance
    expected = []
    for b in state.bots.values():
        if b.id == "s":
            continue
        d = line.distance(Point(b.x, b.y))
        assume(abs(d - (b.radius + tol)) > 1e-6)      # no float coin-flips at the edge
        if d <= b.radius + tol:
            expected.append((round(((b.x - sx) ** 2 + (b.y - sy) ** 2) ** 0.5, 6), b.id))
    got = [m.bot for m in spray_members(state, shooter, (ex, ey))]
    assert got == [bid for _, bid in sorted(expected)]
