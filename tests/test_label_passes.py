"""A label pass that starts from the last one (issue 32: the frame that shows a robot's
move on a crowded table). `place_labels_pass` given the last pass skips the spots that
failed then where nothing changed since; its answer must be the fresh pass's, label for
label, whatever changed: a bot came, went or moved, a label came, went, moved or was
worded anew, a card was shortened, a banner came or went, two were asked in the
other order, a card's short form was asked for."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.viewmodel.labels import LabelWish, place_labels_pass

BOUNDS = (0.0, 0.0, 400.0, 300.0)
TAKEN = ((0.0, 260.0, 400.0, 40.0),)          # a turn strip along the bottom

xs, ys = st.floats(0, 400, allow_nan=False), st.floats(0, 300, allow_nan=False)
wish = st.builds(lambda text, w, x, y, reach: LabelWish(text, (w, 14.0), (x, y), reach=reach),
                 st.sampled_from(["wall", "pit", "red-1", "a ramp 20 cm", "blue-2"]),
                 st.floats(20, 90), xs, ys, st.integers(1, 6))
disc = st.tuples(xs, ys, st.floats(4, 30))


def _keyed(wishes: list[LabelWish]) -> list[LabelWish]:
    return [replace(w, key=f"k{i}") for i, w in enumerate(wishes)]


BANNER = (100.0, 120.0, 200.0, 40.0)           # a result banner across the middle


@st.composite
def _change(draw, wishes: list[LabelWish], discs: list[tuple[float, float, float]],
            taken: tuple[tuple[float, float, float, float], ...]):
    """The table a little later: some of these changes, in any mix."""
    wishes, discs = list(wishes), list(discs)
    for kind in draw(st.lists(st.sampled_from(
            ["move_disc", "add_disc", "drop_disc", "add_wish", "drop_wish", "move_wish",
             "reword", "unless", "banner", "swap", "short"]), min_size=1, max_size=4)):
        if kind == "short" and wishes:          # a card's short form, under the card's key
            k = draw(st.integers(0, len(wishes) - 1))
            card = wishes[k]
            if all(w.unless != card.key for w in wishes):
                wishes.insert(k + 1, replace(card, text=card.text[:3], size=(
                    12.0, card.size[1]), unless=card.key, reach=14))
        if kind == "swap" and len(wishes) > 1:  # two labels asked for in the other order
            i, j = draw(st.integers(0, len(wishes) - 1)), draw(st.integers(0, len(wishes) - 1))
            wishes[i], wishes[j] = wishes[j], wishes[i]
        if kind == "banner":                    # a banner comes, or goes
            taken = TAKEN if BANNER in taken else (*TAKEN, BANNER)
        if kind == "move_disc" and discs:
            discs[draw(st.integers(0, len(discs) - 1))] = draw(disc)
        elif kind == "add_disc":
            discs.insert(draw(st.integers(0, len(discs))), draw(disc))
        elif kind == "drop_disc" and discs:
            discs.pop(draw(st.integers(0, len(discs) - 1)))
        elif kind == "add_wish":
            new = replace(draw(wish), key=f"new{len(wishes)}")
            wishes.insert(draw(st.integers(0, len(wishes))), new)
        elif kind == "drop_wish" and wishes:
            wishes.pop(draw(st.integers(0, len(wishes) - 1)))
        elif kind == "move_wish" and wishes:
            k = draw(st.integers(0, len(wishes) - 1))
            wishes[k] = replace(wishes[k], anchor=(draw(xs), draw(ys)))
        elif kind == "reword" and wishes:
            k = draw(st.integers(0, len(wishes) - 1))
            wishes[k] = replace(wishes[k], text=wishes[k].text + " (hit)", size=(
                wishes[k].size[0] + 30, wishes[k].size[1]))
        elif kind == "unless" and len(wishes) > 1:
            k = draw(st.integers(1, len(wishes) - 1))
            wishes[k] = replace(wishes[k], unless=wishes[0].key)
    return wishes, discs, taken


@settings(max_examples=300, deadline=None)
@given(st.data(), st.lists(wish, min_size=1, max_size=40), st.lists(disc, max_size=12))
def test_a_pass_from_the_last_one_places_every_label_as_a_fresh_pass(data, wishes, discs):
    wishes = _keyed(wishes)
    radii = {w.key: 6.0 for w in wishes[::3]}
    taken = TAKEN
    _, _, last = place_labels_pass(wishes, discs, BOUNDS, radii, taken)
    for _ in range(3):                              # a few changes, one after another
        wishes, discs, taken = data.draw(_change(wishes, discs, taken))
        fresh = place_labels_pass(wishes, discs, BOUNDS, radii, taken)
        again = place_labels_pass(wishes, discs, BOUNDS, radii, taken, last)
        assert again[:2] == fresh[:2]
        last = again[2]


def test_a_crowded_table_after_a_bot_moves_is_placed_as_afresh_with_fewer_tests():
    wishes = _keyed([LabelWish(f"feature {i}", (70.0, 14.0), (20.0 + (i * 37) % 360,
                                                            20.0 + (i * 53) % 230))
                     for i in range(160)])
    discs = [(100.0, 100.0, 12.0), (300.0, 200.0, 12.0)]
    _, left_out, last = place_labels_pass(wishes, discs, BOUNDS, {}, TAKEN)
    assert left_out > 20                           # crowded: some find no room
    moved = [(110.0, 104.0, 12.0), (300.0, 200.0, 12.0)]
    fresh = place_labels_pass(wishes, moved, BOUNDS, {}, TAKEN)
    again = place_labels_pass(wishes, moved, BOUNDS, {}, TAKEN, last)
    assert again[:2] == fresh[:2]
    assert again[0] != place_labels_pass(wishes, discs, BOUNDS, {}, TAKEN)[0]  # it did move


def test_another_windows_pass_is_not_started_from():
    wishes = _keyed([LabelWish("wall", (40.0, 14.0), (50.0, 50.0))])
    _, _, last = place_labels_pass(wishes, [], BOUNDS, {}, TAKEN)
    other = (0.0, 0.0, 60.0, 60.0)
    assert place_labels_pass(wishes, [], other, {}, TAKEN, last)[:2] == \
        place_labels_pass(wishes, [], other, {}, TAKEN)[:2]


def test_a_card_and_its_short_form_are_kept_apart_for_the_next_pass():
    card = LabelWish("red-1: HIT 6\narmour holds", (500.0, 30.0), (200.0, 150.0), key="fx:1")
    short = replace(card, text="red-1: hit", size=(60.0, 14.0), unless="fx:1", reach=14)
    wall = LabelWish("wall", (30.0, 14.0), (60.0, 60.0), key="wall@60,60")
    _, _, last = place_labels_pass([card, short, wall], [], BOUNDS, {}, TAKEN)
    # the card finds no room (wider than the table), its short form does
    assert [w.text for w, _, got, _ in last.outcome.values() if got] == ["red-1: hit", "wall"]
    assert len(last.outcome) == 3             # the next pass can start from every one
