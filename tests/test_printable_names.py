"""Names are text, not control (issue 28): an id or name with a NUL or a terminal escape
in any kind of file is refused by `check` at its file:line:col (exit 2), and what is
printed or drawn shows any such character as an escape, never passes it on."""
from __future__ import annotations

import pytest

from bottisota.cli import main as cli_main
from bottisota.core.printable import printable, unsafe_character
from tests.builders import ROBOT_TABLE

CARD = ('id: {id}\nname: Zipper\nlocomotion: wheeled\nmove: 12\narmour: 4\nstructure: 6\n'
        'weapons:\n  - {{name: {weapon}, kind: gun, range: 20}}\n')
ARENA = ("name: Pocket\nsize: [40, 30]\nfeatures:\n"
         "  - {{type: wall, id: {id}, rect: [18, 0, 2, 12]}}\n")
MOD = "id: {id}\nname: Magnet\nmodifies: {{turn: 1}}\n"
SCENARIO = ("name: names\narena: {{size: [60, 60], features: []}}\nbots:\n"
            "  - {{id: {id}, player: red, card: {{locomotion: walker, move: 8, armour: 4, "
            "structure: 6, weapons: []}}, at: [10, 30], facing: 90}}\nactions: []\n")
# (folder, file text, the line and column where the bad value starts)
KINDS = {
    "arena feature": ("arenas", lambda bad: ARENA.format(id=bad), 4, 22),
    "card": ("cards", lambda bad: CARD.format(id=bad, weapon="Gun"), 1, 5),
    "weapon": ("cards", lambda bad: CARD.format(id="zipper", weapon=bad), 8, 12),
    "mod": ("mods", lambda bad: MOD.format(id=bad), 1, 5),
    "robot": ("robots", lambda bad: ROBOT_TABLE.replace("name: tester", f"name: {bad}"), 1, 7),
    "scenario bot": ("scenarios", lambda bad: SCENARIO.format(id=bad), 4, 10),
}
BAD = {"NUL": ('"a\\0b"', "U+0000"), "escape": ('"x\\e]0;owned\\a"', "U+001B")}


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("bad", sorted(BAD))
def test_a_control_character_in_any_id_is_refused_at_its_place(kind, bad, tmp_path, capsys):
    folder, text, line, column = KINDS[kind]
    quoted, code = BAD[bad]
    path = tmp_path / folder / "bad.yaml"
    path.parent.mkdir()
    path.write_text(text(quoted), encoding="utf-8")
    assert cli_main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"bad.yaml:{line}:{column}:" in err, err
    assert code in err and "printable" in err
    assert "\x00" not in err and "\x1b" not in err


def test_the_same_file_without_the_character_passes(tmp_path, capsys):
    for kind, (folder, text, _line, _column) in KINDS.items():
        path = tmp_path / folder / f"{kind.replace(' ', '-')}.yaml"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text("ok-name"), encoding="utf-8")
        assert cli_main(["check", str(path)]) == 0, (kind, capsys.readouterr().err)


def test_printable_shows_control_and_format_characters_as_escapes():
    assert printable("a\x00b\x1b[31mc\u202e") == "a\\x00b\\x1b[31mc\\u202e"
    assert printable("two\nlines\tok", lines_ok=True) == "two\nlines\tok"
    assert printable("two\nlines") == "two\\x0alines"
    assert printable("Väinö ✓ 日本") == "Väinö ✓ 日本"
    assert unsafe_character("ok\u200bno") == 2 and unsafe_character("fine") is None


def test_a_nul_in_a_name_is_drawn_not_refused(video):
    from bottisota.view import style

    assert style.label("red\x00one", 14).get_width() > 0           # pygame refuses NUL raw
    assert style.text_size("\x1b]0;x\x07", 14)[0] > 0


def test_a_player_named_with_an_escape_is_printed_escaped(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert cli_main(["play", "duel", "--players", "r\x1b[2J,b", "--robot", "r\x1b[2J,b",
                     "--headless", "--frames", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "r\\x1b[2J" in out
