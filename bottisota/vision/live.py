"""The camera read live while the table plays (`play --camera`): a worker thread takes
frames from the source, waits out hands over the table, reads every bot's marker in
still frames and hands the view a reading (the median of several still frames, and
the drifts from where the referee had each bot) made against the latest expectation
the view gave it. The table's frame loop never waits for the camera: it gives its
expectation (`expect`) and takes what readings are ready (`take`).

A webcam's readings are the latest only (an old one is dropped); a recorded source (a
folder of frames, a video) is read in step with the view: a reading waits until the
view has taken the one before, so none is skipped, and the source's last frame stays
on the table (read again under each new expectation), as a camera would keep seeing it.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from bottisota.core.i18n import _
from bottisota.engine.game import Game
from bottisota.vision.camera_model import CameraModel
from bottisota.vision.detect import Reading, readings
from bottisota.vision.frames import FrameError
from bottisota.vision.markers import assign
from bottisota.vision.move_input import PlannedFromCamera, plan
from bottisota.vision.watch import (
    CHANGED_GREY,
    STILL_FRAMES,
    STILL_LEVEL,
    Drift,
    Pose,
    TableWatch,
    median_pose,
)

WEBCAM_RATE = 10.0          # frames a second a webcam's frames are read at (the rest dropped)


class PoseLike(Protocol):
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def facing(self) -> float: ...


@dataclass(frozen=True)
class Expectation:
    """Where the referee has each bot on the table (version: the view's count of its
    changes), its marker's id and its marker's height (floor + figure)."""

    version: int
    poses: dict[str, Pose]
    markers: dict[str, int]
    heights: dict[str, float]


@dataclass(frozen=True)
class TableReading:
    """One reading: the median pose of each bot seen over `frames` still frames, the
    bots not seen, and each bot seen off its place (made against `version`)."""

    version: int
    seen: dict[str, Pose]
    drifts: list[Drift]
    missing: list[str]
    frames: int
    ms_per_frame: float                     # detection time of this reading's frames


@dataclass
class _Buffer:
    version: int = -1
    found: dict[str, list[Reading]] = field(default_factory=dict)
    frames: int = 0
    ms: float = 0.0

    def clear(self, version: int) -> None:
        self.version, self.found, self.frames, self.ms = version, {}, 0, 0.0


class LiveCamera:
    """The worker (see the module doc). `frames` is the source's iterator; `recorded`
    a folder or a video (read in step with the view)."""

    def __init__(self, model: CameraModel, frames: Iterator[np.ndarray], *, side: float = 2.0,
                 recorded: bool = False, still_frames: int = STILL_FRAMES) -> None:
        self.model = model
        self.frames = frames
        self.side = side
        self.recorded = recorded
        self.still_frames = still_frames
        self.error: str | None = None        # the source failed (said once by the view)
        self.ended = False                   # a recorded source gave its last frame
        self.frames_read = 0
        self._expectation: Expectation | None = None
        self._ready: list[TableReading] = []
        self._lock = threading.Condition()
        self._stop = False
        self._held: np.ndarray | None = None
        self._held_version = -1              # the expectation the held frame was read for
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> LiveCamera:
        self._thread.start()
        return self

    # --- the view's side (never waits) ----------------------------------------------------
    def expect(self, expectation: Expectation) -> None:
        with self._lock:
            self._expectation = expectation
            self._lock.notify_all()

    def expect_poses(self, version: int, poses: dict[str, tuple[float, float, float]],
                     markers: dict[str, int], heights: dict[str, float]) -> None:
        """`expect` from plain values (the view's side does not import this package)."""
        self.expect(Expectation(version, {b: Pose(*p) for b, p in poses.items()}, markers,
                                heights))

    @staticmethod
    def markers_for(bots: list[str]) -> dict[str, int]:
        """Each bot's marker id, in the order the bots were placed (`markers.assign`)."""
        return assign(bots)

    def take(self) -> list[TableReading]:
        """The readings made since the last call, oldest first."""
        with self._lock:
            out, self._ready = self._ready, []
            self._lock.notify_all()
        return out

    @property
    def idle(self) -> bool:
        """A recorded source has ended and its last frame was read for the latest
        expectation, and that reading was taken (a headless run may stop)."""
        with self._lock:
            exp = self._expectation
            return (self.error is not None or (
                self.ended and not self._ready and exp is not None
                and self._held_version == exp.version))

    @staticmethod
    def plan_move(game: Game, bot_id: str, end: PoseLike) -> PlannedFromCamera:
        """The move that takes `bot_id` to where its miniature is seen (`move_input`)."""
        return plan(game, bot_id, Pose(end.x, end.y, end.facing))

    def close(self) -> None:
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=2.0)

    # --- the worker -----------------------------------------------------------------------
    def _next_frame(self) -> np.ndarray | None:
        """The source's next frame; a recorded source's last frame again (once per new
        expectation, as many times as a reading needs); None: nothing to read now."""
        if not self.ended:
            try:
                frame = next(self.frames)
            except StopIteration:
                self.ended = True
            except (FrameError, cv2.error, OSError) as err:
                self.error = str(err) or _("the camera stopped giving frames")
                return None
            else:
                self.frames_read += 1
                if self.recorded:
                    self._held = frame
                return frame
        return self._held

    def _run(self) -> None:
        buffer = _Buffer()
        before: np.ndarray | None = None
        last = 0.0
        while True:
            with self._lock:
                while not self._stop and (self._expectation is None or (
                        self.recorded and self._ready)
                        or (self.ended and self._expectation.version == self._held_version)):
                    self._lock.wait(0.2)
                if self._stop or self.error is not None:
                    return
                exp = self._expectation
            assert exp is not None
            if self.ended:
                if self._held is None:
                    self.error = _("the camera's source gave no frames")
                    return
            frame = self._next_frame()
            if frame is None:
                if self.error is not None:
                    return
                continue
            if not self.recorded:
                now = time.monotonic()
                if now - last < 1.0 / WEBCAM_RATE:
                    continue                    # a webcam's frame between two read ones
                last = now
            small = cv2.resize(frame, (max(1, frame.shape[1] // 8), max(1, frame.shape[0] // 8)),
                               interpolation=cv2.INTER_AREA).astype(np.float32)
            still = (before is not None and small.shape == before.shape
                     and float(np.mean(np.abs(small - before) > CHANGED_GREY)) <= STILL_LEVEL)
            before = small
            if not still or buffer.version != exp.version:
                buffer.clear(exp.version)
                if not still:
                    continue
            started = time.perf_counter()
            self._read(frame, exp, buffer)
            buffer.ms += (time.perf_counter() - started) * 1000.0
            buffer.frames += 1
            if buffer.frames >= self.still_frames:
                self._post(exp, buffer)
                if self.ended:
                    self._held_version = exp.version
                buffer.clear(exp.version)

    def _read(self, frame: np.ndarray, exp: Expectation, buffer: _Buffer) -> None:
        ids = {m: b for b, m in exp.markers.items()}
        heights = {exp.markers[b]: h for b, h in exp.heights.items() if b in exp.markers}
        near = {exp.markers[b]: (p.x, p.y, heights[exp.markers[b]])
                for b, p in exp.poses.items() if b in exp.markers}
        found = readings(self.model, frame, heights, near, self.side)
        if len(found) < len(near):           # a miniature moved away: the whole frame
            whole = readings(self.model, frame, heights)
            found.update({m: r for m, r in whole.items() if m not in found})
        for marker_id, reading in found.items():
            buffer.found.setdefault(ids[marker_id], []).append(reading)

    def _post(self, exp: Expectation, buffer: _Buffer) -> None:
        seen = {bot: median_pose(rs) for bot, rs in buffer.found.items()
                if len(rs) * 2 > buffer.frames}      # seen in most of the still frames
        reading = TableReading(exp.version, seen, TableWatch.drifts(exp.poses, seen),
                               sorted(b for b in exp.poses if b not in seen), buffer.frames,
                               buffer.ms / max(1, buffer.frames))
        with self._lock:
            if self.recorded or not self._ready:
                self._ready.append(reading)
            else:
                self._ready[-1] = reading          # a webcam: the latest only
            self._lock.notify_all()
