"""--edit: the running table follows the designer's files (arena, rules, cards).

On a change the game goes on with the new files (`Game.reload` replays its
actions on them), or the validation error, or why the game no longer replays, is
shown on screen and the game goes on as it was."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bottisota.core.i18n import _
from bottisota.view.arena_layer import ArenaLayer
from bottisota.viewmodel.session import FileWatch, reload_game, watched_files


class EditReloader:
    """`load()` gives the new static data: (arena, cards, mods, rules), or a Game built
    on the new files, whose static data is taken."""

    def __init__(self, arena_path: Path, load: Callable[[], Any],
                 extra: list[Path] | None = None) -> None:
        self.watch = FileWatch(watched_files(arena_path, extra))
        self.load = load
        self.error: str | None = None

    def poll(self, app: Any, force: bool = False) -> bool:
        """Reload when a file changed. True when the game now runs on the new files."""
        if not self.watch.changed(force):
            return False
        error = app.actions.apply(reload_game, app.game, self.load, app.robots)
        if error is not None:
            self.error = error
            for line in error.splitlines():
                app.say(line, "alarm")
            return False
        self.error = None
        app.windows.arena_layer = ArenaLayer(app.game.state.arena, grid=app.vm.show_grid,
                                             rules=app.game.state.rules)
        app.windows.camera = app.windows.fit_camera()
        app.vm.plan = None
        app.actions.changed()
        app.say(_("files changed: arena and cards reloaded; the game goes on ({history} "
                  "actions replayed)").format(
                    history=len(app.game.history)), "good")
        return True
