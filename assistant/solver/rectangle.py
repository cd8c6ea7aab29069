"""Full rectangles: light chasing plus a polynomial gcd (per prime power of k).

For an m x n rectangle, chase rows downwards: with the presses of row 0 as the free
vector ``f``, row r's presses are ``x_r = C_r(M) f + d_r`` where ``M = I + P`` (P the
path graph's adjacency on n cells), ``C_0 = I``, ``C_1 = M``,
``C_{r+1} = -(M C_r + C_{r-1})`` and ``d_r`` is what the chase gives with ``f = 0``. The
equations of the last row say ``x_m = 0``, i.e.

    C_m(M) f = -d_m.

``P`` has the cyclic vector ``e_1`` and ``e_{j+1} = p_j(P) e_1`` where ``p_j`` are the
characteristic polynomials of paths (``p_0 = 1, p_1 = y, p_{j+1} = y p_j - p_{j-1}``,
Chebyshev polynomials of the second kind). So vectors are polynomials modulo ``p_n``
and the system is the single congruence ``q(y) F(y) = D(y) (mod p_n(y))`` with
``q(y) = C_m(1 + y)``: one extended gcd in GF(p)[y] instead of an (mn) x (mn)
elimination. The kernel has dimension ``deg gcd(q, p_n)``.

For k = 2, polynomials are Python ints (bit i = coefficient of y^i) and rows are ints,
so a 10,000 x 10,000 board is solved in well under a second.

References
----------
- K. Sutner, "Linear cellular automata and the Garden-of-Eden", *Math. Intelligencer*
  11(2), 1989; "sigma-automata and Chebyshev polynomials", *Theoretical Computer
  Science* 230, 2000.
- M. Hunziker, A. Machiavelo, J. Park, "Chebyshev polynomials over finite fields and
  reversibility of sigma-automata on square grids", *Theoretical Computer Science* 320,
  2004.
- OEIS A159257 (nullity of the n x n board), used by the tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["RectangleResult", "solve_rectangle_gf2", "solve_rectangle_mod"]


@dataclass
class RectangleResult:
    """``presses`` (m, n) or None; ``kernel`` a basis of (m, n) quiet patterns when it was
    asked for (else empty); ``kernel_orders`` the additive order of each basis element
    (always computed)."""

    presses: np.ndarray | None
    nullity: int
    kernel: list[np.ndarray]
    kernel_orders: list[int] = field(default_factory=list)


# ----------------------------------------------------------------------------- GF(2)
def _deg(a: int) -> int:
    return a.bit_length() - 1


def _pmod2(a: int, b: int) -> int:
    db = _deg(b)
    while a and _deg(a) >= db:
        a ^= b << (_deg(a) - db)
    return a


def _pdivmod2(a: int, b: int) -> tuple[int, int]:
    q, db = 0, _deg(b)
    while a and _deg(a) >= db:
        shift = _deg(a) - db
        q ^= 1 << shift
        a ^= b << shift
    return q, a


def _pmul2(a: int, b: int) -> int:
    if a.bit_count() > b.bit_count():
        a, b = b, a
    result = 0
    while a:
        low = a & -a
        result ^= b << (low.bit_length() - 1)
        a ^= low
    return result


def _gcdex2(a: int, b: int) -> tuple[int, int]:
    """Return ``(g, s)`` with ``s a = g (mod b)``, g = gcd(a, b) in GF(2)[y]."""
    r0, r1, s0, s1 = a, b, 1, 0
    while r1:
        while r0 and _deg(r0) >= _deg(r1):
            shift = _deg(r0) - _deg(r1)
            r0 ^= r1 << shift
            s0 ^= s1 << shift
        r0, r1, s0, s1 = r1, r0, s1, s0
    return r0, s0


def _path_polys2(n: int) -> list[int]:
    """p_0 .. p_n over GF(2): p_{j+1} = y p_j + p_{j-1}."""
    polys = [1, 2]
    while len(polys) <= n:
        polys.append((polys[-1] << 1) ^ polys[-2])
    return polys[: n + 1]


def _vec_to_poly2(v: int, polys: list[int]) -> int:
    result = 0
    while v:
        low = v & -v
        result ^= polys[low.bit_length() - 1]
        v ^= low
    return result


def _poly_to_vec2(h: int, polys: list[int]) -> int:
    v = 0
    while h:
        j = _deg(h)
        v |= 1 << j
        h ^= polys[j]
    return v


def _rows_to_ints(bits) -> list[int]:
    """Rows of a 0/1 array (or anything sliceable by row blocks to one) as Python ints."""
    out: list[int] = []
    for start in range(0, bits.shape[0], 1024):
        block = np.asarray(bits[start : start + 1024]).astype(bool, copy=False)
        packed = np.packbits(block, axis=1, bitorder="little")
        out.extend(int.from_bytes(row.tobytes(), "little") for row in packed)
    return out


def _ints_to_rows(values: list[int], n: int) -> np.ndarray:
    width = (n + 7) // 8
    buffer = b"".join(v.to_bytes(width, "little") for v in values)
    flat = np.frombuffer(buffer, dtype=np.uint8).reshape(len(values), width)
    return np.unpackbits(flat, axis=1, bitorder="little")[:, :n]  # count= is 10x slower


def _chase2(target_rows: list[int], first: int, n: int) -> tuple[list[int], int]:
    """Numeric chase over GF(2) on int rows; returns (rows x_0..x_{m-1}, x_m)."""
    mask = (1 << n) - 1
    rows = [first]
    prev, cur = 0, first
    for t in target_rows:
        nxt = t ^ cur ^ ((cur << 1) & mask) ^ (cur >> 1) ^ prev
        prev, cur = cur, nxt
        rows.append(cur)
    return rows[:-1], rows[-1]


def solve_rectangle_gf2(target: np.ndarray, *, want_kernel: bool = True) -> RectangleResult:
    """Solve the full m x n rectangle over GF(2); ``target`` is the (m, n) 0/1 array of
    cells that must toggle an odd number of times (or an object with ``shape`` that
    gives such rows when sliced by row blocks)."""
    m, n = target.shape
    t_rows = _rows_to_ints(target)
    polys = _path_polys2(n)
    modulus = polys[n]
    # q = C_m(1 + y) mod p_n, with C_0 = 1, C_1 = 1 + y, C_{r+1} = (1 + y) C_r + C_{r-1}.
    c_prev, c = 1, 3
    for _ in range(m - 1):
        nxt = (c << 1) ^ c ^ c_prev
        if _deg(nxt) >= n:
            nxt ^= modulus << (_deg(nxt) - n)
        c_prev, c = c, nxt
    q = _pmod2(c if m >= 1 else 1, modulus)
    _, d_m = _chase2(t_rows, 0, n)
    rhs = _vec_to_poly2(d_m, polys)
    g, s = _gcdex2(q, modulus)
    quotient, remainder = _pdivmod2(rhs, g)
    kernel: list[np.ndarray] = []
    if want_kernel and _deg(g) > 0:
        base = _pdivmod2(modulus, g)[0]
        for i in range(_deg(g)):
            f = _poly_to_vec2(_pmod2(base << i, modulus), polys)
            rows, _ = _chase2([0] * m, f, n)
            kernel.append(_ints_to_rows(rows, n))
    if remainder:
        return RectangleResult(None, _deg(g), kernel, [2] * _deg(g))
    f_poly = _pmod2(_pmul2(_pmod2(s, modulus), quotient), modulus)
    f = _poly_to_vec2(f_poly, polys)
    rows, last = _chase2(t_rows, f, n)
    if last:  # cannot happen: the congruence above is exactly this condition
        raise AssertionError("light chase did not close; engine bug")
    return RectangleResult(_ints_to_rows(rows, n), _deg(g), kernel, [2] * _deg(g))


# ------------------------------------------------ Z_{p^e}: numpy coefficient arrays
def _trim(a: np.ndarray) -> np.ndarray:
    nz = np.flatnonzero(a)
    return a[: nz[-1] + 1] if nz.size else a[:0]


def _pmod_p(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """a mod b in GF(p)[y]; coefficient arrays, lowest degree first; b monic or not."""
    a = _trim(a % p).copy()
    b = _trim(b % p)
    db = b.size - 1
    inv = pow(int(b[-1]), -1, p)
    while a.size - 1 >= db and a.size:
        factor = int(a[-1]) * inv % p
        shift = a.size - 1 - db
        a[shift:] = (a[shift:] - factor * b) % p
        a = _trim(a)
    return a


def _pdivmod_p(a: np.ndarray, b: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    a = _trim(a % p).copy()
    b = _trim(b % p)
    db = b.size - 1
    inv = pow(int(b[-1]), -1, p)
    q = np.zeros(max(a.size - db, 1), dtype=np.int64)
    while a.size and a.size - 1 >= db:
        factor = int(a[-1]) * inv % p
        shift = a.size - 1 - db
        q[shift] = factor
        a[shift:] = (a[shift:] - factor * b) % p
        a = _trim(a)
    return _trim(q), a


def _pmul_p(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    if not a.size or not b.size:
        return a[:0]
    if max(a.size, b.size) * (p - 1) ** 2 < 2**62:
        return _trim(np.convolve(a, b) % p)
    out = np.zeros(a.size + b.size - 1, dtype=np.int64)
    for i, coeff in enumerate(a):
        if coeff:
            out[i : i + b.size] = (out[i : i + b.size] + int(coeff) * b) % p
    return _trim(out)


def _gcdex_p(a: np.ndarray, b: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """(g, s) with s a = g (mod b), g monic gcd in GF(p)[y]."""
    r0, r1 = _trim(a % p), _trim(b % p)
    s0, s1 = np.ones(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    while r1.size:
        q, r = _pdivmod_p(r0, r1, p)
        s_next = _psub_p(s0, _pmul_p(q, s1, p), p)
        r0, r1, s0, s1 = r1, r, s1, s_next
    inv = pow(int(r0[-1]), -1, p)
    return r0 * inv % p, s0 * inv % p


def _psub_p(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    size = max(a.size, b.size)
    out = np.zeros(size, dtype=np.int64)
    out[: a.size] += a
    out[: b.size] -= b
    return _trim(out % p)


def _path_polys_p(n: int, p: int) -> np.ndarray:
    """Rows j = 0..n: coefficients of p_j (p_{j+1} = y p_j - p_{j-1}) over GF(p)."""
    table = np.zeros((n + 1, n + 1), dtype=np.int64)
    table[0, 0] = 1
    if n >= 1:
        table[1, 1] = 1
    for j in range(1, n):
        table[j + 1, 1:] = table[j, :-1]
        table[j + 1] = (table[j + 1] - table[j - 1]) % p
    return table


def _poly_to_vec_p(h: np.ndarray, table: np.ndarray, n: int, p: int) -> np.ndarray:
    """Coordinates of h (deg < n) in the basis p_0..p_{n-1} (each monic of degree j)."""
    h = np.concatenate([h % p, np.zeros(n - h.size, dtype=np.int64)]) if h.size < n else h % p
    v = np.zeros(n, dtype=np.int64)
    for j in range(n - 1, -1, -1):
        coeff = int(h[j])
        if coeff:
            v[j] = coeff
            h[: j + 1] = (h[: j + 1] - coeff * table[j, : j + 1]) % p
    return v


def _chase_mod(target: np.ndarray | None, first: np.ndarray, modulus: int, m: int) -> np.ndarray:
    """Numeric chase over Z_modulus of one free row (n,) or a batch (d, n).

    Returns rows x_0..x_m stacked on the second-to-last axis, shape (m + 1, n) or
    (d, m + 1, n); ``x_m`` must be 0 for a solution. ``target`` None means the
    homogeneous chase. Small moduli run in int16 (five terms of at most modulus - 1 fit).
    """
    dtype = np.int16 if 6 * modulus < 2**15 else np.int64
    rows = np.zeros((*first.shape[:-1], m + 1, first.shape[-1]), dtype=dtype)
    rows[..., 0, :] = first % modulus
    if target is not None:
        target = target.astype(dtype, copy=False)
    for r in range(m):
        cur = rows[..., r, :]
        total = cur.copy()
        total[..., 1:] += cur[..., :-1]
        total[..., :-1] += cur[..., 1:]
        if r:
            total += rows[..., r - 1, :]
        if target is None:
            np.negative(total, out=total)
        else:
            np.subtract(target[r], total, out=total)
        np.remainder(total, modulus, out=rows[..., r + 1, :])
    return rows


def _lift_inverse(s: np.ndarray, q: np.ndarray, modulus_poly: np.ndarray, p: int, e: int):
    """Newton/Hensel: from s q = 1 (mod p, p_n) to s q = 1 (mod p^e, p_n)."""
    m = p**e
    precision = 1
    while precision < e:
        precision *= 2
        two = np.zeros(1, dtype=np.int64) + 2
        qs = _pmod_p(_pmul_p(q, s, m), modulus_poly, m)
        s = _pmod_p(_pmul_p(s, _psub_p(two, qs, m), m), modulus_poly, m)
    return s


def _mult_matrix(q: np.ndarray, modulus_poly: np.ndarray, n: int, m: int) -> np.ndarray:
    """Column j = coefficients of y^j q mod p_n (a monic modulus), over Z_m."""
    matrix = np.zeros((n, n), dtype=np.int64)
    col = np.zeros(n, dtype=np.int64)
    col[: q.size] = q
    lead = modulus_poly[:n]
    for j in range(n):
        matrix[:, j] = col
        top = int(col[-1])
        col = np.concatenate([[0], col[:-1]])
        if top:
            col = (col - top * lead) % m
    return matrix


def solve_rectangle_mod(
    target: np.ndarray, p: int, e: int = 1, *, want_kernel: bool = True
) -> RectangleResult:
    """Solve the full m x n rectangle over Z_{p^e} (see the module docstring).

    For e = 1 the congruence ``q F = R (mod p_n)`` is solved by an extended gcd in
    GF(p)[y]. For e > 1, when q is a unit modulo (p, p_n), its inverse is lifted to
    Z_{p^e} by Newton iteration (Hensel's lemma) and the solution is unique; otherwise
    the congruence is written as the n x n matrix of multiplication by q and handed to
    the elimination over Z_{p^e} (:func:`assistant.solver.modular.solve_mod_large`).

    The kernel basis comes with the additive order of each element (``kernel_orders``).
    """
    from assistant.solver.modular import solve_mod_large

    mod = p**e
    m, n = target.shape
    table = _path_polys_p(n, mod)
    modulus = _trim(table[n].copy())
    # C_0 = 1, C_1 = -(1 + y), C_{r+1} = -((1 + y) C_r + C_{r-1})  (mod p_n)
    c_prev = np.ones(1, dtype=np.int64)
    c = np.array([mod - 1, mod - 1], dtype=np.int64)
    for _ in range(m - 1):
        times = (-np.concatenate([c, [0]]) - np.concatenate([[0], c])) % mod
        c_prev, c = c, _pmod_p(_psub_p(times, c_prev, mod), modulus, mod)
    q = _pmod_p(c, modulus, mod)
    d_m = _chase_mod(target, np.zeros(n, dtype=np.int64), mod, m)[m].astype(np.int64)
    rhs = _pmod_p((-(d_m @ table[:n])) % mod, modulus, mod)
    g, s = _gcdex_p(q % p, modulus % p, p)
    kernel: list[np.ndarray] = []
    orders: list[int] = []
    if g.size == 1:  # q is a unit: one solution
        if e > 1:
            s = _lift_inverse(s, q, modulus, p, e)
        f_poly = _pmod_p(_pmul_p(s, rhs, mod), modulus, mod)
        f_vecs = [_poly_to_vec_p(f_poly, table, n, mod)]
        solvable = True
    elif e == 1:
        quotient, remainder = _pdivmod_p(rhs, g, p)
        solvable = not remainder.size
        f_vecs = []
        if solvable:
            f_poly = _pmod_p(_pmul_p(s, quotient, p), modulus, p)
            f_vecs.append(_poly_to_vec_p(f_poly, table, n, p))
        base, _ = _pdivmod_p(modulus, g, p)
        orders = [p] * (g.size - 1)
        if want_kernel:
            for i in range(g.size - 1):
                shifted = np.concatenate([np.zeros(i, dtype=np.int64), base])
                kernel.append(_poly_to_vec_p(_pmod_p(shifted, modulus, p), table, n, p))
    else:
        matrix = _mult_matrix(q, modulus, n, mod)
        column = np.zeros(n, dtype=np.int64)
        column[: rhs.size] = rhs
        system = solve_mod_large(matrix, column, p, e, max_generators=None if want_kernel else 0)
        solvable = system.solvable
        f_vecs = []
        if solvable:
            f_vecs.append(_poly_to_vec_p(_trim(system.particular), table, n, mod))
        orders = list(system.orders)
        if want_kernel:
            kernel = [_poly_to_vec_p(_trim(gen), table, n, mod) for gen in system.generators]
    presses = None
    if solvable:
        rows = _chase_mod(target, f_vecs[0], mod, m)
        if rows[m].any():
            raise AssertionError("light chase did not close; engine bug")
        presses = rows[:m]
    patterns: list[np.ndarray] = []
    if kernel:
        batch = _chase_mod(None, np.array(kernel), mod, m)
        patterns = [batch[i, :m] for i in range(len(kernel))]
    return RectangleResult(presses, len(orders), patterns, orders)
