"""Built ahead (issue 32): what the first wall contact and the first sight line would
build is built at load (`ArenaIndex.build_ahead`, on a thread of its own in `play`);
the first contact then builds nothing more, and every answer is the one an arena
compiled afresh gives."""
from __future__ import annotations

import threading

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature
from bottisota.engine.movement.geometry import wall_collision, wall_reaches
from bottisota.formats.loading import bundled_rules
from bottisota.geometry.compiled import compile_arena

FEATURES = (Feature(0, "wall", shapes.rect(40, 0, 2, 40), height=4.0),
            Feature(1, "door", shapes.rect(40, 40, 2, 20), height=4.0),
            Feature(2, "wall", shapes.rect(40, 60, 2, 40), height=4.0),
            Feature(3, "platform", shapes.rect(70, 45, 10, 10), height=2.0))
MOVES = [((10.0, 10.0), (90.0, 12.0)), ((10.0, 80.0), (90.0, 70.0)), ((20.0, 50.0), (80.0, 50.0)),
         ((60.0, 5.0), (60.0, 95.0))]


def arena(name: str) -> Arena:
    return Arena(name, (100.0, 100.0), FEATURES)


def test_the_first_contact_builds_nothing_more_and_answers_the_same():
    rules = bundled_rules()
    ahead = compile_arena(arena("ahead"), rules)
    worker = threading.Thread(target=ahead.build_ahead,
                              args=(wall_reaches(rules, [1.5, 2.0, 2.5]),))
    worker.start()
    worker.join()
    built = set(ahead._cache)
    fresh = compile_arena(arena("fresh"), rules)
    for r in (1.5, 2.0, 2.5):
        for a, b in MOVES:
            assert wall_collision(ahead, a, b, r, rules.contact_tolerance) == \
                wall_collision(fresh, a, b, r, rules.contact_tolerance)
    assert {k for k in ahead._cache if k[0] in ("filters", "walls")} == \
        {k for k in built if k[0] in ("filters", "walls")}
    line = ((5.0, 30.0), 3.0, (95.0, 30.0), 1.0)
    assert ahead.sight(*line).clear == fresh.sight(*line).clear
