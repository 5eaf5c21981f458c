"""Bench: the view's paths of issue 32 as users hit them, first times apart.

Run: python bench/view_paths.py [--quick] [--json]

Every figure is CPU time, given beside the machine limit of the same run (one
prepared-union predicate per sight line, every ordered pair of 32 bots on
synthetic-500: `geometry.py`'s limit for `sight_all`). First times are reported
apart, never warmed away.

1. The robots' `situation.sees`, one row each, 32 bots, synthetic-500 (geometry.py's
   row `sees, every row`): target <= 2x the machine limit.
2. The pre-measure as the view asks it: a shooter with 4 weapons against 31 bots
   (shooting.py's shooter) on the warehouse, synthetic-500 and synthetic-2000; one
   `viewmodel.core_calls.premeasure()` per weapon key (what `GameActions.premeasure`
   calls once per state, bot and weapon), the state's kept sight answers dropped
   before the first key of each round (a new state); then the fire track, blocker
   and blocking point of the bot under the cursor. And in a fresh process (nothing
   asked before: the arena compiled, the game built, nothing else): the very first
   key and the very first track, with nothing built ahead and after
   `ArenaIndex.build_ahead` (what `play` runs on a thread at load). Target <= 2 ms,
   the first included.
3. The move preview as a drag asks it: `core_calls.preview_move` each frame, the
   drag's Forward growing 0.25 cm a frame into a wall (32 bots; a walker of move 30),
   on the warehouse, synthetic-500 and synthetic-2000; and in a fresh process the
   drag's first frame and its first wall contact, with the grown walls built ahead
   (as `play` does) and without. Target <= 0.5 ms a frame, no frame > 50 ms.
4. A robot's move in `play --robot red --headless --seed 2` on synthetic-2000: the
   main thread's CPU time per frame (`time.thread_time` around `TableApp.step`, as
   tests/test_robot_frames.py takes it), 240 frames, 3 runs: the first frame and the
   slowest after it. Target: no frame > 50 ms after the first.

Every child process keeps its modules' bytecode in a folder of the bench's own, filled
by a run before the timed ones (given apart for the robot's frames): the figures are
those of an installed copy, whatever PYTHONDONTWRITEBYTECODE says where the bench runs.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from common import (
    ROBOT_FRAMES,
    ROOT,
    bench_main,
    bundled,
    compiled,
    machine,
    place_discs,
    stats,
    synthetic,
    synthetic_data,
    with_bytecode,
)

from bottisota.core.actions import Forward, Move, Refusal, Turn
from bottisota.engine.game import Game
from bottisota.engine.movement.geometry import wall_reaches
from bottisota.engine.setup import new_state
from bottisota.engine.shooting.premeasure import forget_sight
from bottisota.engine.turns import turn_event
from bottisota.formats.loading import bundled_rules
from bottisota.viewmodel import core_calls

HERE = Path(__file__).resolve().parent
SEES_TARGET_X = 2.0             # x the machine limit
PREMEASURE_TARGET_MS = 2.0
PREVIEW_TARGET_MS = 0.5
FRAME_LIMIT_MS = 50.0
BOTS = 32
STEP_CM = 0.25                  # a drag's growth per frame
MOVE_CM = 30.0
def _weapons() -> list[dict]:
    from shooting import WEAPONS as w
    return w


def arena_named(name: str):
    return synthetic(int(name.split("-")[1])) if name.startswith("synthetic-") else bundled(name)


def build_ahead_as_play(state, radii) -> None:
    """What `play` builds on its build-ahead thread at load (commands/play.py)."""
    from bottisota.engine.shooting.geometry import barriers
    state.index.build_ahead(wall_reaches(state.rules, radii))
    barriers(state.index)


def time_ms(fn) -> tuple[float, object]:
    c0 = time.process_time()
    out = fn()
    return (time.process_time() - c0) * 1e3, out


# --- 1. the robots' rows ----------------------------------------------------------------

def sees_row(repeats: int) -> dict:
    import geometry
    r = geometry.one("synthetic-500", synthetic(500), BOTS, repeats)
    return {"arena": "synthetic-500", "bots": BOTS, "sees_rows_ms": r["sees_rows"],
            "sight_all_ms": r["sight_all"], "machine_limit_ms": r["machine_limit"],
            "over_limit": r["sees_rows_over_limit"], "target_over_limit": SEES_TARGET_X,
            "met": r["sees_rows_over_limit"] <= SEES_TARGET_X}


# --- 2. the pre-measure, one call per key -----------------------------------------------

def shooter_state(arena):
    from shooting import build
    return build(arena, BOTS)


def track_of(pm, k: int) -> None:
    t = pm.targets[k % len(pm.targets)]
    _ = t.track, t.blocker, t.block_point


def premeasure_keys(name: str, rounds: int) -> dict:
    arena = arena_named(name)
    state = shooter_state(arena)
    names = [w["name"] for w in _weapons()]
    # as `play` loads a game: the sight levels built ahead on a thread (the very first
    # key of a process is the fresh rows' figure)
    build_ahead_as_play(state, [b.radius for b in state.bots.values()])
    first_key, later_keys, tracks = [], [], []
    for r in range(rounds):
        forget_sight(state.index)               # a new state: no sight answer kept
        for k, w in enumerate(names):
            ms, pm = time_ms(lambda w=w: core_calls.premeasure(state, "b0", w))
            (first_key if k == 0 else later_keys).append(ms / 1e3)
            ms, _ = time_ms(lambda pm=pm, r=r: track_of(pm, r))
            tracks.append(ms / 1e3)
    every = first_key + later_keys
    worst = max(every) * 1e3
    return {"arena": name, "features": len(arena.features), "bots": BOTS,
            "weapons": len(names), "key_ms": stats(every), "first_key_ms": stats(first_key),
            "later_keys_ms": stats(later_keys), "track_ms": stats(tracks),
            "key_max_ms": worst, "target_ms": PREMEASURE_TARGET_MS,
            "met": worst <= PREMEASURE_TARGET_MS}


def child_premeasure(name: str, ahead: bool) -> dict:
    """In a fresh process: the very first key and track, then the other keys."""
    arena = arena_named(name)
    state = shooter_state(arena)
    out: dict = {}
    if ahead:
        radii = [b.radius for b in state.bots.values()]
        out["build_ahead_ms"], _ = time_ms(
            lambda: build_ahead_as_play(state, radii))
    names = [w["name"] for w in _weapons()]
    out["first_key_ms"], pm = time_ms(lambda: core_calls.premeasure(state, "b0", names[0]))
    out["first_track_ms"], _ = time_ms(lambda: track_of(pm, 0))
    out["next_keys_ms"] = [time_ms(lambda w=w: core_calls.premeasure(state, "b0", w))[0]
                           for w in names[1:]]
    return out


# --- 3. the move preview, one call per drag frame ---------------------------------------

def drag_state(arena, seed: int = 7):
    discs = place_discs(compiled(arena), BOTS, random.Random(seed))
    bots = [{"id": d.id, "player": f"p{k % 4}", "at": [d.x, d.y], "facing": 0,
             "card": {"locomotion": "walker", "move": MOVE_CM, "turn": 2, "armour": 4,
                      "structure": 6, "weapons": []}} for k, d in enumerate(discs)]
    return new_state(arena, bundled_rules(), bots, dice=1, round=2)


def drag_moves(bot: str, turn: float) -> list[Move]:
    n = int(MOVE_CM / STEP_CM)
    head = (Turn(turn),) if turn else ()
    return [Move(bot, head + (Forward(round((i + 1) * STEP_CM, 2)),)) for i in range(n)]


def stopped(found) -> bool:
    if isinstance(found, Refusal):
        return True
    return found.ended is not None


def find_drag(name: str, seed: int = 7) -> tuple[str, float]:
    """A bot and a turn whose straight drag meets a wall (chosen in the parent, so that
    the fresh process asks nothing before the drag)."""
    from bottisota.engine.movement.moves import preview_move
    state = drag_state(arena_named(name), seed)
    for bot in sorted(state.bots):
        for turn in (0, 45, -45, 90, -90, 135, -135, 180):
            m = drag_moves(bot, turn)[-1]
            found = preview_move(state, m)
            if not isinstance(found, Refusal) and found.ended == "collision":
                return bot, turn
    raise RuntimeError(f"{name}: no drag meets a wall")


def run_drag(state, bot: str, turn: float) -> dict:
    """The drag's frames: `core_calls.preview_move` as the session asks it (once per
    state and move), CPU ms each; the frame of the first wall contact."""
    turn_event(state, state.bots[bot], "move")
    game = Game(state)
    times, contact = [], None
    for i, m in enumerate(drag_moves(bot, turn)):
        ms, pv = time_ms(lambda m=m: core_calls.preview_move(game, m))
        times.append(ms)
        shown = pv.shown
        if contact is None and shown is not None and shown.ended == "collision":
            contact = i
    return {"frames_ms": times, "contact_frame": contact}


def preview_drags(name: str, drags: int) -> dict:
    arena = arena_named(name)
    found = find_drag(name)
    every, first_frames, contacts = [], [], []
    for k in range(drags):
        state = drag_state(arena)      # a new game state: the game's walks not kept
        if k == 0:
            state.index.build_ahead(wall_reaches(state.rules, [b.radius for b in
                                                                state.bots.values()]))
        got = run_drag(state, *found)
        first_frames.append(got["frames_ms"][0] / 1e3)
        if got["contact_frame"] is not None:
            contacts.append(got["frames_ms"][got["contact_frame"]] / 1e3)
        every += [t / 1e3 for t in got["frames_ms"]]
    s = stats(every)
    worst = max(every) * 1e3
    return {"arena": name, "features": len(arena.features), "bots": BOTS, "drag": found,
            "frames": len(every), "frame_ms": s, "frame_max_ms": worst,
            "first_frame_ms": stats(first_frames), "contact_frame_ms": stats(contacts),
            "target_ms": PREVIEW_TARGET_MS, "frame_limit_ms": FRAME_LIMIT_MS,
            "met": s["median"] <= PREVIEW_TARGET_MS and worst <= FRAME_LIMIT_MS}


def child_drag(name: str, ahead: bool, bot: str, turn: float) -> dict:
    state = drag_state(arena_named(name))
    out: dict = {}
    if ahead:
        radii = [b.radius for b in state.bots.values()]
        out["build_ahead_ms"], _ = time_ms(
            lambda: build_ahead_as_play(state, radii))
    got = run_drag(state, bot, turn)
    f = got["frames_ms"]
    out.update(first_frame_ms=f[0], contact_frame=got["contact_frame"],
               contact_ms=f[got["contact_frame"]] if got["contact_frame"] is not None else None,
               max_ms=max(f), median_ms=statistics.median(f))
    return out


def fresh(args: list[str], bytecode: str) -> dict:
    """This script's `--child` in a fresh process (its own cache folders; the bytecode
    kept in `bytecode`, filled by a run before the timed ones: see `collect`)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = with_bytecode(dict(os.environ, XDG_DATA_HOME=tmp,
                                 XDG_CACHE_HOME=str(Path(tmp) / "cache")), bytecode)
        out = subprocess.run([sys.executable, str(HERE / "view_paths.py"), "--child", *args],
                             capture_output=True, text=True, check=True, env=env, cwd=tmp)
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- 4. a robot's move on the table -----------------------------------------------------

FRAMES = ROBOT_FRAMES          # tests/test_robot_frames.py's very process (common.py)


def robot_frames(runs: int, frames: int = 240) -> dict:
    """tests/test_robot_frames.py's process, `runs` times: each run's first frame and
    its slowest frame after the first (main thread's CPU, ms). The bytecode is kept in a
    folder of the bench's own, filled by one run before them (every module compiled as
    the process first needs it, some in a frame: a very first start), given apart."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        arena = Path(tmp) / "synthetic-2000.yaml"
        arena.write_text(yaml.safe_dump(synthetic_data(2000)), encoding="utf-8")
        env = with_bytecode(dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                                 XDG_DATA_HOME=tmp, XDG_CACHE_HOME=str(Path(tmp) / "cache"),
                                 PYTHONPATH=str(ROOT)), Path(tmp) / "bytecode")
        for _ in range(runs + 1):
            done = subprocess.run([sys.executable, "-c", FRAMES, str(arena), str(frames)],
                                  cwd=tmp, env=env, capture_output=True, text=True, check=True)
            lines = {ln.split()[0]: ln.split()[1:] for ln in done.stdout.splitlines()
                     if ln.split() and ln.split()[0] in ("frames", "actions")}
            times = [float(t) for t in lines["frames"]]
            rest = times[1:]
            worst = max(range(len(rest)), key=rest.__getitem__)
            out.append({"first_ms": times[0], "max_after_first_ms": rest[worst],
                        "max_frame": worst + 1, "median_ms": statistics.median(rest),
                        "over_50": sum(t > FRAME_LIMIT_MS for t in rest),
                        "actions": int(lines["actions"][0])})
    empty, out = out[0], out[1:]
    worst = max(r["max_after_first_ms"] for r in out)
    return {"arena": "synthetic-2000", "frames": frames, "runs": out,
            "bytecode_empty_run": empty,
            "max_after_first_ms": worst, "frame_limit_ms": FRAME_LIMIT_MS,
            "met": worst <= FRAME_LIMIT_MS}


# --- the bench --------------------------------------------------------------------------

ARENAS = ("warehouse", "synthetic-500", "synthetic-2000")


def collect(quick: bool = False) -> dict:
    sees = sees_row(7 if quick else 21)
    pre = [premeasure_keys(n, 5 if quick else 15) for n in ARENAS]
    drags = [preview_drags(n, 2 if quick else 4) for n in ARENAS]
    with tempfile.TemporaryDirectory() as bytecode:
        # one child of each kind fills the bytecode folder first (not counted), so that
        # the timed children read their modules compiled, as an installed copy does
        fresh(["premeasure", ARENAS[0], "1"], bytecode)
        fresh(["drag", ARENAS[0], "1", *map(str, drags[0]["drag"])], bytecode)
        pre_fresh = [dict(arena=n, ahead=a, **fresh(["premeasure", n, str(int(a))], bytecode))
                     for n in ARENAS for a in (False, True)]
        drag_fresh = []
        for d in drags:
            bot, turn = d["drag"]
            drag_fresh += [dict(arena=d["arena"], ahead=a,
                                **fresh(["drag", d["arena"], str(int(a)), bot, str(turn)],
                                        bytecode))
                           for a in (False, True)]
    for f in pre_fresh:
        f["met"] = max([f["first_key_ms"], f["first_track_ms"]] + f["next_keys_ms"]) \
            <= PREMEASURE_TARGET_MS
    for f in drag_fresh:
        f["met"] = f["max_ms"] <= FRAME_LIMIT_MS
    robot = robot_frames(2 if quick else 3)
    return {"bench": "view_paths", "machine": machine(),
            "machine_limit_ms": sees["machine_limit_ms"]["median"],
            "machine_limit_what": "sight_all's machine limit, 32 bots, synthetic-500",
            "sees": sees, "premeasure": pre, "premeasure_fresh": pre_fresh,
            "preview": drags, "preview_fresh": drag_fresh, "robot_frames": robot}


def yes(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(data: dict) -> str:
    s = data["sees"]
    out = [f"the view's paths (CPU ms; machine {data['machine']}; the machine limit "
           f"{data['machine_limit_ms']:.3f} ms: {data['machine_limit_what']})",
           f"  robots' rows (sees), 32 bots, synthetic-500: {s['sees_rows_ms']['median']:.3f} ms"
           f" = {s['over_limit']:.2f}x the limit (sight_all {s['sight_all_ms']['median']:.3f});"
           f" target <= {s['target_over_limit']:g}x: {yes(s['met'])}"]
    for p in data["premeasure"]:
        out.append(f"  pre-measure per key, {p['arena']} ({p['features']} features): key "
                   f"median {p['key_ms']['median']:.3f} (first key after a change "
                   f"{p['first_key_ms']['median']:.3f}, later keys "
                   f"{p['later_keys_ms']['median']:.3f}), max {p['key_max_ms']:.3f}; "
                   f"track {p['track_ms']['median']:.3f} (max "
                   f"{p['track_ms']['p99']:.3f}); target <= {p['target_ms']:g}: {yes(p['met'])}")
    for f in data["premeasure_fresh"]:
        how = "built ahead" if f["ahead"] else "nothing built"
        out.append(f"    fresh process, {f['arena']}, {how}: "
                   f"first key {f['first_key_ms']:.2f}, first track {f['first_track_ms']:.2f}, "
                   f"next keys {', '.join(f'{t:.2f}' for t in f['next_keys_ms'])}"
                   + (f" (build_ahead {f['build_ahead_ms']:.0f})" if f["ahead"] else "")
                   + f": {yes(f['met'])}")
    for d in data["preview"]:
        fr = d["frame_ms"]
        out.append(f"  drag, {d['arena']}: {d['frames']} frames, median {fr['median']:.3f}, p99 "
                   f"{fr['p99']:.3f}, max {d['frame_max_ms']:.2f}; first frame "
                   f"{d['first_frame_ms']['median']:.3f}, wall contact frame "
                   f"{d['contact_frame_ms']['median']:.3f}; target <= {d['target_ms']:g}, none "
                   f"> {d['frame_limit_ms']:g}: {yes(d['met'])}")
    for f in data["preview_fresh"]:
        contact = "none" if f["contact_ms"] is None else f"{f['contact_ms']:.2f}"
        how = "built ahead" if f["ahead"] else "nothing built"
        out.append(f"    fresh process, {f['arena']}, {how}: "
                   f"first frame {f['first_frame_ms']:.2f}, first wall contact {contact} "
                   f"(frame {f['contact_frame']}), median {f['median_ms']:.3f}, max "
                   f"{f['max_ms']:.2f}"
                   + (f" (build_ahead {f['build_ahead_ms']:.0f})" if f["ahead"] else "")
                   + f": {yes(f['met'])}")
    r = data["robot_frames"]
    e = r["bytecode_empty_run"]
    out.append("  play --robot red, synthetic-2000, main thread per frame (the run with the "
               f"bytecode folder empty: first {e['first_ms']:.0f}, max after it "
               f"{e['max_after_first_ms']:.1f}): "
               + "; ".join(f"first {x['first_ms']:.0f}, max after it {x['max_after_first_ms']:.1f}"
                           f" (frame {x['max_frame']}), median {x['median_ms']:.1f}, "
                           f"{x['actions']} actions" for x in r["runs"])
               + f"; target none > {r['frame_limit_ms']:g} after the first: {yes(r['met'])}")
    return "\n".join(out)


def child(argv: list[str]) -> None:
    kind, name, ahead = argv[0], argv[1], argv[2] == "1"
    if kind == "premeasure":
        out = child_premeasure(name, ahead)
    else:
        out = child_drag(name, ahead, argv[3], float(argv[4]))
    print(json.dumps(out))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        from common import collector_as_the_command
        collector_as_the_command()
        child(sys.argv[2:])
        return
    bench_main(__doc__, "fewer rounds and drags, 2 robot runs", collect, report)


if __name__ == "__main__":
    main()
