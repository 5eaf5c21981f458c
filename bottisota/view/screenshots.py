"""Regenerate the README screenshots with the view's own drawing:
`python -m bottisota.view.screenshots [OUT_DIR]` writes table.png, move-preview.png,
premeasure.png, results.png and threat.png at 1920x1080, table-4k.png at 3840x2160,
two-windows.png (the projector's table at true scale beside the laptop window),
crowded-fight.png (32 bots, 20 results, the threat view, on the projector at true
scale), correction.png (the referee's hand) and the Finnish table-fi.png,
premeasure-fi.png and results-fi.png into OUT_DIR (default assets/screenshots)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from bottisota.core.i18n import _, language, set_language  # noqa: E402
from bottisota.engine.game import Game  # noqa: E402
from bottisota.engine.setup import new_state  # noqa: E402
from bottisota.engine.turns import turn_event  # noqa: E402
from bottisota.formats.content import DEFAULT_ARENA, arenas_dir  # noqa: E402
from bottisota.formats.loading import bundled_rules, load_arena  # noqa: E402
from bottisota.view import style  # noqa: E402
from bottisota.view.app import TableApp  # noqa: E402
from bottisota.view.projector import ProjectorWindow  # noqa: E402
from bottisota.viewmodel.calibration_store import Calibration  # noqa: E402

SIZE = (1920, 1080)
SIZE_4K = (3840, 2160)
LAPTOP = (1280, 800)
PROJECTOR_PX_PER_CM = 12.0     # a 1.6 m wide image of 1920 px: the 90 cm table fills its height

# a position on the bundled default arena: (id, player, card, at, facing, extra)
POSITION: tuple[tuple[str, str, str, tuple[float, float], float, dict], ...] = (
    ("r1", "red", "rammer", (28.0, 40.0), 90.0, {}),
    ("b1", "blue", "artillery", (56.0, 46.0), 270.0, {"overwatch": True}),
    ("o1", "orange", "hunter", (85.0, 65.0), 180.0, {}),
    ("s1", "sky", "scout", (62.0, 22.0), 0.0, {}),
    ("g1", "green", "hoverdrone", (65.0, 25.0), 315.0, {"damage": 2}),
)


def screenshot_game(active: str, phase: str, dice: Any = 1) -> Game:
    """A game on the default arena in the POSITION above, `active` in `phase`."""
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / DEFAULT_ARENA, rules)
    bots = [{"id": i, "player": p, "card": c, "at": list(at), "facing": f, **extra}
            for i, p, c, at, f, extra in POSITION]
    state = new_state(arena, rules, bots, dice=dice, round=2)
    turn_event(state, state.bots[active], phase)
    return Game(state)


CROWD_PLAYERS = ("red", "blue", "orange", "sky")
CROWD_CARDS = ("rammer", "artillery", "hunter", "scout")


def crowded_game() -> Game:
    """32 bots of four players spread over the default arena where each may stand, the
    first one in its shooting phase (round 2)."""
    from bottisota.core.errors import InputError

    rules = bundled_rules()
    arena = load_arena(arenas_dir() / DEFAULT_ARENA, rules)
    bots: list[dict] = []
    spots: list[tuple[float, float]] = []
    for j in range(12):
        for i in range(16):
            if len(bots) == 32:
                break
            n = len(bots)
            p = CROWD_PLAYERS[n % 4]
            x, y = 5.0 + i * 7.3 + (j % 2) * 3.0, 6.0 + j * 7.1
            if any((x - a) ** 2 + (y - b) ** 2 < 81.0 for a, b in spots):
                continue
            bot = {"id": f"{p[0]}{n}", "player": p, "card": CROWD_CARDS[n % 4], "at": [x, y],
                   "facing": 90.0 * (n % 4)}
            try:
                new_state(arena, rules, [*bots, bot], round=2)
            except InputError:          # a wall, a pit or a feature's edge there: the next spot
                continue
            bots.append(bot)
            spots.append((x, y))
    state = new_state(arena, rules, bots, round=2)
    turn_event(state, state.bots[bots[0]["id"]], "shoot")
    return Game(state)


def fight_effects(game: Game) -> list[Any]:
    """A fight's results on the crowded table: 20 bots hit, each with its armour test
    and damage (one card each), and two banners."""
    from bottisota.viewmodel.results import BANNER, Effect, effects_of

    events: list[dict] = []
    for b in list(game.state.bots)[1:21]:
        events += [{"type": "to_hit", "target": b, "need": 4, "mod": 0, "roll": 5, "hit": True},
                   {"type": "armour_test", "bot": b, "need": 5, "roll": 2, "passed": False},
                   {"type": "damaged", "bot": b, "amount": 2}]
    return [*effects_of(events, game.state),
            Effect(BANNER, _("OVERWATCH: {bot} fires at {target} after its move").format(
                bot="b1", target="r0"), tone="alarm"),
            Effect(BANNER, _("ROUND {round} begins").format(round=3), tone="good")]


def crowded_projector(size: tuple[int, int], px_per_cm: float) -> TableApp:
    """The crowded fight on a projector window at true scale, with the threat view."""
    app = TableApp(crowded_game(), LAPTOP)
    app.windows.projector = ProjectorWindow(size, Calibration(px_per_cm, px_per_cm))
    app.frame.sprite_budget_ms = None
    app.vm.effects.add(fight_effects(app.game))
    app.vm.threat_on = True
    app.update(0.0)
    threat = app.frame.threat
    assert threat is not None           # the threat view is on
    while not threat.done:
        threat.fill(1000.0)
    app.draw()
    app.frame._labels_placed = False          # the projector places its own labels this frame
    return app


def make_screenshots(out: Path) -> list[Path]:
    """Draw the screenshots into `out`; returns their paths."""
    pygame.font.init()
    out.mkdir(parents=True, exist_ok=True)
    written = []

    table = TableApp(screenshot_game("r1", "move"), SIZE)
    table.vm.show_legend = True
    table.say(_("table view: F1 lists every key"))
    written.append(_save(table, out / "table.png"))

    moving = TableApp(screenshot_game("r1", "move"), SIZE)
    assert moving.vm.plan is not None          # the active bot's plan, at the move
    moving.vm.plan.forward(12.0)
    written.append(_save(moving, out / "move-preview.png"))

    written.append(_save(_shooting(SIZE), out / "premeasure.png"))

    written.append(_save(_fired(SIZE), out / "results.png", 0.0))

    threat = TableApp(screenshot_game("r1", "move"), SIZE)
    threat.vm.threat_on = True
    mx, my = threat.windows.camera.to_px(60.0, 40.0)
    threat.controls.mouse = (round(mx), round(my))
    threat.update(0.0)
    shading = threat.frame.threat
    assert shading is not None          # the threat view is on
    while not shading.done:
        shading.fill(1000.0)
    written.append(_save(threat, out / "threat.png"))

    written.append(_save(_shooting(SIZE_4K), out / "table-4k.png"))
    written.append(_two_windows(out / "two-windows.png"))
    crowded = crowded_projector(SIZE, PROJECTOR_PX_PER_CM)
    projector = crowded.windows.projector
    assert projector is not None
    pygame.image.save(projector.draw(crowded), str(out / "crowded-fight.png"))
    written.append(out / "crowded-fight.png")
    written.append(_save(_correcting(), out / "correction.png"))
    return written


def _correcting() -> TableApp:
    """The referee's hand (F7) on r1: moved, turned, two damage points, the door beside
    it held open, a reason."""
    from bottisota.view.keys import CORRECT, lookup

    app = TableApp(screenshot_game("b1", "shoot"), SIZE)
    app.vm.note(app.correcting.toggle())
    app.click_table(28.0, 40.0)
    app.click_table(33.0, 37.0)
    for key in (pygame.K_e, pygame.K_e, pygame.K_EQUALS, pygame.K_EQUALS, pygame.K_d):
        binding = lookup(CORRECT, key)
        assert binding is not None
        app.correcting.run(binding.command, app.state, _Press(key))
    return app


class _Press:
    """A key press with no modifiers (for the referee's hand's commands)."""

    def __init__(self, key: int) -> None:
        self.key, self.shift, self.ctrl = key, False, False


def make_finnish_screenshots(out: Path) -> list[Path]:
    """The table, a shot's pre-measure and its results in Finnish (table-fi.png,
    premeasure-fi.png, results-fi.png); the language in use before is restored."""
    before = language()
    set_language("fi")
    try:
        pygame.font.init()
        out.mkdir(parents=True, exist_ok=True)
        table = TableApp(screenshot_game("r1", "move"), SIZE)
        table.vm.show_legend = True
        table.say(_("table view: F1 lists every key"))
        return [_save(table, out / "table-fi.png"),
                _save(_shooting(SIZE), out / "premeasure-fi.png"),
                _save(_fired(SIZE), out / "results-fi.png", 0.0)]
    finally:
        set_language(before)


def _shooting(size: tuple[int, int]) -> TableApp:
    app = TableApp(screenshot_game("b1", "shoot"), size)
    app.actions.choose_weapon(1)
    app.vm.aim = "s1"
    mx, my = app.windows.camera.to_px(85.0, 65.0)
    app.controls.mouse = (round(mx), round(my))
    return app


def _fired(size: tuple[int, int]) -> TableApp:
    """b1 has fired at s1: a hit, its damage and the log's lines."""
    app = TableApp(screenshot_game("b1", "shoot", dice=[6, 2, 1, 1, 1, 1, 1, 1]), size)
    app.actions.choose_weapon(1)
    app.actions.toggle_order("s1")
    app.vm.aim = "s1"
    app.actions.fire()
    app.update(0.5)
    return app


def _two_windows(path: Path) -> Path:
    """The projector's window (the table alone, at true scale) beside the laptop's."""
    app = TableApp(screenshot_game("b1", "shoot"), LAPTOP)
    app.windows.projector = ProjectorWindow(SIZE, Calibration(PROJECTOR_PX_PER_CM,
                                                              PROJECTOR_PX_PER_CM))
    app.vm.panel = "side"
    app.windows.resized(LAPTOP)
    app.actions.choose_weapon(1)
    app.vm.aim = "s1"
    app.frame.sprite_budget_ms = None
    app.update(0.0)
    laptop = app.draw()
    app.frame._labels_placed = False          # the projector places its own labels this frame
    projector = app.windows.projector.draw(app)
    gap = 40
    sheet = pygame.Surface((SIZE[0] + gap + LAPTOP[0], SIZE[1] + 60))
    sheet.fill((60, 60, 66))
    sheet.blit(projector, (0, 60))
    sheet.blit(laptop, (SIZE[0] + gap, 60 + (SIZE[1] - LAPTOP[1]) // 2))
    sheet.blit(style.label(_("projector: the table alone at true scale "
                             "({projector_px_per_cm:g} px/cm)").format(
                               projector_px_per_cm=PROJECTOR_PX_PER_CM), 40, style.TEXT), (10, 12))
    sheet.blit(style.label(_("laptop: controls, panel and log"), 40, style.TEXT),
               (SIZE[0] + gap, 12))
    pygame.image.save(sheet, str(path))
    return path


def _save(app: TableApp, path: Path, dt: float = 0.0) -> Path:
    app.frame.sprite_budget_ms = None            # a still: every bot drawn exactly
    app.update(dt)
    pygame.image.save(app.draw(), str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else Path("assets") / "screenshots"
    for p in make_screenshots(out) + make_finnish_screenshots(out):
        print(_("wrote {p}").format(p=p))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
