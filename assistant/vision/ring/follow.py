"""Following the ring from the last view: its candidate placements decided on the picture.

After the camera moved, the ring is looked for where the last view's floor, moved, puts
it (:mod:`~assistant.vision.ring.motions`, :mod:`~assistant.vision.ring.pitched`), from
fewer diamonds than a fresh search needs; a placement is refitted to this frame's
diamonds when enough of them show, and checked on the picture. Also here: whether a
ring a search located agrees with the last view moved (a fourth plate may then be
hidden).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from assistant.vision.geometry import GridGeometry
from assistant.vision.ring.blobs import BLOBS, gold_blobs
from assistant.vision.ring.frames import (
    count_purple_sides,
    floor_is_even,
    frames_too_thin,
    middle_is_framed,
    plain_floor_at,
)
from assistant.vision.ring.motions import (
    MOTION,
    MiddleCheck,
    shifted_ring,
    turned_ring,
    zoomed_ring,
)
from assistant.vision.ring.pitched import pitched_ring
from assistant.vision.ring.shape import (
    DIAMOND_AREA,
    FIT,
    RING,
    Blobs,
    RingFit,
    fit_homography,
    labelled_fit,
    roll_skew,
    same_places,
    top_row_spacing,
    usual_size,
)
from assistant.vision.trace import note


@dataclass(frozen=True)
class FollowParams:
    """When a placement from the last view is taken. Measured on the drawn walk-throughs
    (both room sources, cameras 0-68 degrees, display scaling 100-150%) and the real
    screenshot's floor."""

    #: a ring moved without a refit is the last camera moved when its diamonds lie this
    #: close to their places (RMS, of the spacing): a zoom of 2% shifts diamonds two
    #: plates apart by 0.04; the drawn walk-throughs match a real shift to 0.007
    rigid_fit_error: float = 0.02
    #: a diamond's area on the floor last seen, of the drawn diamond's ...
    follow_area: tuple[float, float] = (0.4, 2.6)
    #: ... after a pitch: a view pitched 20-30 degrees shallower shows diamonds up to
    #: three times the size there
    pitched_area: tuple[float, float] = (0.3, 4.5)
    #: each place of a located ring within this (of the spacing) of the last view moved
    #: on the floor: the two agree (set, not measured)
    last_view_agreement: float = 0.1


FOLLOW = FollowParams()
STAGE = "follow"


def follow_ring(frame: np.ndarray, previous: GridGeometry, *,
                turned: bool = False, zoomed: bool = False,
                pitched_about: tuple[float, float] | None = None) -> RingFit | None:
    """Find the ring again after the camera has followed the player across the floor.

    The game's camera follows the player at a fixed yaw, pitch and zoom, so a step moves
    the whole view as a translation *of the floor*: the new grid-to-image map is the old
    one after a shift of the grid (a quarter turn about the player is one too: the ring
    turned a quarter about any point is the ring shifted). The shift has two unknowns, so
    fewer diamonds pin it down than a fresh search needs: four, where a player on a plate
    and team-mates around leave the six of a fresh search too few. A small turn or zoom
    with the step is taken up by a homography fitted to five or more matched diamonds.
    The fit is ``rigid`` when it is the moved ring matching its diamonds tightly
    (:data:`FOLLOW.rigid_fit_error`), or a refit putting every place where the moved ring does:
    no lattice squashed through few diamonds, so it may hide more plates.
    With ``turned``, when no shift fits or only loosely, the camera may have turned about
    the player: a yaw change turns the floor as the previous camera saw it rigidly, so a
    ring turned and shifted on that floor is tried, from five diamonds (:func:`turned_ring`);
    with ``zoomed``, a ring scaled and shifted on it (:func:`zoomed_ring`: the camera moved
    along its line of sight), from four. With ``pitched_about`` (the spot, in pixels,
    where the camera keeps the player), only the last view's camera pitched about the
    player is tried (:func:`pitched_ring`), from four. A rigid placement is taken first. The live
    loop asks for these only when a fresh search has failed too (a fresh search of a
    clear view reads more plates): frames after a turn or zoom at a steep camera, or
    with a row under the chat panel, where bodies leave a fresh search too few diamonds,
    were blank without them.
    The result is labelled as seen on screen, like a fresh search's. None when the
    placement is unsure: fewer than four diamonds on the shifted ring (five on a turned
    one), another placement that fits nearly as many (a ring moved by one plate keeps
    four of its eight places), a diamond in its middle.
    """
    # a pitch changes how large the floor's things look on the floor last seen: a
    # diamond of a view pitched 20-30 degrees shallower there is up to three times the
    # size (the view found is checked for their sizes on its own floor, _placed)
    found_on_floor = _on_last_floor(
        frame, previous,
        FOLLOW.pitched_area if pitched_about is not None else FOLLOW.follow_area)
    if found_on_floor is None:
        return None
    blobs, diamonds, spots = found_on_floor

    def plate_in_middle(motion: np.ndarray) -> bool:
        # a diamond in a placement's middle is a plate's when it sits in a purple frame;
        # a figure crossing the middle tile (a head, gold clothes) has none
        return middle_is_framed(frame[..., :3], previous.homography @ motion)

    found = None
    for source, motion_of in _motions(frame, previous, turned, zoomed, pitched_about):
        followed = motion_of(spots, plate_in_middle)
        if followed is None:
            note(STAGE, f"{source}: no sure placement")
            continue
        placed, how = _placement(frame, blobs, diamonds, previous.homography, followed)
        note(STAGE, f"{source}: {how}")
        if placed is not None and placed.rigid:
            return placed
        found = found or placed
    # a pitched view is the last camera turned by the angle that fits: it fits tightly,
    # or its spot or its camera was not the player's (its unseen places are then off)
    if found is not None:
        note(STAGE, "a loose placement" + (": not taken after a pitch"
                                           if pitched_about is not None else " taken"))
    return None if pitched_about is not None else found


#: a way the last view may have moved: this frame's diamonds on its floor, and the check of
#: a placement's middle -> the motion and the matches, or None
_Motion = Callable[[np.ndarray, MiddleCheck], tuple[np.ndarray, np.ndarray, np.ndarray] | None]


def _motions(frame: np.ndarray, previous: GridGeometry, turned: bool, zoomed: bool,
             pitched_about: tuple[float, float] | None) -> list[tuple[str, _Motion]]:
    """The motions :func:`follow_ring` tries, named by their source, in order: a shift
    first; a turn or zoom about the player when asked for and the shift finds nothing or
    fits only loosely (a zoomed view still matches a shift within the follow's
    tolerance, its refit bending the places it did not see); or only the pitch, which
    the live loop asks for after the other follows failed."""
    if pitched_about is None:
        return ([("shift", shifted_ring)] + [("turn", turned_ring)] * turned
                + [("zoom", zoomed_ring)] * zoomed)

    def ring_there(motion: np.ndarray, matched: set[int]) -> bool:
        moved = previous.homography @ motion
        bgr = frame[..., :3]
        unmatched = [place for place in range(len(RING)) if place not in matched]
        return _followed_on_plates(bgr, moved) and not plain_floor_at(bgr, moved, unmatched)

    def pitched(spots: np.ndarray, check: MiddleCheck
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        return pitched_ring(spots, previous.homography, pitched_about, check, ring_there)

    return [("pitch", pitched)]


def _placement(frame: np.ndarray, blobs: Blobs, diamonds: np.ndarray,
               homography: np.ndarray, followed: tuple[np.ndarray, np.ndarray, np.ndarray]
               ) -> tuple[RingFit | None, str]:
    """The ring placed by a motion of the last view (:func:`follow_ring`), or None, and
    how, in words for the trace."""
    motion, nearest, ok = followed
    found = int(ok.sum())
    moved = homography @ motion
    # five diamonds or more also fix a small turn or zoom; four fix only the motion
    fitted = fit_homography(blobs.centres, ok, diamonds[nearest]) if found >= 5 else None
    placed_fitted, placed_moved = _placed(fitted, blobs, diamonds), _placed(moved, blobs,
                                                                          diamonds)
    if placed_fitted is not None:
        # a blob the motion matched but the fit finds odd-sized off its place (the player
        # over the plate just stepped on) bent the fit: fit again without it, as a fresh
        # search does (:func:`refine`); its neighbours' places were off by a few pixels,
        # enough to show them partly covered
        members = np.isin(diamonds[nearest], sorted(placed_fitted[1]))
        kept = ok & members
        if kept.sum() >= 5 and kept.sum() < found:
            refitted = fit_homography(blobs.centres, kept, diamonds[nearest])
            placed_refitted = _placed(refitted, blobs, diamonds)
            if placed_refitted is not None:
                fitted, placed_fitted = refitted, placed_refitted
    fit_moved = None if placed_moved is None else labelled_fit(moved, blobs,
                                                                placed_moved[1])
    # the moved ring is the last camera moved when its diamonds lie tightly on it; four
    # may also match a shift of an older view through a zoom or a pitch change, loosely
    # (a walk-through showed its unseen places off). A refit is rigid when it puts every
    # place where the moved ring does; when it does not but the moved ring is tight, the
    # refit on five diamonds bends its unseen places (the bottom row under the chat
    # panel after a zoom) and the moved ring is taken. So it is when the refit agrees
    # but took in a blob the tight moved ring leaves off its place that is no whole
    # diamond (:data:`BLOBS.whole_solidity`: a diamond a team-mate half covers): that bent
    # the places it did not see within the agreement, and each frame followed from it
    # bent them further (6, then 15 pixels off on a side covered by team-mates). A whole
    # diamond the moved ring just missed is the refit's to take (at 59° beside the chat
    # panel, without it the frames went blank)
    tight = fit_moved is not None and fit_moved.fit_error <= FOLLOW.rigid_fit_error
    same = placed_fitted is not None and same_places(fitted, moved, FOLLOW.last_view_agreement)
    if placed_fitted is not None and tight and same and any(
            blobs.solidity[blob] < BLOBS.whole_solidity
            for blob in set(placed_fitted[1]) - set(placed_moved[1])):
        placed_fitted = None
    if placed_fitted is not None and (same or not tight):
        (chosen, members), rigid = placed_fitted, same
        fit = labelled_fit(chosen, blobs, members)
        how = "refitted" + (" where the moved ring puts every place" if same else "")
    elif fit_moved is not None:
        chosen, fit, rigid = moved, fit_moved, tight
        how = "moved" + (", tight" if tight else ", loose")
    else:
        return None, "turned down: four diamonds do not lie on its places"
    if not _followed_on_plates(frame[..., :3], chosen):
        return None, f"turned down: {how}, not on the plates"
    rigidly = "rigidly" if rigid else "loosely"
    return replace(fit, rigid=rigid), f"{how}, on {sum(fit.matched)} diamonds, {rigidly}"


def _followed_on_plates(bgr: np.ndarray, homography: np.ndarray) -> bool:
    """Does a followed ring lie on the plates: purple frames on two sides or more at
    :data:`MOTION.min_followed` of its places, or, where the frames' band is too thin to show
    its colour (:func:`frames_too_thin`), an even floor between its places?

    Why: zoomed out at 64-68° under display scaling the band is a pixel or two deep on
    screen and shows purple at one or two places; the ring moved by a zoom after a step
    put every plate where it was and was turned down, and the frame went blank. A ring a
    plate off has plates, a diamond or a body where the floor points fall."""
    if int(np.sum(count_purple_sides(bgr, homography) >= 2)) >= MOTION.min_followed:
        return True
    return frames_too_thin(homography) and floor_is_even(bgr, homography)


def _on_last_floor(
    frame: np.ndarray, previous: GridGeometry,
    sizes: tuple[float, float] = FOLLOW.follow_area,
) -> tuple[Blobs, np.ndarray, np.ndarray] | None:
    """The frame's gold blobs, those of a diamond's size on the floor as ``previous``
    saw it, and where they lie on that floor (grid units); None with fewer than
    :data:`MOTION.min_followed` such diamonds."""
    height, width = frame.shape[:2]
    factor = 2 if max(width, height) > BLOBS.half_resolution_above else 1
    blobs = gold_blobs(frame, factor)
    homography = previous.homography
    if len(blobs.areas) < MOTION.min_followed or abs(np.linalg.det(homography)) < 1e-12:
        return None
    inverse = np.linalg.inv(homography)
    image = np.column_stack([blobs.centres, np.ones(len(blobs.areas))])
    w = image @ inverse[2]
    in_front = w > 1e-9  # points beyond the horizon have no place on the floor
    floor = (image @ inverse[:2].T) / np.where(in_front, w, 1.0)[:, None]
    # a pixel area on the floor: the area divided by the map's Jacobian determinant there
    wf = np.column_stack([floor, np.ones(len(floor))]) @ homography[2]
    jacobian = abs(np.linalg.det(homography)) / np.maximum(np.abs(wf), 1e-12) ** 3
    floor_area = blobs.areas / np.maximum(jacobian, 1e-12)
    diamonds = np.flatnonzero(
        in_front
        & (floor_area >= sizes[0] * DIAMOND_AREA)
        & (floor_area <= sizes[1] * DIAMOND_AREA)
    )
    if len(diamonds) < MOTION.min_followed:
        return None
    return blobs, diamonds, floor[diamonds]


def agrees_with_last_view(frame: np.ndarray, previous: GridGeometry,
                          geometry: GridGeometry) -> bool:
    """Whether ``geometry`` (a ring located in ``frame``) puts every one of its eight
    places within :data:`FOLLOW.last_view_agreement` of the spacing of a place of ``previous``
    moved on the floor to the frame's diamonds: shifted (the camera followed the
    player) or, when no shift fits, turned and shifted (it turned about the player), the
    motion alone, no refit.

    Why: a ring located on six diamonds can be a lattice squashed through them, its
    other places off their plates (seen on the walk-throughs, 0.01 spacings of fit
    error), so it may hide only three plates. The last view moved rigidly is a placement
    of all eight places that owes nothing to this fit's shape: when the camera only
    followed or turned, the two agree, and a fourth partly covered plate may be hidden
    as on a ring placed on seven. A zoom or pitch change is no rigid motion: no
    agreement, no fourth plate."""
    found_on_floor = _on_last_floor(frame, previous)
    if found_on_floor is None:
        return False
    _blobs, _diamonds, spots = found_on_floor
    followed = shifted_ring(spots)
    if followed is None:
        followed = turned_ring(spots)
    if followed is None:
        return False
    motion, _nearest, _ok = followed
    shifted = GridGeometry(3, 3, previous.homography @ motion).to_image(RING)
    placed = geometry.to_image(RING)
    d = np.hypot(*(placed[:, None, :] - shifted[None, :, :]).transpose(2, 0, 1))
    nearest = d.argmin(axis=1)
    spacing = top_row_spacing(placed)
    return bool(len(set(nearest.tolist())) == len(RING)
                and np.all(d.min(axis=1) <= FOLLOW.last_view_agreement * spacing))


def _placed(
    homography: np.ndarray | None, blobs: Blobs, diamonds: np.ndarray
) -> tuple[np.ndarray, frozenset[int]] | None:
    """A followed ring checked on the picture: at least four diamonds within the match
    tolerance of their plates, fitted as tightly as a fresh search's, and a view a camera
    without roll gives. Returns the homography and the matched blobs."""
    if homography is None or roll_skew(homography) > FIT.max_roll_skew:
        return None
    at = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    spacing = top_row_spacing(at)
    pts = blobs.centres[diamonds]
    d = np.hypot(*(at[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    nearest, residual = d.argmin(axis=1), d.min(axis=1)
    ok = residual <= FIT.match_tolerance * spacing
    if ok.sum() < MOTION.min_followed or len(set(nearest[ok].tolist())) < int(ok.sum()):
        return None
    # a diamond partly under a player (odd-sized for the floor, its centroid off centre)
    # is no member: its plate is not read, as a fresh search leaves it unmatched
    odd_size = ~usual_size(blobs.areas[diamonds][nearest], homography, ok)
    ok &= ~(odd_size & (residual > FIT.hidden_shift * spacing))
    if ok.sum() < MOTION.min_followed:
        return None
    if float(np.sqrt(np.mean(residual[ok] ** 2))) / spacing > FIT.max_fit_error:
        return None
    return homography, frozenset(int(i) for i in diamonds[nearest[ok]])
