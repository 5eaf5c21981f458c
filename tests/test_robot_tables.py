"""Robot personality tables: the format, its validator and the decision roll."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bottisota.core.arena import Arena
from bottisota.core.cards import BotCard, Weapon
from bottisota.core.dice import Dice
from bottisota.core.errors import InputError
from bottisota.core.house_rules import HouseRules
from bottisota.engine.state import Bot, GameState
from bottisota.formats.content import rules_file
from bottisota.formats.robot_tables import (
    Intention,
    bundled_personalities,
    load_personality,
    validate_file,
)
from bottisota.robot.decide import roll_on
from bottisota.robot.situation import Situation

TABLE = """\
name: tester
place:
  - table: {1-6: centre}
turn:
  - when: {range: [10, 30], in_arc: true}
    table:
      1-4: {move: close_in}
      5-6: {move: keep_range, range: 25, weapons: longest}
  - when: {damage_left: [0, 2]}
    dice: 2d6
    table: {2-7: {move: hold, then: self_destruct}, 8-12: retreat}
  - table: {1-6: hold}
overwatch:
  - table: {1-3: fire, 4-6: hold}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "robots" / "t.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(InputError) as err:
        validate_file(write(tmp_path, text))
    return [str(p) for p in err.value.problems]


RULES = HouseRules(**yaml.safe_load(rules_file().read_text()))
GUN = Weapon(name="Gun", kind="gun", mount="nose", range=30)


def state_with(me: tuple[float, float, float], enemy: tuple[float, float],
               damage: int = 0, dice: Dice | None = None) -> GameState:
    card = BotCard(id="c", name="C", locomotion="walker", move=8, armour=4, structure=6,
                   weapons=(GUN,))
    state = GameState(arena=Arena("t", (100, 60)), rules=RULES,
                      dice=dice or Dice(seed=1), players=["blue", "red"])
    state.bots["b"] = Bot("b", "blue", card, me[0], me[1], facing=me[2], damage=damage)
    state.bots["r"] = Bot("r", "red", card, enemy[0], enemy[1])
    return state


def test_bundled_personalities_load_and_are_at_least_three():
    found = bundled_personalities()
    assert {"aggressive", "sniper", "scavenger"} <= set(found)
    for p in found.values():
        assert p.turn[-1].when == {} and p.overwatch[-1].when == {}


def test_every_bundled_file_documents_the_format_at_its_top():
    for p in bundled_personalities().values():
        head = Path(p.source).read_text().splitlines()[:12]
        assert any("ROBOT PERSONALITY FORMAT" in line for line in head)


def test_table_rows_cover_spans_and_single_results(tmp_path):
    p = load_personality(write(tmp_path, TABLE))
    first = p.turn[0]
    assert first.label == "enemy 10-30 cm, in arc"
    assert [first.table[n].move for n in range(1, 7)] == ["close_in"] * 4 + ["keep_range"] * 2
    assert first.table[5] == Intention(move="keep_range", range=25.0, weapons="longest")
    assert p.turn[1].dice == "2d6" and p.turn[1].table[12] == Intention(move="retreat")


def test_forced_die_picks_the_row_of_the_first_matching_rule():
    # blue at (20, 20) facing east, red 20 cm east: range band 10-30 and in the nose arc (R19)
    p = load_personality_text(TABLE)
    state = state_with((20, 20, 90), (40, 20), dice=Dice(forced=[5]))
    d = roll_on(p.turn, Situation(state, state.bots["b"]), state.dice, "turn")
    assert d.rule.label == "enemy 10-30 cm, in arc"
    assert d.roll == 5
    assert d.choice == Intention(move="keep_range", range=25.0, weapons="longest")
    assert d.text() == "blue rolled 5 on 'enemy 10-30 cm, in arc': keep range 25 cm, fire longest"
    event = d.event("tester")
    assert event["type"] == "robot_decision" and event["roll"] == 5 and event["line"] == 5
    assert state.dice.rolls[0].purpose.startswith("robot: blue's turn table")


def test_enemy_behind_skips_the_in_arc_rule_and_2d6_adds_two_dice():
    # R19: red is behind blue (facing west, red to the east): the first rule fails;
    # blue has 1 structure left, so the 2d6 rule is rolled: 3 + 6 = 9 -> retreat
    p = load_personality_text(TABLE)
    state = state_with((20, 20, 270), (40, 20), damage=5, dice=Dice(forced=[3, 6]))
    d = roll_on(p.turn, Situation(state, state.bots["b"]), state.dice, "turn")
    assert d.rule.label == "structure left 0-2"
    assert d.roll == 9 and d.choice.move == "retreat"
    assert state.dice.used == 2


def test_fallback_rule_when_nothing_else_holds():
    p = load_personality_text(TABLE)
    state = state_with((20, 20, 90), (90, 50), dice=Dice(forced=[2]))
    d = roll_on(p.turn, Situation(state, state.bots["b"]), state.dice, "turn")
    assert d.rule.label == "otherwise" and d.choice == Intention(move="hold")


def load_personality_text(text: str):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return load_personality(write(Path(tmp), text))


def test_missing_die_result_is_named_with_its_line(tmp_path):
    bad = TABLE.replace("1-4: {move: close_in}", "1-3: {move: close_in}")
    found = problems(tmp_path, bad)
    assert len(found) == 1
    assert found[0].endswith(":7:7: turn[0].table: results 4 have no row; "
                             "every d6 result needs one")


def test_unknown_intention_and_condition_are_named(tmp_path):
    bad = TABLE.replace("move: close_in", "move: charge").replace("in_arc: true", "in_arc: 3")
    found = problems(tmp_path, bad)
    assert any(":7:19:" in f and "turn[0].table.1-4.move: unknown move 'charge'" in f
               for f in found)
    assert any(":5:37:" in f and "turn[0].when.in_arc: expected true or false" in f for f in found)


def test_overlapping_rows_and_out_of_range_results_are_refused(tmp_path):
    bad = TABLE.replace("{1-3: fire, 4-6: hold}", "{1-3: fire, 3-7: hold}")
    found = problems(tmp_path, bad)
    assert found == [f"{write(tmp_path, bad)}:14:29: overwatch[0].table.3-7: "
                     "3-7 is outside the d6 results 1-6"]


def test_last_rule_must_be_a_fallback(tmp_path):
    bad = TABLE.replace("  - table: {1-6: hold}\n",
                        "  - when: {damaged: true}\n    table: {1-6: hold}\n")
    found = problems(tmp_path, bad)
    assert len(found) == 1 and "turn[2]: the last rule needs no `when`" in found[0]


def test_bad_yaml_gives_one_message_with_line(tmp_path):
    found = problems(tmp_path, "name: x\nturn: [\n")
    # the end of the text is on line 2: a message never points past the last line
    assert len(found) == 1 and "YAML syntax" in found[0] and ":2:" in found[0]
