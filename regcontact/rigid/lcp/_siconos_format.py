"""Reader for the dense LCP files of the Siconos test suite (numerics/src/LCP/test/data).

Layout (whitespace separated): ``n``, a storage flag (0 = dense), ``n``, ``n``, ``n n``; then the matrix
``M`` column by column (``n²`` numbers), then ``q`` (``n`` numbers); anything after that is a free comment.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["read_siconos_lcp"]


def read_siconos_lcp(path: str | Path) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``(M, q)`` from a Siconos dense LCP file; ``ValueError`` naming the file if it is malformed."""
    tokens = Path(path).read_text().split()
    try:
        header = [int(float(token)) for token in tokens[:6]]
        n = header[0]
        numbers = np.array([float(token) for token in tokens[6 : 6 + n * n + n]])
    except (ValueError, IndexError) as error:
        raise ValueError(f"{path}: not a Siconos dense LCP file ({error})") from error
    if header[1] != 0 or header[2:] != [n, n, n, n] or numbers.size != n * n + n:
        raise ValueError(f"{path}: expected header 'n 0 n n n n' and n² + n numbers, got header {header}")
    M = numbers[: n * n].reshape(n, n).T  # stored column by column
    return M, numbers[n * n :]
