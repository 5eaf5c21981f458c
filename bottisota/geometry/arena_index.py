"""Compiled arena geometry and the queries the rules need.

CONTRACT (fixed; implementation owned by the geometry work). Coordinates are
cm with y up (D1); facings are degrees, 0 = +y, clockwise (D2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from bottisota.model.arena import Arena, Feature


@dataclass(frozen=True, slots=True)
class Contact:
    """First contact of a disc swept along a segment."""

    t: float                      # 0..1 along the segment where the disc first touches
    distance: float               # cm from the segment start to the disc centre at contact
    point: tuple[float, float]    # the disc centre at contact
    feature: "Feature"            # what it touched (wall or door)


@dataclass(frozen=True, slots=True)
class EdgeCrossing:
    """The centre of a moving bot crossing a change of floor height."""

    t: float
    distance: float
    point: tuple[float, float]
    z_before: float
    z_after: float
    joined: bool                  # True where stairs/ramp/escalator join the two floors
    feature: "Feature | None"     # the platform (or sloped feature) whose edge it is

    @property
    def drop(self) -> float:
        return self.z_before - self.z_after


@dataclass(frozen=True, slots=True)
class Disc:
    """A bot (or marker) as the geometry sees it: an obstacle for sight and movement."""

    id: str
    x: float
    y: float
    r: float
    z: float = 0.0                # floor height under it
    height: float = 2.0           # figure height


@dataclass(frozen=True, slots=True)
class TrackPoint:
    """One crossing on a fire track (CTF 2187's projected fire track)."""

    distance: float               # cm from the shooter along the line
    line_z: float                 # height of the sight line there
    obstacle_z: float             # top of the obstacle (or floor) crossed there
    what: str                     # label of the feature or bot id


@dataclass(frozen=True, slots=True)
class Sight:
    """Answer of a sight-line check (R22, R38, D15)."""

    clear: bool
    blocker: str | None = None                    # label of the first blocking feature or bot id
    point: tuple[float, float] | None = None      # where the line first meets it
    track: tuple[TrackPoint, ...] = field(default=())


class ArenaIndex:
    """Shapely geometry of one arena, prepared once, with one STRtree."""

    def __init__(self, arena: "Arena") -> None:
        raise NotImplementedError

    def floor_z(self, x: float, y: float) -> float:
        """Floor height at a point: 0, a platform's height, or the linear slope of
        stairs/ramps/escalators along `up`; later features win where they overlap."""
        raise NotImplementedError

    def features_at(self, x: float, y: float, types: Iterable[str] | None = None) -> list["Feature"]:
        """Features whose shape contains the point (D17), in arena order."""
        raise NotImplementedError

    def inside_table(self, x: float, y: float, r: float) -> bool:
        """The whole disc lies on the table."""
        raise NotImplementedError

    def disc_blocked(self, x: float, y: float, r: float, doors: bool = True) -> "Feature | None":
        """The first wall (or, with doors=True, door) the disc overlaps beyond the
        contact tolerance, else None."""
        raise NotImplementedError

    def first_contact(self, a: Sequence[float], b: Sequence[float], r: float,
                      doors: bool = True, tolerance: float = 0.0) -> Contact | None:
        """First contact of a disc of radius r swept from a to b with walls (and doors),
        exact to 0.01 cm; None when the sweep is clear. A disc already touching at a
        is not a contact unless the sweep moves deeper into the obstacle."""
        raise NotImplementedError

    def disc_contacts(self, x: float, y: float, r: float, types: Iterable[str]) -> list["Feature"]:
        """Features of the given types whose shape the disc touches (D4)."""
        raise NotImplementedError

    def edge_crossings(self, a: Sequence[float], b: Sequence[float]) -> list[EdgeCrossing]:
        """Every change of floor height the centre meets from a to b, in order, that is
        more than the step height (D16) — with whether stairs/ramps/escalators join it."""
        raise NotImplementedError

    def first_entry(self, a: Sequence[float], b: Sequence[float],
                    types: Iterable[str]) -> tuple[float, tuple[float, float], "Feature"] | None:
        """Where the centre moving from a to b first enters a feature of these types
        (pits, teleporters, belts...): (distance, point, feature); None if never."""
        raise NotImplementedError

    def sight(self, a: Sequence[float], az: float, b: Sequence[float], bz: float,
              discs: Sequence[Disc] = (), open_doors: Iterable[str | int] = (),
              ignore: Iterable[str] = ()) -> Sight:
        """Sight from (a, az) to (b, bz) (D15): walls, closed doors, raised floors and
        discs (other bots) must all be lower than the line where it passes over them.
        Returns the first blocker and point, and the fire track."""
        raise NotImplementedError

    def sight_many(self, pairs: Sequence[tuple[Sequence[float], float, Sequence[float], float]],
                   discs: Sequence[Disc] = (), open_doors: Iterable[str | int] = ()) -> list[bool]:
        """Vectorised clear/blocked for many lines at once (bench: 992 pairs < 2 ms)."""
        raise NotImplementedError
