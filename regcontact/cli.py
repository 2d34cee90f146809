"""The ``regcontact`` command line.

    regcontact run CONFIG [--out DIR] [--set key.path=value ...] [--device cpu|gpu] [--no-compilation-cache]
                          [--resume | --restart] [--scheduler ADDRESS | --local-cluster N] [--estimate-above N]
    regcontact check CONFIG [--set key.path=value ...] [--device cpu|gpu]
    regcontact figures [NAME ...] [--out DIR] [--list]
    regcontact --version

``--help`` and ``--version`` answer without importing JAX; the study modules (and JAX) are imported only for a
command that needs them.

A bad config or option (a CONFIG that is not a readable TOML file, an ``--out`` where nothing can be written)
stops with one line naming the key, the value and what was expected (exit status 2), before anything runs or is
written. Progress goes to stderr, the results table to stdout. If the results cannot be written at the end after
all, the table is printed and they are written to a temporary folder that the message names (exit status 1).
Ctrl-C stops with one line and exit status 130, SIGTERM with exit status 143; a compliant sweep keeps every
chunk it finished in ``<out>/chunks/`` and the line says how many (``--resume`` continues them).

Before JAX starts, ``run`` picks the back end (``--device``; default: what JAX finds), splits the CPU into one
JAX device per core so that a sweep shards across all of them (unless ``JAX_NUM_CPU_DEVICES`` or ``XLA_FLAGS``
already set a host device count), and keeps compiled code in the user cache folder
(:mod:`regcontact.compliant.compilation_cache`; off with ``--no-compilation-cache``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["main"]

#: Exit status after Ctrl-C, and after SIGTERM.
INTERRUPTED = 130
TERMINATED = 143


def _progress(message: str) -> None:
    print(f"[regcontact] {message}", file=sys.stderr, flush=True)


def _error(message: str) -> None:
    print(f"regcontact: {message}", file=sys.stderr, flush=True)


def _load(args: argparse.Namespace):
    """The validated study and its output folder, both checked before anything runs.

    Raises :class:`ConfigError` for a bad config, a CONFIG that cannot be read, or an ``--out`` (or default
    folder) where the results could not be written.
    """
    from regcontact.studies.config import ConfigError
    from regcontact.studies.loading import load_study
    from regcontact.studies.study_result import out_dir_problem

    path = Path(args.config)
    try:
        loaded = load_study(path, args.set or [])
    except UnicodeDecodeError as error:
        raise ConfigError("CONFIG", args.config, f"a UTF-8 TOML file (byte {error.start} is not UTF-8)") from None
    except OSError as error:
        if error.filename != str(path):
            raise
        if path.is_dir():
            raise ConfigError("CONFIG", args.config, "an existing TOML file (it is a directory)") from None
        raise ConfigError("CONFIG", args.config, f"a readable TOML file ({error.strerror})") from None
    out_dir = Path(args.out) if args.out else Path("results") / loaded.config["study"]["name"]
    problem = out_dir_problem(out_dir)
    if problem:
        raise ConfigError("--out", args.out or str(out_dir), problem)
    return loaded, out_dir


#: ``--device`` choices and the JAX platform each names.
DEVICE_PLATFORMS = {"cpu": "cpu", "gpu": "cuda"}


def _start_jax(args: argparse.Namespace, announce: bool) -> None:
    """The back end, one host device per core and the compilation cache, set before JAX's first computation;
    ``announce`` prints the devices and the cache (for the study kinds that solve on them).

    Called from a process where JAX has already started (``main`` from Python), it changes neither the back
    end nor the host devices; it only checks that the device asked for is the one in use. Raises
    :class:`ConfigError` for a ``--device`` that JAX cannot find.
    """
    import jax

    from regcontact.compliant.compilation_cache import use_compilation_cache
    from regcontact.compliant.devices import backends_started, describe_devices, sweep_devices, use_host_cores
    from regcontact.studies.config import ConfigError

    platform = DEVICE_PLATFORMS.get(args.device)
    if not backends_started():
        if platform:
            jax.config.update("jax_platforms", platform)
        if platform != "cuda":
            use_host_cores()
    try:
        backend = jax.default_backend()
        if args.device and backend != args.device:
            raise RuntimeError(f"JAX runs on {backend}")
    except RuntimeError as error:
        raise ConfigError("--device", args.device, f"a device that JAX finds here ({error})") from None
    if announce:
        _progress(f"devices: {describe_devices(sweep_devices())}")
    if not args.no_compilation_cache:
        folder = use_compilation_cache()
        if announce:
            _progress(f"compilation cache: {folder}" if folder else "compilation cache: off (environment)")


def _run(args: argparse.Namespace) -> int:
    """Check, run, write, print. Results are never lost: if ``--out`` fails at the end, they go elsewhere; a
    sweep stopped on the way keeps its finished chunks."""
    from regcontact.studies.chunk_checkpoints import ChunkWriteError
    from regcontact.studies.config import ConfigError

    checkpoints = None
    try:
        loaded, out_dir = _load(args)
        checkpoints = _checkpoints(args, loaded, out_dir)
        # The rigid study solves small LCPs on the host: its devices and JAX's cache are not worth a line.
        _start_jax(args, announce=loaded.kind.KIND != "rigid_painleve")
        with _engine(args) as engine, _terminate_as_exception():
            result = _compute(loaded, checkpoints, engine, args.estimate_above)
    except ConfigError as error:
        _error(f"config error: {error}")
        return 2
    except KeyboardInterrupt:
        _error(f"interrupted; {_kept(checkpoints)}")
        return INTERRUPTED
    except _Terminated:
        _error(f"terminated; {_kept(checkpoints)}")
        return TERMINATED
    except ChunkWriteError as error:
        _error(f"{error}; {_kept(checkpoints)}")
        return 1
    except Exception:
        if checkpoints is not None and checkpoints.held():
            _error(_kept(checkpoints))
        raise
    written = _write(result, loaded.config, out_dir)
    _print_result(result, loaded)
    if isinstance(written, OSError):
        return _write_elsewhere(result, loaded.config, out_dir, written)
    if checkpoints is not None:
        checkpoints.discard()
    print(f"wrote {', '.join(map(str, written[:-1]))} and {written[-1]}")
    return 1 if result.failures else 0


def _checkpoints(args: argparse.Namespace, loaded, out_dir: Path):
    """The chunk checkpoints of a chunked study in ``out_dir`` (None for other kinds). Chunks a former run kept
    are continued with ``--resume``, discarded with ``--restart``, and otherwise refused, as are another
    study's: :class:`ConfigError`."""
    from regcontact.studies.chunk_checkpoints import CHUNKS_FOLDER, ChunkCheckpoints
    from regcontact.studies.config import ConfigError

    if not getattr(loaded.kind, "CHUNKED", False):
        for flag, value in (("--scheduler", args.scheduler), ("--local-cluster", args.local_cluster)):
            if value is not None:
                raise ConfigError(flag, value, "a study of kind 'compliant_sweep' (this kind runs in one process)")
        return None
    checkpoints = ChunkCheckpoints(out_dir / CHUNKS_FOLDER, loaded.config)
    if args.restart:
        checkpoints.discard()
    checkpoints.check(args.out or str(out_dir))
    held = checkpoints.held()
    if held and not args.resume:
        raise ConfigError(
            "--out",
            args.out or str(out_dir),
            f"a folder without kept chunks (it holds {held} of this study's in {CHUNKS_FOLDER}/: --resume continues "
            "them, --restart discards them)",
        )
    return checkpoints


def _kept(checkpoints) -> str:
    """``kept 3 of 10 chunks (96 of 320 cases) in out/chunks: --resume continues`` or ``nothing written``."""
    if checkpoints is None or not checkpoints.held():
        return "nothing written"
    return f"{checkpoints.summary()}: the same command with --resume continues"


@contextlib.contextmanager
def _engine(args: argparse.Namespace):
    """Where a sweep's chunks are solved: this process, or Dask workers (``--scheduler``, ``--local-cluster``)."""
    from regcontact.studies.config import ConfigError
    from regcontact.studies.sweep_engines import DaskEngine, LocalEngine

    if args.scheduler is None and args.local_cluster is None:
        yield LocalEngine()
        return
    flag, value = ("--scheduler", args.scheduler) if args.scheduler else ("--local-cluster", args.local_cluster)
    if args.local_cluster is not None and args.local_cluster < 1:
        raise ConfigError(flag, value, "a number of worker processes of at least 1")
    with contextlib.ExitStack() as stack:
        try:
            engine = stack.enter_context(DaskEngine.connect(args.scheduler, args.local_cluster))
        except ImportError:
            raise ConfigError(flag, value, "Dask installed (pip install 'regcontact[cluster]')") from None
        except OSError as error:
            raise ConfigError(flag, value, f"a Dask scheduler that answers ({error})") from None
        _progress(f"cluster: {engine.describe([])}")
        yield engine


class _Terminated(Exception):
    """SIGTERM arrived (a job scheduler stopping the run)."""


@contextlib.contextmanager
def _terminate_as_exception():
    """SIGTERM raises :class:`_Terminated` in the block, so that the run stops with a line as after Ctrl-C."""

    def terminate(signum, frame):
        raise _Terminated

    try:
        previous = signal.signal(signal.SIGTERM, terminate)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _compute(loaded, checkpoints, engine, estimate_above: int):
    """Run the loaded study, with its notes and total time in the result."""
    from regcontact.studies.running import run_loaded

    return run_loaded(loaded, _progress, checkpoints=checkpoints, engine=engine, announce_above=estimate_above)


def _print_result(result, loaded) -> None:
    """The study's title, its table, summary, failures and notes, on stdout."""
    from regcontact.studies.study_result import format_table

    study = loaded.config["study"]
    keys = [column for axis in result.grid or [] for column in axis.columns]  # a sweep's swept keys first
    columns = keys + [c for c in loaded.kind.TABLE_COLUMNS if c in result.columns and c not in keys]
    print(f"{study['name']}: {study.get('description', '')}".rstrip(": "))
    print(format_table(result, columns))
    for line in result.summary:
        print(line)
    for line in result.failures:
        print(f"FAILED {line}")
    for note in result.notes:
        print(f"note: {note}")


def _write(result, config, out_dir: Path) -> tuple[Path, ...] | OSError:
    """The paths written, or the error that stopped the writing (the table is printed either way)."""
    from regcontact.studies.study_result import write_results

    try:
        return write_results(result, config, out_dir, command=sys.argv)
    except OSError as error:
        return error


def _write_elsewhere(result, config, out_dir: Path, error: OSError) -> int:
    """Save the results in a fresh temporary folder after ``out_dir`` failed, and say where; exit status 1."""
    from regcontact.studies.study_result import write_results

    failed = f"could not write results to {str(out_dir)!r} ({error.strerror or error})"
    try:
        fallback = Path(tempfile.mkdtemp(prefix="regcontact-"))
        write_results(result, config, fallback, command=sys.argv)
    except OSError as second:
        _error(f"{failed}, nor to a temporary folder ({second.strerror or second}); only the table above is left")
        return 1
    _error(f"{failed}; wrote them to {str(fallback)!r} instead")
    return 1


def _check(args: argparse.Namespace) -> int:
    """Validate a study as ``run`` does and say what it would do: cases, chunks, devices, a time estimate."""
    from regcontact.studies.config import ConfigError
    from regcontact.studies.study_check import check_lines

    try:
        args.out, args.no_compilation_cache = None, True
        loaded, out_dir = _load(args)
        _start_jax(args, announce=False)
    except ConfigError as error:
        _error(f"config error: {error}")
        return 2
    for note in loaded.notes:
        print(f"note: {note}")
    study = loaded.config["study"]
    print(f"{study['name']}: valid ({loaded.kind.KIND}); results would go to {out_dir}/")
    for line in check_lines(loaded.kind.KIND, loaded.config):
        print(line)
    return 0


def _figures(args: argparse.Namespace) -> int:
    from regcontact.figures import load_figures
    from regcontact.studies.study_result import out_dir_problem

    figures = load_figures()
    if args.list:
        print("\n".join(sorted(figures)))
        return 0
    unknown = [name for name in args.names if name not in figures]
    if unknown:
        print(f"regcontact: unknown figure {unknown[0]!r}; known: {', '.join(sorted(figures))}", file=sys.stderr)
        return 2
    out_dir = Path(args.out)
    problem = out_dir_problem(out_dir)
    if problem:
        _error(f"--out = {args.out!r}: expected {problem}")
        return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.names or sorted(figures):
        start = time.perf_counter()
        paths = figures[name](out_dir)
        _progress(f"{name}: wrote {', '.join(str(p) for p in paths)} ({time.perf_counter() - start:.1f} s)")
    return 0


def _parser() -> argparse.ArgumentParser:
    from regcontact import __version__

    parser = argparse.ArgumentParser(prog="regcontact", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"regcontact {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run a study from a TOML config")
    run.add_argument("config", help="the study's TOML file, e.g. studies/table1.toml")
    run.add_argument("--out", help="output folder (default: results/<study name>/)")
    run.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="override a config key, e.g. --set system.mu=2"
    )
    run.add_argument(
        "--device",
        choices=sorted(DEVICE_PLATFORMS),
        help="back end to run on (default: what JAX finds); every CPU core or every GPU is used",
    )
    run.add_argument(
        "--no-compilation-cache",
        action="store_true",
        help="compile afresh, keeping nothing (default: compiled code is kept in the user cache folder, "
        "or in $REGCONTACT_COMPILATION_CACHE)",
    )
    restart = run.add_mutually_exclusive_group()
    restart.add_argument(
        "--resume", action="store_true", help="continue a sweep from the chunks a stopped run kept in OUT/chunks/"
    )
    restart.add_argument("--restart", action="store_true", help="discard the chunks kept in OUT/chunks/ and start over")
    cluster = run.add_mutually_exclusive_group()
    cluster.add_argument("--scheduler", metavar="ADDRESS", help="solve the chunks on a Dask cluster (tcp://host:8786)")
    cluster.add_argument(
        "--local-cluster", type=int, metavar="N", help="solve the chunks on N local Dask worker processes"
    )
    run.add_argument(
        "--estimate-above",
        type=int,
        default=100_000,
        metavar="N",
        help="a sweep of N cases or more says its time estimate after its first chunk (default: 100000)",
    )
    run.set_defaults(handler=_run)

    check = commands.add_parser("check", help="validate a study and say what it would run, without running it")
    check.add_argument("config", help="the study's TOML file")
    check.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a config key, as for run")
    check.add_argument("--device", choices=sorted(DEVICE_PLATFORMS), help="back end to check for, as for run")
    check.set_defaults(handler=_check)

    figures = commands.add_parser("figures", help="regenerate the paper figures")
    figures.add_argument("names", nargs="*", help="figures to draw (default: all)")
    figures.add_argument("--out", default="figures", help="output folder (default: figures/)")
    figures.add_argument("--list", action="store_true", help="list the figures and exit")
    figures.set_defaults(handler=_figures)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``argv``: its arguments, default ``sys.argv[1:]``) and return its exit status.

    Ctrl-C ends it with one line and status 130 (128 + SIGINT, as shells report it), SIGTERM with 143. When the
    process is the command line's own (no ``argv``), it then ends at once: tearing down the interpreter while
    JAX's native threads are still compiling or solving can crash it (a segmentation fault instead of status 130).
    """
    args = _parser().parse_args(argv)
    try:
        status = args.handler(args)
    except KeyboardInterrupt:
        _error("interrupted")
        status = INTERRUPTED
    if status in (INTERRUPTED, TERMINATED) and argv is None:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    return status


if __name__ == "__main__":
    sys.exit(main())
