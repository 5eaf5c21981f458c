"""Builders for the geometry tests: features and arenas made directly in code."""
from __future__ import annotations

from typing import Any

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature


def feature(index: int, kind: str, **keys: Any) -> Feature:
    """A feature from formats.md-style keys: rect/circle/polygon/path(+width), and
    height, from, to, up, top, id..."""
    shape_keys = {k: keys.pop(k) for k in ("rect", "circle", "polygon", "path", "rotate")
                  if k in keys}
    if "path" in shape_keys:
        shape_keys["width"] = keys["width"]
    shape = shapes.shape_from_dict(shape_keys)
    if "from" in keys:
        keys["from_z"] = keys.pop("from")
    if "to" in keys:
        keys["to_z"] = keys.pop("to")
    if "path" in shape_keys:
        keys["path"] = tuple(tuple(p) for p in shape_keys["path"])
    return Feature(index=index, type=kind, shape=shape, **keys)


def arena(size: tuple[float, float], *specs: tuple[str, dict]) -> Arena:
    """An arena from (type, keys) pairs, in order."""
    feats = tuple(feature(i, kind, **dict(keys)) for i, (kind, keys) in enumerate(specs))
    return Arena(name="test", size=size, features=feats)


def test_builder_keeps_order_and_keys():
    a = arena((50, 40), ("wall", {"rect": [1, 2, 3, 4], "height": 5}),
              ("stairs", {"rect": [10, 10, 4, 4], "from": 0, "to": 2, "up": 90}))
    assert [f.type for f in a.features] == ["wall", "stairs"]
    assert a.features[0].shape.bounds == (1.0, 2.0, 4.0, 6.0)
    assert (a.features[1].from_z, a.features[1].to_z, a.features[1].up) == (0, 2, 90)
