"""The camera behind a view of the floor, and the views it gives pitched about the player.

A turn or a zoom of the game's camera moves the floor on screen by a motion of the floor
itself (a turn, a scale), which the follow fits from the diamonds alone. A pitch does not:
it tilts the floor's picture, a projective change that four diamonds cannot tell apart
from any other. But the camera is a pinhole with square pixels and no roll, and a pitch
turns it about its own horizontal axis while it keeps the player where it was on screen;
so the view after a pitch is the last view's camera turned by one angle about a point
over the player's floor spot (the game's focal point stands a little above the feet),
maybe zoomed a little. Three numbers, against the eight of a homography.

The camera is recovered from the last view's homography and the spot where the camera
keeps the player (:func:`floor_camera`): the spot lies on the vertical line through the
principal point, whatever height the focal point has, which fixes the one unknown the
homography leaves (its column on screen); the focal length and the principal point's row
follow from the floor's two axes being perpendicular and of one length.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["FloorCamera", "floor_camera", "focal_point"]

#: below this pitch (degrees from straight down) a view's homography hardly tells its
#: focal length: the floor's axes scarcely recede
MIN_PITCH_DEG = 12.0

_SCALE = 1000.0  # pixels, for a well-conditioned solve


@dataclass(frozen=True)
class FloorCamera:
    """A pinhole camera over the floor z = 0 (grid units): ``intrinsics`` (3x3, pixels),
    ``rotation`` (world to camera) and ``centre`` (3,), the camera's position."""

    intrinsics: np.ndarray
    rotation: np.ndarray
    centre: np.ndarray

    def homography(self) -> np.ndarray:
        """Floor (grid x, y) to pixels."""
        r = self.rotation
        h = self.intrinsics @ np.column_stack([r[:, 0], r[:, 1], -r @ self.centre])
        return h / h[2, 2] if abs(h[2, 2]) > 1e-12 else h

    @property
    def pitch_deg(self) -> float:
        """Degrees from straight down."""
        return math.degrees(math.acos(min(1.0, abs(float(self.rotation[2, 2])))))

    def depths(self, floor_points: np.ndarray) -> np.ndarray:
        """How far in front of the camera each floor point (N, 2) lies."""
        world = np.column_stack([floor_points, np.zeros(len(floor_points))])
        return (world - self.centre) @ self.rotation[2]

    def pitched(self, pivot: np.ndarray, angle: float, scale: float = 1.0) -> FloorCamera:
        """This camera turned by ``angle`` (radians) about its own horizontal axis through
        ``pivot`` (3,, world), which stays where it was on screen; ``scale`` moves the
        camera that much further from it (a zoom)."""
        c, s = math.cos(angle), math.sin(angle)
        turn = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
        rotation = turn @ self.rotation
        centre = pivot - scale * rotation.T @ (self.rotation @ (pivot - self.centre))
        return FloorCamera(self.intrinsics, rotation, centre)


def floor_camera(homography: np.ndarray, spot: tuple[float, float],
                 principal_row: float) -> FloorCamera | None:
    """The camera that shows the floor by ``homography`` (grid units to pixels) and keeps
    the player at ``spot`` (pixels), its principal point at ``principal_row`` (pixels)
    above or at the spot; None where the view tells no camera (nearly straight down, or
    no real focal length fits).

    Why the row is asked for: with no roll and the principal point's column known, the
    floor's axes being perpendicular and of one length are one condition on the focal
    length and that row, not two (a camera pitched further with a longer lens shows the
    same floor). At the game's focal point, over the feet, the row is the spot's when that
    point is on the floor (the synthetic rooms) and a little above it in the game."""
    sx, sy = float(spot[0]), float(spot[1])
    # pixels about the spot, in thousands: the principal point's column is then 0
    to_unit = np.array([[1 / _SCALE, 0.0, -sx / _SCALE], [0.0, 1 / _SCALE, -sy / _SCALE],
                        [0.0, 0.0, 1.0]])
    h = to_unit @ np.asarray(homography, np.float64)
    h = h / np.linalg.norm(h)
    (ax, bx, _), (ay, by, _), (az, bz, _) = h
    cy = (float(principal_row) - sy) / _SCALE
    # the image of the absolute conic, [[1, 0, 0], [0, 1, -cy], [0, -cy, w]]
    # (w = f^2 + cy^2), puts the floor's axes at right angles and of one length: two
    # equations in w, the better-conditioned of them weighs more (least squares)
    coefficients = np.array([az * bz, az * az - bz * bz])
    rest = np.array([-(ax * bx + ay * by) + cy * (ay * bz + az * by),
                     -(ax * ax + ay * ay - bx * bx - by * by) + 2 * cy * (ay * az - by * bz)])
    norm = float(coefficients @ coefficients)
    if norm < 1e-18:
        return None
    w = float(coefficients @ rest) / norm
    focal_squared = w - cy * cy
    if not np.isfinite(focal_squared) or focal_squared <= 0:
        return None
    focal = math.sqrt(focal_squared)
    intrinsics = np.linalg.inv(to_unit) @ np.array([[focal, 0.0, 0.0], [0.0, focal, cy],
                                                     [0.0, 0.0, 1.0]])
    m = np.linalg.inv(intrinsics) @ np.asarray(homography, np.float64)
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = scale * m[:, 0], scale * m[:, 1], scale * m[:, 2]
    if t[2] < 0:  # the floor lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    camera = FloorCamera(intrinsics, rotation, -rotation.T @ t)
    return camera if camera.pitch_deg >= MIN_PITCH_DEG else None


def focal_point(camera: FloorCamera, floor_point: np.ndarray) -> np.ndarray:
    """Where the camera's line of sight passes over ``floor_point`` (grid x, y): the
    point it turns about, over the player's feet (3,, world)."""
    x, y = float(floor_point[0]), float(floor_point[1])
    forward = camera.rotation[2]
    system = np.column_stack([forward, [0.0, 0.0, -1.0]])
    (_along, height), *_ = np.linalg.lstsq(system, np.array([x, y, 0.0]) - camera.centre,
                                           rcond=None)
    return np.array([x, y, float(height)])
