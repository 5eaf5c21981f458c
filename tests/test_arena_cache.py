"""Issue 32: what an arena's maps cost to build is kept on disk, keyed by the arena's
digest, the house rules, the mover and the code (geometry.build_cache, through
formats.parsed_cache.cached_data): a second process and every `simulate` worker read
the robots' navigation bases instead of working them out. The value read is the value
built; another arena, other rules or other code build afresh; a damaged entry is built
again silently; a cache folder that cannot be written only costs time."""
from __future__ import annotations

import io
import os
import pickle
import subprocess
import sys
import textwrap
import zlib
from fractions import Fraction

import numpy as np
import pytest

from bottisota.formats import parsed_cache
from bottisota.formats.loading import arena_from_dict, bundled_rules, load_arena
from bottisota.geometry.build_cache import arena_digest
from bottisota.robot import navigation
from bottisota.robot.simulate import arena_path

ARENA = {"name": "cache test", "size": [120, 90], "features": [
    {"type": "wall", "id": "w1", "rect": [30, 10, 4, 60], "height": 10},
    {"type": "wall", "id": "w2", "rect": [70, 30, 4, 60], "height": 10},
    {"type": "platform", "id": "p1", "rect": [90, 5, 25, 20], "height": 4},
    {"type": "ramp", "id": "r1", "rect": [80, 5, 10, 20], "from": 0, "to": 4, "up": 90},
    {"type": "pit", "id": "pit1", "circle": [50, 75, 5]},
]}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "bottisota"


@pytest.fixture
def builds(monkeypatch) -> list[tuple[str, float]]:
    """Each navigation base worked out (not read from the disk): its kind and radius."""
    count: list[tuple[str, float]] = []
    real = navigation._work

    def counted(arena, rules, kind, radius):
        count.append((kind, radius))
        return real(arena, rules, kind, radius)

    monkeypatch.setattr(navigation, "_work", counted)
    return count


def arena(data=None):
    """A new arena object each time (no map of an earlier one kept in memory)."""
    return arena_from_dict(data or ARENA, "cache-test.yaml", rules=bundled_rules())


def grid(a, rules=None, locomotion="wheels", radius=2.5, lift_cost=3.0):
    return navigation.nav_grid(a, rules or bundled_rules(), locomotion, radius, lift_cost)


def entries(cache):
    return sorted(cache.glob("nav-base-*.pickle"))


def same_grid(a: navigation.NavGrid, b: navigation.NavGrid) -> None:
    assert (a.kind, a.radius, a.nx, a.ny, a.lifts) == (b.kind, b.radius, b.nx, b.ny, b.lifts)
    for name in ("xs", "ys", "z", "ok", "hop_start", "hop_to", "hop_cost"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    for x, y in zip(a.reversed_hops, b.reversed_hops, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    assert a.walls.equals_exact(b.walls, tolerance=0.0)
    assert a.bad.equals_exact(b.bad, tolerance=0.0)
    free = np.flatnonzero(a.ok)
    for target in free[:: max(len(free) // 5, 1)].tolist():
        assert np.array_equal(a.field(target), b.field(target))        # distances
    assert a.waypoint((5.0, 5.0), (110.0, 80.0), 40.0) == \
        b.waypoint((5.0, 5.0), (110.0, 80.0), 40.0)


@pytest.mark.parametrize("locomotion", ["wheels", "walker", "flier"])
def test_the_grid_read_from_the_disk_is_the_grid_built(cache, builds, locomotion):  # issue 32
    built = grid(arena(), locomotion=locomotion)
    assert len(builds) == 1 and len(entries(cache)) == 1
    read = grid(arena(), locomotion=locomotion)           # another arena object, same arena
    assert len(builds) == 1                               # read, not worked out
    same_grid(built, read)


def test_the_bundled_warehouse_grids_read_equal_those_built(cache, builds):  # issue 32
    rules = bundled_rules()
    path = arena_path("warehouse")
    built = grid(load_arena(path, rules), rules, "walker", 3.0)
    read = grid(load_arena(path, rules), rules, "walker", 3.0)
    assert len(builds) == 1
    same_grid(built, read)


def _run(code: str, cache_home, cwd) -> str:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


COUNTING = """
    import os
    from bottisota.robot import navigation
    real = navigation._work
    def counted(*args):
        with open(os.environ["BUILDS_LOG"], "a") as fh:
            fh.write(f"{os.getpid()}\\n")
        return real(*args)
    navigation._work = counted
"""


def test_a_second_process_reads_the_bases_instead_of_building_them(tmp_path,
                                                                   monkeypatch):  # issue 32
    log = tmp_path / "builds.log"
    monkeypatch.setenv("BUILDS_LOG", str(log))
    code = COUNTING + """
    from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue
    from bottisota.robot.simulate import arena_path
    rules = bundled_rules()
    cards, _ = load_catalogue()
    navigation.prepare(load_arena(arena_path("warehouse"), rules), rules, cards.values())
    print("done")
    """
    _run(code, tmp_path / "cache", tmp_path)
    first = log.read_text().split()
    assert len(first) >= 3                       # a base per kind and radius
    _run(code, tmp_path / "cache", tmp_path)
    assert log.read_text().split() == first      # the second process built none


def test_forked_simulate_workers_build_no_base(tmp_path, monkeypatch):  # issue 32
    log = tmp_path / "builds.log"
    monkeypatch.setenv("BUILDS_LOG", str(log))
    code = COUNTING + """
    from bottisota.robot import simulate
    simulate._can_fork = lambda: True
    records = simulate.run("warehouse", ["aggressive", "sniper"], games=4, jobs=2,
                           round_limit=3)
    print(len(records), os.getpid())
    """
    games, parent = _run(code, tmp_path / "cache", tmp_path).split()
    assert games == "4"
    built = log.read_text().split()
    assert built and set(built) == {parent}      # only the parent, before the fork
    games, parent = _run(code, tmp_path / "cache", tmp_path).split()
    assert log.read_text().split() == built      # and the next run read them


def test_fresh_simulate_workers_read_the_bases_the_parent_wrote(tmp_path,
                                                                 monkeypatch):  # issue 32
    """Workers started afresh (no fork: forkserver or spawn) read what the parent wrote
    to the disk before starting them: the builds are counted in every interpreter (a
    sitecustomize module on the path patches the builder in each one)."""
    log = tmp_path / "builds.log"
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(textwrap.dedent(COUNTING))
    code = """
    import os
    from bottisota.robot import simulate
    simulate._can_fork = lambda: False
    records = simulate.run("warehouse", ["aggressive", "sniper"], games=4, jobs=2,
                           round_limit=2)
    print(len(records), os.getpid())
    """
    monkeypatch.setenv("BUILDS_LOG", str(log))
    path = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(hooks)] + ([path] if path else [])))
    games, parent = _run(code, tmp_path / "cache", tmp_path).split()
    assert games == "4"
    built = log.read_text().split()
    assert built and set(built) == {parent}          # the parent built them, no worker


def test_another_arena_gives_another_entry(cache, builds):  # issue 32
    grid(arena())
    moved = {**ARENA, "features": [{**ARENA["features"][0], "rect": [30.001, 10, 4, 60]},
                                   *ARENA["features"][1:]]}
    assert arena_digest(arena(moved)) != arena_digest(arena())
    assert arena_digest(arena()) == arena_digest(arena())
    other = grid(arena(moved))
    assert len(builds) == 2 and len(entries(cache)) == 2
    assert not other.walls.equals_exact(grid(arena()).walls, tolerance=0.0)
    assert len(builds) == 2                               # both read from now on
    taller = {**ARENA, "features": [{**ARENA["features"][0], "height": 8},
                                    *ARENA["features"][1:]]}
    grid(arena(taller))                                   # a field that is not a shape
    assert len(builds) == 3


def test_other_house_rules_give_another_entry(cache, builds):  # issue 32
    rules = bundled_rules()
    grid(arena(), rules)
    grid(arena(), rules.overridden({"step_height": rules.step_height + 1.0}))
    grid(arena(), rules.overridden({"contact_tolerance": rules.contact_tolerance * 2}))
    assert len(builds) == 3 and len(entries(cache)) == 3
    grid(arena(), rules.overridden({"step_height": rules.step_height + 1.0}))
    assert len(builds) == 3


def test_another_kind_or_radius_gives_another_entry(cache, builds):  # issue 32
    grid(arena(), radius=2.5)
    grid(arena(), radius=3.0)
    grid(arena(), locomotion="walker")
    assert len(builds) == 3 and len(entries(cache)) == 3


def test_other_code_gives_another_entry(cache, builds, tmp_path, monkeypatch):  # issue 32
    module = tmp_path / "module.py"
    module.write_text("x = 1\n")
    monkeypatch.setattr(navigation, "NAV_CODE", (*navigation.NAV_CODE, str(module)))
    grid(arena())
    grid(arena())
    assert len(builds) == 1
    module.write_text("x = 12\n")                         # the module edited
    grid(arena())
    assert len(builds) == 2
    stamp = parsed_cache.program_stamp()
    monkeypatch.setattr(parsed_cache, "program_stamp", lambda: ("another",) + stamp[1:])
    grid(arena())                                         # another program
    assert len(builds) == 3


def _key_and_value(entry) -> tuple[bytes, bytes]:
    """An entry's key part (as written) and its value's pickle (after the CRC)."""
    data = entry.read_bytes()
    stream = io.BytesIO(data)
    parsed_cache._PlainUnpickler(stream).load()
    return data[:stream.tell()], data[stream.tell() + parsed_cache.CHECK_BYTES:]


def _entry(key: bytes, value: object) -> bytes:
    """An entry with this key part holding `value`, its CRC right (only the check of
    the value read can refuse it)."""
    body = pickle.dumps(value)
    return key + zlib.crc32(body).to_bytes(parsed_cache.CHECK_BYTES, "big") + body


def _value_of_another_class(entry):
    key, _ = _key_and_value(entry)
    return _entry(key, {"ok": np.zeros(3, dtype=bool)})     # the key matches


def _worked_of_another_size(entry):
    key, body = _key_and_value(entry)
    worked = pickle.loads(body)
    worked.ok = worked.ok[:-1]
    return _entry(key, worked)


def _one_byte_flipped(entry):
    """A byte of the stored value changed in place (the disk, or another program)."""
    data = bytearray(entry.read_bytes())
    data[-100] ^= 0x01
    return bytes(data)


@pytest.mark.parametrize("damage", [
    lambda e: e.read_bytes()[: len(e.read_bytes()) // 2],                # cut short
    lambda e: e.read_bytes()[:-3],
    lambda e: bytes(np.random.default_rng(5).integers(0, 256, 4000, dtype=np.uint8)),
    lambda e: pickle.dumps(Fraction(1, 3)),                              # a foreign pickle
    lambda e: b"",
    _value_of_another_class,
    _worked_of_another_size,
    _one_byte_flipped,
], ids=["half", "end", "random", "foreign", "empty", "other-class", "other-size", "flipped"])
def test_a_damaged_entry_is_built_again_silently(cache, builds, damage):  # issue 32
    built = grid(arena())
    [entry] = entries(cache)
    entry.write_bytes(damage(entry))
    again = grid(arena())
    assert len(builds) == 2                               # built again, no error
    same_grid(built, again)
    grid(arena())
    assert len(builds) == 2                               # and written again whole


def test_a_cache_folder_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch,
                                                              builds):  # issue 32
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    first = grid(arena())
    second = grid(arena())
    assert len(builds) == 2                               # no cache: each one built
    same_grid(first, second)


def test_a_cache_folder_left_read_only_costs_only_time(tmp_path, monkeypatch,
                                                       builds):  # issue 32
    monkeypatch.setattr(parsed_cache, "_write", lambda *a: None)    # every write refused
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    grid(arena())
    grid(arena())
    assert len(builds) == 2


# --- the arena layer's first drawing (view) -------------------------------------------

@pytest.fixture
def draws(monkeypatch) -> list[int]:
    """Each arena layer drawn (not read from the disk)."""
    import bottisota.view.arena_layer as arena_layer

    count: list[int] = []
    real = arena_layer.arena_steps

    def counted(*args, **kwargs):
        count.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(arena_layer, "arena_steps", counted)
    return count


def layer_pixels(a, size=(640, 480), grid=True, rules=None, zoom=1.0, fit=None):
    import pygame

    from bottisota.view.arena_layer import ArenaLayer
    from bottisota.view.camera import Camera

    pygame.font.init()
    layer = ArenaLayer(a, grid=grid, rules=rules)
    cam = Camera.fit(a.size, fit or size)
    if zoom != 1.0:
        cam = cam.zoomed(zoom, (size[0] // 2, size[1] // 2))
    surface, corner = layer.surface(cam, size)
    assert layer.rebuilds == 1 and layer.serial == 1
    return pygame.image.tobytes(surface, "RGB"), surface.get_size(), corner


def test_the_arena_layer_read_from_the_disk_is_the_layer_drawn(cache, draws):  # issue 32
    drawn = layer_pixels(arena())
    assert len(draws) == 1 and len(list(cache.glob("arena-layer-*.pickle"))) == 1
    read = layer_pixels(arena())                          # another arena object, same arena
    assert len(draws) == 1                                # read, not drawn
    assert read == drawn


def test_the_warehouse_layer_read_is_the_layer_drawn_without_a_cache(
        tmp_path, monkeypatch, draws):  # issue 32
    rules = bundled_rules()
    path = arena_path("warehouse")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    plain = layer_pixels(load_arena(path, rules), (900, 700), rules=rules)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    layer_pixels(load_arena(path, rules), (900, 700), rules=rules)
    read = layer_pixels(load_arena(path, rules), (900, 700), rules=rules)
    assert len(draws) == 2 and read == plain


def test_another_view_or_arena_gives_another_layer(cache, draws):  # issue 32
    layer_pixels(arena())
    layer_pixels(arena(), size=(800, 480), fit=(640, 480))   # another window, same camera
    layer_pixels(arena(), zoom=1.5)                       # another camera
    layer_pixels(arena(), grid=False)                     # no grid
    rules = bundled_rules()
    layer_pixels(arena(), rules=rules.overridden({"step_height": rules.step_height + 2}))
    moved = {**ARENA, "features": [{**ARENA["features"][0], "rect": [31, 10, 4, 60]},
                                   *ARENA["features"][1:]]}
    layer_pixels(arena(moved))
    assert len(draws) == 6 and len(list(cache.glob("arena-layer-*.pickle"))) == 6


@pytest.mark.parametrize("damage", [
    lambda e: e.read_bytes()[:-5],
    lambda e: pickle.dumps(Fraction(1, 3)),
    lambda e: _value_of_another_class(e),
    lambda e: _layer_bytes_replaced(e, b"not zlib data"),
    lambda e: _layer_bytes_replaced(e, __import__("zlib").compress(b"\x00" * 30)),
], ids=["end", "foreign", "other-class", "not-zlib", "other-size"])
def test_a_damaged_layer_entry_is_drawn_again_silently(cache, draws, damage):  # issue 32
    drawn = layer_pixels(arena())
    [entry] = cache.glob("arena-layer-*.pickle")
    entry.write_bytes(damage(entry))
    assert layer_pixels(arena()) == drawn
    assert len(draws) == 2
    assert layer_pixels(arena()) == drawn
    assert len(draws) == 2                                # written again whole


def _layer_bytes_replaced(entry, value: bytes) -> bytes:
    key, _ = _key_and_value(entry)
    return _entry(key, value)


def test_a_layer_without_a_writable_cache_is_drawn_each_time(tmp_path, monkeypatch,
                                                             draws):  # issue 32
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert layer_pixels(arena()) == layer_pixels(arena())
    assert len(draws) == 2


# --- the walls grown by a radius (the swept-disc first test) ----------------------------

@pytest.fixture
def grown_builds(monkeypatch) -> list[float]:
    """Each union of the walls grown by a reach that was built (not read)."""
    from bottisota.geometry import arena_index

    count: list[float] = []
    real = arena_index.cached_build

    def counted(kind, arena, rules, params, code, build, check):
        def counted_build():
            count.append(params[0])
            return build()
        return real(kind, arena, rules, params, code, counted_build, check)

    monkeypatch.setattr(arena_index, "cached_build", counted)
    return count


def grown(a, reach=1.45):
    from bottisota.geometry.compiled import compile_arena

    index = compile_arena(a, bundled_rules())
    [walls] = index._sweep_filters(reach, False, ())
    return index, walls


def test_the_grown_walls_read_are_those_built(cache, grown_builds):  # issue 32
    import shapely

    _, built = grown(arena())
    assert grown_builds == [1.45] and len(list(cache.glob("walls-grown-*.pickle"))) == 1
    index, read = grown(arena())
    assert grown_builds == [1.45]                         # read, not built
    assert read.equals_exact(built, tolerance=0.0) and shapely.is_prepared(read)
    grown(arena(), reach=2.45)                            # another reach: another entry
    assert grown_builds == [1.45, 2.45]
    grown(arena({**ARENA, "size": [121, 90]}))            # another arena
    assert grown_builds == [1.45, 2.45, 1.45]
    assert index.first_contact((10.0, 40.0), (60.0, 40.0), 1.0) is not None   # in use


@pytest.mark.parametrize("damage", [
    lambda e: e.read_bytes()[:-4],
    _value_of_another_class,
], ids=["end", "other-class"])
def test_a_damaged_grown_walls_entry_is_built_again(cache, grown_builds, damage):  # issue 32
    _, built = grown(arena())
    [entry] = cache.glob("walls-grown-*.pickle")
    entry.write_bytes(damage(entry))
    _, again = grown(arena())
    assert len(grown_builds) == 2 and again.equals_exact(built, tolerance=0.0)
