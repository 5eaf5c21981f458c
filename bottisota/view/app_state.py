"""The table view's controller's numbers: the panel's share, key steps, frame rate,
drag slack, zoom settling and the threat view's budget per frame. The controller
(`view.app.TableApp`) is composed of collaborators, each in its own module:
`view.windows` (window geometry, full screen, the projector, calibration),
`view.acting` (every call that changes the game, through the session), `view.frame`
(update and draw a frame, the panel) and `view.controls` (keys and mouse)."""

from __future__ import annotations

PANEL_SHARE = 0.27       # the side panel's share of the window's width
STEP_CM = 1.0            # one key press of forward/back/strafe
FINE_STEP_CM = 0.1       # with Shift
COARSE_STEP_CM = 5.0     # with Ctrl
FREE_TURN_DEG = 15.0     # walkers and hoverers: one key press of turning
FINE_TURN_DEG = 1.0      # with Shift
FPS = 60
FREE_TURNERS = ("walker", "hover")
DRAG_GRAB_SLACK_CM = 1.0
ZOOM_SETTLE_S = 0.25     # the arena is re-drawn this long after the last zoom step
THREAT_BUDGET_MS = 3.0     # the threat view computes this long per frame (issue: at most 4)
