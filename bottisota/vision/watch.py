"""Check mode: after each committed action the camera waits for a still table (hands
away), reads every bot's marker in several frames, takes the median, and names each
miniature standing more than 0.5 cm or 5 degrees from where the referee has it.

A frame is still when it differs from the one before by little (hands over the
table move); the readings of still frames only are used.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from bottisota.vision.camera_model import CameraModel
from bottisota.vision.detect import Reading, readings

DRIFT_CM = 0.5
DRIFT_DEG = 5.0
STILL_FRAMES = 5                # still frames read for one median
STILL_LEVEL = 0.0005            # share of (shrunk) pixels that may change in a still frame
CHANGED_GREY = 10.0             # grey levels a shrunk pixel changes by when something moves


@dataclass(frozen=True)
class Pose:
    """Where a bot stands on the table and where it faces."""

    x: float
    y: float
    facing: float


@dataclass(frozen=True)
class Drift:
    """A miniature that stands elsewhere than the referee has it: put it back here."""

    bot: str
    expected: Pose
    seen: Pose

    @property
    def distance(self) -> float:
        return math.hypot(self.seen.x - self.expected.x, self.seen.y - self.expected.y)

    @property
    def turn(self) -> float:
        return angle_between(self.seen.facing, self.expected.facing)


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two facings, degrees."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def median_pose(poses: list[Reading]) -> Pose:
    """The median of several readings of one marker (facings about their first)."""
    first = poses[0].facing
    turns = [(p.facing - first + 180.0) % 360.0 - 180.0 for p in poses]
    return Pose(statistics.median(p.x for p in poses), statistics.median(p.y for p in poses),
                (first + statistics.median(turns)) % 360.0)


def still_frames(frames: Iterable[np.ndarray], level: float = STILL_LEVEL
                 ) -> Iterator[np.ndarray]:
    """The frames taken while nothing moves over the table (each compared with the one
    before it)."""
    before: np.ndarray | None = None
    for frame in frames:
        # compared shrunk 8 times (area means): the sensor's noise averages out, a hand
        # does not
        small = cv2.resize(frame, (max(1, frame.shape[1] // 8), max(1, frame.shape[0] // 8)),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        if before is not None and small.shape == before.shape:
            if float(np.mean(np.abs(small - before) > CHANGED_GREY)) <= level:
                yield frame
        before = small


@dataclass
class TableWatch:
    """The camera's view of the bots: the model, each bot's marker id and the height of
    its marker (floor + figure), and where the referee has each bot."""

    model: CameraModel
    markers: dict[str, int]                          # bot id -> marker id
    heights: dict[str, float] = field(default_factory=dict)
    side: float = 2.0                                # the markers' side, cm

    def settle(self, frames: Iterable[np.ndarray], expected: dict[str, Pose],
               count: int = STILL_FRAMES) -> dict[str, Pose]:
        """Each bot's median pose over `count` still frames, searched around where it
        should be (and, for bots not found there, in the whole frame)."""
        ids = {m: b for b, m in self.markers.items()}
        heights = {m: self.heights.get(b, 2.0) for b, m in self.markers.items()}
        near = {self.markers[b]: (p.x, p.y, heights[self.markers[b]])
                for b, p in expected.items() if b in self.markers}
        seen: dict[str, list[Reading]] = {}
        for n, frame in enumerate(still_frames(frames)):
            found = readings(self.model, frame, heights, near, self.side)
            missing = [m for m in near if m not in found]
            if missing:
                found.update({m: r for m, r in readings(self.model, frame, heights).items()
                              if m in missing})
            for marker_id, reading in found.items():
                seen.setdefault(ids[marker_id], []).append(reading)
            if n + 1 >= count:
                break
        return {bot: median_pose(rs) for bot, rs in seen.items()}

    @staticmethod
    def drifts(expected: dict[str, Pose], seen: dict[str, Pose]) -> list[Drift]:
        """Every bot seen more than DRIFT_CM or DRIFT_DEG from where the referee has it."""
        out = []
        for bot, want in expected.items():
            got = seen.get(bot)
            if got is None:
                continue
            drift = Drift(bot, want, got)
            if drift.distance > DRIFT_CM or drift.turn > DRIFT_DEG:
                out.append(drift)
        return out
