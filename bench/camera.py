"""Bench: the camera over the table (issue 34), on synthetic webcam frames.

Run: python bench/camera.py [--quick] [--json]   (needs the extra bottisota[camera])

1. Milliseconds per 1080p frame to find and read 16 markers: the whole frame, and
   windows around where the referee expects each bot (first frame reported apart).
2. Accuracy: markers of 2 cm on figures 2, 5 and 6 cm tall, lens distortion, a tilted
   camera, sensor noise, uneven light and JPEG 80, at blur sigma 0.6, 1.0 and 1.5:
   how many are found, and position and facing error (median, p95, max).
CPU time of this process.
"""
from __future__ import annotations

import math
import time

import numpy as np
from common import bench_main, machine

from bottisota.vision.camera_model import overhead
from bottisota.vision.detect import readings
from bottisota.vision.synthetic import Scene, render, scattered

TABLE = (120.0, 90.0)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(math.ceil(p * len(s))) - 1)] if s else float("nan")


def collect(quick: bool) -> dict:
    model = overhead(TABLE, distortion=(-0.12, 0.03, 0, 0, 0), tilt=(2.0, -1.5))
    seeds = range(3 if quick else 10)
    out: dict = {"machine": machine(), "accuracy": {}, "ms_per_frame": {}}
    timing: dict[str, list[float]] = {"whole": [], "windows": []}
    first: dict[str, float] = {}
    for blur in (0.6, 1.0, 1.5):
        found = total = 0
        cm: list[float] = []
        deg: list[float] = []
        for seed in seeds:
            ms = scattered(seed)
            frame = render(model, Scene(TABLE, ms), blur=blur, noise=3.0, jpeg=80, light=0.3,
                           seed=seed)
            heights = {m.id: m.z for m in ms}
            for mode, expected in (("whole", None),
                                   ("windows", {m.id: (m.x, m.y, m.z) for m in ms})):
                c0 = time.process_time()
                got = readings(model, frame, heights, expected)
                took = (time.process_time() - c0) * 1e3
                first.setdefault(mode, took)
                timing[mode].append(took)
                if mode == "windows":
                    continue
                total += len(ms)
                found += len(got)
                for m in ms:
                    if m.id in got:
                        r = got[m.id]
                        cm.append(math.hypot(r.x - m.x, r.y - m.y))
                        deg.append(abs((r.facing - m.facing + 180) % 360 - 180))
        out["accuracy"][f"blur {blur}"] = {
            "found": f"{found}/{total}", "found_pct": round(100 * found / total, 1),
            "cm_median": round(float(np.median(cm)), 3) if cm else None,
            "cm_p95": round(pct(cm, 0.95), 3), "cm_max": round(max(cm), 3) if cm else None,
            "deg_median": round(float(np.median(deg)), 2) if deg else None,
            "deg_p95": round(pct(deg, 0.95), 2), "deg_max": round(max(deg), 2) if deg else None}
    for mode, times in timing.items():
        out["ms_per_frame"][mode] = {"first": round(first[mode], 1),
                                     "median": round(float(np.median(times)), 1),
                                     "p95": round(pct(times, 0.95), 1), "n": len(times)}
    return out


def report(data: dict) -> str:
    lines = [f"machine: {data['machine']}", "", "ms per 1080p frame, 16 markers (CPU):"]
    for mode, t in data["ms_per_frame"].items():
        lines.append(f"  {mode:8} first {t['first']:6.1f}  median {t['median']:6.1f}  "
                     f"p95 {t['p95']:6.1f}  (n {t['n']})")
    lines += ["", "accuracy (whole frame): found, cm median/p95/max, degrees median/p95/max"]
    for blur, a in data["accuracy"].items():
        lines.append(f"  {blur:9} {a['found']:>8} ({a['found_pct']:5.1f}%)  "
                     f"{a['cm_median']}/{a['cm_p95']}/{a['cm_max']} cm  "
                     f"{a['deg_median']}/{a['deg_p95']}/{a['deg_max']} deg")
    return "\n".join(lines)


if __name__ == "__main__":
    bench_main(__doc__, "3 seeds instead of 10", collect, report)
