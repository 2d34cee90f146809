"""Lemke's method in exact rational arithmetic: an oracle for the floating-point implementation.

Every float is a rational, so running the same pivoting rules (covering vector of ones, lexicographic ratio
test on ``B⁻¹ [q | I]``, ties on the value going to ``z₀``) on ``Fraction``s gives the path a perfect
implementation would take. The float version must reproduce its status, pivot count and ``z``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def exact_lemke(M: np.ndarray, q: np.ndarray, max_pivots: int = 10_000) -> tuple[str, int, np.ndarray | None]:
    """``(status, pivots, z)`` of exact lexicographic Lemke; ``z`` is None unless solved."""
    n = len(q)
    if all(value >= 0 for value in q):
        return "solved", 0, np.zeros(n)
    # Row i of the tableau: [ (B⁻¹q)_i | (B⁻¹)_i | (B⁻¹ [I, −M, −1])_i ]
    tableau = [
        [Fraction(q[i])]
        + [Fraction(int(i == j)) for j in range(n)]
        + [Fraction(int(i == j)) for j in range(n)]
        + [Fraction(-M[i, j]) for j in range(n)]
        + [Fraction(-1)]
        for i in range(n)
    ]
    offset, artificial = 1 + n, 2 * n
    basis = list(range(n))

    def pivot(row: int, column: int) -> None:
        p = tableau[row][offset + column]
        tableau[row] = [x / p for x in tableau[row]]
        for i in range(n):
            factor = tableau[i][offset + column]
            if i != row and factor != 0:
                tableau[i] = [a - factor * b for a, b in zip(tableau[i], tableau[row])]

    # First pivot: z₀ enters at the row of the lexicographically largest −(q_i + ε^i).
    row = max(range(n), key=lambda i: tuple(-tableau[i][k] for k in range(1 + n)))
    entering, pivots = artificial, 0
    while True:
        leaving = basis[row]
        pivot(row, entering)
        basis[row] = entering
        pivots += 1
        if leaving == artificial:
            z = np.zeros(n)
            for i, variable in enumerate(basis):
                if n <= variable < 2 * n:
                    z[variable - n] = float(tableau[i][0])
            return "solved", pivots, z
        if pivots >= max_pivots:
            return "pivot_limit", pivots, None
        entering = leaving + n if leaving < n else leaving - n
        rows = [i for i in range(n) if tableau[i][offset + entering] > 0]
        if not rows:
            return "ray_termination", pivots, None

        def key(i: int) -> tuple[Fraction, ...]:
            return tuple(tableau[i][k] / tableau[i][offset + entering] for k in range(1 + n))

        smallest = min(key(i)[0] for i in rows)
        to_artificial = [i for i in rows if basis[i] == artificial and key(i)[0] == smallest]
        row = to_artificial[0] if to_artificial else min(rows, key=key)
