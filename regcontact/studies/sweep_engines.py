"""Where a sweep's chunks are solved: in this process on its own devices, or on the workers of a Dask cluster
(``docs/cluster.md``)."""

from __future__ import annotations

import abc
import contextlib
import pickle
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import jax
import jax.tree_util as jtu
import numpy as np

from regcontact.compliant import (
    Case,
    CompliantRun,
    SolveSettings,
    SweepProgress,
    SweepTimings,
    batch_size,
    chunk_starts,
    sweep,
    sweep_chunk_size,
)
from regcontact.compliant.devices import describe_devices
from regcontact.studies._user_classes import file_modules, install_file_modules, one_line

__all__ = ["AbstractSweepEngine", "ChunkNotLoaded", "DaskEngine", "LocalEngine"]


class ChunkNotLoaded(RuntimeError):
    """A worker could not unpickle a chunk: a class of the study is not importable there (one line)."""


class AbstractSweepEngine(abc.ABC):
    """Solves the chunks of a sweep (:func:`~regcontact.compliant.sweep`'s arguments) somewhere."""

    @abc.abstractmethod
    def sweep(
        self,
        cases: Case,
        settings: SolveSettings,
        chunk_size: int,
        progress: Callable[[str], None],
        devices: Sequence[jax.Device],
        done: Mapping[int, CompliantRun],
        on_chunk: Callable[[int, CompliantRun], None] | None,
        announce_above: int | None,
    ) -> tuple[CompliantRun, SweepTimings]:
        """The runs of every case, in order, and the timings."""

    @abc.abstractmethod
    def describe(self, devices: Sequence[jax.Device]) -> str:
        """Where the cases were solved, for ``results.json``."""

    def describe_cluster(self) -> str | None:
        """The cluster the chunks go to, for a progress line (``None``: this process)."""
        return None


class LocalEngine(AbstractSweepEngine):
    """This process, on ``devices``, with a progress bar."""

    def sweep(self, cases, settings, chunk_size, progress, devices, done, on_chunk, announce_above):
        return sweep(
            cases,
            settings,
            chunk_size=chunk_size,
            progress=progress,
            devices=devices,
            progress_bar=True,
            done=done,
            on_chunk=on_chunk,
            announce_above=announce_above,
        )

    def describe(self, devices):
        return describe_devices(devices)


def solve_chunk(cases: Case, settings: SolveSettings) -> tuple[CompliantRun, SweepTimings]:
    """A Dask task: one padded chunk, solved in one vmapped call on the worker's devices (every core, as
    ``regcontact run`` takes them, unless ``JAX_NUM_CPU_DEVICES`` says otherwise; or every GPU). The worker's
    first task also switches on the compilation cache, so that a restarted worker need not compile again."""
    from regcontact.compliant.compilation_cache import use_compilation_cache
    from regcontact.compliant.devices import backends_started, use_host_cores

    if not backends_started():
        use_host_cores()
        use_compilation_cache()
    return sweep(cases, settings, chunk_size=batch_size(cases))


def solve_shipped(modules: tuple[tuple[str, str, bytes], ...], payload: bytes) -> tuple[CompliantRun, SweepTimings]:
    """A Dask task: the study's modules from files imported here as in the process that loaded the study
    (:func:`~regcontact.studies._user_classes.install_file_modules`), then the pickled ``(cases, settings)`` of
    :meth:`DaskEngine.sweep` solved (:func:`solve_chunk`). A chunk that cannot be unpickled here is a
    :class:`ChunkNotLoaded`, which ends the run, not the worker."""
    try:
        install_file_modules(modules)
        cases, settings = pickle.loads(payload)
    except Exception as error:
        raise ChunkNotLoaded(one_line(error)) from None
    return solve_chunk(cases, settings)


class DaskEngine(AbstractSweepEngine):
    """The workers of a ``dask.distributed`` client: one task per chunk, results gathered as they finish."""

    def __init__(self, client: Any):
        self.client = client

    @classmethod
    @contextlib.contextmanager
    def connect(cls, scheduler: str | None = None, local_workers: int | None = None) -> Iterator[DaskEngine]:
        """An engine on the cluster at ``scheduler`` (``tcp://host:8786``), or on a cluster of
        ``local_workers`` processes started here (each with an equal share of the cores); closed on exit."""
        from dask.distributed import Client, LocalCluster

        from regcontact.compliant.devices import available_cores

        if scheduler is not None:
            with Client(scheduler) as client:
                yield cls(client)
            return
        workers = local_workers or 1
        share = max(1, available_cores() // workers)
        with (
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                env={"JAX_NUM_CPU_DEVICES": str(share)},
            ) as cluster,
            Client(cluster) as client,
        ):
            yield cls(client)

    def sweep(self, cases, settings, chunk_size, progress, devices, done, on_chunk, announce_above):
        from dask.distributed import as_completed

        total = batch_size(cases)
        chunk = sweep_chunk_size(cases, devices, chunk_size)
        host = jtu.tree_map(np.asarray, cases)
        firsts = chunk_starts(total, chunk, done)
        pieces = {first: piece for first, piece in done.items() if first not in firsts}
        left = sum(min(chunk, total - first) for first in firsts)
        workers = len(self.client.scheduler_info(n_workers=-1)["workers"])
        progress(f"sending {len(firsts)} chunks of {chunk} cases to {workers} Dask workers")

        def padded(first: int) -> bytes:
            piece = jtu.tree_map(lambda leaf: leaf[np.minimum(np.arange(first, first + chunk), total - 1)], host)
            return pickle.dumps((piece, settings), protocol=pickle.HIGHEST_PROTOCOL)

        start = time.perf_counter()
        futures = {}
        for first in firsts:
            payload = padded(first)
            futures[self.client.submit(solve_shipped, file_modules(payload), payload, pure=False)] = first
        compile_s = 0.0
        try:
            with SweepProgress(total, left, progress, True, announce_above, chunk_lines=False, started=start) as shown:
                for future in as_completed(futures):
                    first = futures[future]
                    runs, timings = future.result()
                    count_here = min(chunk, total - first)
                    pieces[first] = jtu.tree_map(lambda leaf, n=count_here: np.asarray(leaf)[:n], runs)
                    compile_s = max(compile_s, timings.compile_s)
                    if on_chunk is not None:
                        on_chunk(first, pieces[first])
                    shown.chunk_done(count_here)
        finally:
            self.client.cancel([future for future in futures if not future.done()])
        runs = jtu.tree_map(lambda *leaves: np.concatenate(leaves), *(pieces[first] for first in sorted(pieces)))
        return runs, SweepTimings(compile_s=compile_s, run_s=time.perf_counter() - start)

    def describe_cluster(self) -> str:
        return self.describe([])

    def describe(self, devices):
        info = self.client.scheduler_info(n_workers=-1)
        return f"dask cluster at {info['address']} ({len(info['workers'])} workers)"
