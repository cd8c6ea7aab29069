"""Is a located ring placed surely enough to read, and which ring through its diamonds?

The reader's checks between placing the ring (:mod:`assistant.vision.locate`) and reading
its plates (:mod:`assistant.vision.plates`). A ring fitted to the diamonds the locator saw
is sure where diamonds were matched and less sure elsewhere; these rules say how many
plates such a ring may leave unread (:func:`hidden_allowed`), when six diamonds also fit a
sheared ring (:func:`another_ring_fits`), when a blob pulled off its plate bent the fit
(:func:`unless_pulled_blob_reads_otherwise`), and when a corner plate and both its
neighbours are unread, so that nothing read fixes the ring there
(:func:`corner_placed_by_the_others`, :func:`unless_corner_unplaced`). The refits they
ask for are the locator's (``pulled_blob``, ``ring_placed_by``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from assistant.puzzle import TOA_PLATES
from assistant.vision.appearance import Look
from assistant.vision.geometry import GridGeometry
from assistant.vision.locate import (
    LOOSE_FIT,
    MAX_ROLL_SKEW,
    RingFit,
    framed_places,
    pulled_blob,
    ring_placed_by,
    roll_skew,
)
from assistant.vision.reading import Reading, abstain, cell_words, too_many_covered
from assistant.vision.trace import note

__all__ = [
    "CORNER_TRIOS",
    "PLACING_RULES",
    "PlacingRules",
    "another_ring_fits",
    "corner_placed_by_the_others",
    "hidden_allowed",
    "leaves_a_corner_unread",
    "unless_corner_unplaced",
    "unless_pulled_blob_reads_otherwise",
]


@dataclass(frozen=True)
class PlacingRules:
    """How surely a located or followed ring is placed, and what it may leave unread."""

    #: A ring the locator (or the follower) fitted to six diamonds or fewer may hide at
    #: most this many plates: six with three in a row fitted a squashed ring to 0.01
    #: spacings on a walk-through picture, its unseen plates off (:func:`hidden_allowed`).
    #: A fourth hidden plate needs seven diamonds.
    max_hidden_on_six: int = 3
    #: A ring placed by the last view moved rigidly, when nothing else reads the frame,
    #: may hide this many: its places are the ring's own, and the three plates left read
    #: still tell the step just made by the ones of its trio among them (the session
    #: keeps every candidate they leave open). A count by that reasoning, not measured.
    max_hidden_rigid: int = 5
    #: A five-diamond ring is the loose fit's own ring when no place of it lies farther
    #: than this from the loose fit's (of its spacing): another lattice lies a whole
    #: spacing off somewhere, while the loose fits this is asked about fit their diamonds
    #: to 0.013-0.027 of the spacing (RMS; see the reader's ``_tight_core_on_five``).
    same_ring: float = 0.35
    #: With two opposite corners unmatched, a sheared ring through the six diamonds is set
    #: aside when the ring shows purple frames about this many of the six at least ...
    #: (measured at cameras of 55-68 degrees, JPEG frames included: the ring 3-6, sheared
    #: rings 0-1)
    framed_of_six: int = 4
    #: ... and the sheared ring about this many at most.
    framed_of_six_sheared: int = 1


PLACING_RULES = PlacingRules()

#: each corner of the ToA ring with its two ring neighbours
CORNER_TRIOS = {(r, c): frozenset({(r, c), (r, 1), (1, c)}) for r in (0, 2) for c in (0, 2)}


def hidden_allowed(max_hidden: int, unmatched: tuple[tuple[int, int], ...],
                   rules: PlacingRules = PLACING_RULES) -> int:
    """The cells a located or followed ring may leave hidden: a ring fitted to six
    diamonds or fewer places the others less surely (six with three in a row fitted a
    squashed ring to 0.01 spacings in a walk-through, its unseen plates off), so it hides
    at most :attr:`PlacingRules.max_hidden_on_six`; a fourth hidden plate needs seven diamonds."""
    if len(unmatched) >= 2:
        return min(max_hidden, rules.max_hidden_on_six)
    return max_hidden


def leaves_a_corner_unread(hidden: tuple[tuple[int, int], ...]) -> bool:
    """Does a ToA reading hiding ``hidden`` leave a corner plate and both its ring
    neighbours unread? Its places there come from the other five alone."""
    return any(trio <= set(hidden) for trio in CORNER_TRIOS.values())


def unless_pulled_blob_reads_otherwise(
    reading: Reading, fit: RingFit, read_at: Callable[[GridGeometry, bool], Reading],
    max_hidden: int,
) -> Reading:
    """``reading`` at the ring the other diamonds place without a blob that alone may
    bend ``fit`` (:func:`assistant.vision.locate.pulled_blob`), that blob's plate hidden
    unless that ring reads it the same; the plate hidden in ``reading`` when that ring
    reads nothing; an abstention when the plate hidden makes more than ``max_hidden``.

    Why: a blob pulled off its plate (a gold belt merged with the diamond) bends the fit
    so that the plate is read beside itself, the belt read as an unlit diamond (read at
    the others' ring, the plate showed covered). Where it read the same there, the bent
    reading used to stand, and the places nothing read checks stayed bent: at 68°, a
    figure's gold merged with a diamond into a blob three times its size
    put the two hidden plates beyond it 9 and 17 pixels off, a third of the
    foreshortened spacing. Where the pull was found on walk-through frames (80 steep
    walk-throughs, 15 pulls), the others' ring lay nearer the
    plates in every one: 0.01-0.04 of the spacing off at its worst place, the bent fit
    0.06-0.28."""
    found = None if reading.abstain else pulled_blob(fit)
    if found is None:
        return reading
    cell, others = found
    tile = next((t for t in reading.tiles if (t.row, t.col) == cell), None)
    if tile is None or tile.hidden or tile.lit is None:
        return reading
    there = read_at(others.geometry, False)
    seen = next((t for t in there.tiles if (t.row, t.col) == cell), None)
    if not there.abstain and seen is not None and seen.lit == tile.lit:
        note("placing", f"{cell_words(cell)}'s blob alone may bend the fit: read at the "
             "ring the other diamonds place, which reads it the same")
        return there
    note("placing", f"{cell_words(cell)}'s blob alone may bend the fit, and the ring the "
         "other diamonds place " + ("reads it otherwise" if not there.abstain
                                    else "reads nothing") + ": it is set aside")
    if not there.abstain:
        reading = there
    if cell not in reading.hidden and len(reading.hidden) + 1 > max_hidden:
        covered = np.array([TOA_PLATES.index(c) for c in (*reading.hidden, cell)])
        return abstain(too_many_covered(TOA_PLATES, covered, Look.TOA_PLATE, max_hidden),
                       reading.mode, found=True, geometry=reading.geometry)
    return reading.with_hidden((cell,))


def corner_placed_by_the_others(
    reading: Reading, fit: RingFit, unmatched: tuple[tuple[int, int], ...],
    read_at: Callable[[GridGeometry, bool], Reading],
) -> tuple[Reading, tuple[tuple[int, int], ...], float]:
    """``reading`` with the places ``fit``'s ring was not fitted to (``unmatched``) and
    its fit error; or, when the reading hides a corner plate and both its ring
    neighbours, the blob of one of them among those the ring was fitted to, and the five
    other plates were read whole on the diamonds matched there: the reading at the ring
    those five diamonds place alone (``read_at``, the same read at another geometry),
    when they fit it exactly (:func:`assistant.vision.locate.ring_placed_by`), with the
    trio as not fitted.

    Why: the blob of a covered plate is pulled off its diamond by the body over it, and
    the places beyond it, which nothing read checks, move most. At 150% display scaling
    and 63° the player's plate, its blob 6 pixels off, put the corner beyond it 12
    pixels off (half the foreshortened spacing) with the six blobs fitted to 0.008: the
    overlay's mark missed its plate. The five diamonds read whole put that corner on its
    plate, and two such corners at steep cameras within 2 pixels (fits on six: 7 and 18
    pixels off). Only where
    they place it steadily (:func:`assistant.vision.locate.ring_placed_by`): at a far,
    steep view a pixel in their centres moves the corner by half the spacing, and the
    frame above is left to the rule too."""
    if reading.abstain:
        return reading, unmatched, fit.fit_error
    hidden = set(reading.hidden)
    for trio in CORNER_TRIOS.values():
        if not trio <= hidden or not trio - set(unmatched):
            continue
        others = [cell for cell in TOA_PLATES if cell not in trio]
        refit = None if hidden & set(others) else ring_placed_by(fit, others)
        if refit is None:
            note("placing", "a corner and both its neighbours unread; the other five do "
                 "not place the ring steadily alone")
            break  # the fit through the covered blob stands, for the rule to judge
        note("placing", "a corner and both its neighbours unread, one fitted: read at the "
             f"ring the other five place alone (fit error {refit.fit_error:.3f})")
        return (read_at(refit.geometry, False), tuple(sorted(set(unmatched) | trio)),
                refit.fit_error)
    return reading, unmatched, fit.fit_error


def unless_corner_unplaced(reading: Reading, unmatched: tuple[tuple[int, int], ...],
                           fit_error: float) -> Reading:
    """``reading``, or an abstention when it hides a corner plate and both its ring
    neighbours and the ring was fitted to one of them or more (``unmatched``: the places
    it was not), or the fit is loose (``fit_error``, RMS in spacings,
    :data:`assistant.vision.locate.LOOSE_FIT` or more). The locator matches partly
    covered diamonds too, and nothing read checks where such a blob pulled the three
    hidden places: the five plates read lie on two sides, which fix the ring nowhere
    else. At 64° a team-mate and the player over such a corner put them 19 pixels off
    (half the foreshortened spacing), and the marks missed their plates; a covered
    neighbour's blob 10 pixels off under the player put the corner beyond it 18 pixels
    off. The fit's error does not tell: that frame's six blobs fitted to 0.013, and
    another's, 12 pixels off at the corner, to 0.008 (63°, 150% display scaling), where
    right ones fitted to 0.007. Where the five other diamonds were read whole, the ring
    they place alone is read instead (:func:`corner_placed_by_the_others`); this rule
    blanks the rest."""
    hidden, fitted = set(reading.hidden), set(reading.hidden) - set(unmatched)
    loose = fit_error >= LOOSE_FIT
    if reading.abstain or not any(trio <= hidden and (trio & fitted or loose)
                                  for trio in CORNER_TRIOS.values()):
        return reading
    note("placing", "a corner and both its neighbours unread, and the ring "
         + ("was fitted to one of them" if not loose else f"fitted loosely ({fit_error:.3f})")
         + ": nothing read places them")
    return abstain("A corner plate and both its neighbours are covered: the plates cannot "
                   "be placed for sure.", "auto", found=True)


def _shear_relabellings() -> dict[frozenset, list[np.ndarray]]:
    """For two opposite corners missing: the affine maps of the grid, other than the
    ring's own symmetries, that take the six other ring places onto themselves. Each is a
    second ring those six diamonds fit (found once by trying every permutation)."""
    out: dict[frozenset, list[np.ndarray]] = {}
    for corners in ({(0, 0), (2, 2)}, {(0, 2), (2, 0)}):
        kept = [cell for cell in TOA_PLATES if cell not in corners]
        src = np.array([(c, r, 1.0) for r, c in kept])
        maps = []
        for order in itertools.permutations(kept):
            dst = np.array([(c, r) for r, c in order], np.float64)
            affine, *_ = np.linalg.lstsq(src, dst, rcond=None)
            if np.abs(src @ affine - dst).max() > 1e-9:
                continue
            full = np.vstack([affine.T, [0, 0, 1]])
            moved = {tuple(np.rint(full @ (c, r, 1.0))[:2]) for r, c in corners}
            if moved != {(c, r) for r, c in corners}:  # not a symmetry of the ring
                maps.append(full)
        out[frozenset(corners)] = maps
    return out


SHEARS = _shear_relabellings()


def another_ring_fits(bgr: np.ndarray, fit: RingFit, unmatched: tuple[tuple[int, int], ...],
                      rules: PlacingRules = PLACING_RULES) -> bool:
    """With two opposite corners unmatched, could a sheared ring through the same six
    diamonds be a camera's view too (see :func:`_shear_relabellings`)? Not when the six
    plates' frames lie where the ring puts them and not where the sheared ring does: a
    plate's frame is shaped by the lattice, so a shear moves it off the purple."""
    shears = SHEARS.get(frozenset(unmatched), ())
    if not shears:
        return False
    seen = np.array(fit.matched)
    framed = int(framed_places(bgr, fit.geometry)[seen].sum())
    for shear in shears:
        sheared = GridGeometry(3, 3, fit.geometry.homography @ shear)
        if roll_skew(sheared.homography) > MAX_ROLL_SKEW:
            continue
        if (framed < rules.framed_of_six
                or int(framed_places(bgr, sheared)[seen].sum()) > rules.framed_of_six_sheared):
            return True
    return False
