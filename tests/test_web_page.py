"""The phone page's server side (issue 30): the language each phone asks for, the
page's words in it, and what the state offers the active bot (no browser needed)."""
from __future__ import annotations

import io
import json
import warnings

import pytest

from bottisota.core.i18n import set_language
from bottisota.web import page_words, snapshot
from bottisota.web.app import _static, make_app
from bottisota.web.hub import Hub
from tests.test_web import TOKENS, advance, new_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize(("asked", "accept", "table", "lang"), [
    (None, "fi-FI,fi;q=0.9,en;q=0.8", "en", "fi"),        # the browser's first choice
    (None, "de-DE,en;q=0.5,fi;q=0.7", "en", "fi"),        # by q weight, unknown ones skipped
    (None, "de-DE", "fi", "fi"),                          # none known: the table's
    (None, None, "en", "en"),
    (None, "fi;q=0", "en", "en"),                         # q=0: not wanted
    ("en", "fi-FI", "fi", "en"),                          # the page's toggle wins
    ("xx", "fi-FI", "en", "fi"),                          # an unknown ?lang= is ignored
])
def test_a_phone_gets_the_language_it_asks_for(asked, accept, table, lang):
    set_language(table)
    try:
        assert page_words.page_language(asked, accept) == lang
    finally:
        set_language("en")


def test_the_page_speaks_finnish_on_an_english_table():
    """Issue 31.5: Accept-Language fi on an English server gives a Finnish page, with
    the rules' words for plan steps, the map and the watcher's prompt."""
    set_language("en")
    client = TestClient(make_app(Hub(new_game(), dict(TOKENS))))
    page = client.get(f"/s/{TOKENS['red']}", headers={"Accept-Language": "fi-FI"}).text
    assert '<html lang="fi">' in page and "Valitse botti napauttamalla." in page
    assert 'data-to="en"' in page and ">English</button>" in page
    start = page.index('id="i18n">') + len('id="i18n">')
    words = json.loads(page[start:page.index("</script>", start)])
    assert words["⟲ facing"] == "⟲ suunta" and words["loop"] == "voltti"
    assert words["forward {cm} cm"] == "eteen {cm} cm"
    assert words["goal {points}"] == "maali {points}"
    assert words["mine"] == "miina" and words["blast"] == "räjähdys" and words["."] == ","
    assert words["pit"] == "kuoppa" and words["service"] == "huoltopiste"
    english = client.get(f"/s/{TOKENS['red']}?lang=en",
                         headers={"Accept-Language": "fi-FI"}).text
    assert '<html lang="en">' in english and ">suomi</button>" in english


def test_every_text_of_the_script_is_in_the_page_words():
    """Every tx("...") of phone.js reaches the page in both languages."""
    script = _static("phone.js")
    for lang in ("en", "fi"):
        words = json.loads(page_words.words(script, lang))
        for m in page_words._JS_CALL.finditer(script):
            assert page_words._unescape(m.group(1)) in words


def test_overwatch_is_offered_only_when_the_rules_allow_it():
    """R7: nobody may set overwatch (nor self-destruct) in round 1; from round 2 the
    active bot may. No service choice off a service station (R49)."""
    game = advance(new_game(), until_round=1)
    assert game.state.round == 1 and game.expected() == "shoot"
    assert snapshot.game_state(game, 0)["may"] == {"overwatch": False, "services": [],
                                                   "self_destruct": False}
    game = advance(new_game(), until_round=2)
    assert snapshot.game_state(game, 0)["may"] == {"overwatch": True, "services": [],
                                                   "self_destruct": True}


def test_service_choices_are_offered_on_a_service_station():
    """R49, R50: red-1 stands on the duel table's 'nw-service' station (6, 54) and did
    not move: it may reload or take a part; with no damage, rust or leaflet penalty,
    repairing and clearing are not offered."""
    from bottisota.core.actions import Move, Pass, Place

    game = new_game()
    while game.state.round < 2 or game.expected() != "shoot":
        bot, due = game.active_bot(), game.expected()
        if due == "place":
            spot = (6.0, 54.0, 90.0) if bot.player == "red" else (40.0, 36.0, 270.0)
            action = Place(bot.id, *spot)
        else:
            action = Move(bot.id, ()) if due == "move" else Pass(bot.id)
        assert game.act(action).ok
    assert game.active_bot().id == "red-1"
    assert snapshot.game_state(game, 0)["may"]["services"] == ["reload", "part"]


def test_babel_finds_every_text_of_the_script():
    """Every tx("...") of phone.js is one Babel's extractor finds (a tx nested in
    another's arguments is not), so the catalogues keep it."""
    from babel.messages.extract import extract

    script = _static("phone.js")
    found = {m[1] for m in extract("javascript", io.BytesIO(script.encode()),
                                   keywords={"tx": None})}
    used = {page_words._unescape(m.group(1)) for m in page_words._JS_CALL.finditer(script)}
    assert used - found == set()
