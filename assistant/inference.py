"""The names other modules import from here, kept: the session's board history lives in
:mod:`assistant.session.history` (what a hidden cell shows, told by the frames before
it), what steps and walks change in :mod:`assistant.session.moves`, and the camera's
motion (quarter turns of the labels, pans, snaps) in :mod:`assistant.session.camera`.
"""

from __future__ import annotations

from assistant.session.camera import (
    CARDINAL_TOLERANCE_DEG,
    MAX_PAN,
    PAN_FRAME_SECONDS,
    off_cardinal_deg,
    pan_bound,
    quarter_turns_between,
    turn_board,
    turn_cell,
    turn_point,
    turn_side,
    turns_within_pan,
)
from assistant.session.history import (
    FRAME_SECONDS,
    GAME_TICK_SECONDS,
    MAX_STEPS_BETWEEN,
    RUN_SECONDS_PER_TILE,
    SECONDS_PER_STEP,
    STEP_SPACING_SECONDS,
    STILL_TOLERANCE,
    UNBOUNDED_STEPS,
    WALK_SLACK_TILES,
    BoardHistory,
    Inference,
)
from assistant.session.moves import (
    AWAY_TOLERANCE,
    ON_A_PLATE_RADIUS,
    STANDING_RADIUS,
    STEP_REACH,
    cell_at,
    common_presses,
)

__all__ = [
    "AWAY_TOLERANCE",
    "CARDINAL_TOLERANCE_DEG",
    "FRAME_SECONDS",
    "GAME_TICK_SECONDS",
    "MAX_PAN",
    "MAX_STEPS_BETWEEN",
    "ON_A_PLATE_RADIUS",
    "PAN_FRAME_SECONDS",
    "RUN_SECONDS_PER_TILE",
    "SECONDS_PER_STEP",
    "STANDING_RADIUS",
    "STEP_REACH",
    "STEP_SPACING_SECONDS",
    "STILL_TOLERANCE",
    "UNBOUNDED_STEPS",
    "WALK_SLACK_TILES",
    "BoardHistory",
    "Inference",
    "cell_at",
    "common_presses",
    "off_cardinal_deg",
    "pan_bound",
    "quarter_turns_between",
    "turn_board",
    "turn_cell",
    "turn_point",
    "turn_side",
    "turns_within_pan",
]
