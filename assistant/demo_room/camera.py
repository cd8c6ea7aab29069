"""The demo room's game camera: a pinhole camera over the room floor.

World coordinates are room grid units: x = column, y = row (plate (r, c) at (c, r), a floor
tile is 0.5), z = height above the floor. :class:`Camera` looks at the floor from above:
pitch 0 looks straight down, larger pitches look more across the floor (the game allows
about 68 degrees from straight down), yaw turns the view about the vertical. The
floor-to-image map is then an exact homography (:meth:`Camera.homography`), and any 3D point
projects through :meth:`Camera.project`. The demo room draws its view through it; the lab's
synthetic rooms and walk-throughs (``lab/``) use the same camera, so the truth they record
is the view the demo shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Camera", "project_posed"]


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the floor plane z = 0.

    ``yaw_deg``: turns the view; at pitch 0 it is the room's rotation on screen (positive
    turns the room clockwise, as :class:`~assistant.demo_room.RoomParams`'s ``rotation_deg``).
    ``pitch_deg``: 0 = straight down, up to about 68 (the game's limit).
    ``spacing_px``: on-screen plate spacing at ``look_at`` (along the screen's x axis).
    ``look_at``: the floor point (grid units) in the middle of the view, shown at
    ``screen_centre`` (frame pixels; ``None`` = the frame's centre).
    ``fov_deg``: vertical field of view over the frame height; the camera's distance
    follows from it and the spacing.
    """

    yaw_deg: float = 0.0
    pitch_deg: float = 0.0
    spacing_px: float = 63.0
    look_at: tuple[float, float] = (1.0, 1.0)
    screen_centre: tuple[float, float] | None = None
    fov_deg: float = 50.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.pitch_deg <= 85.0:
            raise ValueError(f"pitch must be 0-85 degrees from straight down, not {self.pitch_deg}")
        if self.spacing_px <= 0 or not 5.0 <= self.fov_deg <= 120.0:
            raise ValueError("spacing must be positive and the field of view 5-120 degrees")

    # -- pose ------------------------------------------------------------------------------
    def focal(self, frame_size: tuple[int, int]) -> float:
        """Focal length in pixels for a frame (width, height)."""
        return (frame_size[1] / 2) / math.tan(math.radians(self.fov_deg) / 2)

    def distance(self, frame_size: tuple[int, int]) -> float:
        """Distance from the camera to the look-at point, in grid units."""
        return self.focal(frame_size) / self.spacing_px

    def centre(self, frame_size: tuple[int, int]) -> tuple[float, float]:
        if self.screen_centre is not None:
            return (float(self.screen_centre[0]), float(self.screen_centre[1]))
        return (frame_size[0] / 2, frame_size[1] / 2)

    def pose(self, frame_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(position, rotation, intrinsics)``: camera position (3,) in world units;
        rows of ``rotation`` are the camera's right, down and forward axes in world
        coordinates; ``intrinsics`` is the 3x3 pixel matrix."""
        yaw = math.radians(self.yaw_deg)
        pitch = math.radians(self.pitch_deg)
        right_h = np.array([math.cos(yaw), -math.sin(yaw)])  # screen right at pitch 0
        down_h = np.array([math.sin(yaw), math.cos(yaw)])  # screen down at pitch 0
        right = np.array([*right_h, 0.0])
        down = np.array([*(down_h * math.cos(pitch)), -math.sin(pitch)])
        forward = -np.array([*(down_h * math.sin(pitch)), math.cos(pitch)])
        dist = self.distance(frame_size)
        target = np.array([self.look_at[0], self.look_at[1], 0.0])
        position = target - forward * dist
        focal = self.focal(frame_size)
        cx, cy = self.centre(frame_size)
        intrinsics = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1]], np.float64)
        return position, np.stack([right, down, forward]), intrinsics

    def project(
        self, points: np.ndarray, frame_size: tuple[int, int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """World points (N, 3) -> ``(pixels (N, 2), depth (N,))``."""
        return project_posed(self.pose(frame_size), points)

    def homography(self, frame_size: tuple[int, int]) -> np.ndarray:
        """Floor (grid x, y at z = 0) -> image pixels, exact for this camera."""
        position, rotation, k = self.pose(frame_size)
        # camera coords of (x, y, 0) = rotation @ ((x, y, 0) - position): affine in x, y
        m = np.column_stack([rotation[:, 0], rotation[:, 1], -rotation @ position])
        h = k @ m
        return h / h[2, 2]

    def scale_at(self, point: tuple[float, float, float], frame_size: tuple[int, int]) -> float:
        """Pixels per world unit (across the view) at a 3D point."""
        _, depth = self.project(np.array([point]), frame_size)
        return self.focal(frame_size) / max(float(depth[0]), 1e-6)


def project_posed(pose: tuple[np.ndarray, np.ndarray, np.ndarray],
                  points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`Camera.project` through a pose computed once: a frame's figures project
    thousands of small faces, and the pose's trigonometry cost more than the projection."""
    position, rotation, k = pose
    cam = (np.asarray(points, np.float64).reshape(-1, 3) - position) @ rotation.T
    depth = cam[:, 2]
    safe = np.where(np.abs(depth) < 1e-9, 1e-9, depth)
    px = k[0, 0] * cam[:, 0] / safe + k[0, 2]
    py = k[1, 1] * cam[:, 1] / safe + k[1, 2]
    return np.stack([px, py], axis=1), depth

