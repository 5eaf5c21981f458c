"""The view model: everything the table view shows besides the game state itself,
as plain data. The controller changes it; painters read it; `snapshot()` gives
it as JSON-ready data for any other surface (a second window, a phone)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bottisota.core.actions import ShotOrder
from bottisota.core.i18n import N_, _
from bottisota.viewmodel.guidance import SERVICE_CHOICES
from bottisota.viewmodel.labels import PlacedLabel
from bottisota.viewmodel.log import GameLog
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.results import Effects
from bottisota.viewmodel.sizes import READING_DISTANCE_CM

if TYPE_CHECKING:
    from bottisota.engine.game import Game

PANEL_SIDE, PANEL_HIDDEN, PANEL_BOTTOM = "side", "hidden", "bottom"
PANEL_MODES = (PANEL_SIDE, PANEL_BOTTOM, PANEL_HIDDEN)
ROBOT_PACE_SECONDS = 1.5     # a robot seat waits this long after the last action


@dataclass
class ViewModel:
    """What is selected, planned and shown (see the module doc)."""

    selected: str | None = None
    plan: MovePlan | None = None
    weapon: str | None = None
    aim: str | tuple[float, float] | None = None
    measure_overwatch: bool = False
    orders: list[ShotOrder] = field(default_factory=list)
    service_choice: int = 0
    place_facing: float = 0.0
    confirm: str | None = None            # a destroying action waiting for its second key
    ruler: tuple[tuple[float, float], tuple[float, float]] | None = None
    threat_on: bool = False
    show_grid: bool = True
    show_legend: bool = False
    help_on: bool = False
    panel: str = PANEL_SIDE
    ui_scale: float = 1.0
    true_scale: bool = False              # the table at its calibrated size
    reading_distance_cm: float = READING_DISTANCE_CM   # the projector's texts read from here
    log: GameLog = field(default_factory=GameLog)
    message: tuple[str, str] | None = None  # (text, tone)
    effects: Effects = field(default_factory=Effects)
    labels: list[PlacedLabel] = field(default_factory=list)
    labels_left_out: int = 0
    hover: str | None = None              # a hover note (threat count)
    robot_pace: float = ROBOT_PACE_SECONDS
    robot_wait: float = 0.0               # seconds until a robot seat may act
    version: int = 0                      # bumps on every change of the game state

    @property
    def service(self) -> str:
        return SERVICE_CHOICES[self.service_choice % len(SERVICE_CHOICES)]

    def say(self, text: str, tone: str = "plain") -> None:
        self.message = (text, tone)
        self.log.say(text, tone)

    def note(self, text: str, tone: str = "dim") -> None:
        """A word about the view itself (a setting changed): shown, never written into
        the game's log."""
        self.message = (text, tone)

    def snapshot(self, game: Game, robots: Mapping[str, object] | None = None
                 ) -> dict[str, Any]:   # Any: JSON for the phones and tests
        """The model as JSON-ready data, with the turn strip of `game`."""
        return {
            "turn": turn_strip(game, robots or {}),
            "selected": self.selected, "weapon": self.weapon,
            "aim": list(self.aim) if isinstance(self.aim, tuple) else self.aim,
            "plan": [str(s) for s in self.plan.all_steps()] if self.plan is not None else None,
            "orders": [{"weapon": o.weapon, "target": o.target} for o in self.orders],
            "confirm": self.confirm, "panel": self.panel, "ui_scale": self.ui_scale,
            "message": list(self.message) if self.message else None,
            "log": [ln.as_dict() for ln in self.log.lines[-50:]],
            "effects": [e.as_dict() for e in self.effects.items],
            "labels": [lb.as_dict() for lb in self.labels],
            "hover": self.hover, "version": self.version,
        }


def turn_line(game: Game) -> str:
    """"Round 3 - red to move (r1)": the turn strip's words."""
    state = game.state
    due = game.expected()
    if due == "over":
        return _("Round {round} - game over").format(round=state.round)
    who = game.whose_turn()
    bot = game.active_bot()
    line = _(_TURN_LINES[due]) if due in _TURN_LINES else _("Round {round} - {who} to {verb}")
    return line.format(round=state.round, who=who, verb=_(due)) + (
        f" ({bot.id})" if bot is not None else "")


# the turn strip's line, one whole text per phase
_TURN_LINES = {"place": N_("Round {round} - {who} to place"),
               "move": N_("Round {round} - {who} to move"),
               "shoot": N_("Round {round} - {who} to shoot")}


def turn_strip(game: Game, robots: Mapping[str, object]) -> dict[str, Any]:  # Any: as JSON
    """Seats in order with score, kills and whether they have played, plus the line."""
    state = game.state
    active = game.active_bot()
    seats = []
    for p in state.players:
        seats.append({"player": p, "score": state.scores.get(p, 0), "kills": state.kills.get(p, 0),
                      "now": active is not None and active.player == p and not state.over,
                      "played": p in state.played, "out": p in state.out, "robot": p in robots})
    return {"line": turn_line(game), "round": state.round, "phase": game.expected(),
            "seats": seats}
