"""Every kind of event the engine emits, declared once (typed dicts).

Events stay plain JSON-ready dicts at run time (the journal's form is unchanged);
these declarations say which keys each kind carries and of what type.
`EVENT_TYPES` is the registry of every kind; `event_problems` checks one event
against its declaration (the tests run it over whole games). Which kinds change
the state is `bottisota.engine.reducers.REDUCERS`. (No postponed annotations
here: `NotRequired` must be seen when the classes are built.)
"""
import types
from typing import (  # Any: JSON-ready fields of several shapes, as a journal file gives them back
    Any,
    Literal,
    NotRequired,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from bottisota.core.i18n import N_


class AmmoEvent(TypedDict):
    type: Literal["ammo"]
    bot: str
    weapon: str
    left: int
    cause: NotRequired[str]


class ArmourTestEvent(TypedDict):
    type: Literal["armour_test"]
    bot: str
    roll: int
    mod: int
    need: int
    passed: bool
    cause: str
    reroll: NotRequired[bool]


class BeamEvent(TypedDict):
    type: Literal["beam"]
    bot: str
    target: str
    kind: str
    heading: float | None
    distance: float
    cause: str
BeltEvent = TypedDict("BeltEvent", {
    "type": Literal["belt"],
    "bot": str,
    "feature": str,
    "from": NotRequired[list[float]],
    "distance": NotRequired[float],
    "slide": NotRequired[bool],
    "to": NotRequired[list[float]],
    "facing": NotRequired[float],
    "heading": NotRequired[float],
})


class BlastEvent(TypedDict):
    type: Literal["blast"]
    weapon: str
    source: str | None
    x: float
    y: float
    z: float
    r: float
    members: list[str]
    safe: list[str]


class BotMovedEvent(TypedDict):
    type: Literal["bot_moved"]
    bot: str
    x: float
    y: float
    z: float
    facing: float
    spent: float
    forced: NotRequired[bool]
    teleported: NotRequired[bool]
class CameraReadingEvent(TypedDict):
    """A camera reading the game used (`play --camera`, informational, journaled as a
    note of the action it goes with): `use` is "check" (a miniature seen off its
    place), "move" (the move was read from the miniature moved by hand) or
    "correction" (the game took the place the camera saw); `expected` where the
    referee had the bot and `seen` the median of `frames` still frames, each
    [x, y, facing]."""

    type: Literal["camera_reading"]
    bot: str
    marker: int
    use: str
    expected: list[float]
    seen: list[float]
    frames: int


CollisionEvent = TypedDict("CollisionEvent", {
    "type": Literal["collision"],
    "bot": str,
    "with": str | None,
    "at": list[float],
    "hits": str | int,
    "armour_mod": int,
})
CrashEvent = TypedDict("CrashEvent", {
    "type": Literal["crash"],
    "bot": str,
    "with": str | None,
    "at": list[float],
    "hits": str | int,
    "armour_mod": int,
})


class CorrectionEvent(TypedDict):
    type: Literal["correction"]
    bot: str
    reason: str


class CrashTurnEvent(TypedDict):
    type: Literal["crash_turn"]
    bot: str
    degrees: float


class DamagedEvent(TypedDict):
    type: Literal["damaged"]
    bot: str
    amount: int
    cause: str


class DestroyedEvent(TypedDict):
    type: Literal["destroyed"]
    bot: str
    cause: str
    by: str | None


class DockedEvent(TypedDict):
    type: Literal["docked"]
    bot: str
    at: list[float]


class DoorOpenedEvent(TypedDict):
    type: Literal["door_opened"]
    bot: str
    door: str
    at: NotRequired[list[float]]       # not when a push or a fall carries the bot through


class DoorHeldEvent(TypedDict):
    type: Literal["door_held"]
    door: str                        # how messages name it (`door 'bay-door'`, `door #3`)
    key: str                         # its id, or "#" and its index (`door_key`)
    open: bool                       # held open (True) or left to R47 again (False)
    cause: str


class DrawnEvent(TypedDict):
    type: Literal["drawn"]
    player: str
    card: str
    bot: str


class DropMineEvent(TypedDict):
    type: Literal["drop_mine"]
    bot: str
    weapon: str
    at: list[float]


class FallEvent(TypedDict):
    type: Literal["fall"]
    bot: str
    cause: NotRequired[str]
    moved: NotRequired[float]
    min_move: NotRequired[float]
    at: list[float]
    drop: NotRequired[float]
    lands_on: NotRequired[list[str]]
    roll: NotRequired[int]
    damage: NotRequired[int]
    damage_range: NotRequired[list[int]]        # a preview's fall: least and most
FlightEvent = TypedDict("FlightEvent", {
    "type": Literal["flight"],
    "bot": str,
    "weapon": str,
    "from": list[float],
    "to": list[float],
})


class FlightEndEvent(TypedDict):
    type: Literal["flight_end"]
    bot: str
    weapon: str
    x: float
    y: float
    how: str


class GameOverEvent(TypedDict):
    type: Literal["game_over"]
    winners: list[str]
    reason: str
    scores: dict[str, int]


class GoalTakenEvent(TypedDict):
    type: Literal["goal_taken"]
    goal: int
    bot: str
    points: int
    to: NotRequired[list[float]]


class HitsEvent(TypedDict):
    type: Literal["hits"]
    bot: str
    amount: int
    cause: str


class KnockedBackEvent(TypedDict):
    type: Literal["knocked_back"]
    bot: str
    by_fall_of: str
    heading: float
    distance: float


class LandedBesideEvent(TypedDict):
    type: Literal["landed_beside"]
    bot: str
    at: list[float]


class LiftEvent(TypedDict):
    type: Literal["lift"]
    bot: str
    feature: str
    direction: str
    to: list[float]
    z: float


class LoopEvent(TypedDict):
    type: Literal["loop"]
    bot: str
    at: list[float]
    turn_at: list[float]


class LoopCutEvent(TypedDict):
    type: Literal["loop_cut"]
    bot: str
    note: str


class MineActiveEvent(TypedDict):
    type: Literal["mine_active"]
    mine: str


class MineDroppedEvent(TypedDict):
    type: Literal["mine_dropped"]
    mine: str
    bot: str
    owner: str
    player: str
    weapon: str
    x: float
    y: float
    z: float
    r: float
    magnetic: bool


class MineMovedEvent(TypedDict):
    type: Literal["mine_moved"]
    mine: str
    x: float
    y: float
    z: float


class MineRemovedEvent(TypedDict):
    type: Literal["mine_removed"]
    mine: str
    reason: str


class MineStrikeEvent(TypedDict):
    type: Literal["mine_strike"]
    mine: str
    owner: str
    bot: str
    weapon: str


class MineTouchEvent(TypedDict):
    type: Literal["mine_touch"]
    bot: str
    mine: str


class MissileTurnEvent(TypedDict):
    type: Literal["missile_turn"]
    bot: str
    weapon: str
    toward: str
    turn: float
    heading: float
    x: float
    y: float


class MoveCutEvent(TypedDict):
    type: Literal["move_cut"]
    bot: str
    step: int | None
    reason: str


class OverwatchEvent(TypedDict):
    type: Literal["overwatch"]
    bot: str
    on: bool
    reason: NotRequired[str]


class OverwatchFireEvent(TypedDict):
    type: Literal["overwatch_fire"]
    bot: str
    target: str
    weapons: list[str]
    at: list[float]
    after_move: bool


class OverwatchRefusedEvent(TypedDict):
    type: Literal["overwatch_refused"]
    bot: str
    reason: str


class PartInstalledEvent(TypedDict):
    type: Literal["part_installed"]
    bot: str
    part: str
    service: str


class PartsReturnedEvent(TypedDict):
    type: Literal["parts_returned"]
    bot: str
    parts: list[str]


class PassEvent(TypedDict):
    type: Literal["pass"]
    bot: str


class PathEvent(TypedDict):
    type: Literal["path"]
    bot: str
    points: list[list[float]]


class PhaseEvent(TypedDict):
    type: Literal["phase"]
    phase: str


class PitEvent(TypedDict):
    type: Literal["pit"]
    bot: str
    at: list[float]
    feature: str


class PlacedEvent(TypedDict):
    type: Literal["placed"]
    bot: str
    x: float
    y: float
    z: float
    facing: float
    new: NotRequired[bool]


class PlayerOutEvent(TypedDict):
    type: Literal["player_out"]
    player: str
    reason: str


class RemovedEvent(TypedDict):
    type: Literal["removed"]
    bot: str


class RobotDecisionEvent(TypedDict):
    type: Literal["robot_decision"]
    player: str
    bot: str | None
    personality: str
    section: str
    rule: str
    line: int
    dice: str
    roll: int | None
    choice: str
    text: str


class RobotSearchCutEvent(TypedDict):
    type: Literal["robot_search_cut"]
    player: str
    bot: str
    previews: int
    limit_ms: int
    text: str


class RoundEvent(TypedDict):
    type: Literal["round"]
    round: int


class ScoreEvent(TypedDict):
    type: Literal["score"]
    player: str
    points: int
    reason: str
    kill: NotRequired[bool]


class SeatsEvent(TypedDict):
    type: Literal["seats"]
    players: list[str]


class SelfDestructEvent(TypedDict):
    type: Literal["self_destruct"]
    bot: str


class ServiceEvent(TypedDict):
    type: Literal["service"]
    bot: str
    choice: str
    at: str | None


class ShotEvent(TypedDict):
    type: Literal["shot"]
    bot: str
    weapon: str
    target: str
    kind: str


class ShotSkippedEvent(TypedDict):
    type: Literal["shot_skipped"]
    bot: str
    weapon: str
    target: str
    reason: str


class StatusEvent(TypedDict):
    type: Literal["status"]
    bot: str
    rust: NotRequired[int]
    cause: NotRequired[str]
    leaflet: NotRequired[int]
TeleportEvent = TypedDict("TeleportEvent", {
    "type": Literal["teleport"],
    "bot": str,
    "from": str,
    "candidates": list[str],
    "to": NotRequired[str | None],
    "at": NotRequired[list[float]],
})


class ToHitEvent(TypedDict):
    type: Literal["to_hit"]
    bot: str | None
    weapon: str
    target: str
    roll: int
    mod: int
    need: int
    hit: bool


class TurnEvent(TypedDict):
    type: Literal["turn"]
    player: str
    bot: str
    round: int
    phase: str
    moved: float


class TurnEndedEvent(TypedDict):
    type: Literal["turn_ended"]
    player: str
    bot: str | None


Event = (AmmoEvent | ArmourTestEvent | BeamEvent | BeltEvent | BlastEvent | BotMovedEvent |
         CameraReadingEvent | CollisionEvent | CorrectionEvent | CrashEvent | CrashTurnEvent |
         DamagedEvent | DestroyedEvent | DockedEvent | DoorHeldEvent | DoorOpenedEvent |
         DrawnEvent | DropMineEvent | FallEvent | FlightEvent | FlightEndEvent | GameOverEvent |
         GoalTakenEvent | HitsEvent |
         KnockedBackEvent | LandedBesideEvent | LiftEvent | LoopEvent | LoopCutEvent |
         MineActiveEvent | MineDroppedEvent | MineMovedEvent | MineRemovedEvent |
         MineStrikeEvent | MineTouchEvent | MissileTurnEvent | MoveCutEvent |
         OverwatchEvent | OverwatchFireEvent | OverwatchRefusedEvent | PartInstalledEvent |
         PartsReturnedEvent | PassEvent | PathEvent | PhaseEvent | PitEvent | PlacedEvent |
         PlayerOutEvent | RemovedEvent | RobotDecisionEvent | RobotSearchCutEvent |
         RoundEvent | ScoreEvent | SeatsEvent | SelfDestructEvent | ServiceEvent |
         ShotEvent | ShotSkippedEvent | StatusEvent | TeleportEvent | ToHitEvent |
         TurnEvent | TurnEndedEvent)
"""Any event the engine emits (the `type` key tells which: mypy narrows on it)."""


EVENT_TYPES: dict[str, Any] = {
    "ammo": AmmoEvent,
    "armour_test": ArmourTestEvent,
    "beam": BeamEvent,
    "belt": BeltEvent,
    "blast": BlastEvent,
    "bot_moved": BotMovedEvent,
    "camera_reading": CameraReadingEvent,
    "collision": CollisionEvent,
    "correction": CorrectionEvent,
    "crash": CrashEvent,
    "crash_turn": CrashTurnEvent,
    "damaged": DamagedEvent,
    "destroyed": DestroyedEvent,
    "docked": DockedEvent,
    "door_held": DoorHeldEvent,
    "door_opened": DoorOpenedEvent,
    "drawn": DrawnEvent,
    "drop_mine": DropMineEvent,
    "fall": FallEvent,
    "flight": FlightEvent,
    "flight_end": FlightEndEvent,
    "game_over": GameOverEvent,
    "goal_taken": GoalTakenEvent,
    "hits": HitsEvent,
    "knocked_back": KnockedBackEvent,
    "landed_beside": LandedBesideEvent,
    "lift": LiftEvent,
    "loop": LoopEvent,
    "loop_cut": LoopCutEvent,
    "mine_active": MineActiveEvent,
    "mine_dropped": MineDroppedEvent,
    "mine_moved": MineMovedEvent,
    "mine_removed": MineRemovedEvent,
    "mine_strike": MineStrikeEvent,
    "mine_touch": MineTouchEvent,
    "missile_turn": MissileTurnEvent,
    "move_cut": MoveCutEvent,
    "overwatch": OverwatchEvent,
    "overwatch_fire": OverwatchFireEvent,
    "overwatch_refused": OverwatchRefusedEvent,
    "part_installed": PartInstalledEvent,
    "parts_returned": PartsReturnedEvent,
    "pass": PassEvent,
    "path": PathEvent,
    "phase": PhaseEvent,
    "pit": PitEvent,
    "placed": PlacedEvent,
    "player_out": PlayerOutEvent,
    "removed": RemovedEvent,
    "robot_decision": RobotDecisionEvent,
    "robot_search_cut": RobotSearchCutEvent,
    "round": RoundEvent,
    "score": ScoreEvent,
    "seats": SeatsEvent,
    "self_destruct": SelfDestructEvent,
    "service": ServiceEvent,
    "shot": ShotEvent,
    "shot_skipped": ShotSkippedEvent,
    "status": StatusEvent,
    "teleport": TeleportEvent,
    "to_hit": ToHitEvent,
    "turn": TurnEvent,
    "turn_ended": TurnEndedEvent,
}


def _matches(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if hint is Any:
        return True
    if origin is Literal:
        return value in get_args(hint)
    if origin in (Union, types.UnionType):
        return any(_matches(value, h) for h in get_args(hint))
    if hint is type(None):
        return value is None
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(_matches(v, item) for v in value)
    if origin is dict:
        key, item = get_args(hint)
        return isinstance(value, dict) and all(
            _matches(k, key) and _matches(v, item) for k, v in value.items())
    if origin is not None:
        return isinstance(value, origin)
    return isinstance(value, hint)


def event_problems(event: dict[str, Any]) -> list[str]:
    """What is wrong with an event against its kind's declaration (empty: nothing)."""
    kind = event.get("type")
    declared = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if declared is None:
        return [N_("unknown event type {kind!r}").format(kind=kind)]
    hints = get_type_hints(declared)
    problems = [
            N_("{kind}: missing key {key!r}").format(
                kind=kind, key=key) for key in declared.__required_keys__
                if key not in event]
    for key, value in event.items():
        if key not in hints:
            problems.append(N_("{kind}: undeclared key {key!r}").format(kind=kind, key=key))
        elif not _matches(value, hints[key]):
            problems.append(
                    N_("{kind}: {key}={value!r} is not {v}").format(
                        kind=kind, key=key, value=value, v=hints[key]))
    return problems
