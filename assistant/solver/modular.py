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
    "factorize",
    "solve_mod",
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
    valuations: list[int] = []
    rank = 0
    limit = min(rows, cols)
    while rank < limit:
        block = mat[rank:, rank:]
        if not block.any():
            break
        if p == 2 and e == 1:
            i, j = np.unravel_index(int(np.argmax(block != 0)), block.shape)
            val = 0
        else:
            vals = _valuation(block, p, e)
            flat = int(np.argmin(vals))
            i, j = np.unravel_index(flat, block.shape)
            val = int(vals[i, j])
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

    # Now u a v = diag(p^val_t) padded with zeros, and u b = rhs.
    certificate = None
    y = np.zeros(cols, dtype=np.int64)
    for t, val in enumerate(valuations):
        if rhs[t] % p**val:
            certificate = (u[t] * p ** (e - val)) % m
            break
        y[t] = rhs[t] // p**val
    if certificate is None:
        bad = np.flatnonzero(rhs[rank:])
        if bad.size:
            certificate = u[rank + int(bad[0])] % m
    generators: list[np.ndarray] = []
    orders: list[int] = []
    for t, val in enumerate(valuations):
        if val > 0:
            generators.append(v[:, t] * p ** (e - val) % m)
            orders.append(p**val)
    for t in range(rank, cols):
        generators.append(v[:, t] % m)
        orders.append(m)
    particular = None if certificate is not None else (v @ y) % m if cols else y
    if particular is not None and cols and m > 2**15:
        # v @ y may overflow int64 for big moduli: recompute exactly with Python ints.
        particular = np.array(
            [sum(int(v[i, t]) * int(y[t]) for t in range(cols)) % m for i in range(cols)],
            dtype=np.int64,
        )
    return ModularSystem(m, particular, generators, orders, certificate)


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
