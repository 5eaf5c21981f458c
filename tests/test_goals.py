"""Goal markers (D23): collected by ending a move on them, then moved to their next spot."""
from bottisota.engine.goals import collect_goals
from tests.builders import arena, bot, state

GOAL_ARENA = arena({"type": "goal", "circle": [30, 30, 2], "points": 2,
                    "respawn": [[50, 30], [30, 30]]},
                   {"type": "goal", "circle": [10, 50, 1.5]})


def test_ending_on_a_goal_scores_its_points_and_moves_it_to_its_next_spot():  # D23 D17
    s = state(GOAL_ARENA, bot("a", "red", (31, 30.5)), bot("b", "blue", (70, 10)))
    events = collect_goals(s, s.bots["a"])
    assert s.scores == {"red": 2, "blue": 0}
    g = s.goals[0]
    assert (g.x, g.y, g.taken) == (50.0, 30.0, False)
    assert g.spots_left == [(30, 30)]
    assert [e["type"] for e in events] == ["score", "goal_taken"]


def test_a_goal_with_no_spots_left_leaves_the_table():  # D23
    s = state(GOAL_ARENA, bot("a", "red", (10, 50.5)), bot("b", "blue", (70, 10)))
    collect_goals(s, s.bots["a"])
    assert s.scores["red"] == 1            # default points from the house rules
    assert s.goals[1].taken
    assert collect_goals(s, s.bots["a"]) == []
    assert s.scores["red"] == 1


def test_the_centre_must_be_on_the_marker():  # D17 D23
    # base overlaps the marker (distance 2.5 < 2 + 1) but the centre is outside it
    s = state(GOAL_ARENA, bot("a", "red", (32.5, 30)), bot("b", "blue", (70, 10)))
    assert collect_goals(s, s.bots["a"]) == []
    assert s.scores["red"] == 0


def test_an_occupied_spot_is_skipped_for_the_next_free_one():  # D23
    s = state(GOAL_ARENA, bot("a", "red", (30, 30)), bot("b", "blue", (50.5, 30)))
    collect_goals(s, s.bots["a"])
    g = s.goals[0]
    # (50, 30) is under b, so the marker goes on to (30, 30): under a, which is
    # not free either... the marker's next free spot: none, so it leaves the table
    assert g.taken
    assert s.scores["red"] == 2


def test_respawned_marker_is_collected_again_at_its_new_spot():  # D23
    s = state(GOAL_ARENA, bot("a", "red", (30, 30)), bot("b", "blue", (70, 10)))
    collect_goals(s, s.bots["a"])
    s.bots["a"].x, s.bots["a"].y = 10, 10          # a leaves the old spot free
    s.bots["b"].x, s.bots["b"].y = 50.2, 29.9
    collect_goals(s, s.bots["b"])
    assert s.scores == {"red": 2, "blue": 2}
    assert (s.goals[0].x, s.goals[0].y) == (30.0, 30.0) and s.goals[0].spots_left == []
