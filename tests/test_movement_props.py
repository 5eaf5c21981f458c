"""Property tests of movement over random arenas and random step lists (D4, D9,
D29, D30, R11, R36, R37): a committed move never leaves a base overlapping a
wall or another base, never spends more than allowed, never leaves a ground bot
in a pit or up a cliff; preview and commit agree; refusals change nothing."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bottisota.core.actions import Back, Forward, Move, Refusal, Strafe, Turn
from bottisota.core.errors import InputError
from bottisota.engine.movement.moves import commit_move, preview_move
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.formats.loading import bundled_rules
from bottisota.geometry.compiled import compile_arena
from tests.builders import arena, bot, card, state

SIZE = (60, 40)
TOUCH = bundled_rules().contact_tolerance + 1e-9     # D4: overlap up to this is touching
LOCOS = ("wheeled", "tracked", "walker", "flier", "hover")

rect = st.tuples(st.integers(2, 50), st.integers(2, 30), st.integers(1, 10), st.integers(1, 10))


@st.composite
def arenas(draw):
    feats = [{"type": "wall", "rect": [58, 38, 2, 2]}]     # (arena_checks needs one spot feature)
    for x, y, w, h in draw(st.lists(rect, max_size=6)):
        feats.append({"type": "wall", "rect": [x, y, w, h]})
    for x, y, w, h in draw(st.lists(rect, max_size=3)):
        feats.append(
            {"type": "platform", "rect": [x, y, w, h], "height": draw(st.sampled_from([0.3, 3, 5]))}
        )
    for x, y, _, _ in draw(st.lists(rect, max_size=2)):
        feats.append({"type": "pit", "circle": [x + 2, y + 2, 2]})
    if draw(st.booleans()):
        x, y, _, _ = draw(rect)
        feats.append({"type": "door", "rect": [x, y, 2, 6]})
    try:
        return arena(*feats, size=SIZE)
    except InputError:
        assume(False)


def step_for(loco):
    turns = st.sampled_from([-90, -45, 45, 90, 180]) if loco in ("wheeled", "tracked", "flier") \
        else st.floats(-180, 180).map(lambda v: round(v, 1))
    dist = st.floats(0, 14).map(lambda v: round(v, 2))
    options = [dist.map(Forward), turns.map(Turn)]
    if loco != "flier":
        options.append(st.floats(0, 4).map(lambda v: Back(round(v, 2))))
    if loco in ("walker", "hover"):
        options.append(st.builds(lambda b, d: Strafe(round(b, 1), d), st.floats(-180, 180), dist))
    return st.one_of(*options)


def set_up(a, bots, dice):
    """The state, or hypothesis skips the case: positions a game could not be set up
    in (a base under a higher floor, R6 D4) are not moves' business."""
    try:
        return state(a, *bots, dice=dice)
    except InputError:
        assume(False)


@st.composite
def positions(draw):
    a = draw(arenas())
    loco = draw(st.sampled_from(LOCOS))
    spots = draw(st.lists(st.tuples(st.floats(2, 57), st.floats(2, 37)), min_size=3, max_size=3))
    spots = [(x + 0.37, y + 0.23) for x, y in spots]       # off the features' whole-cm edges
    index = compile_arena(a, bundled_rules())
    for i, (x, y) in enumerate(spots):
        assume(index.disc_blocked(x, y, 1.0, doors=True) is None)
        assume(not index.features_at(x, y, ["pit"]))
        for px, py in spots[:i]:
            assume(math.hypot(px - x, py - y) > 2.2)
    steps = draw(st.lists(step_for(loco), min_size=1, max_size=4))
    facing = draw(st.sampled_from([0, 45, 90, 135, 180, 225, 270, 315]))
    bots = [bot("m", "red", spots[0], facing, card(locomotion=loco, move=20, turn=2, armour=4,
                                                     structure=30))]
    bots += [bot(f"o{i}", f"p{i}", spots[i], 0) for i in (1, 2)]
    return a, bots, Move("m", tuple(steps))


def snapshot(s):
    return [
        (b.x, b.y, b.z, b.facing, b.damage, b.moved, b.destroyed) for b in s.bots.values()
    ], s.dice.used


PROPS = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@PROPS
@given(positions())
def test_committed_moves_keep_every_invariant(case):  # D4 D9 D29 D30 R11 R36 R37
    a, bots, move = case
    s = set_up(a, bots, [4] * 200)
    before = snapshot(s)
    preview = preview_move(s, move)
    assert snapshot(s) == before                                      # a preview changes nothing
    result = commit_move(s, move)
    if isinstance(result, Refusal):
        assert isinstance(preview, Refusal) and str(preview) == str(result)
        assert snapshot(s) == before                                  # D30: nothing, no dice
        return
    m = s.bots["m"]
    assert result.spent <= result.allowed + 1e-6
    assert m.moved <= m.stats.move + 1e-6
    if m.destroyed:
        return
    index = compile_arena(a, bundled_rules())
    assert index.disc_blocked(m.x, m.y, m.radius, doors=False) is None
    for o in s.others("m"):
        if abs(o.z - m.z) < 2:
            assert math.hypot(o.x - m.x, o.y - m.y) >= m.radius + o.radius - TOUCH
    if m.stats.is_ground:
        assert not index.features_at(m.x, m.y, ["pit"])
        assert m.z <= before[0][0][2] + s.rules.step_height + 1e-6    # never up a cliff
    assert abs(index.floor_z(m.x, m.y) - m.z) < 1e-3                  # falls end on the floor
    if m.stats.is_ground and result.ended == "fall":                  # ... clear of the cliff
        assert not under_higher_floor(s, m.x, m.y, m.radius, m.z)
    if not isinstance(preview, Refusal) and preview.teleport_candidates == []:
        assert len(preview.path) <= len(result.path)
        for p, c in zip(preview.path, result.path, strict=False):
            assert (p.x, p.y, p.z, p.facing) == (c.x, c.y, c.z, c.facing)
        if preview.ended not in ("collision", "crash", "fall") or not m.destroyed:
            assert preview.path == result.path
            assert (preview.x, preview.y, preview.facing) == (result.x, result.y, result.facing)


@st.composite
def ledges(draw):
    """A raised deck over the west half, a belt and a pit below, walls about: ground
    bots driving off the edge fall, land on bots, get carried (R39, R40, R44)."""
    feats = [{"type": "platform", "rect": [0, 0, 30, 40],
              "height": draw(st.sampled_from([1, 3, 6]))},
             {"type": "conveyor", "path": [[31, 4], [57, 4], [57, 30]], "width": 4, "speed": 3},
             {"type": "pit", "circle": [45, 30, 3]}]
    for x, y, w, h in draw(st.lists(rect, max_size=3)):
        feats.append({"type": "wall", "rect": [max(x, 31), y, w, h]})
    try:
        a = arena(*feats, size=SIZE)
    except InputError:
        assume(False)
    loco = draw(st.sampled_from(("wheeled", "tracked", "walker")))
    mover = (draw(st.floats(20, 40)), draw(st.floats(2, 37)))
    below = (31 + draw(st.floats(0.0, 1.5)), mover[1] + draw(st.floats(-2, 2)))
    others = [below, (draw(st.floats(29.5, 58)), draw(st.floats(2, 37)))]
    spots = [mover, *others]
    for i, (x, y) in enumerate(spots):
        assume(
            compile_arena(a, bundled_rules()).disc_blocked(x, y, 1.0) is None
            and not compile_arena(a, bundled_rules()).features_at(x, y, ["pit"])
        )
        assume(not 30.0 < x < 31.0 and 1.0 <= y <= SIZE[1] - 1.0)   # set up like a game
        for px, py in spots[:i]:
            assume(math.hypot(px - x, py - y) > 2.2)
    steps = draw(st.lists(step_for(loco), min_size=1, max_size=3))
    bots = [
        bot("m", "red", mover, 90, card(locomotion=loco, move=20, turn=2, armour=4, structure=30))
    ]
    bots += [bot(f"o{i}", f"p{i}", spot, 0, card(structure=30)) for i, spot in enumerate(others)]
    return a, bots, Move("m", tuple(steps))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                 HealthCheck.too_slow])
@given(ledges())
def test_falls_knock_backs_and_carries_leave_no_overlap(case):  # R39 R40 R44 D4 D9
    a, bots, move = case
    s = set_up(a, bots, [3] * 300)
    before = snapshot(s)
    result = commit_move(s, move)
    if isinstance(result, Refusal):
        assert snapshot(s) == before
        return
    live = s.live_bots()
    fallen = {e["bot"] for e in result.events if e["type"] == "fall"}
    for i, p in enumerate(live):
        assert (
            compile_arena(a, bundled_rules()).disc_blocked(p.x, p.y, p.radius, doors=False) is None
        )
        assert not compile_arena(a, bundled_rules()).features_at(p.x, p.y, ["pit"])
        if p.id in fallen:                       # a fall ends clear of the cliff (R39)
            assert not under_higher_floor(s, p.x, p.y, p.radius, p.z)
        for q in live[i + 1:]:
            if abs(p.z - q.z) < 2:
                assert math.hypot(p.x - q.x, p.y - q.y) >= p.radius + q.radius - TOUCH, (p.id, q.id)
