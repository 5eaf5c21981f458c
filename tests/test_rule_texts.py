"""The rules' own words where a refusal names a rule: English as docs/rules.md writes it,
Finnish quoted from the original (docs/original-fi.txt), with the same R-numbers; shown
in the panel under a refusal, on the phones with a refusal, and by `bottisota explain R19`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bottisota.core.actions import Refusal, Shoot, ShotOrder
from bottisota.core.i18n import set_language
from bottisota.core.rule_texts import RULE_NUMBERS, quoted, rule_text, rules_named

ROOT = Path(__file__).resolve().parents[1]


def english_rules() -> dict[str, str]:
    """docs/rules.md's numbered rules, each joined onto one line."""
    out: dict[str, str] = {}
    cur = None
    for line in (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"- (R\d+)\. (.*)", line)
        if m:
            cur = m.group(1)
            out[cur] = m.group(2).strip()
        elif cur and line.startswith("  ") and line.strip():
            out[cur] += " " + line.strip()
        else:
            cur = None
    return out


def finnish_original() -> str:
    """The original's text on one line (two paragraphs are split over two lines)."""
    return " ".join((ROOT / "docs" / "original-fi.txt").read_text(encoding="utf-8").split())


def finnish_sentences() -> list[str]:
    text = finnish_original()
    return [s for s in re.split(r"(?<=[.)])\s+(?=[A-ZÄÖ])", text) if s]


def test_every_rule_has_a_text_in_both_languages():
    assert RULE_NUMBERS == tuple(english_rules())            # R1..R56, as docs/rules.md
    for lang in ("en", "fi"):
        for rule in RULE_NUMBERS:
            assert len(rule_text(rule, lang)) > 20, (lang, rule)
    with pytest.raises(KeyError):
        rule_text("R57", "en")


def test_the_english_texts_are_docs_rules_md_as_written():
    for rule, text in english_rules().items():
        assert rule_text(rule, "en") == text, rule


def test_the_finnish_texts_quote_the_original_exactly_and_cover_all_of_it():
    original = finnish_original()
    raw = {r: rule_text(r, "fi").split(" (Alkuteksti ")[0] for r in RULE_NUMBERS}
    for rule, text in raw.items():
        parts = [p.strip().rstrip(",") for p in text.split("…") if p.strip()]
        assert parts, rule
        for part in parts:
            assert part in original, (rule, part)
    quoted_all = " ".join(raw.values())
    missing = [s for s in finnish_sentences() if s not in quoted_all
               and not s.startswith("Näin toimii jokainen pelaaja")]   # shared by R6 and R7
    assert not missing, missing
    assert "Näin toimii jokainen pelaaja ensimmäisellä kierroksella" in raw["R6"]
    assert "yksikään pelaaja ei saa ampua" in raw["R7"]


@pytest.mark.parametrize("rule, fi, en", [
    ("R5", "nopanheitto 1 epäonnistuu aina", "a roll of 1 always fails"),
    ("R7", "ei saa ampua", "nobody may shoot"),
    ("R14", "6x Kääntö-ominaisuuden", "6 × Turn"),
    ("R19", "etu-90", "front 90°"),
    ("R20", "Kupoliaseet", "Turret weapons"),
    ("R23", "30 sentin", "30 cm"),
    ("R32", "Magneettinen miina", "magnetic mine"),
    ("R35", "seinien takana", "behind walls"),
    ("R36", "Kuoppa", "Pit"),
    ("R39", "5-d6", "5 − d6"),
    ("R44", "2 senttiä", "2 cm"),
    ("R52", "vain yhden extraosan", "only one extra part"),
    ("R53", "Telesiirrin", "Teleporter"),
    ("R56", "Ensimmäisellä liikumisvuorolla uusi", "On its first move a new bot"),
])
def test_the_same_r_number_says_the_same_in_both_languages(rule, fi, en):
    assert fi in rule_text(rule, "fi")
    assert en in rule_text(rule, "en")


def test_what_the_english_adds_is_noted_in_finnish():
    # R16: the English points to the D-rules for the collision test the original leaves out
    assert "D-rules" in rule_text("R16", "en")
    assert "D-säännöissä" in rule_text("R16", "fi")


def test_the_rules_a_text_names_follow_the_language():
    assert rules_named("R19: target is 90° off the nose; see R18, R19, D15, R99") \
        == ["R19", "R18"]
    set_language("fi")
    assert quoted("hylätty: R19: ...") \
        == ["R19 — Nokka-aseet voivat ampua vain etu-90 asteen alueelle"]
    set_language("en")
    assert quoted("refused: R19: ...")[0].startswith("R19 — Nose weapons fire only into the front")
    assert quoted("D29: no rule text for D-rules") == []


# --- bottisota explain R19 ---------------------------------------------------------------------

def test_explain_prints_the_rule_in_the_chosen_language(capsys):  # R19
    from bottisota import cli

    assert cli.main(["--lang", "fi", "explain", "R19"]) == 0
    assert capsys.readouterr().out.strip() \
        == "R19 — Nokka-aseet voivat ampua vain etu-90 asteen alueelle"
    assert cli.main(["explain", "--lang", "en", "r19"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("R19 — Nose weapons fire only into the front 90°")
    assert all(len(line) <= 78 for line in out.splitlines())


def test_explain_of_no_such_rule_is_one_message(capsys):
    from bottisota import cli

    assert cli.main(["explain", "R57"]) == 2
    err = capsys.readouterr().err
    assert "R57: no such rule; the rules are R1 to R56" in err and "Traceback" not in err
    assert cli.main(["explain", "W012"]) == 0                 # check codes still explained
    assert "lone-teleporter" in capsys.readouterr().out


# --- the table view's panel ---------------------------------------------------------------------

def _drawn(app, monkeypatch) -> list[str]:
    """Every text the app's next frame draws."""
    from bottisota.view import style

    texts: list[str] = []
    real = style.label

    def record(text, size, colour=style.TEXT):
        texts.append(text)
        return real(text, size, colour)

    monkeypatch.setattr(style, "label", record)
    app.draw()
    monkeypatch.setattr(style, "label", real)
    return texts


def _nose_shot_out_of_arc(app) -> None:
    # g1 (hoverdrone, facing 315°) aims its nose Zapper at s1, 90° off its nose (R19)
    assert not app.act(Shoot("g1", (ShotOrder("Zapper", "s1"),)))


def test_a_refusal_in_the_panel_quotes_its_rule_in_each_language(video, monkeypatch):  # R19
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.view.screenshots import SIZE, screenshot_game

    app = TableApp(screenshot_game("g1", "shoot"), SIZE)
    _nose_shot_out_of_arc(app)
    assert app.vm.message is not None and "R19: target is 90° off the nose" in app.vm.message[0]
    drawn = _drawn(app, monkeypatch)
    assert any(t.startswith("R19 — Nose weapons fire only") for t in drawn)
    assert not any("Nokka-aseet" in t for t in drawn)

    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F8, mod=0, unicode=""))
    _nose_shot_out_of_arc(app)
    assert app.vm.message is not None and "R19" in app.vm.message[0]
    drawn = _drawn(app, monkeypatch)
    assert "R19 — Nokka-aseet voivat ampua vain etu-90 asteen alueelle" in drawn
    assert not any("Nose weapons fire only" in t for t in drawn)


def test_a_long_rule_is_cut_to_a_few_lines(video, monkeypatch):  # R48
    from bottisota.view.app import TableApp
    from bottisota.view.panel import RULE_LINES
    from bottisota.view.screenshots import SIZE, screenshot_game

    app = TableApp(screenshot_game("r1", "move"), SIZE)
    app.vm.message = ("refused: R48: the lift is not at this level", "alarm")
    drawn = _drawn(app, monkeypatch)
    words = rule_text("R48").split()
    rows = [t for t in drawn if t.startswith("R48 — ")
            or (len(t.split()) > 3 and " ".join(t.split()[:3]) in " ".join(words))]
    assert rows[0].startswith("R48 — Lifts affect only ground bots")
    assert 2 <= len(rows) <= RULE_LINES and rows[-1].endswith("…")


# --- the phones -------------------------------------------------------------------------------

def test_a_refusal_sent_to_the_phones_carries_its_rule_texts():  # R19
    from bottisota.view.screenshots import screenshot_game
    from bottisota.web.snapshot import refusal_json

    game = screenshot_game("g1", "shoot")
    refusal = game.act(Shoot("g1", (ShotOrder("Zapper", "s1"),))).refusal
    assert isinstance(refusal, Refusal) and refusal.rule == "R19"
    out = refusal_json(refusal)
    assert out is not None
    assert out["rules"] == [{"rule": "R19", "text": rule_text("R19", "en")}]
    set_language("fi")
    out = refusal_json(refusal)
    assert out is not None
    assert out["rules"][0]["text"] == "Nokka-aseet voivat ampua vain etu-90 asteen alueelle"
    assert out["text"].startswith("R19: ")
    set_language("en")


def test_the_phone_page_shows_the_rule_texts():
    from bottisota.web.app import _static

    script = _static("phone.js")
    assert "m.refusal.rules" in script and "pl.refusal.rules" in script
