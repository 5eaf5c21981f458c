"""Shooting without traps: with a weapon chosen a click on an enemy targets it; the
weapon keys choose the shooter's weapons; a weapon that cannot fire is not chosen
and a shot that would be refused is not queued, each saying why with its rule; the
pre-measure leaves the table when the turn passes."""
from __future__ import annotations

import pygame
import pytest

from bottisota.view.app import TableApp
from bottisota.view.screenshots import screenshot_game

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


def shooting_app() -> TableApp:
    """Blue's artillery b1 at (56, 46) in its shooting phase, round 2 (the README's
    position): s1 at (62, 22) in sight, o1 at (85, 65) behind the mezzanine."""
    pygame.font.init()
    return TableApp(screenshot_game("b1", "shoot"), (1280, 800))


def press(app: TableApp, k: int) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_a_click_on_an_enemy_with_a_weapon_chosen_targets_it():  # R18
    app = shooting_app()
    app.click_table(85.0, 65.0)                       # look at o1 first
    assert app.vm.selected == "o1"
    press(app, pygame.K_1)                            # the shooter's first weapon, not o1's
    assert (app.vm.selected, app.vm.weapon) == ("b1", "Mortar")
    app.click_table(62.0, 22.0)                       # s1: a target, not a selection
    assert app.vm.selected == "b1"
    assert [(o.weapon, o.target) for o in app.vm.orders] == [("Mortar", "s1")]
    assert app.vm.aim == "s1"


def test_an_empty_weapon_is_not_chosen_and_says_why():  # R49
    app = shooting_app()
    app.state.bots["b1"].ammo["Mortar"] = 0
    press(app, pygame.K_1)
    assert app.vm.weapon is None
    assert app.vm.orders == []
    text, tone = app.vm.message
    assert tone == "alarm" and "R49" in text and "Mortar" in text


def test_a_shot_the_core_would_refuse_is_not_queued():  # R38
    app = shooting_app()
    press(app, pygame.K_1)
    app.click_table(85.0, 65.0)                       # o1, behind the mezzanine's edge
    assert app.vm.orders == []
    text, tone = app.vm.message
    assert tone == "alarm" and text.startswith("Mortar cannot fire at o1: R38")
    assert app.vm.aim == "o1"                         # the pre-measure shows why


def test_the_pre_measure_leaves_the_table_when_the_turn_passes():  # D18
    app = shooting_app()
    press(app, pygame.K_1)
    app.click_table(62.0, 22.0)
    assert app.actions.premeasure() is not None
    app.actions.pass_turn()
    assert app.state.active != "b1" or app.game.expected() != "shoot"
    assert (app.vm.weapon, app.vm.aim, app.vm.orders) == (None, None, [])
    assert app.actions.premeasure() is None
