"""The suite does not depend on the exact bundled deck or card list: a designer
adding a mod to cards/mods/ (as the README invites) or a bot card to cards/bots/
breaks no scenario (R50, R52, R54: the parts deck is whatever the files hold)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bottisota.formats import content, loading
from bottisota.play.scenario import load_scenario, run

FOLDER = Path(__file__).parent / "scenarios"
VALID = sorted(p for p in FOLDER.glob("*.yaml") if not p.name.startswith("invalid_"))

EXTRA_MODS = {
    # sorts first, so every later part moves one place down the deck
    "aaa_test_part.yaml": "id: aaa_test_part\nname: Test part\ndeck: parts\n"
                          "modifies: {armour_mod: 1}\n",
    "zzz_test_part.yaml": "id: zzz_test_part\nname: Last test part\ndeck: parts\n"
                          "weapons:\n  - {name: Test gun, kind: gun, mount: turret, range: 10, "
                          "to_hit: 5, hits: 1}\n",
}
EXTRA_BOT = ("id: aaa_test_bot\nname: Test bot\nlocomotion: walker\nmove: 8\narmour: 4\n"
             "structure: 6\nweapons: []\n")


@pytest.fixture
def designer_cards(tmp_path, monkeypatch):
    """A copy of the bundled cards with two more parts and one more bot card, used
    as the bundled catalogue for the test."""
    cards = tmp_path / "cards"
    shutil.copytree(content.cards_dir(), cards)
    for name, text in EXTRA_MODS.items():
        (cards / "mods" / name).write_text(text)
    (cards / "bots" / "aaa_test_bot.yaml").write_text(EXTRA_BOT)
    monkeypatch.setattr(content, "cards_dir", lambda: cards)
    monkeypatch.setattr(loading, "cards_dir", lambda: cards)
    monkeypatch.setattr(loading, "_catalogue", {})
    yield cards
    monkeypatch.setattr(loading, "_catalogue", {})


def test_the_temporary_parts_are_in_the_catalogue(designer_cards):
    _cards, mods = loading.load_catalogue()
    assert {"aaa_test_part", "zzz_test_part"} <= set(mods)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_every_scenario_holds_with_more_cards_and_mods(designer_cards, path):
    outcome = run(load_scenario(path))
    assert outcome.ok, "\n".join(outcome.failures)
