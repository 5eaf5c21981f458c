"""A pre-measured target in words: the odds when it can be shot, else why not
("no sight: wall 'crate'", "out of range 34.2/30", "out of arc 158°")."""
from __future__ import annotations

from typing import Any


def target_words(t: Any, pm: Any) -> str:
    """The label under a target of the pre-measure `pm`."""
    if t.can_fire:
        mod = f"{t.modifier:+d}" if t.modifier else ""
        return f"{t.need}+{mod} {round(t.chance * 100)}%  {t.distance:.1f} cm"
    return why_not(t, pm)


def why_not(t: Any, pm: Any) -> str:
    if t.reason is not None:
        rule = getattr(t.reason, "rule", "")
        msg = getattr(t.reason, "message", str(t.reason))
        return f"{rule}: {msg}" if rule else str(msg)
    if t.fails == "arc":
        arc = f" (arc ±{pm.arc_half:g}°)" if getattr(pm, "arc_half", None) is not None else ""
        return f"out of arc {abs(t.off_nose):.0f}°{arc}"
    if t.fails == "range":
        return f"out of range {t.distance:.1f}/{pm.reach:g}"
    if t.sight_decides and not t.in_sight:
        blocker = t.blocker
        return f"no sight: {blocker}" if blocker else "no sight"
    return "cannot be shot"


def verdict(t: Any) -> str:
    """A word for the ring's shape: "clear", "arc", "range" or "sight"."""
    if t.can_fire:
        return "clear"
    if t.fails in ("arc", "range"):
        return t.fails
    return "sight"
