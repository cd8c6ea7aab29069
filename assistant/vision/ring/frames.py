"""Evidence on the picture about a placement of the ring: purple frames and an even floor.

What no look-alike lattice of gold blobs has is the plates themselves: each diamond sits
in a purple frame, more purple (or darker) than the floor between the plates, and that
floor shows one even brightness (a room's tiles, not an inventory's slots). This module
samples a placement's frames, middle and floor and says what they show; the search and
the follow weigh it. Sample points are in grid units about each place.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from assistant.vision.appearance import LUMA_BGR
from assistant.vision.geometry import GridGeometry, pixels_at
from assistant.vision.ring.shape import FIT, RING, RingFit


@dataclass(frozen=True)
class FrameParams:
    """When a placement's frames and floor bear it out. Measured on the drawn rooms
    (cameras straight down to 68 degrees, display scaling 100-150%, figures standing
    about) and the real screenshot's floor."""

    #: a frame's side is purple when it is this much purpler than the floor between the
    #: plates, in 8-bit levels (purpleness: min(blue, red) - green)
    purple_margin: float = 8.0
    #: plates that must show purple frames (or dark ones, below) for a ring on its
    #: diamonds; a player may cover one plate and merge another with his head
    min_purple_plates: int = 6
    #: JPEG smears colour at small scales: a frame this much darker than the floor, and
    #: not much less purple, counts too (an inventory's slots are no darker)
    darker_frame: float = 0.06
    #: floor points within this (of their median brightness) are one even floor
    even_floor: float = 0.15
    #: ... at all but this many points: team-mates stand there, and a small, steep view
    #: puts some points on the dark joints between tiles
    uneven_floor_points: int = 4
    #: ... or at as few as this many (the largest cluster) when bodies stand over half
    #: the floor points at a steep camera ...
    even_floor_points_beside_frames: int = 4
    #: ... and this many places show purple on two sides against the most purple quarter
    #: of what covers the floor (no textured background's lattice does)
    framed_plates_beside_bodies: int = 7
    #: the frame's band between the diamond (|u| + |v| = 0.165) and the octagon (0.28), in
    #: grid units
    frame_band: float = 0.115
    #: where the band is thinner than this many pixels across (the median plate, the
    #: thinnest way) its colour does not show: three pixels at 68 degrees and 125% display
    #: scaling showed none
    thin_frame_px: float = 3.0
    #: an exact ring over an even floor is taken without purple frames from this many
    #: diamonds when six places show frames on two sides (a steep camera squeezes the far
    #: and near sides to a pixel, which display scaling blurs away)
    members_past_seeing: int = 7
    #: a place shows the plain floor when this share of its points has the floor's
    #: brightness and its frame is purple on fewer than two sides
    floor_like_place: float = 0.8


FRAMES = FrameParams()


def _sample(bgr: np.ndarray, homography: np.ndarray, grid_points: np.ndarray) -> np.ndarray:
    pts = cv2.perspectiveTransform(grid_points.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return pixels_at(bgr, pts)


def _frame_points() -> np.ndarray:
    """Points on the purple frame near the diagonals, where neither the diamond's bevel
    nor overlay marks (outside radius 0.19) reach: 4 sides x 4 directions x 3 depths
    (|u| + |v| = 0.205, 0.225, 0.245), as the band is only a pixel or two wide when the
    plates are small. Flattened side-major, then direction, then depth."""
    share = np.array([0.31, 0.42, 0.58, 0.69])  # position along the side, of |u| + |v|
    depth = np.array([0.205, 0.225, 0.245])
    u = share[:, None] * depth[None, :]
    v = (1 - share[:, None]) * depth[None, :]
    quarter = np.stack([u, v], axis=-1)  # (directions, depths, 2)
    signs = np.array([(1, 1), (1, -1), (-1, 1), (-1, -1)], np.float64)
    return (quarter[None] * signs[:, None, None, :]).reshape(-1, 2)


_FRAME_POINTS = _frame_points()


# ... at every ring plate, plate-major (as _side_purpleness reads them)
_RING_FRAME_POINTS = (RING[:, None, :] + _FRAME_POINTS[None, :, :]).reshape(-1, 2)


# Floor tiles between the plates and in the middle of the ring.
_FLOOR_POINTS = np.array(
    [(0.5, 0), (1.5, 0), (0, 0.5), (2, 0.5), (0, 1.5), (2, 1.5), (0.5, 2), (1.5, 2),
     (1, 1), (0.8, 0.8), (1.2, 1.2)],
    np.float64,
)


# Around each floor point, four more a little way off along the grid's axes: a point can
# fall on the dark joint between two floor tiles (the real floor's, seen small or steep),
# which says nothing of whether the floor is even; the median of the five does not.
_FLOOR_PATCH = np.array([(0, 0), (0.07, 0), (-0.07, 0), (0, 0.07), (0, -0.07)], np.float64)


def _floor_samples(bgr: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """(floor points, 3): per floor point, the per-channel median of its patch."""
    points = (_FLOOR_POINTS[:, None, :] + _FLOOR_PATCH[None, :, :]).reshape(-1, 2)
    patches = _sample(bgr, homography, points).reshape(len(_FLOOR_POINTS), len(_FLOOR_PATCH), 3)
    return np.median(patches, axis=1)


def _purpleness(bgr_points: np.ndarray) -> np.ndarray:
    return np.minimum(bgr_points[:, 0], bgr_points[:, 2]) - bgr_points[:, 1]


def _side_purpleness(frame_bgr: np.ndarray) -> np.ndarray:
    """(8, 4 sides, 4 directions): the most purple of the three depths sampled."""
    return _purpleness(frame_bgr).reshape(8, 4, 4, 3).max(axis=3)


def count_purple_sides(bgr: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Per ring plate, how many sides of its frame are purpler than the floor between."""
    floor = float(np.median(_purpleness(_sample(bgr, homography, _FLOOR_POINTS))))
    return _sides_purpler_than(_side_purpleness(_sample(bgr, homography, _RING_FRAME_POINTS)),
                               floor)


def _sides_purpler_than(frames: np.ndarray, floor: float) -> np.ndarray:
    """Per plate, the sides (of :func:`_side_purpleness`) purpler than ``floor`` by
    :data:`FRAMES.purple_margin`."""
    return np.sum(np.median(frames, axis=2) - floor >= FRAMES.purple_margin, axis=1)


def frames_are_purple(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Do the diamonds sit in purple frames? Clean frames show it in the colour on (nearly)
    all four sides of each diamond. JPEG smears colour away at small scales, so a frame
    clearly darker than the floor around it, and not much less purple, counts too (the
    inventory's gold items fail this: their slots are no darker than between the slots)."""
    floor_bgr = _floor_samples(bgr, homography)
    floor_luma = floor_bgr @ LUMA_BGR
    even = _even_floor_points(floor_luma)
    frame_bgr = _sample(bgr, homography, _RING_FRAME_POINTS)
    frames = _side_purpleness(frame_bgr)
    if int(even.sum()) < len(_FLOOR_POINTS) - FRAMES.uneven_floor_points:
        # between real plates lies an even floor, not a textured background, unless
        # bodies stand on it: then only frames on nearly every plate will do, measured
        # against the most purple quarter of what covers the floor (a body's clothes
        # must not lower the bar)
        sides = _sides_beside_bodies(floor_bgr, frames)
        return sides is not None and _framed_enough(sides, FRAMES.framed_plates_beside_bodies)
    floor = float(np.median(_purpleness(floor_bgr)))
    if _framed_enough(_sides_purpler_than(frames, floor), FRAMES.min_purple_plates):
        return True
    frame_luma = (frame_bgr @ LUMA_BGR).reshape(8, -1).mean(axis=1)
    darker = frame_luma <= float(np.median(floor_luma)) * (1 - FRAMES.darker_frame)
    purple_enough = frames.reshape(8, -1).mean(axis=1) >= floor - 2 * FRAMES.purple_margin
    return int(np.sum(darker & purple_enough)) >= FRAMES.min_purple_plates


def _framed_enough(purple_sides: np.ndarray, plates: int) -> bool:
    """``plates`` plates show purple on three sides or more; or, as a steep camera
    squeezes the band on the far and near sides to a pixel (and display scaling blurs
    that pixel into the floor), on two sides, as long as all but two of them still show
    three."""
    return bool(int(np.sum(purple_sides >= 3)) >= plates
                or (int(np.sum(purple_sides >= 2)) >= plates
                    and int(np.sum(purple_sides >= 3)) >= plates - 2))


def frames_too_thin(homography: np.ndarray) -> bool:
    """Is the plates' frame band too thin in this picture to show its colour? At a steep
    camera and a small scale the far and near sides are a pixel or two deep, and a
    client stretched by display scaling blurs them into the floor and the diamond.

    The depth that shows is across the side on screen, not along the floor's axis: with
    the room's axes diagonal on screen a step across one side also runs along it, and a
    band that step's length deep (three pixels at 68°, 125% display scaling) is two and
    a half across."""
    depth = 0.5 * FRAMES.frame_band
    steps = np.array([(0.0, 0.0), (depth, 0.0), (0.0, depth), (-depth, 0.0), (0.0, -depth)])
    points = (steps[:, None, :] + RING[None, :, :]).reshape(-1, 1, 2)
    image = cv2.perspectiveTransform(points, homography).reshape(len(steps), len(RING), 2)
    moved = image[1:] - image[0]  # (steps, plates, 2)
    along_x, along_y = (moved[0] - moved[2]) / 2, (moved[1] - moved[3]) / 2
    # a side along one axis is as deep on screen as the other axis's step across it:
    # the parallelogram's area over the side's length
    area = np.abs(along_x[:, 0] * along_y[:, 1] - along_x[:, 1] * along_y[:, 0])
    across = area / np.maximum(np.hypot(*along_x.T), np.hypot(*along_y.T))
    return float(np.median(2 * across)) < FRAMES.thin_frame_px


def framed_past_seeing(bgr: np.ndarray, homography: np.ndarray, members: int) -> bool:
    """Could a lattice through ``members`` diamonds whose frames do not show as purple
    still be the ring (its fit is then held to :data:`FIT.exact_ring_fit`)? Over an even
    floor: six diamonds or more where the frames' band is too thin to show its colour,
    or seven or more where six places still show it on two sides (a steep camera squeezes
    the far and near sides to a pixel, which display scaling blurs away; left and right
    stay)."""
    # the band's thickness is the homography's alone: asked first, it spares sampling
    # the picture again for most lattices turned down here
    thin = members >= FIT.min_diamonds and frames_too_thin(homography)
    if not (thin or members >= FRAMES.members_past_seeing):
        return False
    if not floor_is_even(bgr, homography):
        return thin and members >= FRAMES.members_past_seeing \
            and _thin_frames_beside_bodies(bgr, homography)
    return thin or int(np.sum(count_purple_sides(bgr, homography) >= 2)) >= FRAMES.min_purple_plates


def _thin_frames_beside_bodies(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Where bodies stand on the floor between the plates and the band is too thin to
    show on the far and near sides: do the two sides that do show it (left and right)
    at :data:`FRAMES.framed_plates_beside_bodies` places, against the most purple quarter of
    what covers the floor, while the floor's own tiles still show as one even
    brightness at :data:`FRAMES.even_floor_points_beside_frames` points?

    Why: a session's first seconds with team-mates gathered in the ring at 64° and 150%
    display scaling show seven diamonds on an exact
    ring, purple on two sides of each, and were blank: the bodies made the floor
    uneven, and the band's squeezed sides kept it from three."""
    sides = _sides_beside_bodies(_floor_samples(bgr, homography),
                                 _side_purpleness(_sample(bgr, homography, _RING_FRAME_POINTS)))
    return sides is not None and int(np.sum(sides >= 2)) >= FRAMES.framed_plates_beside_bodies


def _sides_beside_bodies(floor_bgr: np.ndarray, frames: np.ndarray) -> np.ndarray | None:
    """Per plate, the sides of its frame (:func:`_side_purpleness`) purpler than the most
    purple quarter of what covers the floor (a body's clothes must not lower the bar);
    None unless the floor's own tiles still show one even brightness at
    :data:`FRAMES.even_floor_points_beside_frames` points."""
    if _largest_even_cluster(floor_bgr @ LUMA_BGR) < FRAMES.even_floor_points_beside_frames:
        return None
    return _sides_purpler_than(frames, float(np.percentile(_purpleness(floor_bgr), 75)))


def floor_is_even(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does the floor between the plates show one even brightness at all but a few of its
    points (a room's tiles, not the dark slots of the client's inventory)?"""
    even = _even_floor_points(_floor_samples(bgr, homography) @ LUMA_BGR)
    return int(even.sum()) >= len(_FLOOR_POINTS) - FRAMES.uneven_floor_points


def _even_floor_points(luma: np.ndarray) -> np.ndarray:
    """Per floor point: within :data:`FRAMES.even_floor` of the points' median brightness?"""
    return np.abs(luma - np.median(luma)) <= FRAMES.even_floor * max(float(np.median(luma)), 1.0)


def _largest_even_cluster(luma: np.ndarray) -> int:
    """The most floor points whose brightness is within :data:`FRAMES.even_floor` of one of
    them: the floor's own tiles, whatever stands on the others."""
    tolerance = FRAMES.even_floor * np.maximum(luma, 1.0)
    return int(np.max(np.sum(np.abs(luma[None, :] - luma[:, None]) <= tolerance[:, None],
                             axis=1)))


def plate_in_the_middle(frame: np.ndarray, geometry: GridGeometry) -> bool:
    """Does ``geometry``'s middle sit in a plate's purple frame? The ToA ring has no
    plate there: a ring placed one plate off has one (:func:`middle_is_framed`)."""
    return middle_is_framed(frame[..., :3], geometry.homography)


def middle_is_framed(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does the middle of the lattice sit in a purple frame like a plate's? (A figure
    standing there does not: its outline is not a diamond's frame on three sides.)"""
    def sides(points: np.ndarray) -> np.ndarray:  # per point, per side: frame purpleness
        frame = _purpleness(_sample(bgr, homography, (points[:, None] + _FRAME_POINTS)
                                    .reshape(-1, 2)))
        return np.median(frame.reshape(len(points), 4, 4, 3).max(axis=3), axis=2)

    floor = float(np.median(_purpleness(_sample(bgr, homography, _FLOOR_POINTS))))
    ring_sides = sides(RING)
    # grey or dark clothes are more "purple" than a tan floor: compare with the plates'
    # own frames, half-way between the floor and them
    level = max(floor + FRAMES.purple_margin, 0.5 * (floor + float(np.median(ring_sides))))
    # ... and a ninth plate shows its frame on as many sides as the ring's plates do, less
    # one: where they show all four, a body's grey torso over the middle tile shows two
    # (at 62° the player on the near middle plate reaches up over the middle tile)
    ring_framed = int(np.median(np.sum(ring_sides >= level, axis=1)))
    needed = max(2, ring_framed - 1)
    return int(np.sum(sides(np.array([[1.0, 1.0]]))[0] >= level)) >= needed


def framed_plates(bgr: np.ndarray, fit: RingFit) -> int:
    """How many of the ring's places show a purple frame on three sides or more."""
    return int(np.sum(framed_places(bgr, fit.geometry)))


def framed_places(bgr: np.ndarray, geometry: GridGeometry) -> np.ndarray:
    """Per ring place (row-major, the middle left out): does it show a purple frame on
    three sides or more, as a plate does and the plain floor between plates does not?"""
    return count_purple_sides(bgr, geometry.homography) >= 3


def framed_about(bgr: np.ndarray, fit: RingFit, places: int) -> bool:
    """Whether ``places`` of the ring's places show a purple frame on three sides or more,
    or all eight on two sides and one fewer on three (a steep camera squeezes the far and
    near sides of a frame to a pixel)."""
    sides = count_purple_sides(bgr, fit.geometry.homography)
    return bool(np.sum(sides >= 3) >= places
                or (np.all(sides >= 2) and np.sum(sides >= 3) >= places - 1))


_PLACE_POINTS = np.concatenate([
    np.array([(0.0, 0.0), (0.08, 0.0), (-0.08, 0.0), (0.0, 0.08), (0.0, -0.08)]),
    0.22 * np.stack([np.cos(np.linspace(0, 2 * np.pi, 12, endpoint=False)),
                     np.sin(np.linspace(0, 2 * np.pi, 12, endpoint=False))], 1)])


def plain_floor_at(bgr: np.ndarray, homography: np.ndarray, places: list[int]) -> bool:
    """Does one of ``places`` (ring indices) inside the picture show the plain floor:
    the floor's brightness all over its disc and no purple frame about it? A covered
    plate shows what covers it; the floor between plates shows only floor."""
    if not places:
        return False
    height, width = bgr.shape[:2]
    floor_luma = float(np.median(_floor_samples(bgr, homography) @ LUMA_BGR))
    sides = count_purple_sides(bgr, homography)
    for place in places:
        points = cv2.perspectiveTransform(
            (RING[place] + _PLACE_POINTS).reshape(-1, 1, 2), homography).reshape(-1, 2)
        if not np.all((points >= 0) & (points <= (width - 1, height - 1))):
            continue
        luma = pixels_at(bgr, points) @ LUMA_BGR
        like = np.abs(luma - floor_luma) <= FRAMES.even_floor * max(floor_luma, 1.0)
        if like.mean() >= FRAMES.floor_like_place and sides[place] < 2:
            return True
    return False
