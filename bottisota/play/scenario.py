"""The scenario runner (formats.md, "Scenario"): `bottisota scenario run FILE [--json]`.

A scenario is a position, actions and expectations. The runner builds the
position, drives the actions through the same `Game` a real game uses (free
mode: a `move` begins that bot's turn, its other actions are its shooting
phase), records refused actions with their reasons and compares the outcome
with `expect`. Exit 0 when every expectation holds, 1 when one fails, 2 when
the file is invalid (one message naming the file and line, no traceback).
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any  # Any: a scenario file's expectations as read

from bottisota.core.arena import Arena
from bottisota.core.compass import off_angle
from bottisota.core.errors import DiceExhausted
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import _
from bottisota.engine.events import Event
from bottisota.engine.game import Game
from bottisota.engine.modes import ScenarioMode
from bottisota.engine.setup import new_state
from bottisota.engine.state import Bot, GameState
from bottisota.formats import scenario_spec
from bottisota.formats.loading import load_catalogue
from bottisota.formats.scenario_spec import ScenarioSpec
from bottisota.formats.yaml_source import Marks, Raw

POSITION_TOLERANCE = 0.01   # cm: expected x, y, z hold to within this
FACING_TOLERANCE = 0.1      # degrees


@dataclass
class Outcome:
    """What running a scenario gave, and how it compares with its `expect`."""

    spec: ScenarioSpec
    state: GameState
    rejected: list[Raw] = field(default_factory=list)   # {action, line, reason}
    events: list[Event] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ran_out: str = ""           # why the forced dice ran out, if they did (`check` reports it)

    @property
    def ok(self) -> bool:
        return not self.failures


def check_position(arena: Arena, rules: HouseRules, bots: list[Raw], round_: int,
                   marks: Marks) -> None:
    """A scenario's bots on its arena, checked as the game would set them up."""
    new_state(arena, rules, bots, round=round_, marks=marks)


def check_setup(arena: Arena, rules: HouseRules, bots: list[Raw], round_: int,
                marks: Marks) -> None:
    """A scenario's bots checked as the game would set them up, except where they stand."""
    new_state(arena, rules, bots, round=round_, marks=marks, placement=False)


def load_scenario(path: str | Path) -> ScenarioSpec:
    """Read and validate a scenario file, its position included."""
    return scenario_spec.load_scenario(path, check_position)


def parse_scenario(text: str, source: str = "<inline>") -> ScenarioSpec:
    """Validate scenario YAML text, its position included."""
    return scenario_spec.parse_scenario(text, source, check_position)


def scenario_from_dict(data: Any, source: str, marks: Marks, base_dir: Path) -> ScenarioSpec:
    """Validate a scenario mapping, its position included."""
    return scenario_spec.scenario_from_dict(data, source, marks, base_dir, check_position)


def start_state(spec: ScenarioSpec, placement: bool = True) -> GameState:
    """A fresh GameState of the scenario's position (dice from `dice` or `seed`); with
    `placement` off, where the bots stand is not checked."""
    dice = list(spec.dice) if spec.dice is not None else spec.seed
    return new_state(spec.arena, spec.rules, spec.bots, dice=dice, round=spec.round,
                     marks=Marks(spec.source), placement=placement)


def run(spec: ScenarioSpec) -> Outcome:
    """Play the scenario's actions from its position and check its expectations."""
    mode = ScenarioMode()
    game = Game(with_parts_deck(start_state(spec)), mode=mode)
    outcome = Outcome(spec, game.state)
    for i, action in enumerate(spec.actions):
        line = spec.action_lines[i] if i < len(spec.action_lines) else 0
        try:
            result = game.act(action)
        except DiceExhausted as err:
            outcome.failures.append(
                    _("action {i} (line {line}): {err}").format(i=i, line=line, err=err))
            outcome.ran_out = _("action {i} (line {line}): {err}").format(
                i=i, line=line, err=err)
            break
        except Exception as err:  # a rule failing on a legal file: report, do not crash
            outcome.failures.append(
                    _("action {i} (line {line}): the referee failed: {name}: {err}").format(
                        i=i, line=line, name=type(err).__name__, err=err))
            break
        if result.refusal is not None:
            outcome.rejected.append({"action": i, "line": line, "rule": result.refusal.rule,
                                     "reason": str(result.refusal)})
        outcome.events += result.events
    outcome.events += mode.finish(game)
    outcome.state = game.state
    outcome.failures += compare(spec.expect or {}, outcome)
    return outcome


def with_parts_deck(state: GameState) -> GameState:
    """A scenario's extra-parts deck (R50): every bundled part (deck: parts) that no
    bot has installed, in catalogue order."""
    if not state.parts_deck:
        _cards, mods = load_catalogue()
        for mod_id, mod in mods.items():
            state.mods.setdefault(mod_id, mod)
        installed = {p for b in state.bots.values() for p in b.parts}
        state.parts_deck = [m.id for m in state.mods.values()
                            if m.deck == "parts" and m.id not in installed]
    return state


# --- expectations ----------------------------------------------------------------------

def bot_report(bot: Bot) -> Raw:
    """A bot as the JSON output shows it (formats.md keys, and a few more)."""
    return {"player": bot.player, "card": bot.card.id, "x": round(bot.x, 4), "y": round(bot.y, 4),
            "facing": round(bot.facing % 360.0, 4), "z": round(bot.z, 4), "damage": bot.damage,
            "destroyed": bot.destroyed, "removed": bot.removed, "overwatch": bot.overwatch,
            "status": {"rust": bot.rust, "leaflet": bot.leaflet}, "moved": round(bot.moved, 4),
            "parts": list(bot.parts), "ammo": dict(bot.ammo)}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(key: str, want: Any, got: Any) -> bool:
    """Whether an expected value matches the outcome's (a value of another type never does)."""
    if key in ("x", "y", "z", "moved"):
        return _number(got) and _number(want) and abs(got - want) <= POSITION_TOLERANCE
    if key == "facing":
        return _number(got) and _number(want) and off_angle(got, want) <= FACING_TOLERANCE
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and _same(k, v, got[k]) for k, v in want.items())
    if isinstance(want, float) or isinstance(got, float):
        return _number(got) and _number(want) and math.isclose(got, want, abs_tol=1e-9)
    return bool(want == got)


def compare(expect: Raw, outcome: Outcome) -> list[str]:
    """Every expectation that does not hold, as 'what: expected X, actual Y'."""
    fails: list[str] = []
    state = outcome.state
    for bot_id, want in (expect.get("bots") or {}).items():
        bot = state.bots.get(bot_id)
        if bot is None:
            fails.append(
                    _("bots.{bot_id}: expected a bot, actual none with that id").format(
                        bot_id=bot_id))
            continue
        got = bot_report(bot)
        for key, value in want.items():
            if key not in got:
                fails.append(
                        _("bots.{bot_id}.{key}: not a thing the runner can check").format(
                            bot_id=bot_id, key=key))
            elif not _same(key, value, got[key]):
                fails.append(
                        _("bots.{bot_id}.{key}: expected {value!r}, actual {v!r}").format(
                            bot_id=bot_id, key=key, value=value, v=got[key]))
    for player, value in (expect.get("scores") or {}).items():
        score = state.scores.get(player)
        if score != value:
            fails.append(
                    _("scores.{player}: expected {value!r}, actual {score!r}").format(
                        player=player, value=value, score=score))
    for player, value in (expect.get("kills") or {}).items():
        if state.kills.get(player) != value:
            fails.append(
                    _("kills.{player}: expected {value!r}, actual {player2!r}").format(
                        player=player, value=value, player2=state.kills.get(player)))
    plain: tuple[tuple[str, object], ...] = (
        ("round", state.round), ("dice_used", state.dice.used), ("over", state.over))
    for key, actual in plain:
        if key in expect and expect[key] != actual:
            fails.append(
                    _("{key}: expected {v!r}, actual {actual!r}").format(
                        key=key, v=expect[key], actual=actual))
    if "mines" in expect:
        fails += _listed("mines", expect["mines"], [mine_report(m) for m in state.mines])
    if "goals" in expect:
        fails += _listed("goals", expect["goals"],
                         [goal_report(g) for g in state.goals if not g.taken])
    if "events" in expect:
        fails += _in_order(expect["events"] or [], outcome.events)
    if "rejected" in expect:
        fails += _refusals(expect.get("rejected") or [], outcome.rejected)
    return fails


def _refusals(want: list[Any], rejected: list[Raw]) -> list[str]:
    """The refused actions are exactly the ones listed; an entry {action, rule} must
    also have been refused citing that rule."""
    want_rejected = sorted(w["action"] if isinstance(w, dict) else w for w in want)
    actual = sorted(r["action"] for r in rejected)
    why = "; ".join(f"{r['action']}: {r['reason']}" for r in rejected)
    if want_rejected != actual:
        return [_("rejected: expected {want_rejected}, actual {rejected}").format(
                    want_rejected=want_rejected, rejected=actual) + (f" ({why})" if why else "")]
    rules = {r["action"]: r.get("rule") for r in rejected}
    return [_("rejected: action {action} expected refused by {rule}, actual {actual}").format(
                action=w["action"], rule=w["rule"], actual=rules[w["action"]])
            + f" ({why})"
            for w in want if isinstance(w, dict) and rules[w["action"]] != w["rule"]]


def mine_report(mine: Any) -> Raw:
    return {"id": mine.id, "owner": mine.owner, "weapon": mine.weapon, "x": round(mine.x, 4),
            "y": round(mine.y, 4), "r": round(mine.r, 4), "active": mine.active,
            "magnetic": mine.magnetic}


def goal_report(goal: Any) -> Raw:
    return {"x": round(goal.x, 4), "y": round(goal.y, 4), "points": goal.points}


def _listed(key: str, want: Any, got: list[Raw]) -> list[str]:
    """`mines: 2` counts what is on the table; a list matches each item's given keys."""
    if isinstance(want, int) and not isinstance(want, bool):
        return [] if want == len(got) else [
                _("{key}: expected {want} on the table, actual {got}").format(
                    key=key, want=want, got=len(got))]
    if not isinstance(want, list):
        return [_("{key}: expected a count or a list of mappings").format(key=key)]
    if len(want) != len(got):
        return [_("{key}: expected {want} on the table, actual {got} ({got2})").format(
                    key=key, want=len(want), got=len(got), got2=got)]
    fails = []
    for i, (w, g) in enumerate(zip(want, got, strict=True)):
        for k, v in (w or {}).items():
            if k not in g or not _same(k, v, g[k]):
                fails.append(
                        _("{key}[{i}].{k}: expected {v!r}, actual {k2!r}").format(
                            key=key, i=i, k=k, v=v, k2=g.get(k)))
    return fails


def _in_order(want: list[Any], events: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each expected event (a type, or a mapping of some of its keys) appears, in order."""
    at = 0
    for item in want:
        pattern = {"type": item} if isinstance(item, str) else dict(item or {})
        while at < len(events) and not all(
                k in events[at] and _same(k, v, events[at][k]) for k, v in pattern.items()):
            at += 1
        if at == len(events):
            return [_("events: expected {pattern} (in order), actual none such").format(
                        pattern=pattern)
                    + (_(" after the ones before it") if want.index(item) else "")]
        at += 1
    return []


def report(outcome: Outcome) -> Raw:
    """The `--json` output (formats.md)."""
    s = outcome.state
    return {"name": outcome.spec.name, "ok": outcome.ok, "round": s.round,
            "bots": {b.id: bot_report(b) for b in s.bots.values()},
            "scores": dict(s.scores), "kills": dict(s.kills), "over": s.over,
            "mines": [mine_report(m) for m in s.mines],
            "goals": [goal_report(g) for g in s.goals if not g.taken],
            "rejected": outcome.rejected, "events": outcome.events,
            "dice_used": s.dice.used, "failures": outcome.failures}


def text_report(outcome: Outcome) -> list[str]:
    lines = [f"{'PASS' if outcome.ok else 'FAIL'} {outcome.spec.source}: {outcome.spec.name}"]
    for r in outcome.rejected:
        lines.append(
                _("  action {action} (line {line}) refused: {reason}").format(
                    action=r['action'], line=r['line'], reason=r['reason']))
    for f in outcome.failures:
        lines.append(f"  {f}")
    return lines


# --- the command -----------------------------------------------------------------------
