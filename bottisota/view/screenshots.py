"""Regenerate the README screenshots with the view's own drawing:
`python -m bottisota.view.screenshots [OUT_DIR]` writes table.png,
move-preview.png and premeasure.png (default folder assets/screenshots)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

SIZE = (1600, 900)

# a position on the bundled default arena: (id, player, card, at, facing, extra)
POSITION: tuple[tuple[str, str, str, tuple[float, float], float, dict], ...] = (
    ("r1", "red", "rammer", (28.0, 40.0), 90.0, {}),
    ("b1", "blue", "artillery", (56.0, 46.0), 270.0, {"overwatch": True}),
    ("o1", "orange", "hunter", (85.0, 65.0), 180.0, {}),
    ("s1", "sky", "scout", (62.0, 22.0), 0.0, {}),
    ("g1", "green", "hoverdrone", (65.0, 25.0), 315.0, {"damage": 2}),
)


def screenshot_game(active: str, phase: str) -> Any:
    """A game on the default arena in the POSITION above, `active` in `phase`."""
    from bottisota.formats.content import DEFAULT_ARENA, arenas_dir
    from bottisota.formats.loading import bundled_rules
    from bottisota.formats.loading import load_arena
    from bottisota.engine.game import Game
    from bottisota.engine.setup import new_state
    from bottisota.engine.turns import turn_event

    rules = bundled_rules()
    arena = load_arena(arenas_dir() / DEFAULT_ARENA, rules)
    bots = [{"id": i, "player": p, "card": c, "at": list(at), "facing": f, **extra}
            for i, p, c, at, f, extra in POSITION]
    state = new_state(arena, rules, bots, dice=1, round=2)
    turn_event(state, state.bots[active], phase)
    return Game(state)


def make_screenshots(out: Path) -> list[Path]:
    """Draw the three screenshots into `out`; returns their paths."""
    import pygame

    from bottisota.view.app import TableApp

    pygame.font.init()
    out.mkdir(parents=True, exist_ok=True)
    written = []

    table = TableApp(screenshot_game("r1", "move"), SIZE)
    table.show_legend = True
    table.say("table view: F1 lists every key", (200, 200, 200))
    written.append(_save(table, out / "table.png"))

    moving = TableApp(screenshot_game("r1", "move"), SIZE)
    moving.plan.forward(12.0)
    written.append(_save(moving, out / "move-preview.png"))

    shooting = TableApp(screenshot_game("b1", "shoot"), SIZE)
    shooting.choose_weapon(1)
    shooting.aim = "s1"
    shooting.mouse = tuple(round(v) for v in shooting.camera.to_px(85.0, 65.0))
    written.append(_save(shooting, out / "premeasure.png"))
    return written


def _save(app: Any, path: Path) -> Path:
    import pygame

    app.update(0.0)
    pygame.image.save(app.draw(), str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    out = Path(argv[0]) if argv else Path("assets") / "screenshots"
    for p in make_screenshots(out):
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
