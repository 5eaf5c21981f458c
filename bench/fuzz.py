"""Fuzz the real command line with hostile files of every kind, and play what it accepts.

    python -m bench.fuzz --cases 200            # 200 mutants per kind
    python -m bench.fuzz --cases 50 --kinds arena,journal --seed 3 --show 5

Every case is a mutant of a bundled file (arenas, bot cards, mods, house rules,
scenarios, robot tables) or of a journal of a short robot game: a value
replaced by a hostile one (0, negative, huge, NaN, a 400-digit integer, a long
string, a deep list, ...), a key dropped or added, an item repeated, or the
text cut, spliced, nested 25,000 deep, or turned into an alias bomb. Half of
the journal mutants are re-sealed (their digest chain recomputed, as a forger
would), so the replay's own checks are reached.

Each case runs in a forked child (modules already imported; limits: address
space, wall time) through `bottisota.cli.main`: `check --kind K` (journals:
`replay`; scenarios: `check` then `scenario run`). A file the command accepts
must then be playable: an arena renders headless (`render`, at its default
scale), and every kind of static data plays a short robot game (12 actions)
whose journal replays; a scenario runs; an accepted journal resumes and takes
3 more actions.

Outcomes: `refused` (exit 2, one message, no traceback), `playable` (accepted,
and played), and the faults, which must be zero: `traceback` (a traceback
printed, or the CLI's crash log, exit 70), `unplayable` (accepted, then failed
to render or play), `hang` (over the time limit), `crash` (killed by a signal,
or another exit code), `over 1 GB` (peak resident memory of the case).
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("arena", "card", "mod", "rules", "scenario", "robot", "journal")
FAULTS = ("traceback", "unplayable", "hang", "crash", "over 1 GB")
CHECK_SECONDS = 30            # the command's own run
PLAY_SECONDS = 60             # render + a short robot game + its replay
ONE_GB = 1 << 30
PLAY_ACTIONS = 12


# --- seeds ------------------------------------------------------------------------------

def seed_files(kind: str, workdir: Path) -> list[Path]:
    """The bundled files a kind's mutants start from."""
    if kind == "arena":
        return sorted((ROOT / "arenas").glob("*.yaml"))
    if kind == "card":
        return sorted((ROOT / "cards" / "bots").glob("*.yaml"))
    if kind == "mod":
        return sorted((ROOT / "cards" / "mods").glob("*.yaml"))
    if kind == "rules":
        return [ROOT / "cards" / "rules.yaml", ROOT / "tests" / "fixtures" / "good" /
                "house_rules.yaml"]
    if kind == "scenario":
        return sorted((ROOT / "tests" / "scenarios").glob("*.yaml"))
    if kind == "robot":
        return sorted((ROOT / "cards" / "robots").glob("*.yaml"))
    if kind == "journal":
        return [seed_journal(workdir)]
    raise ValueError(kind)


def seed_journal(workdir: Path) -> Path:
    """A journal of a short seeded robot game on the duel arena (made once)."""
    path = workdir / "seed-journal.jsonl"
    if not path.exists():
        from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
        from bottisota.formats.robot_tables import find_personality
        from bottisota.play.journal import journal_to
        from bottisota.robot.match import play

        cards, mods = load_catalogue()
        play(load_arena(ROOT / "arenas" / "duel.yaml"), bundled_rules(), cards, mods,
             [find_personality("aggressive"), find_personality("sniper")], seed=5,
             round_limit=None, time_limit=0.05, max_actions=10, on_start=journal_to(path))
        from bottisota.play.journal_file import open_locked  # written and released
        open_locked(path).close()
    return path


# --- mutations --------------------------------------------------------------------------

HOSTILE: list[Callable[[random.Random], Any]] = [
    lambda r: 0, lambda r: -1, lambda r: -1e9, lambda r: 1e9, lambda r: 1e300,
    lambda r: 3000, lambda r: 1e-12, lambda r: 10 ** 400, lambda r: float("nan"),
    lambda r: float("inf"), lambda r: r.uniform(-100, 100), lambda r: r.randint(-20, 200),
    lambda r: "d6", lambda r: "x" * 5000, lambda r: "", lambda r: [], lambda r: {},
    lambda r: None, lambda r: True, lambda r: [[[[[1]]]]], lambda r: [0, 0],
    lambda r: [1e6, 1e6], lambda r: [0, 0, 0, 0], lambda r: [[0, 0], [0, 0], [0, 0]],
    lambda r: "../../../../etc/passwd", lambda r: "\x00\x07", lambda r: 1000000000,
]
DEEP = 25_000


def _nodes(data: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _nodes(v, path + (i,))
    return out


def _set(data: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


NUMBERS: list[Callable[[random.Random], Any]] = [
    lambda r: 0, lambda r: -1, lambda r: -0.5, lambda r: 1e-9, lambda r: 3000,
    lambda r: 10_000, lambda r: 1e6, lambda r: 1e300, lambda r: 10 ** 400,
    lambda r: 1_000_000_000, lambda r: r.uniform(-50, 500), lambda r: r.randint(-10, 100),
]


def mutate_data(data: Any, rng: random.Random) -> Any:
    """One structural change: a value replaced, a key dropped or added, an item repeated;
    half the time a number replaced by an absurd one (what `check` may accept)."""
    data = copy.deepcopy(data)
    paths = _nodes(data)
    numbers = [p for p in paths if p and isinstance(_get(data, p), (int, float))
               and not isinstance(_get(data, p), bool)]
    if numbers and rng.random() < 0.5:
        return _set(data, rng.choice(numbers), rng.choice(NUMBERS)(rng))
    path = rng.choice(paths[1:] if len(paths) > 1 else paths)
    op = rng.random()
    parent = _get(data, path[:-1]) if path else None
    if op < 0.6 or not path:
        return _set(data, path, rng.choice(HOSTILE)(rng))
    if op < 0.75 and isinstance(parent, dict):
        parent.pop(path[-1], None)
        return data
    if op < 0.85 and isinstance(parent, list):
        item = parent[path[-1]]
        parent.extend(copy.deepcopy(item) for _ in range(rng.choice((2, 50, 1000))))
        return data
    if isinstance(parent, dict):
        parent[rng.choice(("extra", "typo", "height", "speed", "hits", "size"))] = \
            rng.choice(HOSTILE)(rng)
        return data
    return _set(data, path, rng.choice(HOSTILE)(rng))


def mutate_text(text: str, rng: random.Random, yaml_kind: bool) -> str:
    """One textual change: cut, splice, garbage, deep nesting, an alias bomb, empty."""
    op = rng.randrange(8)
    at = rng.randrange(len(text) + 1)
    if op == 0:
        return text[:at]
    if op == 1:
        lines = text.splitlines(keepends=True) or [""]
        i = rng.randrange(len(lines))
        return "".join(lines[:i] + [lines[i]] * rng.choice((2, 3)) + lines[i:])
    if op == 2:
        junk = "".join(chr(rng.choice((0, 7, 9, 27, 0x7F, 0xFEFF, 0xD7FF, 0x85, 0x2028)))
                       for _ in range(rng.randint(1, 4)))
        return text[:at] + junk + text[at:]
    if op == 3:
        return text[:at] + "[" * DEEP + text[at:]
    if op == 4 and yaml_kind:
        bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True))
        return bomb + text
    if op == 5:
        return ""
    if op == 6:
        return text[:at] + "9" * 400 + text[at:]
    return text + "\n" + "x" * rng.choice((10, 5000, 200_000)) + "\n"


def _yaml_dump(data: Any) -> str:
    try:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return json.dumps(data, default=str)


@dataclass
class Case:
    kind: str
    path: Path
    how: str


def make_case(kind: str, rng: random.Random, folder: Path, workdir: Path) -> Case:
    """A mutant of one of the kind's seed files, written in `folder`."""
    seed = rng.choice(seed_files(kind, workdir))
    sub = folder / ("robots" if kind == "robot" else kind)
    sub.mkdir(parents=True, exist_ok=True)
    name = f"case-{rng.randrange(10 ** 9)}{seed.suffix}"
    target = sub / name
    if seed.name == "rules.yaml":   # a full rules file is known by its name
        target = sub / name.removesuffix(".yaml") / "rules.yaml"
        target.parent.mkdir(exist_ok=True)
    text = seed.read_text(encoding="utf-8")
    if kind == "journal":
        out, how = mutate_journal(text, rng)
        target.write_bytes(out)
        return Case(kind, target, f"{seed.name}: {how}")
    if rng.random() < 0.65:
        data = yaml.safe_load(text)
        data = mutate_data(data, rng)
        out, how = _yaml_dump(data), "data"
    else:
        out, how = mutate_text(text, rng, True), "text"
    target.write_text(out, encoding="utf-8", errors="surrogatepass")
    return Case(kind, target, f"{seed.name}: {how}")


def mutate_journal(text: str, rng: random.Random) -> tuple[bytes, str]:
    from bottisota.play.journal_file import seal

    lines = text.splitlines()
    if rng.random() < 0.3:
        return mutate_text(text, rng, False).encode("utf-8", "surrogatepass"), "text"
    i = rng.randrange(len(lines))
    data = json.loads(lines[i])
    data.pop("digest", None)
    if i == 0 and rng.random() < 0.7:       # the header's static data
        part = rng.choice(("arena", "cards", "rules", "mods", "start", "players", "seed"))
        data[part] = mutate_data({"x": data.get(part)}, rng).get("x")
    else:
        data = mutate_data(data, rng)
    try:
        lines[i] = json.dumps(data, separators=(",", ":"))
    except (TypeError, ValueError):
        lines[i] = json.dumps(str(data))
    resealed = rng.random() < 0.5
    if resealed:
        prev, out = "", []
        for line in lines:
            try:
                d = json.loads(line)
                d.pop("digest", None)
                body = json.dumps(d, separators=(",", ":"))
                line, prev = seal(body, prev) if isinstance(d, dict) and d else (line, prev)
            except (ValueError, TypeError):
                pass
            out.append(line)
        lines = out
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"), \
        f"line {i + 1}, {'resealed' if resealed else 'digest kept'}"


# --- running a case ---------------------------------------------------------------------

@dataclass
class Result:
    case: Case
    outcome: str
    detail: str = ""
    seconds: float = 0.0
    peak_mb: float = 0.0

    @property
    def fault(self) -> bool:
        return self.outcome in FAULTS


def _cli(argv: list[str]) -> int:
    from bottisota.cli import main

    try:
        return main(argv)
    except SystemExit as done:
        return int(done.code or 0)


def accept(case: Case, out: Path) -> int:
    """The command's verdict on the file (exit code)."""
    p = str(case.path)
    if case.kind == "journal":
        return _cli(["replay", p])
    code = _cli(["check", "--kind", case.kind, p])
    if code == 0 and case.kind == "scenario":
        code = _cli(["scenario", "run", p])
        return 0 if code in (0, 1) else code       # 1: an expectation failed, not a fault
    return code


def play_short(arena=None, rules=None, cards=None, mods=None, personality=None,
               journal: Path | None = None) -> None:
    """A short robot game on these data (the bundled ones where not given), journaled;
    the journal must replay. Raises on any fault."""
    from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
    from bottisota.formats.robot_tables import find_personality
    from bottisota.play.journal import journal_to, load
    from bottisota.robot.match import play

    rules = rules or bundled_rules()
    base_cards, base_mods = load_catalogue()
    arena = arena or load_arena(ROOT / "arenas" / "duel.yaml", rules)
    personas = [personality or find_personality("aggressive"), find_personality("sniper")]
    record = play(arena, rules, cards or base_cards, mods if mods is not None else base_mods,
                  personas, seed=3, round_limit=3, time_limit=0.2, max_actions=PLAY_ACTIONS,
                  on_start=journal_to(journal))
    if record.errors:
        raise RuntimeError(f"the robot game failed: {record.errors[0]}")
    if record.refusals:
        raise RuntimeError(f"a robot's action was refused: {record.refusals[0]}")
    load(journal)


def playable(case: Case, out: Path) -> None:
    """Play what was accepted (raises on a fault)."""
    from bottisota.commands.options import rules_file_values
    from bottisota.formats.loading import (
        bundled_rules,
        cards_from_data,
        load_arena,
        mods_from_data,
    )
    from bottisota.formats.robot_tables import load_personality
    from bottisota.formats.yaml_source import load_yaml

    journal = out / "played.jsonl"
    kind, p = case.kind, case.path
    if kind == "arena":
        code = _cli(["render", str(p), "-o", str(out / "arena.png")])
        if code != 0:
            raise RuntimeError(f"render refused an accepted arena (exit {code})")
        play_short(arena=load_arena(p, bundled_rules()), journal=journal)
    elif kind == "card":
        data, marks = load_yaml(p)
        cards = {c.id: c for c in cards_from_data(data, str(p), marks)}
        play_short(cards=cards, journal=journal)
    elif kind == "mod":
        data, marks = load_yaml(p)
        mods = {m.id: m for m in mods_from_data(data, str(p), marks)}
        play_short(mods=mods, journal=journal)
    elif kind == "rules":
        # read as `--rules FILE` reads it: complete, or partial over the bundled rules
        # (a rules.yaml with keys dropped is a partial file, as `check` accepts it)
        play_short(rules=rules_file_values(p), journal=journal)
    elif kind == "robot":
        play_short(personality=load_personality(p), journal=journal)
    elif kind == "journal":
        from bottisota.engine.random_play import random_action
        from bottisota.play.journal import resume

        copy_path = out / "resumed.jsonl"
        shutil.copyfile(p, copy_path)
        game = resume(copy_path)
        rng = random.Random(1)
        for _ in range(3):
            if game.expected() == "over":
                break
            result = game.act(random_action(game, rng))
            if not result.ok:
                raise RuntimeError(f"a legal random action was refused: {result.refusal}")
        game.journal.close()
        if _cli(["replay", str(copy_path)]) != 0:
            raise RuntimeError("the resumed journal does not replay")


def _child(case: Case, out: Path, result_file: Path, limit_bytes: int) -> None:
    """In the forked child: limits, quiet output to files, the case, a verdict file."""
    resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))
    os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ["XDG_STATE_HOME"] = str(out / "state")
    os.environ["XDG_DATA_HOME"] = str(out / "data")
    for fd, name in ((1, "stdout"), (2, "stderr")):
        f = os.open(out / name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    verdict: dict[str, Any] = {}
    signal.alarm(CHECK_SECONDS)
    code = accept(case, out)
    verdict["exit"] = code
    if code == 0:
        signal.alarm(PLAY_SECONDS)
        try:
            playable(case, out)
            verdict["played"] = True
        except BaseException as err:         # noqa: BLE001 - every failure is a finding
            import traceback

            verdict["played"] = False
            verdict["why"] = "".join(traceback.format_exception_only(type(err), err))[-800:]
            verdict["where"] = traceback.format_exc()[-3000:]
    signal.alarm(0)
    result_file.write_text(json.dumps(verdict))


def run_case(case: Case, folder: Path) -> Result:
    """Run one case in a forked child and classify what happened."""
    out = Path(tempfile.mkdtemp(prefix="out-", dir=folder))
    result_file = out / "verdict.json"
    limit = _address_space() + 3 * ONE_GB
    inherited = _status_bytes("VmRSS:", 0)    # a forked child starts with this resident
    started = time.monotonic()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            _child(case, out, result_file, limit)
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(0)
    deadline = started + CHECK_SECONDS + PLAY_SECONDS + 30
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.01)
    seconds = time.monotonic() - started
    # the case's own memory: what the child held beyond what it was forked with (a
    # test process grown by earlier tests is not the case's doing)
    peak = max(0, usage.ru_maxrss * 1024 - inherited) / (1 << 20)
    stderr = (out / "stderr").read_text(errors="replace")
    stdout = (out / "stdout").read_text(errors="replace")
    res = Result(case, "", seconds=seconds, peak_mb=peak)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        res.outcome = "hang" if sig in (signal.SIGALRM, signal.SIGKILL) else "crash"
        res.detail = f"killed by {signal.Signals(sig).name}; {stderr[-300:]}"
    elif not result_file.exists():
        res.outcome, res.detail = "crash", f"no verdict; {stderr[-500:]}"
    else:
        verdict = json.loads(result_file.read_text())
        code = verdict["exit"]
        if "Traceback" in stderr or "Traceback" in stdout or code == 70:
            logs = sorted((out / "state").rglob("crash-*.log"))
            res.outcome = "traceback"
            res.detail = logs[0].read_text(errors="replace")[-1500:] if logs else stderr[-1500:]
        elif code == 2:
            lines = [line for line in stderr.splitlines() if line.strip()]
            res.outcome, res.detail = "refused", (lines[0][:200] if lines else "")
        elif code == 0 and verdict.get("played"):
            res.outcome = "playable"
        elif code == 0:
            res.outcome = "unplayable"
            res.detail = verdict.get("why", "") + verdict.get("where", "")[-1500:]
        else:
            res.outcome, res.detail = "crash", f"exit {code}; {stderr[-300:]}"
    if res.outcome in ("refused", "playable") and peak * (1 << 20) > ONE_GB:
        res.outcome = "over 1 GB"
    shutil.rmtree(out, ignore_errors=True)
    return res


def _address_space() -> int:
    return _status_bytes("VmSize:", 2 * ONE_GB)


def _status_bytes(field: str, otherwise: int) -> int:
    """A size from /proc/self/status (VmSize, VmRSS) in bytes, else `otherwise`."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return otherwise


# --- the command ------------------------------------------------------------------------

def warm_up() -> None:
    """Import what the cases use, once, before forking (children start warm)."""
    import bottisota.cli  # noqa: F401
    import bottisota.commands.check  # noqa: F401
    import bottisota.commands.replay  # noqa: F401
    import bottisota.commands.scenario  # noqa: F401
    import bottisota.robot.match  # noqa: F401
    import bottisota.view.render  # noqa: F401
    from bottisota.formats.loading import bundled_rules, load_catalogue

    bundled_rules()
    load_catalogue()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", type=int, default=100, help="mutants per kind (default 100)")
    p.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--show", type=int, default=3, help="faults to print per kind")
    p.add_argument("--keep", default=None, help="copy every faulty case into this folder")
    args = p.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in kinds:
        if k not in KINDS:
            p.error(f"unknown kind {k!r}; kinds: {', '.join(KINDS)}")
    warm_up()
    rng = random.Random(args.seed)
    table: dict[str, Counter] = defaultdict(Counter)
    faults: dict[str, list[Result]] = defaultdict(list)
    refusals_named: dict[str, int] = Counter()
    slowest: dict[str, float] = defaultdict(float)
    peak: dict[str, float] = defaultdict(float)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="bottisota-fuzz-") as tmp:
        folder = Path(tmp)
        for kind in kinds:
            for n in range(args.cases):
                case = make_case(kind, rng, folder / "cases", folder)
                res = run_case(case, folder)
                table[kind][res.outcome] += 1
                slowest[kind] = max(slowest[kind], res.seconds)
                peak[kind] = max(peak[kind], res.peak_mb)
                if res.outcome == "refused" and _names_place(res.detail):
                    refusals_named[kind] += 1
                if res.fault:
                    faults[kind].append(res)
                    if args.keep:
                        Path(args.keep).mkdir(parents=True, exist_ok=True)
                        shutil.copy(case.path, Path(args.keep) / f"{kind}-{case.path.name}")
                case.path.unlink(missing_ok=True)
                if case.path.name == "rules.yaml":
                    shutil.rmtree(case.path.parent, ignore_errors=True)
                print(f"\r{kind:9s} {n + 1}/{args.cases}", end="", file=sys.stderr)
            print(file=sys.stderr)
    head = ("kind", "cases", "refused", "(with line)", "playable", *FAULTS, "slowest s",
            "peak MB")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    total: Counter = Counter()
    for kind in kinds:
        c = table[kind]
        total.update(c)
        print(" | ".join(str(v) for v in (
            kind, sum(c.values()), c["refused"], refusals_named[kind], c["playable"],
            *(c[f] for f in FAULTS), f"{slowest[kind]:.1f}", f"{peak[kind]:.0f}")))
    print(" | ".join(str(v) for v in (
        "all", sum(total.values()), total["refused"], sum(refusals_named.values()),
        total["playable"], *(total[f] for f in FAULTS), "", "")))
    print(f"\n{sum(total.values())} cases in {time.monotonic() - started:.0f} s "
          f"(seed {args.seed})")
    for kind, found in faults.items():
        for res in found[:args.show]:
            print(f"\n--- {kind} {res.outcome}: {res.case.how}\n{res.detail.strip()[-1200:]}")
    return 1 if any(faults.values()) else 0


def _names_place(message: str) -> bool:
    """A refusal that names a line (file:line:...)."""
    parts = message.split(":")
    return len(parts) > 2 and parts[1].strip().isdigit() and int(parts[1]) > 0


if __name__ == "__main__":
    sys.exit(main())
