"""`bottisota check` warnings and their codes: each fixture under fixtures/warn names
the line and the code it must give; `explain` expands every code; --strict makes
warnings errors; doors over walls and jump ramps are allowed."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bottisota.cli import main as cli_main
from bottisota.formats.lint import CODES, Finding, show
from bottisota.formats.loading import load_arena

WARN = Path(__file__).parent / "fixtures" / "warn"
GOOD = Path(__file__).parent / "fixtures" / "good"
WARN_FILES = sorted(WARN.glob("*.yaml"))


def expectation(path: Path) -> tuple[int, str, str]:
    first = path.read_text().split("\n", 1)[0]
    match = re.match(r"# expect: (\d+) ([EW]\d{3}) (.+)", first)
    assert match, f"{path.name} has no '# expect: LINE CODE TEXT' line"
    return int(match.group(1)), match.group(2), match.group(3)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli_main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("path", WARN_FILES, ids=lambda p: p.stem)
def test_each_finding_names_its_line_code_and_text(capsys, path):
    line, code, text = expectation(path)
    status, _out, err = run(capsys, "check", "--colour", "never", str(path))
    assert f"{path}:{line}:" in err, err
    assert f"[{code} {CODES[code].name}]" in err and text in err, err
    assert status == (2 if code.startswith("E") else 0)
    assert "Traceback" not in err


def test_the_excerpt_puts_a_caret_under_the_spot_and_a_help_line(capsys):
    path = WARN / "to_hit_seven.yaml"
    _status, _out, err = run(capsys, "check", "--colour", "never", str(path))
    lines = err.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("11 |"))
    assert lines[i] == "11 |     to_hit: 7"
    assert lines[i + 1] == "   |             ^"
    assert "= help: to_hit: 6" in lines[i + 2]


def test_strict_turns_warnings_into_errors(capsys):
    path = WARN / "lone_teleporter.yaml"
    assert run(capsys, "check", str(path))[0] == 0
    status, _out, err = run(capsys, "check", "--strict", str(path))
    assert status == 2 and "error[W012 lone-teleporter]" in err


def test_brief_prints_one_line_per_finding(capsys):
    status, _out, err = run(capsys, "check", "--brief", str(WARN / "unreachable_platform.yaml"))
    assert status == 0
    assert [ln for ln in err.splitlines() if "W030" in ln] == [ln for ln in err.splitlines()
                                                              if ln.strip()]


@pytest.mark.parametrize("word", ["W012", "w12", "lone-teleporter"])
def test_explain_expands_a_code(capsys, word):
    status, out, _err = run(capsys, "explain", word)
    assert status == 0 and out.startswith("W012 lone-teleporter (warning)") and "R53" in out


def test_explain_lists_every_code_and_refuses_an_unknown_one(capsys):
    status, out, _err = run(capsys, "explain")
    assert status == 0 and all(code in out for code in CODES)
    status, _out, err = run(capsys, "explain", "lone-teleportr")
    assert status == 2 and "did you mean 'lone-teleporter'?" in err


def test_every_warning_code_has_a_fixture_or_a_test():
    covered = {expectation(p)[1] for p in WARN_FILES} | {"W005", "E001", "E002", "E003",
                                                          "E004", "E005", "E006", "E010",
                                                          "E012", "E013"}
    assert set(CODES) <= covered


def test_a_door_over_a_continuous_wall_cuts_it(capsys):  # R47
    path = GOOD / "door_over_wall.yaml"
    status, out, err = run(capsys, "check", str(path))
    assert status == 0 and "warning" not in err, err
    arena = load_arena(path)
    wall, door = arena.by_id("long-wall"), arena.by_id("gate")
    assert wall.shape.intersection(door.shape).area < 1e-6
    assert abs(wall.shape.area - (120 - 16)) < 1e-6          # 2 x 60 less the 2 x 8 door


def test_a_door_covering_a_whole_wall_is_a_warning(tmp_path, capsys):
    path = tmp_path / "a.yaml"
    path.write_text("size: [40, 40]\nfeatures:\n  - {type: wall, rect: [10, 10, 2, 4]}\n"
                    "  - {type: door, rect: [10, 8, 2, 8]}\n")
    status, _out, err = run(capsys, "check", str(path))
    assert status == 0 and "W005 door-cuts-wall" in err and f"{path}:3:" in err


def test_every_misplaced_bot_is_an_error(capsys):
    path = WARN / "bots_misplaced.yaml"
    status, _out, err = run(capsys, "check", str(path))
    assert status == 2
    for line, code in ((6, "E010 bot-off-table"), (7, "E011 bot-in-wall"), (8, "E012 bot-in-pit"),
                       (10, "E013 bots-overlap")):
        assert re.search(rf"{re.escape(str(path))}:{line}:\d+: error\[{code}\]", err), code
    assert "bot 'd'" not in err.split("E013")[0]         # d itself stands well


def test_a_jump_ramp_is_allowed_but_a_ramp_into_a_higher_floor_is_not(tmp_path, capsys):
    jump = tmp_path / "jump.yaml"
    jump.write_text("size: [40, 40]\nfeatures:\n"
                    "  - {type: ramp, rect: [10, 10, 6, 10], from: 0, to: 3, up: 0}\n")
    assert run(capsys, "check", str(jump))[0] == 0
    wall = tmp_path / "wall.yaml"
    wall.write_text("size: [40, 40]\nfeatures:\n"
                    "  - {type: platform, rect: [10, 20, 20, 10], height: 8}\n"
                    "  - {type: ramp, rect: [10, 10, 6, 10], from: 0, to: 3, up: 0}\n")
    status, _out, err = run(capsys, "check", str(wall))
    assert status == 2 and "E004 slope-not-joining" in err


def test_two_user_files_with_one_card_id(tmp_path, capsys):
    body = ("id: twin\nname: Twin\nlocomotion: walker\nmove: 8\narmour: 4\nstructure: 6\n"
            "weapons: []\n")
    (tmp_path / "a.yaml").write_text(body)
    (tmp_path / "b.yaml").write_text(body)
    status, _out, err = run(capsys, "check", str(tmp_path))
    assert status == 2     # the game's loader refuses the second file: an error, not a warning
    assert f"{tmp_path / 'b.yaml'}:1:5: error[E006 duplicate-id]" in err
    assert "is used again (first in" in err


def test_replaces_silences_the_shadowing_warning(tmp_path, capsys):
    card = tmp_path / "scout.yaml"
    card.write_text((WARN / "shadows_bundled.yaml").read_text().replace(
        "id: scout\n", "id: scout\nreplaces: scout\n"))
    status, _out, err = run(capsys, "check", str(card))
    assert status == 0 and "W020" not in err


def test_the_bundled_content_has_no_warnings(capsys):
    root = Path(__file__).parents[1]
    status, out, err = run(capsys, "check", str(root / "arenas"), str(root / "cards"))
    assert status == 0 and "warning" not in err, err


def test_findings_show_without_a_source_text():
    f = Finding("W012", "a.yaml", 3, 5, "features[0]", "alone", "add one")
    assert show(f) == "a.yaml:3:5: warning[W012 lone-teleporter]: features[0]: alone\n" \
                      "  help: add one"


def test_colour_is_used_only_when_asked(capsys):
    path = WARN / "lone_teleporter.yaml"
    assert "\033[" in run(capsys, "check", "--colour", "always", str(path))[2]
    assert "\033[" not in run(capsys, "check", str(path))[2]
