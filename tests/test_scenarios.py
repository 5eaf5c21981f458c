"""The project's scenario suite (tests/scenarios/*.yaml), each run through the runner.

A scenario passes when every expectation of its `expect` holds; files named
invalid_*.yaml must be refused (exit 2) with a message that names the line.
"""
import re
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.play.scenario import load_scenario, parse_scenario, run

FOLDER = Path(__file__).parent / "scenarios"
VALID = sorted(p for p in FOLDER.glob("*.yaml") if not p.name.startswith("invalid_"))
INVALID = sorted(FOLDER.glob("invalid_*.yaml"))


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_scenario_holds(path):
    outcome = run(load_scenario(path))
    assert outcome.ok, "\n".join(outcome.failures)


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_scenario_is_refused_with_its_line(path, capsys):
    assert cli_main(["scenario", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(r":\d+:\d+:", err) and "Traceback" not in err


def test_suite_covers_the_rules():
    """At least one scenario per rule a position can show (issue 5)."""
    wanted = ["R5", "R7"] + [f"R{n}" for n in [*range(8, 16), 17, *range(19, 38),
                                               *range(39, 54), 55, 56]]
    cited = set()
    for p in FOLDER.glob("*.yaml"):
        cited |= set(re.findall(r"\bR\d+\b", p.read_text().split("\n", 1)[0]))
    missing = [r for r in wanted if r not in cited]
    assert not missing, f"no scenario cites {missing} in its name"


def test_a_failing_expectation_exits_1_with_expected_and_actual(tmp_path, capsys):
    path = tmp_path / "wrong.yaml"
    path.write_text((FOLDER / "shoot_gun_hits.yaml").read_text()
                    .replace("damage: 1", "damage: 2"))
    assert cli_main(["scenario", "run", str(path)]) == 1
    assert "bots.target.damage: expected 2, actual 1" in capsys.readouterr().out


def test_forced_dice_running_out_is_a_failure(tmp_path, capsys):
    path = tmp_path / "short.yaml"
    path.write_text((FOLDER / "shoot_gun_hits.yaml").read_text()
                    .replace("dice: [5, 6, 2]", "dice: [5]"))
    assert cli_main(["scenario", "run", str(path), "--json"]) == 1
    out = capsys.readouterr().out
    assert "forced dice ran out at roll 2" in out and '"ok": false' in out


def test_expect_may_name_the_rule_a_refusal_cites():  # D47 R7 D19
    text = (FOLDER / "d47_two_shoot_actions.yaml").read_text()
    named = text.replace("rejected: [3, 4, 5]",
                         "rejected: [{action: 3, rule: D19}, 4, {action: 5, rule: D19}]")
    assert run(parse_scenario(named)).ok
    wrong = text.replace("rejected: [3, 4, 5]", "rejected: [3, {action: 4, rule: R7}, 5]")
    failures = run(parse_scenario(wrong)).failures
    assert len(failures) == 1 and failures[0].startswith(
        "rejected: action 4 expected refused by R7, actual D19")
    first = (FOLDER / "d47_round_two_begins.yaml").read_text().replace(
        "rejected: [1]", "rejected: [{action: 1, rule: R7}]")
    assert run(parse_scenario(first)).ok


def test_a_refusal_entry_needs_its_action_and_rule(capsys, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text((FOLDER / "d47_round_two_begins.yaml").read_text().replace(
        "rejected: [1]", "rejected: [{action: 1}]"))
    assert cli_main(["scenario", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "expect.rejected[0]" in err and "Traceback" not in err
