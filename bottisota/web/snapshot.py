"""The core's answers as JSON for the phones: the table, the bots, a pre-measure,
a planned move with its overwatch offers, events in words.

This is the one module that turns core values into what a browser reads. Its
words are the table's: events read as the table's log reads them
(`viewmodel.words.describe`, the same lines left out), a pre-measured target as
the table labels it (`viewmodel.targets`) with the core's reason and rule, the
turn as the table's strip says it
(`viewmodel.model.turn_line`), a refusal as the core words it (rule: reason).
Numbers are rounded to 0.01 cm / 0.1° (what a phone can draw); no file path,
journal name or Python representation is ever put in a snapshot: only ids,
labels, numbers and those words.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from shapely.geometry import MultiPolygon, Polygon

from bottisota.core.actions import SERVICE_CHOICES, Refusal, SelfDestruct, Service, SetOverwatch
from bottisota.core.i18n import translated
from bottisota.core.rule_texts import rule_text, rules_named
from bottisota.engine.game import Game
from bottisota.engine.movement.result import FlingResult, MoveResult, PathPoint
from bottisota.engine.overwatch import Offer
from bottisota.engine.shooting.premeasure import Premeasure, TargetMeasure
from bottisota.engine.state import Bot, GameState
from bottisota.viewmodel.log import QUIET
from bottisota.viewmodel.model import turn_line
from bottisota.viewmodel.targets import target_words, verdict
from bottisota.viewmodel.words import describe

Json = dict[str, Any]   # Any: JSON as sent to and read back from a phone


def r2(v: float) -> float:
    """A length rounded for display (0.01 cm)."""
    return round(float(v), 2)


def r1(v: float) -> float:
    return round(float(v), 1)


# --- the table ---------------------------------------------------------------------------

# `geom`: a shapely geometry (Any: shapely ships no types)
def _rings(geom: Any) -> list[list[list[list[float]]]]:
    """A polygon (or several) as [[exterior, hole, ...], ...] of [x, y] points."""
    polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
    out = []
    for p in polys:
        if not isinstance(p, Polygon) or p.is_empty:
            continue
        rings = [p.exterior, *p.interiors]
        out.append([[[r2(x), r2(y)] for x, y in ring.coords] for ring in rings])
    return out


def table(state: GameState) -> Json:
    """The arena once: size and every feature's outline with what a player reads
    off it (type, label, heights, the way a slope rises)."""
    arena = state.arena
    features = []
    for f in arena.features:
        d: Json = {"type": f.type, "label": f.label, "polygons": _rings(f.shape)}
        for key in ("height", "from_z", "to_z", "up", "top", "points", "speed"):
            value = getattr(f, key)
            if value is not None:
                d[key] = r2(value)
        if f.type == "escalator":
            d["carries"] = f.carries
        features.append(d)
    return {"name": arena.name, "size": [r2(arena.size[0]), r2(arena.size[1])],
            "features": features}


def bot_json(bot: Bot) -> Json:
    stats = bot.stats
    return {
        "id": bot.id, "player": bot.player, "card": bot.card.id, "name": bot.card.name,
        "x": r2(bot.x), "y": r2(bot.y), "z": r2(bot.z), "facing": r1(bot.facing),
        "r": r2(bot.radius), "locomotion": stats.locomotion, "move": r2(stats.move),
        "turn": r2(stats.turn), "armour": stats.armour, "structure": stats.structure,
        "damage": bot.damage, "overwatch": bot.overwatch, "rust": bot.rust,
        "leaflet": bot.leaflet, "moved": r2(bot.moved), "new": bot.new,
        "on_table": bot.on_table, "parts": list(bot.parts),
        "weapons": [{"name": w.name, "kind": w.kind, "mount": w.mount, "range": r2(w.range),
                     "to_hit": w.to_hit, "hits": w.hits, "explosive": w.explosive,
                     "ammo": bot.ammo.get(w.name)} for w in stats.weapons],
    }


def game_state(game: Game, version: int) -> Json:
    """What changes: the bots, mines, goals, whose turn and what is due, scores."""
    s: GameState = game.state
    active = game.active_bot()
    return {
        "version": version, "line": turn_line(game),
        "round": s.round, "phase": game.expected(), "turn": game.whose_turn(),
        "active": active.id if active is not None else None,
        "players": list(s.players), "scores": dict(s.scores), "out": list(s.out),
        "over": s.over,
        "bots": [bot_json(b) for b in s.bots.values() if b.on_table],
        "placing": (bot_json(active) if active is not None and game.expected() == "place"
                    else None),
        "mines": [{"id": m.id, "player": m.player, "x": r2(m.x), "y": r2(m.y), "r": r2(m.r),
                   "active": m.active} for m in s.mines],
        "goals": [{"x": r2(g.x), "y": r2(g.y), "r": r2(g.r), "points": g.points}
                  for g in s.goals if not g.taken],
        "may": choices(game),
    }


def choices(game: Game) -> Json:
    """What the active bot may do now besides shooting and passing, as the core rules
    it (the phone offers only these): set overwatch (not in round 1, R7), each
    service choice (on a service station, R49), self-destruct."""
    bot = game.active_bot()
    if bot is None or game.expected() != "shoot":
        return {"overwatch": False, "services": [], "self_destruct": False}
    return {"overwatch": game.legal(SetOverwatch(bot.id)) is None,
            "services": [c for c in SERVICE_CHOICES if game.legal(Service(bot.id, c)) is None],
            "self_destruct": game.legal(SelfDestruct(bot.id)) is None}


# --- events in words ------------------------------------------------------------------------

def events_json(events: Iterable[Mapping[str, Any]]) -> list[str]:
    """An action's events as the table's log lists them (the same lines left out)."""
    return [describe(e) for e in events if e.get("type") not in QUIET]


# --- refusals ---------------------------------------------------------------------------------

def refusal_json(ref: Refusal | None) -> Json | None:
    if ref is None:
        return None
    out: Json = {"rule": ref.rule, "message": ref.message, "text": translated(ref),
                 "rules": [{"rule": r, "text": rule_text(r)}          # quoted, current language
                           for r in rules_named(f"{ref.rule} {ref.message}")]}
    if ref.at is not None:
        out["at"] = [r2(ref.at[0]), r2(ref.at[1])]
    if ref.step is not None:
        out["step"] = ref.step
    return out


# --- a pre-measure ---------------------------------------------------------------------------

def _track(t: TargetMeasure) -> list[Json]:
    return [{"d": r2(p.distance), "line": r2(p.line_z), "top": r2(p.obstacle_z), "what": p.what}
            for p in t.track]


def premeasure_json(pm: Premeasure, state: GameState, focus: str | None = None) -> Json:
    """A weapon's pre-measure (engine.shooting.premeasure): reach, arc, every target's
    verdict (to-hit and chance, or the reason it cannot be shot), and for the aimed
    target the blocking point and the fire-track profile, the corridor, the blast,
    the missile's turn, the rocket's onward line or the beam's landing spot."""
    shooter = state.bots[pm.bot]
    targets = []
    for t in pm.targets:
        d: Json = {"bot": t.bot, "distance": r2(t.distance), "off_nose": r1(t.off_nose),
                   "in_arc": bool(t.in_arc), "in_range": bool(t.in_range),
                   "in_sight": bool(t.in_sight), "need": t.need, "modifier": t.modifier,
                   "chance": round(float(t.chance), 4), "can_fire": bool(t.can_fire),
                   "refusal": translated(t.refusal) if t.refusal else t.refusal,
                   "words": target_words(t, pm), "verdict": verdict(t)}
        if not t.in_sight and t.sight_decides:
            d["blocker"] = t.blocker
            point = t.block_point
            d["block_point"] = [r2(point[0]), r2(point[1])] if point else None
        if t.bot == focus:
            d["track"] = _track(t)
            if "blocker" not in d and not t.in_sight:
                d["blocker"] = t.blocker
                point = t.block_point
                d["block_point"] = [r2(point[0]), r2(point[1])] if point else None
        targets.append(d)
    out: Json = {
        "bot": pm.bot, "weapon": pm.weapon, "kind": pm.kind, "mount": pm.mount,
        "reach": r2(pm.reach), "arc_half": None if pm.arc_half is None else r1(pm.arc_half),
        "x": r2(shooter.x), "y": r2(shooter.y), "facing": r1(shooter.facing),
        "overwatch": pm.overwatch, "refusal": translated(pm.refusal) if pm.refusal else None,
        "targets": targets,
        "focus": focus, "aim": [r2(pm.aim[0]), r2(pm.aim[1])] if pm.aim else None,
    }
    if pm.corridor_line is not None:
        a, b = pm.corridor_line
        out["corridor"] = {"from": [r2(a[0]), r2(a[1])], "to": [r2(b[0]), r2(b[1])],
                           "half_width": r2(pm.corridor_width),
                           "members": list(pm.corridor_members)}
    if pm.blast is not None:
        bl = pm.blast
        out["blast"] = {"x": r2(bl.x), "y": r2(bl.y), "r": r2(bl.r), "centre": bl.centre,
                        "members": [{"bot": m.bot, "distance": r2(m.distance),
                                     "centre": m.centre, "hit_mod": m.hit_mod,
                                     "armour_mod": m.armour_mod, "chance": round(float(c), 4)}
                                    for m, c in zip(bl.members, bl.chances, strict=True)],
                        "safe": [{"bot": s.bot, "reason": s.reason} for s in bl.safe]}
    if pm.missile is not None:
        m = pm.missile
        out["missile"] = {"x": r2(m.x), "y": r2(m.y), "heading": r1(m.heading),
                          "toward": list(m.toward), "turns": [r1(v) for v in m.turns],
                          "headings": [r1(v) for v in m.headings]}
    if pm.flight is not None:
        f = pm.flight
        out["flight"] = {"end": [r2(f.end[0]), r2(f.end[1])], "bots": list(f.bots),
                         "stopped_by": f.stopped_by}
    if isinstance(pm.fling, FlingResult):
        out["fling"] = fling_json(pm.fling)
    return out


def fling_json(f: FlingResult) -> Json:
    return {"bot": f.bot, "path": [_point(p) for p in f.path], "x": r2(f.x), "y": r2(f.y),
            "moved": r2(f.moved), "stopped_by": f.stopped_by, "collisions": list(f.collisions),
            "pit": f.pit, "events": events_json(f.events)}


# --- a planned move --------------------------------------------------------------------------

def _point(p: PathPoint) -> Json:
    return {"x": r2(p.x), "y": r2(p.y), "z": r2(p.z), "facing": r1(p.facing),
            "distance": r2(p.distance), "spent": r2(p.spent)}


def move_json(result: MoveResult | None) -> Json | None:
    if result is None:
        return None
    return {
        "path": [_point(p) for p in result.path], "spent": r2(result.spent),
        "left": r2(result.left), "allowed": r2(result.allowed),
        "turns_used": result.turns_used, "free_turns_left": result.free_turns_left,
        "pieces": [{"kind": p.kind, "step": p.step, "length": r2(p.length),
                    "multiplier": round(float(p.multiplier), 3), "cost": r2(p.cost),
                    "note": p.note} for p in result.pieces],
        "events": events_json(result.events), "destroyed": result.destroyed,
        "ended": result.ended, "dropped_steps": list(result.dropped_steps),
    }


def offers_json(offers: Iterable[Offer]) -> list[Json]:
    return [{"watcher": o.watcher, "at": _point(o.at), "weapons": list(o.weapons),
             "after_move": bool(o.after_move)} for o in offers]


def plan_json(bot: str, steps: list[Json], result: MoveResult | None, refusal: Refusal | None,
              prefix: MoveResult | None, offers: list[Offer]) -> Json:
    """A planned move: its path and costs (or the legal part before a refused step,
    with the refusal), and the overwatch shots the path would draw."""
    return {"bot": bot, "steps": steps, "move": move_json(result),
            "prefix": move_json(prefix), "refusal": refusal_json(refusal),
            "offers": offers_json(offers), "legal": result is not None and refusal is None}
