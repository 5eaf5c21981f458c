"""The arena: table size and features (formats.md), with compiled geometry.

Loading (`bottisota.formats.loading.load_arena`) validates the YAML and builds
`Feature` values; `Arena` then compiles them once into Shapely geometry with
a spatial index (`bottisota.geometry.arena_index.ArenaIndex`), reached as
`state.index`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any  # Any: an arena file's `x-…` keys, kept as read

from shapely.geometry.base import BaseGeometry

from bottisota.core.i18n import N_

FEATURE_TYPES: tuple[str, ...] = (
    "wall", "door", "platform", "stairs", "ramp", "escalator", "lift", "pit",
    "conveyor", "service", "teleporter", "goal",
)
# how messages name a feature, per type: by its id, or by its place in the file (English
# in the journal; catalogued so the view says "taso 'mezzanine'" in Finnish)
LABELS: dict[str, tuple[str, str]] = {
    "wall": (N_("wall '{id}'"), N_("wall #{index}")),
    "door": (N_("door '{id}'"), N_("door #{index}")),
    "platform": (N_("platform '{id}'"), N_("platform #{index}")),
    "stairs": (N_("stairs '{id}'"), N_("stairs #{index}")),
    "ramp": (N_("ramp '{id}'"), N_("ramp #{index}")),
    "escalator": (N_("escalator '{id}'"), N_("escalator #{index}")),
    "lift": (N_("lift '{id}'"), N_("lift #{index}")),
    "pit": (N_("pit '{id}'"), N_("pit #{index}")),
    "conveyor": (N_("conveyor '{id}'"), N_("conveyor #{index}")),
    "service": (N_("service '{id}'"), N_("service #{index}")),
    "teleporter": (N_("teleporter '{id}'"), N_("teleporter #{index}")),
    "goal": (N_("goal '{id}'"), N_("goal #{index}")),
}
FLOOR_TYPES: frozenset[str] = frozenset({"platform", "stairs", "ramp", "escalator"})
SLOPED_TYPES: frozenset[str] = frozenset({"stairs", "ramp", "escalator"})


@dataclass(frozen=True, slots=True, eq=False)
class Feature:
    """One feature of an arena, its shape already a Shapely polygon.

    `index` is its position in the arena's `features` list (later ones win
    where floors overlap). Keys not used by a type are None.
    """

    index: int
    type: str
    shape: BaseGeometry                 # a Polygon, in cm, y up
    id: str | None = None
    height: float | None = None         # wall top z (default from the loader), platform z
    from_z: float | None = None         # stairs / ramp / escalator: z at the low end
    to_z: float | None = None           # ... and at the high end
    up: float | None = None             # facing (D2) in which the floor rises
    speed: float | None = None          # conveyor / escalator carry, cm
    carries: str = "up"                 # escalator: "up" or "down"
    top: float | None = None            # lift: z of the landing it serves
    points: int | None = None           # goal
    respawn: tuple[tuple[float, float], ...] = ()   # goal
    path: tuple[tuple[float, float], ...] = ()      # conveyor centre line
    width: float | None = None          # conveyor width
    line: int = 0                       # line in the source file, for messages
    drawn: BaseGeometry | None = None   # a wall cut by doors: its shape as the file drew it

    @property
    def label(self) -> str:
        """How messages name it: `stairs 'east-stairs'` or `wall #3`."""
        by_id, by_place = LABELS[self.type]        # the loader accepts no other type
        return by_id.format(id=self.id) if self.id else by_place.format(index=self.index)


@dataclass(eq=False)
class Arena:
    """A loaded arena. Build it with `load_arena` (validated) or directly in tests."""

    name: str
    size: tuple[float, float]
    features: tuple[Feature, ...] = ()
    source: str = "<inline>"
    extras: dict[str, Any] = field(default_factory=dict)   # a file's `x-…` keys, kept as read

    def by_type(self, kind: str) -> tuple[Feature, ...]:
        return tuple(f for f in self.features if f.type == kind)

    def by_id(self, fid: str) -> Feature | None:
        for f in self.features:
            if f.id == fid:
                return f
        return None
