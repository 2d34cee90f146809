"""A cheap compliant sweep for the tests of chunk checkpoints and sweep engines: the Table 1 rod at a loose
tolerance, 12 α in chunks of 2 (6 chunks), and what its result files hold apart from the run's own time and
command line."""

import json
from pathlib import Path

import xarray as xr

from regcontact.studies import chunk_checkpoints

STUDY = """
[study]
name = "chunked"
kind = "compliant_sweep"

[system]
phi0 = 1.0471975511965976

[sweep]
alpha = { logspace = [2, 5, 12] }
chunk_size = 2

[solver]
name = "RadauIIA5"
rtol = 1e-7
atol = 1e-9

[references]
impulse_velocity = true
"""

#: Entries that differ between any two runs of the same study: when and how it was run, and how long it took.
RUN_OWN = ("created", "command", "timings_s")


def write_study(folder: Path) -> Path:
    path = folder / "chunked.toml"
    path.write_text(STUDY)
    return path


def assert_same_results(out: Path, reference: Path, also: tuple[str, ...] = ()) -> None:
    """The CSV byte for byte; the JSON and the NetCDF grid equal but for :data:`RUN_OWN` (and ``also``) and the
    grid file's record."""
    assert (out / "results.csv").read_bytes() == (reference / "results.csv").read_bytes()
    documents = [json.loads((folder / "results.json").read_text()) for folder in (out, reference)]
    for document in documents:
        for key in RUN_OWN + also:
            document.pop(key)
        document["files"].pop("results.nc")  # its bytes hold the run's own attributes; the CSV's record stays
    assert documents[0] == documents[1]
    grids = [xr.open_dataset(folder / "results.nc").load() for folder in (out, reference)]
    for grid in grids:
        for key in RUN_OWN + also:
            grid.attrs.pop(key, None)
    xr.testing.assert_identical(grids[0], grids[1])
    assert not (out / "chunks").exists()


def run_reference(folder: Path) -> Path:
    """The uninterrupted run's results, in this process."""
    from regcontact.cli import main

    assert main(["run", str(write_study(folder)), "--out", str(folder / "out")]) == 0
    return folder / "out"


#: The ball of ``user_bodies/ball.py`` (``docs/own-body.md``) without its ``[sweep]``: :func:`ball_study` adds it.
_BALL = """
[study]
name = "ball"
[system]
kind = "bodies.py:Ball"
vy0 = -1.0
vx0 = 0.3
mu = 0.2
[contact.normal_exponents]
stiffness = 2.0
damping = 1.0
[termination]
time_limit = 10.0
[references]
impulse_velocity = false
compliant_limit = false
"""


def ball_study(sweep: str) -> str:
    """The ball study of ``user_bodies/`` with the ``[sweep]`` table's lines ``sweep``."""
    return f"{_BALL}[sweep]\n{sweep}\n"


def saved_chunks(monkeypatch) -> list[int]:
    """The first case of each chunk saved from now on, in order (the chunks are still saved)."""
    solved: list[int] = []
    real = chunk_checkpoints.ChunkCheckpoints.save
    monkeypatch.setattr(
        chunk_checkpoints.ChunkCheckpoints,
        "save",
        lambda self, first, runs: (solved.append(first), real(self, first, runs)),
    )
    return solved
