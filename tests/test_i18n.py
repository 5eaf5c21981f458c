"""The referee speaks Finnish and English: one catalogue per language, complete,
every user-facing text through it, numbers and plurals as each language writes them."""
from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bottisota.core import i18n
from bottisota.core.i18n import _, cm, ngettext, number, set_language, signed, system_language
from tests.i18n_lint import shadowed_underscore, user_facing_literals

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bottisota"
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2), "tx": None}
# as babel.cfg: the Python code, the phone script (tx("...")) and the pages' {{_("...")}}
METHODS = [("**.py", "python"), ("web/static/*.js", "javascript"),
           ("web/static/*.html", "bottisota.web.page_words.extract")]

# packages whose every user-facing literal must go through the catalogue: (part, whether
# literals outside functions count). Below the view model the texts are the field docs
# of the YAML formats (they go into the JSON Schemas and stay English, like the keys).
LINTED = [("view", True), ("viewmodel", True), ("commands", True), ("web", True),
          ("cli.py", True), ("engine", False), ("formats", False), ("geometry", False),
          ("play", False), ("robot", False), ("core", False)]
# files left out of the lint, with why
LINT_SKIP = {
    "view/pdf_out.py": "PDF operators and objects; its four sentences are wrapped by hand",
    "view/svg_out.py": "SVG markup, not words",
    "core/actions.py": "step notation (forward 5, turn +45): the YAML's own words",
    "geometry/arena_index.py": "a debugging repr",
}
# literals that are not for people (file-system names, markup, format syntax)
ALLOWED = {
    ("viewmodel/calibration_store.py", "Application Support"),   # a macOS folder name
    ("cli.py", "bottisota {}"),                                  # program name and version
    ("cli.py", "bottisota {}\npython {} on {}\ntime {}\n\n"),     # crash log header (English)
    ("web/app.py", "default-src 'none'; connect-src 'self'; img-src 'self' data:; "
                   "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),  # CSP
    ("web/app.py", "; script-src 'nonce-{}'; style-src 'nonce-{}'"),                 # CSP
    ("formats/arena_checks.py", "Ring Self-intersection"),       # shapely's words, parsed
    ("web/hub.py", "robot %s's %s was refused: %s"),             # the server's own log
    ("engine/movement/physics.py", "floor tree"),                # a cache key
}


def code_message_ids() -> set[str | tuple[str, str]]:
    """Every message id the code uses, extracted by Babel as `pybabel extract` does."""
    ids: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(PACKAGE), method_map=METHODS, keywords=KEYWORDS):
        ids.add(message if isinstance(message, str) else tuple(message[:2]))
    return ids


def catalogue(lang: str):
    return read_po(io.StringIO(i18n.catalogue_text(lang)), locale=lang)


def _fields(text: str) -> set[str]:
    return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_id_of_the_code_is_in_the_catalogue(lang):
    cat = catalogue(lang)
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id}
    missing = sorted(map(str, code_message_ids() - have))
    assert not missing, f"{len(missing)} ids missing from {lang}: {missing[:20]}"
    untranslated = [m.id for m in cat if m.id and (not m.string or (
        isinstance(m.string, tuple) and not all(m.string)))]
    assert not untranslated, f"untranslated in {lang}: {untranslated[:20]}"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_translations_use_only_the_placeholders_of_their_id(lang):
    """A translation may leave a placeholder out (Finnish needs no English plural 's'),
    never invent one: `.format` would fail on the table."""
    for m in catalogue(lang):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        allowed = set().union(*(_fields(i) for i in ids))
        for s in strings:
            assert _fields(s) <= allowed, (m.id, s)


def test_no_user_facing_literal_escapes_the_catalogue():
    found = []
    for part, declarations in LINTED:
        paths = [PACKAGE / part] if part.endswith(".py") else sorted((PACKAGE / part).rglob("*.py"))
        for path in paths:
            rel = path.relative_to(PACKAGE).as_posix()
            if rel in LINT_SKIP:
                continue
            for line, text in user_facing_literals(path, declarations):
                if (rel, text) not in ALLOWED:
                    found.append(f"{rel}:{line}: {text!r}")
    assert not found, "not through the catalogue:\n" + "\n".join(found)


def test_the_lint_catches_a_bare_sentence(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('from bottisota.core.i18n import _\n'
                 'def f(x):\n    """Doc string."""\n'
                 '    ok = _("a {x} b").format(x=x)\n'
                 '    return f"{x} is not translated" + ok\n')
    assert user_facing_literals(f) == [(5, "{} is not translated")]


def test_no_module_shadows_the_catalogue_underscore():
    bad = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
           if (lines := shadowed_underscore(p))}
    assert not bad


def test_finnish_numbers_have_a_decimal_comma():
    set_language("fi")
    assert number(12.5) == "12,5"
    assert cm(12.5) == "12,5 cm"
    assert number(3.0) == "3"
    assert number(1234.567) == "1234,57"
    assert signed(-1.5) == "-1,5" and signed(2) == "+2"
    set_language("en")
    assert cm(12.5) == "12.5 cm"
    assert number(-0.001) == "0"


def test_finnish_plural_forms():
    set_language("fi")
    assert ngettext("{n} shot", "{n} shots", 1).format(n=1) == "1 laukaus"
    assert ngettext("{n} shot", "{n} shots", 2).format(n=2) == "2 laukausta"
    assert ngettext("{n} shot", "{n} shots", 0).format(n=0) == "0 laukausta"
    assert ngettext("{n} damage point", "{n} damage points", 3).format(n=3) == "3 vauriopistettä"


def test_the_log_speaks_finnish():
    from bottisota.viewmodel.words import describe

    set_language("fi")
    assert describe({"type": "hits", "bot": "red-2", "amount": 1}) == "red-2 saa 1 osuman"
    assert describe({"type": "bot_moved", "bot": "r1", "x": 12.5, "y": 3.25, "facing": 90.0,
                     "spent": 7.5}) == ("r1 liikkuu kohtaan (12,5; 3,25), suunta 90°, "
                                        "7,5 cm käytetty")
    assert describe({"type": "game_over", "winners": ["red"]}).startswith("PELI PÄÄTTYI")


def test_every_event_of_real_games_reads_in_both_languages():
    """Robot games on the warehouse: every event reads in Finnish and English, and the
    Finnish line differs from the English one (nothing left untranslated)."""
    from bottisota.core.actions import Pass
    from bottisota.viewmodel.session import build_game, robot_seats
    from bottisota.viewmodel.words import describe

    events = []
    for seed in (1, 2):
        game, _game_log = build_game("warehouse", ["red", "blue"], seed, None, None)
        robots = robot_seats(["red", "blue"], ["red", "blue"], game)
        events += list(game.start_events)
        for _step in range(40):
            if game.expected() == "over":
                break
            bot = game.active_bot()
            res = game.act(robots[bot.player].decide(game), robots[bot.player].take_events())
            if res.refusal is not None:
                res = game.act(Pass(bot.id))
            events += res.events
    kinds = set()
    for e in events:
        set_language("en")
        en = describe(e)
        set_language("fi")
        fi = describe(e)
        assert "{" not in fi and "?" not in fi, (e, fi)
        assert fi != en, (e, fi)
        kinds.add(e["type"])
    set_language("en")
    assert {"to_hit", "bot_moved", "turn"} <= kinds


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "fi_FI.UTF-8"}, "fi"), ({"LC_ALL": "fi_FI.UTF-8", "LANG": "en_GB.UTF-8"}, "fi"),
    ({"LC_MESSAGES": "en_US.UTF-8"}, "en"), ({"LANG": "C"}, "en"), ({}, "en"),
    ({"LANGUAGE": "fi:en", "LANG": "en_US.UTF-8"}, "fi"), ({"LANG": "sv_SE.UTF-8"}, "en"),
])
def test_the_language_follows_the_system_locale(env, lang):
    assert system_language(env) == lang


def test_lang_option_on_every_command(capsys):
    from bottisota import cli

    for command in cli.COMMANDS:
        with pytest.raises(SystemExit):
            cli.main([command, "--lang", "fi", "--help"])
        out = capsys.readouterr().out
        assert "--lang" in out, command
    assert i18n.language() == "fi"
    cli.main(["check", "--lang", "en", "--help"]) if False else None


def test_check_speaks_finnish(tmp_path, capsys):
    from bottisota import cli

    assert cli.main(["check", "--lang", "fi", str(tmp_path / "nothing-here.yaml")]) == 2
    err = capsys.readouterr()
    assert "tiedostoa tai kansiota ei ole" in err.out + err.err
    set_language("en")


def test_help_and_panel_words_follow_the_language(language):
    from bottisota.view.help import help_lines

    lines = "\n".join(help_lines())
    assert ("Missä tahansa" in lines) == (language == "fi")
    assert "F8" in lines
    assert _("Pass") == {"en": "Pass", "fi": "Ohita"}[language]


def test_no_english_left_in_the_finnish_catalogue_by_accident():
    """Long sentences translated to themselves are a forgotten translation."""
    same = [m.id for m in catalogue("fi") if isinstance(m.id, str) and m.id == m.string
            and len(re.findall(r"[a-z]{4,}", re.sub(r"{[^}]*}", "", m.id))) >= 3
            and "bottisota" not in m.id]
    assert not same, same


def test_the_phone_pages_speak_the_tables_language():
    from bottisota.web import page_words
    from bottisota.web.app import _static

    set_language("fi")
    page = page_words.fill(_static("phone.html"))
    assert '<html lang="fi">' in page and "Valitse botti napauttamalla." in page
    assert "{{_(" not in page
    import json
    table = json.loads(page_words.words(_static("phone.js")))
    assert table["Commit move"] == "Vahvista liike" and table["."] == ","
    assert table["tracked"] == "telabotti" and table["move"] == "liike"
    set_language("en")
    assert '<html lang="en">' in page_words.fill(_static("join.html"))


def test_the_rules_cores_english_is_shown_translated():
    """Refusals stay English data (journals replay the same in any language) and read
    in Finnish through their catalogued templates, nested values included."""
    from bottisota.core.i18n import translated

    text = "R14: a loop needs 12 cm of free space ahead; the table ends"
    set_language("fi")
    assert translated(text) == "R14: voltti tarvitsee 12 cm vapaata tilaa edessä; pöytä loppuu"
    assert translated("r1 would spend 9.50 cm of movement; only 3.25 cm is left (move 8)") \
        == "r1 käyttäisi 9,5 cm liikettä; jäljellä on vain 3,25 cm (liike 8)"
    assert translated("a name the catalogue never saw") == "a name the catalogue never saw"
    set_language("en")
    assert translated(text) == text


def test_f8_switches_the_language_and_the_log_is_told_again(video):
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.view.screenshots import SIZE, screenshot_game

    app = TableApp(screenshot_game("r1", "move"), SIZE)
    app.vm.log.events([{"type": "pass", "bot": "r1"}], None)
    assert app.vm.log.lines[-1].text == "r1 passes"
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F8, mod=0, unicode=""))
    assert i18n.language() == "fi"
    assert any(line.text == "r1 ohittaa vuoronsa" for line in app.vm.log.lines)
    assert app.vm.message is not None and app.vm.message[0] == "kieli: suomi"
    app.draw()
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F8, mod=0, unicode=""))
    assert i18n.language() == "en"
    assert any(line.text == "r1 passes" for line in app.vm.log.lines)


def test_argparse_own_words_follow_the_language(capsys):
    from bottisota.cli import main as cli_main

    with pytest.raises(SystemExit) as out:
        cli_main(["--lang", "fi", "check", "--bogus", "x"])
    assert out.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("käyttö: bottisota")
    assert "bottisota: virhe: tuntemattomat argumentit: --bogus" in err
    with pytest.raises(SystemExit):
        cli_main(["--lang", "en", "check", "--bogus", "x"])
    err = capsys.readouterr().err
    assert err.startswith("usage: bottisota")
    assert "bottisota: error: unrecognized arguments: --bogus" in err


def test_the_simulate_table_speaks_finnish_with_decimal_commas(capsys):
    from bottisota.cli import main as cli_main

    try:
        code = cli_main(["--lang", "fi", "simulate", "duel", "--robots", "aggressive,sniper",
                         "--games", "2", "--jobs", "1", "--round-limit", "1", "--quiet"])
    finally:
        i18n.set_language("en")
    out = capsys.readouterr().out
    assert code == 0
    head = out.splitlines()[0]
    assert head.startswith("persoonallisuus") and "voit %" in head and "tuhot" in head
    row = out.splitlines()[2]
    assert re.search(r"\s\d+,\d\s", row) and not re.search(r"\d\.\d", row), row


def test_feature_names_inside_messages_follow_the_language():
    from shapely.geometry import box

    from bottisota.core.arena import Feature

    wall = Feature(index=3, type="wall", shape=box(0, 0, 1, 1))
    deck = Feature(index=0, type="platform", shape=box(0, 0, 1, 1), id="mezzanine")
    assert (wall.label, deck.label) == ("wall #3", "platform 'mezzanine'")   # the journal's
    i18n.set_language("fi")
    try:
        assert i18n.translated(f"no sight: {deck.label}") == "ei näköyhteyttä: taso 'mezzanine'"
        assert i18n.translated(f"blocked by {wall.label}") == "esteenä seinä #3"
    finally:
        i18n.set_language("en")
