"""Stage 2 of the ring search: candidate placements of the ring through the gold blobs.

For every blob, its near neighbours of a similar size are tried as the two lattice
directions (or, when a corner's neighbours are hidden, the far corners: the ``far``
spans), and the eight places that affine first guess predicts are matched to blobs; a
guess matching enough of them is refitted (:mod:`assistant.vision.ring.refit`) into a
candidate. Candidates come best first, in three groups: the first fits, the tight cores
of loose ones, and (on five diamonds) the same five as other places of another ring.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from assistant.vision.ring.refit import (
    SKEWED,
    blob_in_middle,
    refine,
    tight_alternatives,
)
from assistant.vision.ring.shape import DIAMOND_AREA, FIT, RING, Blobs, top_row_spacing


@dataclass(frozen=True)
class CandidateParams:
    """How first guesses are spanned and matched. Measured on the drawn rooms (cameras
    straight down to 68 degrees) and the real screenshot's floor."""

    #: the nearest plausible neighbours tried per blob and direction (a bound on the
    #: search's cost, set, not measured)
    neighbours: int = 12
    #: a neighbour lies this far from a blob, times the spacing its area suggests, per
    #: plate spanned (bounds set wide, not measured)
    neighbour_distance: tuple[float, float] = (0.45, 1.9)
    #: the sine of the two directions' angle, at least (set, not measured)
    min_sine: float = 0.55
    #: the floor's far axis shrinks to cos 68° = 0.37 of the near one: lattice directions
    #: are compared within this ratio
    min_axis_ratio: float = 0.33
    #: a predicted place is matched to a blob this near it (of the spacing) by the affine
    #: first guess ...
    first_tolerance: float = 0.32
    #: ... and more far from the spanning corner, per plate beyond the first: a steep
    #: perspective bends the lattice away from the affine guess
    far_slack: float = 0.35
    #: how far from a corner (in plates) the two blobs spanning the first guess are: the
    #: neighbours along the row and the column ...
    near_spans: tuple[tuple[int, int], ...] = ((1, 1),)
    #: ... or, when one of those is hidden (a player on one edge plate, a team-mate on the
    #: opposite one), the far corner along it
    far_spans: tuple[tuple[int, int], ...] = ((2, 1), (1, 2), (2, 2))


CANDIDATES = CandidateParams()

#: per ring place: how much more the first guess may miss it, growing with its distance
#: from the corner the guess starts at
_FAR_SLACK = 1 + CANDIDATES.far_slack * np.maximum(0, RING.sum(axis=1) - 1)
#: the ring's places as multiples of the two lattice directions, for broadcasting
_ALONG_FIRST = RING[:, 0][None, :, None]
_ALONG_SECOND = RING[:, 1][None, :, None]

#: a refit's candidate before it is told where it came from (:func:`refine`)
Hypothesis = tuple[float, np.ndarray, frozenset[int], bool]


class Candidate(NamedTuple):
    """A candidate placement of the ring, and where it came from."""

    score: float  # diamonds matched less REFIT.error_weight times the fit error
    homography: np.ndarray  # grid -> image
    members: frozenset[int]  # the blobs matched
    middle_blob: bool  # a diamond-sized blob lies in the middle
    #: ``near``: spanned by a corner's neighbours; ``far``: by the far corners; ``core``:
    #: a loose fit's tight core; ``relabelled``: five diamonds as another ring's places
    source: str


def ring_hypotheses(
    blobs: Blobs, spans: tuple[tuple[int, int], ...], needed: int, source: str = "near",
) -> list[Candidate]:
    """Candidate rings, best first: the first fits (from ``source``, the spans' name), the
    tight cores of loose ones, then five diamonds as other places of another ring."""
    pts, areas = blobs.centres, blobs.areas
    dist, within = _plausible_neighbours(pts, areas, spans)
    results: list[Hypothesis] = []
    alternatives: dict[frozenset[int], Hypothesis] = {}
    seen: set[frozenset[int]] = set()
    tried: set[frozenset[int]] = set()
    relabelled: list[Hypothesis] = []
    for i, pair in ((i, pair) for i in range(len(pts)) for pair in spans):
        for ok, nearest, spacing in _first_guesses(pts, dist, within, i, pair, needed):
            matches = frozenset(nearest[ok].tolist())
            if matches in tried:
                continue  # the same blobs from another corner or direction
            found = refine(pts, areas, ok, nearest, spacing, needed)
            if found is SKEWED:
                continue  # a sheared lattice: the same blobs may still fit the ring itself
            tried.add(matches)
            if found is None:
                continue
            if found[2] not in seen:
                seen.add(found[2])
                results.append(found)
                if needed < FIT.min_diamonds and len(found[2]) == needed:
                    relabelled.extend(_relabelled_five(pts, areas, found))
            for other in tight_alternatives(pts, areas, ok, nearest, spacing, needed, found):
                alternatives.setdefault(other[2], other)
    # the tight cores of loose fits come after every first fit (one found from another
    # corner as a first fit is one): they are the search's second thoughts, for when the
    # checks on the picture turn all of those down
    results.sort(key=lambda item: -item[0])
    second = sorted((item for members, item in alternatives.items() if members not in seen),
                    key=lambda item: -item[0])
    # the same five diamonds as other places of another ring, last: for when the checks
    # turn down the ring the fit labelled them on
    return ([Candidate(*item, source) for item in results]
            + [Candidate(*item, "core") for item in second]
            + [Candidate(*item, "relabelled") for item in relabelled])


def _plausible_neighbours(pts: np.ndarray, areas: np.ndarray,
                          spans: tuple[tuple[int, int], ...]
                          ) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The blobs' distances, and per span (in plates) which blob could lie that far along
    a lattice direction from which: of a similar size, at a distance its area allows."""
    spacing_guess = np.sqrt(areas / DIAMOND_AREA)
    diff = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    ratio = areas[None, :] / areas[:, None]
    alike = (ratio > 1 / FIT.size_spread) & (ratio < FIT.size_spread)
    np.fill_diagonal(alike, False)
    nearest_allowed, farthest_allowed = CANDIDATES.neighbour_distance

    def plausible(span: int) -> np.ndarray:
        return (alike & (dist >= nearest_allowed * span * spacing_guess[:, None])
                & (dist <= farthest_allowed * span * spacing_guess[:, None]))

    return dist, {span: plausible(span) for span in {s for pair in spans for s in pair}}


def _first_guesses(pts: np.ndarray, dist: np.ndarray, within: dict[int, np.ndarray],
                   i: int, spans: tuple[int, int], needed: int,
                   ) -> Iterator[tuple[np.ndarray, np.ndarray, float]]:
    """The affine first guesses spanned from blob ``i`` by two plausible neighbours
    ``spans`` plates along the row and the column that match at least ``needed - 1``
    places: per guess, which places it matched, the blob nearest each, and its spacing."""
    span1, span2 = spans
    first = np.flatnonzero(within[span1][i])
    second = np.flatnonzero(within[span2][i])
    if len(first) < 1 or len(second) < 1 or len(np.union1d(first, second)) < 2:
        return
    first = first[np.argsort(dist[i, first])][:CANDIDATES.neighbours]
    second = second[np.argsort(dist[i, second])][:CANDIDATES.neighbours]
    jj, kk = np.meshgrid(first, second, indexing="ij")
    jj, kk = jj.ravel(), kk.ravel()
    e1 = (pts[jj] - pts[i]) / span1
    e2 = (pts[kk] - pts[i]) / span2
    l1 = np.hypot(*e1.T)
    l2 = np.hypot(*e2.T)
    cross = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        good = (
            (cross > 0) & (cross / (l1 * l2) >= CANDIDATES.min_sine)
            & (l1 / l2 > CANDIDATES.min_axis_ratio) & (l1 / l2 < 1 / CANDIDATES.min_axis_ratio)
        )
    if not good.any():
        return
    e1, e2, l1, l2 = e1[good], e2[good], l1[good], l2[good]
    predicted = pts[i] + _ALONG_FIRST * e1[:, None, :] + _ALONG_SECOND * e2[:, None, :]
    d = np.hypot(*(predicted[:, :, None, :] - pts[None, None, :, :]).transpose(3, 0, 1, 2))
    nearest = np.argmin(d, axis=2)
    best = np.take_along_axis(d, nearest[..., None], axis=2)[..., 0]
    # foreshortened axes: their mean scale; farther from the spanning blobs, a steep
    # perspective bends the lattice away from the affine guess
    tol = CANDIDATES.first_tolerance * np.sqrt(l1 * l2)[:, None] * _FAR_SLACK[None, :]
    ok = best <= tol
    for p in np.flatnonzero(ok.sum(axis=1) >= needed - 1):
        yield ok[p], nearest[p], 0.5 * (l1[p] + l2[p])


def _relabelled_five(pts: np.ndarray, areas: np.ndarray,
                     found: tuple[float, np.ndarray, frozenset[int], bool]
                     ) -> list[tuple[float, np.ndarray, frozenset[int], bool]]:
    """The other rings through a five-diamond fit's diamonds, as hypotheses.

    Why: five diamonds fit more than one ring exactly. With a side of the ring hidden
    (a body over it at a steep camera), the five left (a corner, its two neighbours and
    the two beyond them) are also the corners and one edge plate of a ring half as wide,
    and the fit may label them so; that ring's other places lie on the floor, its frames
    are turned down, and the ring itself was never tried (a player in gold at 68
    degrees over the right side)."""
    score, homography, members, _middle = found
    ring_image = cv2.perspectiveTransform(RING.reshape(-1, 1, 2), homography).reshape(-1, 2)
    member_list = np.array(sorted(members))
    places = frozenset(int(np.argmin(np.hypot(*(ring_image - pts[m]).T))) for m in member_list)
    if len(places) != len(member_list):
        return []  # two diamonds at one place: no five places to relabel
    out = []
    for relabel in _five_relabellings(places):
        moved = homography @ relabel
        spacing = top_row_spacing(
            cv2.perspectiveTransform(RING.reshape(-1, 1, 2), moved).reshape(-1, 2))
        out.append((score, moved, members,
                    blob_in_middle(pts, areas, member_list, moved, spacing)))
    return out


@functools.cache
def _five_relabellings(places: frozenset[int]) -> tuple[np.ndarray, ...]:
    """For five ring places (row-major indices of :data:`RING`): the affine maps from
    another ring's grid to this one's that put five of that ring's places on these, one
    per lattice (the ring's own turns and mirrors are one lattice)."""
    chosen = RING[sorted(places)]
    homogeneous = np.column_stack([chosen, np.ones(len(chosen))])
    ring = {tuple(p) for p in RING.tolist()}
    # three of the five not on one line fix the map (five ring places always hold three)
    base = next(list(trio) for trio in itertools.combinations(range(5), 3)
                if abs(np.linalg.det(homogeneous[list(trio)])) > 1e-9)
    lattices: dict[frozenset, np.ndarray] = {}
    for image in itertools.permutations(RING.tolist(), 3):
        forward = np.linalg.solve(homogeneous[base], np.array(image))
        mapped = homogeneous @ forward
        if np.abs(mapped - np.rint(mapped)).max() > 1e-9:
            continue
        targets = {tuple(p) for p in np.rint(mapped).tolist()}
        if len(targets) != 5 or not targets <= ring:
            continue
        to_other = np.vstack([forward.T, [0, 0, 1]])  # this grid -> the other ring's
        if abs(np.linalg.det(to_other)) < 1e-9:
            continue
        relabel = np.linalg.inv(to_other)  # the other ring's grid -> this one's
        key = frozenset(tuple(np.round(p, 6)) for p in
                        (np.column_stack([RING, np.ones(8)]) @ relabel.T)[:, :2].tolist())
        if key == frozenset(ring):
            continue  # the same ring, turned or mirrored
        lattices.setdefault(key, relabel)
    return tuple(lattices.values())
