"""ArenaIndex queries on hand-computed positions (formats.md, D4, D15-D17, R22, R38, R47)."""
from __future__ import annotations

import pytest
from test_geometry_support import arena

from bottisota.formats.loading import bundled_rules
from bottisota.geometry.arena_index import ArenaIndex, Disc

WAREHOUSE_CORNER = (
    ("platform", {"rect": [60, 50, 40, 20], "height": 4}),
    ("stairs", {"rect": [100, 50, 8, 20], "from": 0, "to": 4, "up": 270}),
    ("ramp", {"rect": [60, 42, 10, 8], "from": 0, "to": 4, "up": 0}),
    ("escalator", {"rect": [86, 40, 4, 10], "from": 0, "to": 4, "up": 0, "speed": 2}),
    ("lift", {"rect": [56, 60, 4, 4], "top": 4}),
    ("pit", {"circle": [20, 70, 4]}),
    ("wall", {"rect": [30, 0, 2, 40], "height": 10}),
    ("door", {"rect": [30, 40, 2, 6], "id": "gate"}),
)


@pytest.fixture(scope="module")
def warehouse() -> ArenaIndex:
    return ArenaIndex(arena((120, 90), *WAREHOUSE_CORNER), bundled_rules())


def approx(v, tol=0.005):
    return pytest.approx(v, abs=tol)


# -- floor height -------------------------------------------------------------------
def test_stairs_rise_linearly_along_up(warehouse):
    # formats.md: stairs [100,50,8,20] from 0 to 4 up 270 (west): x=108 is 0, x=100 is 4
    assert warehouse.floor_z(104, 60) == approx(2.0)
    assert warehouse.floor_z(107, 55) == approx(0.5)
    assert warehouse.floor_z(100.5, 69) == approx(3.75)


def test_ramp_and_escalator_rise_along_up(warehouse):
    # ramp [60,42,10,8] up 0 (north): y=42 is 0, y=50 is 4
    assert warehouse.floor_z(65, 44) == approx(1.0)
    # escalator [86,40,4,10] up 0: y=47.5 is 3.0
    assert warehouse.floor_z(88, 47.5) == approx(3.0)


def test_platform_height_and_bare_table(warehouse):
    assert warehouse.floor_z(80, 60) == approx(4.0)
    assert warehouse.floor_z(10, 10) == 0.0
    assert warehouse.floor_z(58, 62) == 0.0        # lift car: its own floor, not a floor type


def test_later_floor_wins_where_floors_overlap():
    index = ArenaIndex(arena((60, 40), ("platform", {"rect": [0, 0, 20, 20], "height": 4}),
                             ("platform", {"rect": [10, 0, 20, 20], "height": 2})), bundled_rules())
    assert index.floor_z(5, 10) == approx(4.0)
    assert index.floor_z(15, 10) == approx(2.0)
    assert index.floor_z(25, 10) == approx(2.0)


def test_rotated_ramp_slopes_along_its_own_up():
    # a ramp [0,0,10,10] rising toward 45° (north-east): extent along u spans 10*sqrt(2)
    index = ArenaIndex(arena((60, 40), ("ramp", {"rect": [0, 0, 10, 10], "from": 0, "to": 2,
                                                 "up": 45})), bundled_rules())
    assert index.floor_z(5, 5) == approx(1.0)
    assert index.floor_z(2.5, 2.5) == approx(0.5)
    assert index.floor_z(10, 0) == approx(1.0)


# -- features at a point (D17) ---------------------------------------------------------
def test_features_at_centre_inside_shape(warehouse):  # D17
    assert [f.type for f in warehouse.features_at(20, 70)] == ["pit"]
    assert warehouse.features_at(20, 74.5) == []
    assert [f.type for f in warehouse.features_at(104, 60, ["stairs", "pit"])] == ["stairs"]
    assert warehouse.features_at(104, 60, ["pit"]) == []
    assert [f.type for f in warehouse.features_at(100, 60)] == ["platform", "stairs"]


# -- resting discs (D4) ---------------------------------------------------------------
def test_inside_table():
    index = ArenaIndex(arena((60, 40)), bundled_rules())
    assert index.inside_table(1.0, 1.0, 1.0)
    assert index.inside_table(59.0, 39.0, 1.0)
    assert not index.inside_table(0.99, 20.0, 1.0)
    assert not index.inside_table(30.0, 39.5, 1.0)


def test_disc_blocked_beyond_contact_tolerance_only(warehouse):  # D4
    tol = bundled_rules().contact_tolerance
    assert warehouse.disc_blocked(29.0, 10.0, 1.0) is None                 # touching
    assert warehouse.disc_blocked(29.0 + tol * 0.8, 10.0, 1.0) is None     # within tolerance
    wall = warehouse.disc_blocked(29.0 + tol * 2, 10.0, 1.0)
    assert wall is not None and wall.type == "wall"
    assert warehouse.disc_blocked(31.0, 10.0, 1.0).index == 6              # centre inside


def test_disc_blocked_by_door_unless_open(warehouse):  # R47
    door = warehouse.disc_blocked(29.5, 43.0, 1.0)
    assert door is not None and door.id == "gate"
    assert warehouse.disc_blocked(29.5, 43.0, 1.0, doors=False) is None
    assert warehouse.disc_blocked(29.5, 43.0, 1.0, open_doors=["gate"]) is None
    assert warehouse.disc_blocked(29.5, 43.0, 1.0, open_doors=[7]) is None


def test_disc_contacts_within_tolerance(warehouse):  # D4
    tol = bundled_rules().contact_tolerance
    assert [f.index for f in warehouse.disc_contacts(29.0 - tol * 0.8, 10, 1.0, ["wall"])] == [6]
    assert warehouse.disc_contacts(29.0 - tol * 2, 10, 1.0, ["wall"]) == []
    assert [f.type for f in warehouse.disc_contacts(20, 75, 1.0, ["pit", "wall"])] == ["pit"]


def test_doors_touched_opens_doors_a_base_touches(warehouse):  # R47, D4
    near = Disc("a", 29.0, 43.0, 1.0)
    far = Disc("b", 27.0, 43.0, 1.0)
    assert warehouse.doors_touched([far]) == set()
    assert warehouse.doors_touched([far, near]) == {7}


# -- swept disc -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def one_wall() -> ArenaIndex:
    return ArenaIndex(arena((120, 90), ("wall", {"rect": [40, 0, 2, 36]}),
                           ("door", {"rect": [40, 36, 2, 6], "id": "d"})), bundled_rules())


def test_first_contact_with_a_wall_face(one_wall):
    c = one_wall.first_contact((10, 20), (60, 20), 1.0)
    assert c.point == (approx(39.0), approx(20.0))
    assert c.distance == approx(29.0)
    assert c.t == approx(29.0 / 50.0, 1e-6)
    assert c.feature.type == "wall"


def test_first_contact_with_a_wall_corner_is_exact(one_wall):
    # the disc meets the corner (40, 36) with its centre at dy 0.6, dx 0.8 from it;
    # the door above is open, so the corner is what stops it
    c = one_wall.first_contact((10, 36.6), (60, 36.6), 1.0, open_doors=["d"])
    assert c.point == (approx(39.2), approx(36.6))
    assert c.feature.type == "wall"
    assert one_wall.first_contact((10, 43.5), (60, 43.5), 1.0) is None    # passes above


def test_first_contact_door_closed_or_not(one_wall):  # R47
    c = one_wall.first_contact((10, 39), (60, 39), 1.0)
    assert c.feature.id == "d" and c.point == (approx(39.0), approx(39.0))
    assert one_wall.first_contact((10, 39), (60, 39), 1.0, doors=False) is None
    assert one_wall.first_contact((10, 39), (60, 39), 1.0, open_doors=[1]) is None


def test_touching_disc_moves_away_or_along_freely_but_not_deeper(one_wall):
    assert one_wall.first_contact((39, 20), (30, 20), 1.0) is None         # away
    assert one_wall.first_contact((39, 10), (39, 30), 1.0) is None         # along the face
    c = one_wall.first_contact((39, 10), (45, 12), 1.0)                    # deeper
    assert c.t == 0.0 and c.point == (39.0, 10.0)


def test_first_contact_tolerance_stops_short(one_wall):  # D4
    c = one_wall.first_contact((10, 20), (60, 20), 1.0, tolerance=0.05)
    assert c.point == (approx(38.95), approx(20.0))


def test_path_contact_reports_segment_and_point(one_wall):
    path = [(10, 10), (20, 10), (20, 20), (30, 20), (30, 30), (50, 30)]
    k, c = one_wall.path_contact(path, 1.0)
    assert k == 4 and c.point == (approx(39.0), approx(30.0))
    assert one_wall.path_clear(path[:5], 1.0)
    assert not one_wall.path_clear(path, 1.0)


# -- edges and falls (D16) -------------------------------------------------------------
def test_climbing_onto_a_platform_is_one_crossing_then_stairs_join(warehouse):  # D16
    crossings = warehouse.edge_crossings((50, 65), (115, 65))
    assert len(crossings) == 1
    c = crossings[0]
    assert c.point == (approx(60.0), approx(65.0)) and c.distance == approx(10.0)
    assert (c.z_before, c.z_after, c.drop, c.joined) == (0.0, 4.0, -4.0, False)
    assert c.feature.type == "platform"


def test_walking_off_the_platform_is_a_drop(warehouse):  # R39, D16
    [c] = warehouse.edge_crossings((80, 65), (50, 65))
    assert c.point == (approx(60.0), approx(65.0)) and c.distance == approx(20.0)
    assert c.drop == approx(4.0) and not c.joined


def test_the_side_of_stairs_is_joined(warehouse):  # D16
    [c] = warehouse.edge_crossings((104, 40), (104, 60))
    assert c.point == (approx(104.0), approx(50.0))
    assert c.z_after == approx(2.0) and c.joined and c.feature.type == "stairs"


def test_a_lift_joins_the_landing_beside_it(warehouse):  # D16, R48
    [c] = warehouse.edge_crossings((58, 62), (65, 62))
    assert c.point == (approx(60.0), approx(62.0)) and c.joined


def test_steps_up_to_the_step_height_are_not_crossings():  # D16
    step = bundled_rules().step_height
    index = ArenaIndex(arena((60, 40), ("platform", {"rect": [20, 0, 10, 40], "height": step}),
                             ("platform", {"rect": [40, 0, 10, 40], "height": step + 0.1})),
                       bundled_rules())
    crossings = index.edge_crossings((5, 20), (55, 20))
    assert [(round(c.point[0], 2), round(c.drop, 2)) for c in crossings] == [
        (40.0, round(-(step + 0.1), 2)), (50.0, round(step + 0.1, 2))]


# -- first entry -------------------------------------------------------------------------
def test_first_entry_into_a_pit(warehouse):  # R36, D17
    d, point, f = warehouse.first_entry((10, 70), (30, 70), ["pit"])
    assert d == approx(6.0) and point == (approx(16.0), approx(70.0)) and f.type == "pit"
    assert warehouse.first_entry((20, 70), (30, 70), ["pit"]) is None     # already on it
    assert warehouse.first_entry((10, 80), (30, 80), ["pit"]) is None


def test_first_entry_picks_the_nearest_of_several():
    index = ArenaIndex(arena((80, 40), ("teleporter", {"circle": [50, 20, 2], "id": "far"}),
                             ("teleporter", {"circle": [20, 20, 2], "id": "near"})),
                       bundled_rules())
    d, point, f = index.first_entry((0, 20), (70, 20), ["teleporter"])
    assert f.id == "near" and d == approx(18.0)
    d, point, f = index.first_entry((20, 20), (70, 20), ["teleporter"])   # leaves near first
    assert f.id == "far" and point == (approx(48.0), approx(20.0))


# -- sight (R22, R38, D15) -------------------------------------------------------------
def wall_between(height: float) -> ArenaIndex:
    return ArenaIndex(arena((80, 60), ("wall", {"polygon": [[38, 20], [42, 20], [42, 40], [38, 40]],
                                               "height": height})), bundled_rules())


def test_wall_blocks_sight_at_its_near_face():  # R22
    s = wall_between(10).sight((20, 30), 2.0, (60, 30), 1.0)
    assert not s.clear and s.blocker == "wall #0"
    assert s.point == (approx(38.0), approx(30.0))
    assert [(round(p.distance, 2), round(p.line_z, 3), p.obstacle_z) for p in s.track] == [
        (18.0, 1.55, 10.0), (22.0, 1.45, 10.0)]


def test_low_wall_under_the_line_does_not_block():  # D15
    # the line falls from 2 at x=20 to 1 at x=60: 1.55 at x=38, 1.45 at x=42
    assert wall_between(1.4).sight((20, 30), 2.0, (60, 30), 1.0).clear
    s = wall_between(1.5).sight((20, 30), 2.0, (60, 30), 1.0)
    assert not s.clear and s.point == (approx(40.0), approx(30.0))   # the line reaches 1.5 there


def platform_ahead() -> ArenaIndex:
    return ArenaIndex(
        arena((100, 60), ("platform", {"rect": [40, 0, 40, 60], "height": 4})), bundled_rules()
    )


def test_platform_edge_between_levels_blocks():  # R38, D15
    index = platform_ahead()
    # ground shooter (top 2) at x=20, target on the platform at x=60 (middle 4+1=5):
    # at the edge x=40 the line is at 3.5 < 4
    s = index.sight((20, 30), 2.0, (60, 30), 5.0)
    assert not s.clear and s.blocker == "platform #0" and s.point == (approx(40.0), approx(30.0))
    # target 5 cm in from the edge: the line is at 4.4 over the edge
    assert index.sight((20, 30), 2.0, (45, 30), 5.0).clear


def test_shooting_down_from_deep_on_a_platform_is_blocked_where_the_line_dips():  # R38
    index = platform_ahead()
    # shooter on the platform at x=70 (top 6), target on the ground at x=20 (middle 1):
    # the line is 6 - 5*(70-x)/50; it reaches 4 at x=50
    s = index.sight((70, 30), 6.0, (20, 30), 1.0)
    assert not s.clear and s.point == (approx(50.0), approx(30.0))


def test_bot_between_blocks_unless_lower_than_the_line():  # R22, D15
    index = ArenaIndex(arena((80, 60)), bundled_rules())
    bot = Disc("c", 40.0, 30.0, 1.0, z=0.0, height=2.0)
    s = index.sight((20, 30), 2.0, (60, 30), 1.0, discs=[bot])
    assert not s.clear and s.blocker == "c" and s.point == (approx(39.0), approx(30.0))
    low = Disc("c", 40.0, 30.0, 1.0, z=0.0, height=1.0)
    assert index.sight((20, 30), 2.0, (60, 30), 1.0, discs=[low]).clear
    assert index.sight((20, 30), 2.0, (60, 30), 1.0, discs=[bot], ignore=["c"]).clear
    shooter, target = Disc("a", 20, 30, 1.0), Disc("b", 60, 30, 1.0)
    assert index.sight((20, 30), 2.0, (60, 30), 1.0, discs=[shooter, target]).clear


def test_closed_door_blocks_sight_and_an_open_one_does_not(warehouse):  # R47
    s = warehouse.sight((20, 43), 2.0, (50, 43), 1.0)
    assert not s.clear and s.blocker == "door 'gate'" and s.point == (approx(30.0), approx(43.0))
    assert warehouse.sight((20, 43), 2.0, (50, 43), 1.0, open_doors=["gate"]).clear


def test_stairs_block_at_their_local_height():  # D15
    # stairs [40,0,20,60] rising east from 0 to 4; a line at 2.5 crosses them
    index = ArenaIndex(arena((100, 60), ("stairs", {"rect": [40, 0, 20, 60], "from": 0, "to": 4,
                                                    "up": 90})), bundled_rules())
    s = index.sight((20, 30), 2.5, (70, 30), 2.5)
    assert not s.clear and s.point == (approx(52.5), approx(30.0))   # stairs reach 2.5 at x=52.5
    assert index.sight((20, 30), 4.5, (70, 30), 4.5).clear


def test_sight_many_agrees_with_sight(warehouse):
    pairs = [((20, 43), 2.0, (50, 43), 1.0), ((10, 10), 2.0, (20, 20), 1.0),
             ((50, 65), 2.0, (80, 65), 5.0), ((80, 65), 6.0, (50, 65), 1.0),
             ((104, 30), 2.0, (104, 60), 3.0), ((10, 50), 2.0, (50, 50), 1.0)]
    bots = [Disc("x", 15, 15, 1.0)]
    expected = [warehouse.sight(a, az, b, bz, discs=bots).clear for a, az, b, bz in pairs]
    assert warehouse.sight_many(pairs, discs=bots) == expected
    assert expected == [False, False, False, False, True, True]
    opened = warehouse.sight_many(pairs, discs=bots, open_doors=["gate"])
    assert opened[0] is True


def test_index_takes_rules_or_reads_the_bundled_ones():  # D4, D16
    rules = bundled_rules().overridden({"step_height": 5.0})
    a = arena((100, 60), ("platform", {"rect": [40, 0, 40, 60], "height": 4}))
    assert ArenaIndex(a, rules=rules).edge_crossings((20, 30), (60, 30)) == []
    assert len(ArenaIndex(a, bundled_rules()).edge_crossings((20, 30), (60, 30))) == 1


def test_per_call_overrides_of_tolerance_and_step_height(warehouse):  # D4, D16
    # a scenario's house-rule overrides reach the index through these arguments
    assert warehouse.disc_blocked(29.1, 10.0, 1.0, tolerance=0.2) is None
    assert warehouse.disc_blocked(29.1, 10.0, 1.0, tolerance=0.05).index == 6
    assert warehouse.disc_contacts(28.85, 10.0, 1.0, ["wall"], tolerance=0.2)[0].index == 6
    assert warehouse.doors_touched([Disc("a", 28.85, 43.0, 1.0)], tolerance=0.2) == {7}
    assert warehouse.edge_crossings((80, 65), (50, 65), step_height=4.0) == []


def test_sight_many_with_repeated_and_reversed_lines():
    # a line listed twice and its reverse twice: each answer is its own (D15)
    index = wall_between(10)
    a, b = (20, 30), (60, 30)
    c = (20, 50)
    pairs = [(a, 2.0, b, 1.0), (b, 2.0, a, 1.0), (a, 2.0, b, 1.0), (b, 2.0, a, 1.0),
             (a, 2.0, c, 1.0), (c, 2.0, a, 1.0), (b, 12.0, a, 11.0)]
    assert index.sight_many(pairs) == [False, False, False, False, True, True, True]
