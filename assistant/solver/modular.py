"""Exact linear systems over the ring Z_k, for any k >= 2 (prime or composite).

Z_k is a field only when k is prime: Z_4 is not GF(4) and Z_6 has zero divisors, so
the system is split by the Chinese remainder theorem into prime-power moduli p^e and
each part is diagonalised by unimodular row and column operations over Z_{p^e}
(a Smith-form elimination; pivots are chosen by least p-adic valuation, which is what
makes every division exact). The column operations are kept, so the result gives a
particular solution and a kernel basis in which every kernel element has exactly one
representation ``sum c_i g_i`` with ``0 <= c_i < order_i``.

References
----------
- A. Storjohann, *Algorithms for Matrix Canonical Forms*, PhD thesis, ETH Zurich, 2000
  (echelon/Howell/Smith forms over Z_N).
- J. A. Howell, "Spans in the module (Z_m)^s", *Linear and Multilinear Algebra* 19, 1986.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import prod

import numpy as np

__all__ = [
    "MAX_MODULUS",
    "ModularSystem",
    "crt_pair",
    "dot_mod",
    "factorize",
    "solve_mod",
    "solve_mod_large",
    "solve_mod_prime_power",
]

#: Entries stay below this so every product fits in a signed 64-bit integer.
MAX_MODULUS = 2**31


def factorize(k: int) -> list[tuple[int, int]]:
    """Prime factorisation ``[(p, e), ...]`` of ``k >= 2`` by trial division."""
    factors: list[tuple[int, int]] = []
    n = k
    p = 2
    while p * p <= n:
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            factors.append((p, e))
        p += 1 if p == 2 else 2
    if n > 1:
        factors.append((n, 1))
    return factors


def crt_pair(r1: int, m1: int, r2: int, m2: int) -> int:
    """The residue mod ``m1*m2`` that is ``r1`` mod ``m1`` and ``r2`` mod ``m2`` (coprime)."""
    inv = pow(m1, -1, m2)
    return (r1 + m1 * ((r2 - r1) * inv % m2)) % (m1 * m2)


@dataclass
class ModularSystem:
    """The solution set of ``A x = b (mod modulus)``.

    Attributes
    ----------
    modulus : the ring Z_modulus the system lives in.
    particular : one solution, or ``None`` when there is none.
    generators : kernel basis vectors (length n, entries in [0, modulus)).
    orders : additive order of each generator; every kernel element is
        ``sum c_i * generators[i]`` for exactly one choice ``0 <= c_i < orders[i]``.
    certificate : when unsolvable, a vector ``z`` with ``z A = 0`` and ``z b != 0``
        (mod modulus): the proof shown to the user.
    """

    modulus: int
    particular: np.ndarray | None
    generators: list[np.ndarray] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)
    certificate: np.ndarray | None = None

    @property
    def solvable(self) -> bool:
        return self.particular is not None

    @property
    def kernel_size(self) -> int:
        return prod(self.orders)

    @property
    def nullity(self) -> int:
        """Least number of generators of the kernel (its dimension when the modulus is prime)."""
        return _min_generators(self.modulus, self.orders)


def _min_generators(modulus: int, orders: list[int]) -> int:
    best = 0
    for p, _ in factorize(modulus) if modulus > 1 else []:
        best = max(best, sum(1 for order in orders if order % p == 0))
    return best


def _valuation(values: np.ndarray, p: int, e: int) -> np.ndarray:
    """p-adic valuation of each entry of ``values`` (in [0, p^e)); ``e`` for zero."""
    val = np.zeros(values.shape, dtype=np.int64)
    rest = values.copy()
    nonzero = rest != 0
    val[~nonzero] = e
    for _ in range(e - 1):
        step = nonzero & (rest % p == 0)
        if not step.any():
            break
        val[step] += 1
        rest[step] //= p
    return val


def solve_mod_prime_power(a: np.ndarray, b: np.ndarray, p: int, e: int) -> ModularSystem:
    """Solve ``a x = b`` over Z_{p^e} by Smith-form elimination.

    Parameters
    ----------
    a : integer matrix (r, n); b : integer vector (r,).
    p, e : the prime and exponent of the modulus.

    Returns
    -------
    ModularSystem with a particular solution (or a certificate) and the kernel basis.

    Notes
    -----
    Rows and columns are both permuted so the pivot has the least p-adic valuation in
    the remaining block; then every other entry of its row and column is a multiple of
    the pivot and both can be cleared exactly. Column operations are recorded in ``V``
    (``x = V y``) and row operations are applied to ``b`` and recorded in ``U`` for the
    certificate. Cost O(r n (r + n)) integer operations.
    """
    m = p**e
    rows, cols = a.shape
    mat = np.asarray(a, dtype=np.int64) % m
    rhs = np.asarray(b, dtype=np.int64).reshape(rows) % m
    v = np.eye(cols, dtype=np.int64)
    u = np.eye(rows, dtype=np.int64)
    valuations = _diagonalise(mat, rhs, u, v, p, e)
    # Now u a v = diag(p^val_t) padded with zeros, and u b = rhs.
    y, certificate = _diagonal_solution(rhs, u, valuations, cols, p, e)
    generators, orders = _diagonal_kernel(v, valuations, cols, p, e)
    particular = None if certificate is not None else _undo_columns(v, y, m)
    return ModularSystem(m, particular, generators, orders, certificate)


def _diagonalise(
    mat: np.ndarray, rhs: np.ndarray, u: np.ndarray, v: np.ndarray, p: int, e: int
) -> list[int]:
    """Bring ``mat`` to diagonal form in place (see :func:`solve_mod_prime_power`): row
    operations applied to ``rhs`` and recorded in ``u``, column operations recorded in
    ``v``. Returns the p-adic valuation of each pivot, in order (their count is the rank).
    """
    m = p**e
    rows, cols = mat.shape
    valuations: list[int] = []
    rank = 0
    limit = min(rows, cols)
    while rank < limit:
        block = mat[rank:, rank:]
        if not block.any():
            break
        i, j, val = _least_valuation_entry(block, p, e)
        i += rank
        j += rank
        if i != rank:
            mat[[rank, i]] = mat[[i, rank]]
            rhs[[rank, i]] = rhs[[i, rank]]
            u[[rank, i]] = u[[i, rank]]
        if j != rank:
            mat[:, [rank, j]] = mat[:, [j, rank]]
            v[:, [rank, j]] = v[:, [j, rank]]
        pivot = int(mat[rank, rank])
        unit = pivot // p**val
        inv = pow(unit, -1, m)
        if inv != 1:
            mat[rank] = mat[rank] * inv % m
            rhs[rank] = rhs[rank] * inv % m
            u[rank] = u[rank] * inv % m
        step = p**val
        # Clear the pivot column below the pivot (row operations).
        below = mat[rank + 1 :, rank]
        nz = np.flatnonzero(below)
        if nz.size:
            factors = below[nz] // step
            idx = nz + rank + 1
            mat[idx] = (mat[idx] - np.outer(factors, mat[rank]) % m) % m
            rhs[idx] = (rhs[idx] - factors * rhs[rank] % m) % m
            u[idx] = (u[idx] - np.outer(factors, u[rank]) % m) % m
        # Clear the pivot row right of the pivot (column operations, kept in v).
        right = mat[rank, rank + 1 :]
        nz = np.flatnonzero(right)
        if nz.size:
            factors = right[nz] // step
            idx = nz + rank + 1
            v[:, idx] = (v[:, idx] - np.outer(v[:, rank], factors) % m) % m
            mat[rank, idx] = 0
        valuations.append(val)
        rank += 1
    return valuations


def _least_valuation_entry(block: np.ndarray, p: int, e: int) -> tuple[int, int, int]:
    """Row, column and p-adic valuation of the first entry of least valuation (for
    GF(2): the first non-zero entry)."""
    if p == 2 and e == 1:
        i, j = np.unravel_index(int(np.argmax(block != 0)), block.shape)
        return int(i), int(j), 0
    vals = _valuation(block, p, e)
    i, j = np.unravel_index(int(np.argmin(vals)), block.shape)
    return int(i), int(j), int(vals[i, j])


def _diagonal_solution(
    rhs: np.ndarray, u: np.ndarray, valuations: list[int], cols: int, p: int, e: int
) -> tuple[np.ndarray, np.ndarray | None]:
    """``y`` with ``diag(p^val) y = rhs``, or a certificate of unsolvability: the row
    combination ``z`` (from ``u``) with ``z a = 0`` and ``z b != 0``."""
    m = p**e
    rank = len(valuations)
    y = np.zeros(cols, dtype=np.int64)
    for t, val in enumerate(valuations):
        if rhs[t] % p**val:
            return y, (u[t] * p ** (e - val)) % m
        y[t] = rhs[t] // p**val
    bad = np.flatnonzero(rhs[rank:])
    if bad.size:
        return y, u[rank + int(bad[0])] % m
    return y, None


def _diagonal_kernel(
    v: np.ndarray, valuations: list[int], cols: int, p: int, e: int
) -> tuple[list[np.ndarray], list[int]]:
    """The kernel basis and the generators' orders: a pivot ``p^val`` with ``val > 0``
    gives a generator of order ``p^val``, a column without pivot one of order ``p^e``."""
    m = p**e
    generators: list[np.ndarray] = []
    orders: list[int] = []
    for t, val in enumerate(valuations):
        if val > 0:
            generators.append(v[:, t] * p ** (e - val) % m)
            orders.append(p**val)
    for t in range(len(valuations), cols):
        generators.append(v[:, t] % m)
        orders.append(m)
    return generators, orders


def _undo_columns(v: np.ndarray, y: np.ndarray, m: int) -> np.ndarray:
    """``x = v y (mod m)``: the solution in the original unknowns."""
    cols = y.size
    if not cols:
        return y
    if m > 2**15:
        # v @ y may overflow int64 for big moduli: compute exactly with Python ints.
        return np.array(
            [sum(int(v[i, t]) * int(y[t]) for t in range(cols)) % m for i in range(cols)],
            dtype=np.int64,
        )
    return (v @ y) % m


def solve_mod(a: np.ndarray, b: np.ndarray, k: int) -> ModularSystem:
    """Solve ``a x = b`` over Z_k for any ``k >= 2``: CRT over the prime powers of ``k``.

    The kernel of the whole system is the direct sum of the parts' kernels, each part's
    generators embedded into Z_k by the CRT idempotent, so the unique-representation
    property of :func:`solve_mod_prime_power` carries over.
    """
    if not 2 <= k <= MAX_MODULUS:
        raise ValueError(f"modulus {k} is outside 2..{MAX_MODULUS}")
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    n = a.shape[1]
    parts = [(p, e, solve_mod_prime_power(a, b, p, e)) for p, e in factorize(k)]
    if len(parts) == 1:
        return parts[0][2]
    generators: list[np.ndarray] = []
    orders: list[int] = []
    particular = np.zeros(n, dtype=np.int64)
    certificate = None
    for p, e, part in parts:
        q = p**e
        other = k // q
        idempotent = other * pow(other, -1, q) % k  # 1 mod q, 0 mod the other parts
        if not part.solvable and certificate is None:
            certificate = _embed(part.certificate, other, k)
        if part.solvable:
            particular = (particular + _embed(part.particular, idempotent, k)) % k
        for g, order in zip(part.generators, part.orders, strict=True):
            generators.append(_embed(g, idempotent, k))
            orders.append(order)
    if certificate is not None:
        return ModularSystem(k, None, generators, orders, certificate)
    return ModularSystem(k, particular, generators, orders, None)


def _embed(vector: np.ndarray, factor: int, k: int) -> np.ndarray:
    """``vector * factor mod k`` without int64 overflow."""
    if k <= 2**31 and factor < 2**31:
        return (np.asarray(vector, dtype=np.int64) * factor) % k
    return np.array([int(x) * factor % k for x in vector], dtype=np.int64)


#: Float64 sums stay exact below this.
_EXACT = 2**53

#: Columns per panel of the blocked elimination in :func:`solve_mod_large`.
_PANEL = 128


def _finite_product() -> np.errstate:
    """OpenBLAS can leave the floating-point "invalid" flag set after a product of
    finite numbers, which numpy then reports as a warning (numpy issue 24067); the
    products here are of small integers only."""
    return np.errstate(invalid="ignore")


def dot_mod(a: np.ndarray, b: np.ndarray, q: int) -> np.ndarray:
    """``(a @ b) mod q`` exactly, for integer arrays with entries in ``[0, q)``.

    The product goes through float64 BLAS: ``b`` is split into limbs of a few bits and
    the inner dimension into chunks so that every sum stays below 2^53 (one limb and one
    chunk for the moduli of a game board), and the pieces are recombined mod q. Each
    BLAS call is kept small enough to run on one thread (see :func:`_one_thread`).
    """
    a = np.asarray(a)
    b = np.asarray(b)
    inner = a.shape[-1]
    out_shape = a.shape[:-1] + b.shape[1:]
    if inner == 0 or q == 1:
        return np.zeros(out_shape, dtype=np.int64)
    top = q - 1
    bits = top.bit_length()
    limb = bits
    while limb > 1 and inner * top * ((1 << limb) - 1) >= _EXACT:
        limb -= 1
    chunk = inner
    while chunk > 1 and chunk * top * ((1 << limb) - 1) >= _EXACT:
        chunk = (chunk + 1) // 2
    if limb == bits and chunk == inner:  # the usual case: one exact product
        product = _one_thread(a.astype(np.float64), b.astype(np.float64))
        return _reduce(product, q).astype(np.int64)
    a = a.astype(np.int64)
    b = b.astype(np.int64)
    result = np.zeros(out_shape, dtype=np.int64)
    mask = (1 << limb) - 1
    for start in range(0, inner, chunk):
        part_a = a[..., start : start + chunk].astype(np.float64)
        part_b = b[start : start + chunk]
        for shift in range(0, bits, limb):
            piece = part_b if limb == bits else (part_b >> shift) & mask
            product = _reduce(_one_thread(part_a, piece.astype(np.float64)), q).astype(np.int64)
            scale = pow(2, shift, q)
            result += product if scale == 1 else product * scale % q
            result %= q
    return result


#: OpenBLAS runs a product on one thread below this many multiply-adds. The row-by-row
#: eliminations make thousands of small products, and two threads that wait for each
#: other on a busy two-core machine made them several times slower.
_ONE_THREAD_MACS = 2**18


def _one_thread(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` (float64, ``a`` 1-D or 2-D) in pieces of rows small enough for one thread."""
    width = b.shape[1] if b.ndim == 2 else 1
    if a.ndim == 1 or a.size * width <= _ONE_THREAD_MACS:
        with _finite_product():
            return a @ b
    step = max(1, _ONE_THREAD_MACS // (a.shape[1] * width))
    out = np.empty((a.shape[0], *b.shape[1:]), dtype=np.float64)
    with _finite_product():
        for start in range(0, a.shape[0], step):
            out[start : start + step] = a[start : start + step] @ b
    return out


def solve_mod_large(
    a: np.ndarray, b: np.ndarray, p: int, e: int, *, max_generators: int | None = None
) -> ModularSystem:
    """:func:`solve_mod_prime_power` for systems of hundreds or thousands of unknowns.

    Every column that has a *unit* entry (not divisible by p) in a row not yet used is
    eliminated first, by a blocked Gauss-Jordan elimination: pivots are found on a panel
    of :data:`_PANEL` columns, their rows moved to the top, and every other row updated
    with one matrix product through BLAS (in float64 while every sum stays exact, else
    with :func:`dot_mod`). What is left -- rows whose remaining entries are all multiples
    of p, which for a prime modulus means zero rows -- is small and goes to the
    Smith-form elimination. Z_{p^e} is never treated as a field: only units are
    inverted. The result has the same unique-representation kernel basis (its
    generators built only when there are at most ``max_generators``; the orders always).
    """
    q = p**e
    rows, cols = a.shape
    in_float = _PANEL * (q - 1) ** 2 < 2**52
    work = np.zeros((rows, cols + 1), dtype=np.float64 if in_float else np.int64)
    work[:, :cols] = np.asarray(a, dtype=np.int64) % q
    work[:, cols] = np.asarray(b, dtype=np.int64).reshape(rows) % q
    pivot_cols = _eliminate_unit_columns(work, p, e, in_float)
    work = work.astype(np.int64) if in_float else work
    return _solve_rest(work, np.array(pivot_cols, dtype=np.int64), p, e, max_generators)


def _eliminate_unit_columns(work: np.ndarray, p: int, e: int, in_float: bool) -> list[int]:
    """Blocked Gauss-Jordan elimination of ``work`` (the system with its right-hand side
    as the last column) in place, panel by panel, on unit pivots only. Returns the pivot
    columns; their rows are the first ones of ``work``, in the same order."""
    q = p**e
    rows, cols = work.shape[0], work.shape[1] - 1
    done = 0  # rows [0, done) hold the pivots found so far, in order
    pivot_cols: list[int] = []
    skipped: list[int] = []
    for start in range(0, cols, _PANEL):
        if done == rows:
            break
        panel_cols = np.arange(start, min(cols, start + _PANEL))
        chosen = _panel_pivots(work[done:, panel_cols], p, q)
        taken = {j for _, j in chosen}
        skipped.extend(int(c) for j, c in enumerate(panel_cols) if j not in taken)
        if not chosen:
            continue
        local = [i for i, _ in chosen]
        order = np.concatenate([local, np.setdiff1d(np.arange(rows - done), local)])
        work[done:] = work[done:][order]
        here = panel_cols[[j for _, j in chosen]]
        end = done + len(chosen)
        inverse = _inverse_mod(work[done:end, here], p, q)
        # Columns left of the first column that can still be non-zero are not touched.
        low = min(skipped[0], start) if skipped and e > 1 else start
        if in_float:
            with _finite_product():
                reduced = _reduce(inverse @ work[done:end, low:], q)
        else:
            reduced = dot_mod(inverse, work[done:end, low:], q)
        for part in (work[:done, low:], work[end:, low:]):
            factors = part[:, here - low]
            if in_float:
                with _finite_product():
                    part -= factors @ reduced
                _reduce(part, q)
            else:
                part[...] = (part - dot_mod(factors, reduced, q)) % q
        work[done:end, low:] = reduced
        done = end
        pivot_cols.extend(int(c) for c in here)
    return pivot_cols


def _solve_rest(
    work: np.ndarray, pivots: np.ndarray, p: int, e: int, max_generators: int | None
) -> ModularSystem:
    """The system once its unit pivots are eliminated (``work``: integer rows, pivot rows
    first, right-hand side last): the rest by Smith form, then the pivot unknowns by
    back-substitution into each kernel generator and the particular solution."""
    q = p**e
    cols = work.shape[1] - 1
    done = pivots.size
    free_cols = np.setdiff1d(np.arange(cols), pivots)
    rest = work[done:][:, free_cols]
    rest_rhs = work[done:, cols]
    keep = rest.any(axis=1) | (rest_rhs != 0)
    # Free columns in no remaining equation are free outright (order q, a unit vector);
    # only the others go to the Smith form.
    involved = rest[keep].any(axis=0)
    tail = solve_mod_prime_power(rest[keep][:, involved], rest_rhs[keep], p, e)
    loose = int(np.count_nonzero(~involved))
    orders = [*tail.orders, *([q] * loose)]
    by_pivot = work[:done][:, free_cols]
    generators: list[np.ndarray] = []
    if orders and (max_generators is None or len(orders) <= max_generators):
        free_parts = np.zeros((len(orders), free_cols.size), dtype=np.int64)
        if tail.generators:
            free_parts[: len(tail.generators), involved] = tail.generators
        free_parts[len(tail.generators) :, np.flatnonzero(~involved)] = np.eye(
            loose, dtype=np.int64
        )
        pivot_parts = (-dot_mod(by_pivot, free_parts.T, q)) % q
        for t in range(len(orders)):
            vector = np.zeros(cols, dtype=np.int64)
            vector[free_cols] = free_parts[t]
            vector[pivots] = pivot_parts[:, t]
            generators.append(vector)
    particular = None
    if tail.particular is not None:
        particular = np.zeros(cols, dtype=np.int64)
        particular[free_cols[involved]] = tail.particular
        particular[pivots] = (
            work[:done, cols] - dot_mod(by_pivot, particular[free_cols], q)
        ) % q
    return ModularSystem(q, particular, generators, orders)


def _panel_pivots(panel: np.ndarray, p: int, q: int) -> list[tuple[int, int]]:
    """The (row, column) of each unit pivot a row-by-row Gauss-Jordan elimination of one
    panel would take. Only what decides the next pivots is eliminated: the rows not yet
    used, the columns to the right."""
    rows = np.arange(panel.shape[0])
    work = _reduce(panel.copy(), q)
    chosen: list[tuple[int, int]] = []
    for j in range(panel.shape[1]):
        column = work[:, j]
        units = np.flatnonzero(_reduce(column.copy(), p) != 0)
        if not units.size:
            continue
        i = int(units[0])
        chosen.append((int(rows[i]), j))
        pivot_row = _reduce(work[i, j + 1 :] * pow(int(column[i]), -1, q), q)
        keep = np.ones(rows.size, dtype=bool)
        keep[i] = False
        rows, work = rows[keep], work[keep]
        factors = work[:, j]
        hit = np.flatnonzero(factors)
        if hit.size:
            work[hit, j + 1 :] = _reduce(
                work[hit, j + 1 :] - _reduce(np.outer(factors[hit], pivot_row), q), q
            )
    return chosen


def _inverse_mod(block: np.ndarray, p: int, q: int) -> np.ndarray:
    """Inverse of a square matrix that is invertible over Z_q (its determinant a unit)."""
    size = block.shape[0]
    work = np.concatenate([_reduce(block.copy(), q), np.eye(size, dtype=block.dtype)], axis=1)
    for j in range(size):
        i = j + int(np.flatnonzero(_reduce(work[j:, j].copy(), p) != 0)[0])
        if i != j:
            work[[i, j]] = work[[j, i]]
        work[j] = _reduce(work[j] * pow(int(work[j, j]), -1, q), q)
        factors = work[:, j].copy()
        factors[j] = 0
        hit = np.flatnonzero(factors)
        if hit.size:
            work[hit] = _reduce(work[hit] - _reduce(np.outer(factors[hit], work[j]), q), q)
    return work[:, size:]


def _reduce(values: np.ndarray, q: int) -> np.ndarray:
    """``values mod q`` in place: integers, or floats holding integers below 2^52 (where
    ``x - q floor(x / q)`` is exact and much faster than an integer remainder)."""
    if values.dtype.kind == "f":
        below = np.floor(values / q)
        below *= q
        values -= below
    else:
        values %= q
    return values
