"""Two states with holes, large boards: a bit-packed row chase with on-the-fly elimination.

The plain chase (:mod:`assistant.solver.chase`) introduces a free variable below every
hole and leaves an equation above it, so a 1000 x 1000 board with 1% holes would end
with ~11,000 unknowns in a dense system. Here each left-over equation is eliminated
the moment it appears: it fixes one of the variables alive at that time, which is
substituted out of the two live rows and its slot reused. The number of live variables
stays near the row length, expressions are packed 64 variables to a word, and a row's
substitutions are applied up to twelve pivots at a time through a table of all their
XOR combinations (the "method of four Russians").

At the end the variables still alive are exactly the kernel's free directions; the
particular solution sets them to 0, back-substitutes the eliminated ones in reverse,
and a numeric chase on Python-int bit rows rebuilds every press.

References
----------
- V. L. Arlazarov, E. A. Dinic, M. A. Kronrod, I. A. Faradzev, "On economical
  construction of the transitive closure of a directed graph", *Soviet Math. Dokl.* 11,
  1970 (the table method).
- K. Sutner, "Linear cellular automata and the Garden-of-Eden", 1989 (light chasing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["PackedResult", "solve_packed_gf2"]

_CHUNK = 12  # pivots per XOR table (4096 entries: one table per row at 1% holes)
_BATCH_ROWS = 64  # left-over equations handled with Python ints below this count
_RETIRE_EVERY = 8  # rows between two searches for variables gone from the live rows


@dataclass
class PackedResult:
    presses: np.ndarray | None
    nullity: int
    kernel: list[np.ndarray] = field(default_factory=list)


class _Slots:
    """Variable slots: bit positions in the packed expressions, reused after elimination."""

    def __init__(self, words: int) -> None:
        self.words = words
        self.free = list(range(64 * words - 1, -1, -1))
        self.var_of_slot = np.full(64 * words, -1, dtype=np.int64)
        self.count = 0  # variables created so far

    def grow(self) -> None:
        old = 64 * self.words
        self.words *= 2
        self.free.extend(range(64 * self.words - 1, old - 1, -1))
        self.var_of_slot = np.concatenate(
            [self.var_of_slot, np.full(64 * self.words - old, -1, dtype=np.int64)]
        )


def _to_int(words: np.ndarray) -> int:
    return int.from_bytes(words.tobytes(), "little")


def _to_words(value: int, words: int) -> np.ndarray:
    return np.frombuffer(value.to_bytes(8 * words, "little"), dtype=np.uint64).copy()


def _widen(array: np.ndarray, words: int) -> np.ndarray:
    """The same expressions with room for more variable slots (last axis)."""
    out = np.zeros((*array.shape[:-1], words), dtype=np.uint64)
    out[..., : array.shape[-1]] = array
    return out


def _new_variables(slots, expr, expr_c, cells, row: int, var_cell) -> None:
    """Make each cell of ``cells`` (in row ``row``) a new free variable of its own."""
    if not cells.size:
        return
    chosen = np.array([slots.free.pop() for _ in range(cells.size)], dtype=np.int64)
    slots.var_of_slot[chosen] = np.arange(slots.count, slots.count + cells.size)
    slots.count += cells.size
    var_cell.extend((row, int(c)) for c in cells)
    expr[cells] = 0
    expr[cells, chosen >> 6] = np.left_shift(np.uint64(1), (chosen & 63).astype(np.uint64))
    expr_c[cells] = 0


def _substitute(pair, pair_c, pivots, words: int) -> None:
    """Replace every eliminated variable in both live rows by what it equals, up to
    :data:`_CHUNK` pivots per XOR table (pivot rows are reduced: no pivot appears in
    another's row, so the chunks do not interfere)."""
    flat = pair.reshape(-1, pair.shape[-1])
    flat_c = pair_c.reshape(-1)
    for start in range(0, len(pivots), _CHUNK):
        chunk = pivots[start : start + _CHUNK]
        table, ctable = _xor_table(chunk, words)
        chunk_slots = np.array([slot for slot, _, _ in chunk])
        shifts = (chunk_slots & 63).astype(np.uint64)
        bits = (flat[:, chunk_slots >> 6] >> shifts) & np.uint64(1)
        idx = bits.astype(np.intp) @ (1 << np.arange(len(chunk)))
        flat ^= np.take(table, idx, axis=0)  # take: about twice as fast as table[idx]
        flat_c ^= np.take(ctable, idx)


def _record(pivots, slots) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Remember what a row's eliminated variables equal (for back-substitution) and free
    their slots: (variables, constants, bit rows over slots, slot -> variable then)."""
    snapshot = slots.var_of_slot.copy()
    pivot_slots = [slot for slot, _, _ in pivots]
    raw = b"".join(row.to_bytes(8 * slots.words, "little") for _, row, _ in pivots)
    bits = np.unpackbits(
        np.frombuffer(raw, dtype=np.uint8).reshape(len(pivots), -1), axis=1, bitorder="little"
    )
    bits[np.arange(len(pivots)), pivot_slots] = 0
    consts = np.array([c for _, _, c in pivots], dtype=np.uint8)
    for slot in pivot_slots:
        slots.var_of_slot[slot] = -1
        slots.free.append(slot)
    return snapshot[pivot_slots], consts, bits, snapshot


def solve_packed_gf2(
    target: np.ndarray,
    present: np.ndarray,
    *,
    want_kernel: bool = False,
    max_generators: int | None = None,
) -> PackedResult:
    """Solve a two-state board with holes; ``target`` is the (m, n) 0/1 array of cells that
    must toggle an odd number of times, ``present`` the (m, n) mask. The kernel's
    generators are built when wanted (or the board is unsolvable) and there are at most
    ``max_generators``; the nullity always."""
    m, n = present.shape
    target = np.asarray(target, dtype=bool) & present
    slots = _Slots(max(1, (n + 63) // 64 + 1))
    words = slots.words
    # Per variable: its cell, or the record that eliminated it.
    var_cell: list[tuple[int, int]] = []
    # Per row with eliminations: (eliminated variables, constants, bit rows over slots,
    # slot -> variable at that time).
    records: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
    retired: list[int] = []  # variables gone from the live rows for good: kernel directions
    consistent = True

    # The two live rows side by side, so one gather substitutes into both:
    # pair[0] = row r (current), pair[1] = row r + 1 (being determined).
    pair = np.zeros((2, n, words), dtype=np.uint64)
    pair_c = np.zeros((2, n), dtype=np.uint8)
    prev = np.zeros((n, words), dtype=np.uint64)
    prev_c = np.zeros(n, dtype=np.uint8)
    target_bits = target.astype(np.uint8)
    _new_variables(slots, pair[0], pair_c[0], np.flatnonzero(present[0]), 0, var_cell)

    for r in range(m):
        cur, nxt, cur_c, nxt_c = pair[0], pair[1], pair_c[0], pair_c[1]
        row_present = present[r]
        below = present[r + 1] if r + 1 < m else np.zeros(n, dtype=bool)
        _chase_row(cur, cur_c, prev, prev_c, target_bits[r], nxt, nxt_c)
        left_over = np.flatnonzero(row_present & ~below)
        if left_over.size > _BATCH_ROWS:
            pivots, contradiction = _echelon_packed(nxt[left_over], nxt_c[left_over])
        else:
            pivots, contradiction = _reduce_batch(
                [(_to_int(nxt[c]), int(nxt_c[c])) for c in left_over]
            )
        consistent &= not contradiction
        drop = np.flatnonzero(~(row_present & below))
        nxt[drop] = 0
        nxt_c[drop] = 0
        if pivots:
            if r + 1 < m:
                _substitute(pair, pair_c, pivots, slots.words)
            records.append(_record(pivots, slots))
        if r + 1 < m:
            new_cells = np.flatnonzero(below & ~row_present)
            while len(slots.free) < new_cells.size:
                slots.grow()
                pair = _widen(pair, slots.words)
                prev = _widen(prev, slots.words)
            _new_variables(slots, pair[1], pair_c[1], new_cells, r + 1, var_cell)
        prev[...] = pair[0]
        prev_c[...] = pair_c[0]
        pair[0] = pair[1]
        pair_c[0] = pair_c[1]
        if r % _RETIRE_EVERY == 0 or len(slots.free) < n // 8:
            retired.extend(_retire(slots, pair[0], prev))

    alive = [int(v) for v in slots.var_of_slot if v >= 0] + retired
    result = PackedResult(None, len(alive))
    if consistent:
        values = _back_substitute(slots.count, records, {}, homogeneous=False)
        result.presses = _chase_bits(target, present, var_cell, values)
    if (want_kernel or not consistent) and (
        max_generators is None or len(alive) <= max_generators
    ):
        result.kernel.extend(_kernel_grids(present, var_cell, records, slots.count, alive))
    return result


def _chase_row(
    cur: np.ndarray,
    cur_c: np.ndarray,
    prev: np.ndarray,
    prev_c: np.ndarray,
    target_row: np.ndarray,
    nxt: np.ndarray,
    nxt_c: np.ndarray,
) -> None:
    """The presses of the next row that light-chasing forces, written into ``nxt`` (bit
    rows over the variables) and ``nxt_c`` (constants): each cell of the current row must
    end up toggled as ``target_row`` says, and only the press below it can still do it."""
    np.bitwise_xor(cur, prev, out=nxt)
    nxt[1:] ^= cur[:-1]
    nxt[:-1] ^= cur[1:]
    np.bitwise_xor(cur_c, prev_c, out=nxt_c)
    nxt_c ^= target_row
    nxt_c[1:] ^= cur_c[:-1]
    nxt_c[:-1] ^= cur_c[1:]


def _kernel_grids(present, var_cell, records, count: int, alive: list[int]) -> list[np.ndarray]:
    """One quiet pattern per variable still free: that variable 1, the other free ones 0."""
    grids = []
    for var in alive:
        values = _back_substitute(count, records, {var: 1}, homogeneous=True)
        grids.append(_chase_bits(np.zeros(present.shape, dtype=bool), present, var_cell, values))
    return grids


def _retire(slots: _Slots, cur: np.ndarray, prev: np.ndarray) -> list[int]:
    """Free the slots of variables in neither live row: nothing can bring them back, so
    they are free for good (without this, a board of many small pieces keeps thousands
    of slots alive and every row costs that much more)."""
    used = np.bitwise_or.reduce(cur, axis=0) | np.bitwise_or.reduce(prev, axis=0)
    bits = np.unpackbits(used.view(np.uint8), bitorder="little").astype(bool)
    gone = np.flatnonzero((slots.var_of_slot >= 0) & ~bits)
    variables = [int(v) for v in slots.var_of_slot[gone]]
    slots.var_of_slot[gone] = -1
    slots.free.extend(int(s) for s in gone)
    return variables


def _reduce_batch(equations: list[tuple[int, int]]) -> tuple[list[tuple[int, int, int]], bool]:
    """Reduced row echelon form of a few equations ``row . vars = const`` (rows as ints).

    Returns ``[(pivot slot, row, const)]`` with every pivot absent from the other rows,
    and whether some equation reduced to the contradiction 0 = 1.
    """
    rows: list[int] = []
    consts: list[int] = []
    slots: list[int] = []
    contradiction = False
    for row, const in equations:
        for i, slot in enumerate(slots):
            if row >> slot & 1:
                row ^= rows[i]
                const ^= consts[i]
        if not row:
            contradiction |= bool(const)
            continue
        slot = (row & -row).bit_length() - 1
        for i in range(len(rows)):
            if rows[i] >> slot & 1:
                rows[i] ^= row
                consts[i] ^= const
        rows.append(row)
        consts.append(const)
        slots.append(slot)
    return list(zip(slots, rows, consts, strict=True)), contradiction


def _echelon_packed(
    rows: np.ndarray, consts: np.ndarray
) -> tuple[list[tuple[int, int, int]], bool]:
    """:func:`_reduce_batch` for many equations at once on packed rows: each equation in
    turn pivots on its lowest variable, which is cleared from every other equation."""
    rows = rows.copy()
    consts = consts.copy()
    chosen: list[tuple[int, int]] = []  # (slot, row index)
    used = np.zeros(rows.shape[0], dtype=bool)
    for pivot in range(rows.shape[0]):
        nonzero = np.flatnonzero(rows[pivot])
        if not nonzero.size:
            continue
        word = int(nonzero[0])
        value = int(rows[pivot, word])
        slot = 64 * word + (value & -value).bit_length() - 1
        column = ((rows[:, word] >> np.uint64(slot & 63)) & np.uint64(1)).astype(bool)
        column[pivot] = False
        hit = np.flatnonzero(column)
        if hit.size:
            rows[hit] ^= rows[pivot]
            consts[hit] ^= consts[pivot]
        used[pivot] = True
        chosen.append((slot, pivot))
    contradiction = bool(np.any(consts[~used]))
    return [(slot, _to_int(rows[i]), int(consts[i])) for slot, i in chosen], contradiction


def _xor_table(chunk, words: int) -> tuple[np.ndarray, np.ndarray]:
    """All XOR combinations of the chunk's rows: entry i = XOR of rows whose bit is in i."""
    t = len(chunk)
    rows = np.frombuffer(
        b"".join(row.to_bytes(8 * words, "little") for _, row, _ in chunk), dtype=np.uint64
    ).reshape(t, words)
    table = np.empty((1 << t, words), dtype=np.uint64)  # every entry is written below
    ctable = np.empty(1 << t, dtype=np.uint8)
    table[0] = 0
    ctable[0] = 0
    for i, (_, _, const) in enumerate(chunk):
        half = 1 << i
        np.bitwise_xor(table[:half], rows[i], out=table[half : 2 * half])
        np.bitwise_xor(ctable[:half], const, out=ctable[half : 2 * half])
    return table, ctable


def _back_substitute(count, records, fixed: dict[int, int], *, homogeneous: bool):
    """Values of every variable: alive ones from ``fixed`` (default 0), eliminated ones
    from their rows' records in reverse order."""
    values = np.zeros(count + 1, dtype=np.uint8)  # the extra last entry stands for "no variable"
    for var, value in fixed.items():
        values[var] = value
    for eliminated, consts, bits, snapshot in reversed(records):
        by_slot = values[snapshot]  # snapshot -1 reads the extra 0
        parity = (bits[:, : by_slot.size].astype(np.uint16) @ by_slot) & 1
        values[eliminated] = parity.astype(np.uint8) ^ (0 if homogeneous else consts)
    return values[:count]


def _chase_bits(target, present, var_cell, values) -> np.ndarray:
    """Numeric chase on Python-int rows with the free cells' presses given."""
    m, n = present.shape
    mask_rows = _pack(present)
    t_rows = _pack(target)
    free_rows = [0] * m
    for (r, c), value in zip(var_cell, values, strict=True):
        if value:
            free_rows[r] |= 1 << c
    full = (1 << n) - 1
    rows = []
    prev, cur = 0, free_rows[0]
    for r in range(m):
        rows.append(cur)
        raw = t_rows[r] ^ cur ^ ((cur << 1) & full) ^ (cur >> 1) ^ prev
        if r + 1 < m:
            fill = mask_rows[r] & mask_rows[r + 1]
            leftover = mask_rows[r] & ~mask_rows[r + 1]
            nxt = (raw & fill) | free_rows[r + 1]
        else:
            leftover = mask_rows[r]
            nxt = 0
        if raw & leftover:
            raise AssertionError("packed chase did not close; engine bug")
        prev, cur = cur, nxt
    width = (n + 7) // 8
    buffer = b"".join(v.to_bytes(width, "little") for v in rows)
    flat = np.frombuffer(buffer, dtype=np.uint8).reshape(m, width)
    return np.unpackbits(flat, axis=1, bitorder="little")[:, :n]  # count= is 10x slower


def _pack(bits: np.ndarray) -> list[int]:
    packed = np.packbits(bits.astype(bool), axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]
