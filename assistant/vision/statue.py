"""Which side of the plates the room's statue stands on.

Why: before the player has stood on a plate, nothing in the plates tells where the player
is, and a route drawn from the wrong side of the room can cross a plate on its first leg.
The room has one fixed landmark beside the plates: a purple statue with a yellow beam in
the middle of one wall, a plate spacing beyond the middle plate of that side (the real
screenshot ``room_topdown.png`` shows it in the top wall, with the room open on the
opposite side). Its side orients the room whatever the camera's turn, so the way in can
be placed on the screen (:func:`assistant.route_overlay.entrance_opposite`).

The test is colour at known places: the gold of the beam (brighter and more saturated
than the locator's band for the plates) in a small area beyond the middle plate of each
side, with some of the statue's purple beside it. One side must hold the gold clearly
and no other nearly as much, or the answer is "cannot tell" (None): a team-mate in gold,
the assistant's own marks in a gold colour or a side out of the frame never make a guess.
"""

from __future__ import annotations

import cv2
import numpy as np

from assistant.vision.geometry import GridGeometry

__all__ = ["STATUE_SIDES", "gold_shares", "purple_shares", "statue_side"]

#: The four sides, as the outward direction (dx, dy) in grid units from the middle plate
#: of a 3×3 ring (x = column, y = row): top, bottom, left, right.
STATUE_SIDES: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))

#: The area looked at beyond a side's middle plate: from ``_NEAR`` to ``_FAR`` plate
#: spacings out (clear of the plate's frame, which ends at 0.3) and ``_ACROSS`` either side.
#: The statue and beam of the real screenshot lie 0.55 to 1.4 spacings out, 0.2 across.
_NEAR, _FAR, _ACROSS = 0.55, 1.3, 0.2
_STEPS_OUT, _STEPS_ACROSS = 9, 5
#: The beam's gold (OpenCV HSV; on the real screenshot hue 20-24, saturation 135-226,
#: value 146-250): brighter and more saturated than the locator's band, which also
#: takes the game's dark brown panels.
_GOLD_LOW, _GOLD_HIGH = (12, 130, 90), (34, 255, 255)
#: A side holds the statue when this share of its area is gold (the real screenshot:
#: 0.2) but not more than ``_MAX_GOLD`` (a beam is thin; an area all gold is an item, a
#: panel or a mark) ...
_MIN_GOLD, _MAX_GOLD = 0.08, 0.6
#: ... and every other side seen holds less than this share of that.
_OTHERS_AT_MOST = 0.35
#: The statue's purple (OpenCV HSV; on the real screenshot hue 129, saturation 85, value
#: 92-122; the room's blue-grey walls are hue 110-111, a plate's frame about 150) ...
_PURPLE_LOW, _PURPLE_HIGH = (118, 45, 50), (150, 255, 255)
#: ... of which a side holding the statue shows at least this share (3 of the area's 45
#: points). Gold alone is not the statue: a team-mate in gold or orange standing beyond
#: another side read as it (a walk-through frame: 0.33 of the area gold, no purple, the
#: true side under the chat panel), and the history then took the other quarter turn of
#: the camera. Measured on 2,352 readings of walk-through frames (cameras anywhere and
#: steep): the side holding the statue shows a median 0.24,
#: under this in 15 of 1,902 right sightings; the 6 wrong sightings 0.044 at most.
_MIN_PURPLE = 0.06
#: A side counts as seen when this share of its area is in the frame.
_MIN_IN_FRAME = 0.5


def _area_offsets() -> np.ndarray:
    """Points (out, across) of one side's area, in plate spacings."""
    out = np.linspace(_NEAR, _FAR, _STEPS_OUT)
    across = np.linspace(-_ACROSS, _ACROSS, _STEPS_ACROSS)
    o, a = np.meshgrid(out, across)
    return np.stack([o.ravel(), a.ravel()], axis=1)


_AREA = _area_offsets()


def gold_shares(frame: np.ndarray, geometry: GridGeometry) -> list[float | None]:
    """The share of gold in each side's area (:data:`STATUE_SIDES` order), None for a
    side mostly outside the frame."""
    return _colour_shares(frame, geometry, _GOLD_LOW, _GOLD_HIGH)


def purple_shares(frame: np.ndarray, geometry: GridGeometry) -> list[float | None]:
    """The share of the statue's purple in each side's area, as :func:`gold_shares`."""
    return _colour_shares(frame, geometry, _PURPLE_LOW, _PURPLE_HIGH)


def _colour_shares(frame: np.ndarray, geometry: GridGeometry, low: tuple[int, int, int],
                   high: tuple[int, int, int]) -> list[float | None]:
    """The share of each side's area within an HSV range (None: mostly outside the frame)."""
    if geometry.rows != 3 or geometry.cols != 3:
        return [None] * len(STATUE_SIDES)
    height, width = frame.shape[:2]
    # every side's area at once: grid points, the middle plate of a side being
    # (1 + dx, 1 + dy), "out" along (dx, dy) and "across" along its perpendicular
    sides = np.array(STATUE_SIDES, np.float64)[:, None, :]  # (4, 1, 2)
    out, across = _AREA[None, :, :1], _AREA[None, :, 1:]
    normal = sides[..., ::-1] * (-1.0, 1.0)  # (dx, dy) -> (-dy, dx)
    grid = 1 + sides + out * sides + across * normal  # (4, points, 2)
    at = np.rint(geometry.to_image(grid.reshape(-1, 2))).astype(np.int64)
    inside = (at[:, 0] >= 0) & (at[:, 0] < width) & (at[:, 1] >= 0) & (at[:, 1] < height)
    matched = np.zeros(len(at), bool)
    if inside.any():
        pixels = frame[at[inside, 1], at[inside, 0], :3].reshape(-1, 1, 3)
        hsv = cv2.cvtColor(np.ascontiguousarray(pixels, dtype=np.uint8), cv2.COLOR_BGR2HSV)
        matched[inside] = cv2.inRange(hsv, low, high).ravel() > 0
    shares: list[float | None] = []
    for side_inside, side_matched in zip(inside.reshape(len(STATUE_SIDES), -1),
                                         matched.reshape(len(STATUE_SIDES), -1), strict=True):
        seen = int(side_inside.sum())
        shares.append(None if side_inside.mean() < _MIN_IN_FRAME
                      else float(side_matched.sum()) / seen)
    return shares


def statue_side(frame: np.ndarray, geometry: GridGeometry | None, *,
                all_sides: bool = False,
                hidden: tuple[tuple[int, int], ...] = ()) -> tuple[int, int] | None:
    """The side (:data:`STATUE_SIDES`, in the labels of ``geometry``) the statue stands
    on in ``frame`` (BGR or BGRA), or None when no side clearly holds it. ``all_sides``:
    only when all four areas are in the frame, so the statue's own side is among those
    compared (a side out of the frame cannot outshine a team-mate in gold elsewhere).

    ``hidden``: plates (row, col) someone stands on. A side beyond the ring on screen
    (outward is up the screen) whose middle plate is one of them is never the answer: at
    a low camera a standing body rises on screen over the area beyond the plate, and a
    gold cape there looks like the beam (a walk-through frame at 64 degrees: 0.53 of the
    area gold on the wrong side). It is still compared (a body in another colour there
    leaves the statue's side clear), and a body on another side rises over the plates,
    not over the area beyond them."""
    if geometry is None:
        return None
    shares = gold_shares(frame, geometry)
    if all_sides and any(share is None for share in shares):
        return None
    seen = [(share, side) for share, side in zip(shares, STATUE_SIDES, strict=True)
            if share is not None]
    if not seen:
        return None
    best, side = max(seen)
    if (1 + side[1], 1 + side[0]) in hidden and _faces_up_the_screen(geometry, side):
        return None
    if not _MIN_GOLD <= best <= _MAX_GOLD:
        return None
    if any(other > _OTHERS_AT_MOST * best for other, s in seen if s != side):
        return None
    purple = purple_shares(frame, geometry)[STATUE_SIDES.index(side)]
    if purple is None or purple < _MIN_PURPLE:
        return None
    return side


def _faces_up_the_screen(geometry: GridGeometry, side: tuple[int, int]) -> bool:
    """Whether the way out of the ring across ``side`` runs up the screen (within 60
    degrees of straight up): the way a standing body rises (the game's camera never rolls)."""
    dx, dy = side
    middle, beyond = geometry.to_image(np.array([[1.0 + dx, 1.0 + dy],
                                                 [1.0 + 2 * dx, 1.0 + 2 * dy]], np.float64))
    out_x, out_y = beyond - middle
    return bool(-out_y >= 0.5 * np.hypot(out_x, out_y))
