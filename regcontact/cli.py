"""The ``regcontact`` command line.

    regcontact run CONFIG [--out DIR] [--set key.path=value ...] [--device cpu|gpu] [--no-compilation-cache] [--wide]
                          [--resume | --restart] [--scheduler ADDRESS | --local-cluster N] [--estimate-above N]
                          [--max-cases N] [--max-memory SIZE]
    regcontact check CONFIG [--set key.path=value ...] [--device cpu|gpu]
    regcontact figures [NAME ...] [--out DIR] [--from RESULTS] [--list]
    regcontact --version

How it stops, locks and picks its devices: ``docs/cluster.md``.
"""

from __future__ import annotations

import os
import signal
import sys

#: Exit status after Ctrl-C, and after SIGTERM.
INTERRUPTED = 130
TERMINATED = 143


def _stop_before_main(signum, frame) -> None:
    """SIGINT or SIGTERM while the command line's own process is still importing, before :func:`main` has set
    its handlers: nothing has been done, so say so and end at once (no traceback)."""
    word, status = ("interrupted", INTERRUPTED) if signum == signal.SIGINT else ("terminated", TERMINATED)
    os.write(2, f"regcontact: {word}; nothing written\n".encode())
    os._exit(status)


def _is_own_process() -> bool:
    """Whether this process is the ``regcontact`` command (its script, or ``python -m regcontact``)."""
    main_module = sys.modules.get("__main__")
    spec = getattr(main_module, "__spec__", None)
    script = os.path.basename(getattr(main_module, "__file__", None) or "")
    return getattr(spec, "name", None) == "regcontact.__main__" or script in ("regcontact", "regcontact.exe")


#: The handlers the process had before this module set its own (put back once :func:`main` has ended).
_BEFORE: dict[int, Any] = {}
if _is_own_process():
    for _signum in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(_signum) is not signal.SIG_IGN:  # a signal the process ignores from its start stays so
            _BEFORE[_signum] = signal.signal(_signum, _stop_before_main)

import argparse  # noqa: E402  (after the handlers: a signal while these import is answered too)
import contextlib  # noqa: E402
import re  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

__all__ = ["main"]
#: Seconds the main thread has to answer SIGINT or SIGTERM before the watchdog thread answers for it.
ANSWER_WITHIN_S = 0.5


def _progress(message: str) -> None:
    """A progress line on stderr; between two of them, a signal whose exception was swallowed is raised again."""
    _STOP.raise_pending()
    print(f"[regcontact] {message}", file=sys.stderr, flush=True)


def _error(message: str) -> None:
    print(f"regcontact: {message}", file=sys.stderr, flush=True)


# --- stopping on a signal -------------------------------------------------------------------------------------


class _Terminated(BaseException):
    """SIGTERM arrived (a job scheduler stopping the run). A ``BaseException``, as ``KeyboardInterrupt`` is, so
    that no ``except Exception`` on the way swallows it."""


class _Stop:
    """What a stopped command says and undoes. The line is said once: by the main thread, or by the watchdog
    thread when the main thread has not said it in time."""

    def __init__(self) -> None:
        #: What follows ``interrupted;`` in the last line (``None``: the word alone).
        self.context: Callable[[], str | None] = lambda: "nothing written"
        #: The signal taken (its word and exit status), kept even where the exception it raised was swallowed
        #: (raised inside a garbage-collection callback or native code that ignores it): the main thread checks it
        #: between phases (:meth:`raise_pending`) and before it ends.
        self.pending: tuple[str, int] | None = None
        #: Set while the main thread closes a Dask cluster after a signal: the watchdog gives it
        #: :data:`CLEANUP_WITHIN_S` instead of ending the process at once.
        self.closing = threading.Event()
        #: Undone before the watchdog ends the process (the run's lock).
        self.cleanups: list[Callable[[], None]] = []
        #: Set when Python's handler has run in the main thread (it is stopping: its ``finally`` blocks run).
        self.taken = threading.Event()
        #: Set when the line has been said, and when the command has ended.
        self.said = threading.Event()
        self.ended = threading.Event()
        #: While set (:meth:`held`), a signal is kept in :attr:`pending` and raised where the block ends, not
        #: where it lands: an exception raised inside the import of a native extension (jaxlib's MLIR dialects)
        #: or its back end's start cannot unwind through the C++ frames, and the process aborts.
        self.holding = False
        self._saying = threading.Lock()

    def say(self, word: str, status: int) -> int:
        """Print ``regcontact: interrupted; <context>`` unless it has been said already; return ``status``."""
        with self._saying:
            if not self.said.is_set():
                try:
                    context = self.context()
                except Exception:  # the line must come, whatever the context's files say
                    context = None
                _error(f"{word}; {context}" if context else word)
                self.said.set()
        return status

    def interrupt(self, signum, frame):
        self.pending = ("interrupted", INTERRUPTED)
        self.taken.set()
        if not self.holding:
            raise KeyboardInterrupt

    def terminate(self, signum, frame):
        self.pending = ("terminated", TERMINATED)
        self.taken.set()
        if not self.holding:
            raise _Terminated

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """A block whose signals are raised when it ends (:attr:`holding`); the watchdog still answers one the
        block keeps longer than :data:`ANSWER_WITHIN_S`."""
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
        self.raise_pending()

    def raise_pending(self) -> None:
        """Raise again the signal taken, if one was (its first exception may have been swallowed); only in the main
        thread, which is the one that stops."""
        if self.pending is not None and threading.current_thread() is threading.main_thread():
            raise KeyboardInterrupt if self.pending[1] == INTERRUPTED else _Terminated


_STOP = _Stop()

#: Seconds the main thread has, once it has taken a signal, to run its ``finally`` blocks (e.g. close a Dask
#: cluster) before the watchdog ends the process anyway.
CLEANUP_WITHIN_S = 20.0


def _watch(descriptor: int, stop: _Stop) -> None:
    """The watchdog: wait for SIGINT or SIGTERM on the wakeup pipe and give the main thread
    :data:`ANSWER_WITHIN_S` to say its line. If it has not: say it, and, unless the main thread is closing a Dask
    cluster (for at most :data:`CLEANUP_WITHIN_S`), end the process (after the result files' renames, if they are
    under way). A main thread that took the signal but goes on (its exception swallowed) is ended too."""
    while True:
        try:
            data = os.read(descriptor, 64)
        except OSError:
            return
        if not data:
            return
        stops = [signum for signum in data if signum in (signal.SIGINT, signal.SIGTERM)]
        if stops:
            break
    word, status = ("interrupted", INTERRUPTED) if stops[0] == signal.SIGINT else ("terminated", TERMINATED)
    if stop.said.wait(ANSWER_WITHIN_S) or stop.ended.is_set():
        return
    if stop.taken.is_set() and stop.closing.is_set():
        stop.say(word, status)
        if stop.ended.wait(CLEANUP_WITHIN_S):
            return
    renaming = getattr(sys.modules.get("regcontact.studies.study_result"), "RENAMING", None)  # None: being imported
    if renaming is not None:
        renaming.acquire()  # never given back: the process ends here
    stop.say(word, status)
    for cleanup in stop.cleanups:
        with contextlib.suppress(Exception):
            cleanup()
    _end(status)


def _end(status: int) -> None:
    """End the process now: tearing down the interpreter while JAX's native threads are still compiling or
    solving can crash it (a segmentation fault instead of the status).

    The main thread holds SIGINT and SIGTERM first and answers one that came before (its line and status):
    from there on the process is past its last write, and a signal that comes while the kernel tears it down
    changes nothing on disk (the status stays ``status``)."""
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(Exception):
            signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGINT, signal.SIGTERM))
            held = signal.sigpending() & {signal.SIGINT, signal.SIGTERM}  # a handler due runs before this returns
            if held and status == 0:
                word, status = ("interrupted", INTERRUPTED) if signal.SIGINT in held else ("terminated", TERMINATED)
                status = _STOP.say(word, status)
                sys.stderr.flush()
    os._exit(status)


def _quiet_stops(former: Callable[[Any], object]) -> Callable[[Any], object]:
    """``sys.unraisablehook`` that says nothing of a stop swallowed where Python cannot raise (a garbage-collection
    callback, a ``__del__``): :attr:`_Stop.pending` keeps it, and the command stops all the same."""

    def hook(unraisable: Any) -> object:
        if isinstance(unraisable.exc_value, KeyboardInterrupt | _Terminated) and _STOP.pending is not None:
            return None
        return former(unraisable)

    return hook


@contextlib.contextmanager
def _stop_signals(own_process: bool) -> Iterator[None]:
    """SIGINT raises ``KeyboardInterrupt`` and SIGTERM :class:`_Terminated` in the block (a signal the process
    ignored from its start stays ignored); in the command line's own process a watchdog thread stands by."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return
    handlers = {signal.SIGINT: _STOP.interrupt, signal.SIGTERM: _STOP.terminate}
    previous = {signum: signal.getsignal(signum) for signum in handlers}
    for signum, handler in handlers.items():
        if previous[signum] is not signal.SIG_IGN:
            signal.signal(signum, handler)
    wakeup = None
    unraisable = sys.unraisablehook
    sys.unraisablehook = _quiet_stops(unraisable)
    if own_process:
        read, write = os.pipe()
        os.set_blocking(write, False)
        wakeup = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        threading.Thread(target=_watch, args=(read, _STOP), name="regcontact-stop", daemon=True).start()
    try:
        yield
    finally:
        sys.unraisablehook = unraisable
        if wakeup is not None:
            signal.set_wakeup_fd(wakeup)
        for signum, former in previous.items():
            if own_process and former is not signal.SIG_IGN:
                former = _stop_at_exit  # the process ends next: a signal now ends it with its line at once
            elif former is _stop_before_main:  # the module's own, for the imports: the process's first one again
                former = _BEFORE.get(signum, signal.SIG_DFL)
            if former is not None:
                signal.signal(signum, former)


def _stop_at_exit(signum, frame) -> None:
    """SIGINT or SIGTERM after :func:`main` has done its work, while its process ends: the line (saying what is
    on disk) and the signal's status, at once."""
    word, status = ("interrupted", INTERRUPTED) if signum == signal.SIGINT else ("terminated", TERMINATED)
    _end(_STOP.say(word, status))


# --- the run ---------------------------------------------------------------------------------------------------


def _load(args: argparse.Namespace, limits=None, on_size: Callable | None = None):
    """The validated study and its output folder, both checked before anything runs (the folder is not created
    here). With ``limits``, a study above them is refused before its kind's check builds anything; ``on_size``
    hears the study's size as soon as it is known. ``--scheduler`` and ``--local-cluster`` are refused for a kind
    that runs in one process.

    Raises :class:`ConfigError` for a bad config, a CONFIG that cannot be read, a study above the limits, or an
    ``--out`` (or default folder) where the results could not be written.
    """
    from regcontact.compliant.devices import sweep_devices
    from regcontact.studies.config import ConfigError
    from regcontact.studies.loading import chunked_kinds, load_study
    from regcontact.studies.study_result import out_dir_problem
    from regcontact.studies.study_size import DeviceSet

    def devices() -> DeviceSet:
        return DeviceSet.of(sweep_devices())

    loaded = load_study(args.config, args.set or [], limits=limits, devices=devices, on_size=on_size)
    out_dir = Path(args.out) if args.out else Path("results") / loaded.config["study"]["name"]
    problem = out_dir_problem(out_dir)
    if problem:
        raise ConfigError("--out", args.out or str(out_dir), problem)
    if not loaded.kind.CHUNKED:
        kinds = " or ".join(repr(name) for name in chunked_kinds())
        for flag, value in (("--scheduler", args.scheduler), ("--local-cluster", args.local_cluster)):
            if value is not None:
                raise ConfigError(flag, value, f"a study of kind {kinds} (this kind runs in one process)")
    return loaded, out_dir


#: ``--device`` choices and the JAX platform each names.
DEVICE_PLATFORMS = {"cpu": "cpu", "gpu": "cuda"}


def _import_jax() -> None:
    """JAX and the study layer, which every command needs: imported in one place, so that a signal that lands
    while jaxlib's native modules load waits until they have (:meth:`_Stop.held`)."""
    import jax  # noqa: F401

    import regcontact.studies  # noqa: F401


def _start_jax(args: argparse.Namespace) -> Path | None:
    """The back end, one host device per core and the compilation cache, set before JAX's first computation;
    returns the cache folder (``None``: off).

    Called from a process where JAX has already started (``main`` from Python), it changes neither the back
    end nor the host devices; it only checks that the device asked for is the one in use. Raises
    :class:`ConfigError` for a ``--device`` that JAX cannot find. A signal while JAX imports and starts its
    back end (native code) is raised once that is done (:meth:`_Stop.held`).
    """
    with _STOP.held():
        return _started_jax(args)


def _started_jax(args: argparse.Namespace) -> Path | None:
    import jax

    from regcontact.compliant.compilation_cache import use_compilation_cache
    from regcontact.compliant.devices import backends_started, use_host_cores
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
    except (RuntimeError, AssertionError) as error:
        # JAX asserts when the platform asked for is not there at all (no GPU visible to a CUDA JAX)
        found = str(error) or f"no {args.device.upper()} is visible"
        raise ConfigError("--device", args.device, f"a device that JAX finds here ({found})") from None
    if args.no_compilation_cache:
        return None
    return use_compilation_cache() or Path("off (environment)")


def _announce(loaded, cache: Path | None, engine) -> None:
    """The progress lines that say where the study runs, once every check has passed."""
    from regcontact.compliant.devices import describe_devices, sweep_devices

    if not loaded.kind.ON_DEVICES:  # a kind that solves on the host: its devices are not worth a line
        return
    _progress(f"devices: {describe_devices(sweep_devices())}")
    if cache is not None:
        _progress(f"compilation cache: {cache}")
    if engine.describe_cluster() is not None:
        _progress(f"cluster: {engine.describe_cluster()}")


def _run(args: argparse.Namespace) -> int:
    """Check everything, then run, write, print. Results are never lost: if ``--out`` fails at the end, they go
    elsewhere; a sweep stopped on the way keeps its finished chunks."""
    from regcontact.studies.chunk_checkpoints import ChunkWriteError
    from regcontact.studies.config import ConfigError
    from regcontact.studies.running import run_loaded
    from regcontact.studies.study_size import MAX_CASES, SizeLimits

    lock = checkpoints = None
    try:
        if args.local_cluster is not None and args.local_cluster < 1:
            raise ConfigError("--local-cluster", args.local_cluster, "a number of worker processes of at least 1")
        cache = _start_jax(args)
        loaded, out_dir = _load(args, SizeLimits(args.max_cases or MAX_CASES, args.max_memory))
        lock = _lock(args, out_dir)
        checkpoints = _checkpoints(args, loaded, out_dir)
        if checkpoints is not None:
            _STOP.context = lambda: _kept(checkpoints)
        with _engine(args) as engine:
            _announce(loaded, cache, engine)
            options = {"checkpoints": checkpoints, "engine": engine, "announce_above": args.estimate_above}
            result = run_loaded(loaded, _progress, **options)
        _STOP.context = (lambda: _kept(checkpoints)) if checkpoints is not None else (lambda: None)
        _STOP.raise_pending()  # a signal taken while the run ran: nothing is written
        if not _save(result, loaded, out_dir, wide=args.wide):
            return 1
        if checkpoints is not None:
            checkpoints.discard()
        _STOP.context = lambda: f"the results are written to {out_dir}"
        return 1 if result.failures else 0
    except ConfigError as error:
        _error(f"config error: {error}")
        return 2
    except ChunkWriteError as error:
        _error(f"{error}; {_kept(checkpoints)}")
        return 1
    except Exception:
        if checkpoints is not None and checkpoints.held():
            _error(_kept(checkpoints))
        raise
    finally:
        if lock is not None:
            lock.release()


def _lock(args: argparse.Namespace, out_dir: Path):
    """The output folder, created and locked for this run (given back when it ends, however it ends); refused in
    one line if another run holds it or nothing can be written there."""
    from regcontact.studies.run_lock import lock_output

    lock = lock_output(out_dir, str(Path(args.config).absolute()), "--out", args.out or str(out_dir))
    _STOP.cleanups.append(lock.release)
    return lock


def _checkpoints(args: argparse.Namespace, loaded, out_dir: Path):
    """The chunk checkpoints of a chunked study in ``out_dir`` (:func:`~regcontact.studies.running.open_checkpoints`,
    with ``--resume`` and ``--restart``; None for other kinds, which refuse ``--scheduler`` and ``--local-cluster``:
    they run in one process, :func:`_load`)."""
    from regcontact.studies.running import open_checkpoints

    shown = args.out or str(out_dir)
    return open_checkpoints(loaded, out_dir, shown, resume=args.resume, restart=args.restart, key="--out")


def _kept(checkpoints) -> str:
    """``kept 3 of 10 chunks (96 of 320 cases) in out/chunks: --resume continues`` or ``nothing written``, as the
    disk holds them now."""
    summary = None if checkpoints is None else checkpoints.summary()
    if summary is None:
        return "nothing written"
    return f"{summary}: the same command with --resume continues"


#: A Dask scheduler's address: a host and a port, after a protocol or not (``tcp://10.0.0.5:8786``).
SCHEDULER_ADDRESS = re.compile(r"^([a-z][a-z0-9+.-]*://)?[^\s/]+:\d+/?$")


@contextlib.contextmanager
def _engine(args: argparse.Namespace):
    """Where a sweep's chunks are solved: this process, or Dask workers (``--scheduler``, ``--local-cluster``).
    Says nothing: a cluster that cannot be reached, or whose workers cannot load a chunk (a class of the study
    not importable there), is a one-line :class:`ConfigError`."""
    from regcontact.studies.config import ConfigError
    from regcontact.studies.sweep_engines import ChunkNotLoaded, DaskEngine, LocalEngine

    if args.scheduler is None and args.local_cluster is None:
        yield LocalEngine()
        return
    flag, value = ("--scheduler", args.scheduler) if args.scheduler else ("--local-cluster", args.local_cluster)
    if args.scheduler is not None and not SCHEDULER_ADDRESS.match(args.scheduler):
        raise ConfigError(flag, value, "a Dask scheduler address, [protocol://]host:port (e.g. tcp://10.0.0.5:8786)")
    with contextlib.ExitStack() as stack:
        try:
            engine = stack.enter_context(DaskEngine.connect(args.scheduler, args.local_cluster))
        except ImportError:
            raise ConfigError(flag, value, "Dask installed (pip install 'regcontact[cluster]')") from None
        except (OSError, ValueError, TypeError) as error:
            raise ConfigError(flag, value, f"a Dask scheduler that answers ({error})") from None
        try:
            yield engine
        except (KeyboardInterrupt, _Terminated):
            _STOP.closing.set()  # the cluster is closed next: the watchdog waits for it
            raise
        except ChunkNotLoaded as error:
            raise ConfigError(flag, value, f"workers that can import the study's classes ({error})") from None


def _save(result, loaded, out_dir: Path, wide: bool = False) -> bool:
    """Write the results, print the study's text (``wide``: every column in the table) and say where they went;
    whether ``out_dir`` took them. If it did not, they are saved in a fresh temporary folder that the error line
    names (the text is printed either way)."""
    from regcontact.studies.study_result import write_results

    written: tuple[Path, ...] | OSError
    try:
        written = write_results(result, loaded.config, out_dir, command=sys.argv)
    except OSError as error:
        written = error
    for line in loaded.kind.text(result, loaded.config, wide=wide):
        print(line)
    if not isinstance(written, OSError):
        print(f"wrote {', '.join(map(str, written[:-1]))} and {written[-1]}")
        return True
    failed = f"could not write results to {str(out_dir)!r} ({written.strerror or written})"
    try:
        fallback = Path(tempfile.mkdtemp(prefix="regcontact-"))
        write_results(result, loaded.config, fallback, command=sys.argv)
    except OSError as second:
        _error(f"{failed}, nor to a temporary folder ({second.strerror or second}); only the table above is left")
        return False
    _error(f"{failed}; wrote them to {str(fallback)!r} instead")
    return False


def _check(args: argparse.Namespace) -> int:
    """Validate a study as ``run`` does and say what it would do: cases, memory, a time estimate (said as soon
    as the schema has passed, before the kind's own checks, which may take a while), then chunks and devices."""
    from regcontact.studies.config import ConfigError
    from regcontact.studies.study_size import MAX_CASES, SizeLimits

    def say_size(size) -> None:
        for line in size.lines():
            print(line, flush=True)
        if size.cases > MAX_CASES:
            print(f"note: more than {MAX_CASES:,} cases: regcontact run needs --max-cases {size.cases} to run it")
        elif SizeLimits().refusal(size) is not None:
            print("note: more than the memory available here: regcontact run refuses it (--max-memory overrides)")

    try:
        args.out, args.no_compilation_cache, args.scheduler, args.local_cluster = None, True, None, None
        _start_jax(args)
        loaded, out_dir = _load(args, on_size=say_size)
    except ConfigError as error:
        _error(f"config error: {error}")
        return 2
    for note in loaded.notes:
        print(f"note: {note}")
    study = loaded.config["study"]
    print(f"{study['name']}: valid ({loaded.kind.NAME}); results would go to {out_dir}/")
    for line in loaded.kind.check_lines(loaded.config):
        print(line)
    return 0


def _figures(args: argparse.Namespace) -> int:
    from regcontact.figures import FROM_RESULTS, load_figures
    from regcontact.studies.study_result import out_dir_problem

    _STOP.context = lambda: None  # each figure is written as it is drawn
    figures = load_figures()
    if args.list:
        width = max(map(len, figures))
        for name in sorted(figures):
            also = f"  (--from: {FROM_RESULTS[name]})" if name in FROM_RESULTS else ""
            print(f"{name:<{width}}{also}".rstrip())
        return 0
    unknown = [name for name in args.names if name not in figures]
    if unknown:
        print(f"regcontact: unknown figure {unknown[0]!r}; known: {', '.join(sorted(figures))}", file=sys.stderr)
        return 2
    results = None
    if args.results is not None:
        cannot = [name for name in args.names or sorted(figures) if name not in FROM_RESULTS]
        if cannot:
            _error(
                f"--from: figure {cannot[0]!r} runs its own studies and cannot draw a finished one; those that can: "
                + ", ".join(sorted(FROM_RESULTS))
            )
            return 2
    out_dir = Path(args.out)
    problem = out_dir_problem(out_dir)
    if problem:
        _error(f"--out = {args.out!r}: expected {problem}")
        return 2
    if args.results is not None:
        from regcontact.studies import ConfigError, load_results

        try:
            results = load_results(args.results)
        except ConfigError as error:
            _error(str(error))
            return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    for name in args.names or sorted(figures):
        start = time.perf_counter()
        try:
            paths, replaced = _drawn(figures[name], out_dir, results)
        except ValueError as error:
            if results is None:
                raise
            _error(f"--from = {args.results!r}: {error}")
            return 2
        except OSError as error:
            where = f" ({error.filename})" if error.filename else ""
            done = f"; written before it: {', '.join(written)}" if written else ""
            _error(f"{name}: cannot write to {out_dir}: {error.strerror or error}{where}; none of its files kept{done}")
            return 1
        written.append(name)
        former = f"; replaced the former {', '.join(p.name for p in replaced)}" if replaced else ""
        _progress(f"{name}: wrote {', '.join(str(p) for p in paths)} ({time.perf_counter() - start:.1f} s){former}")
    return 0


def _drawn(draw: Callable[..., list[Path]], out_dir: Path, results: Any) -> tuple[list[Path], list[Path]]:
    """A figure drawn into a fresh folder inside ``out_dir``, then its files moved into ``out_dir`` (a rename on
    the same disk): a figure whose writing fails (a full disk) leaves no half-written file and keeps the former
    version of each of its files. Returns the files written and those of them that replaced a former file."""
    import shutil

    drawing = Path(tempfile.mkdtemp(prefix=".drawing-", dir=out_dir))
    replaced = []
    try:
        paths = draw(drawing) if results is None else draw(drawing, results=results)
        for file in sorted(p for p in drawing.rglob("*") if p.is_file()):
            target = out_dir / file.relative_to(drawing)
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists():
                replaced.append(target)
            os.replace(file, target)
        return [out_dir / Path(path).relative_to(drawing) for path in paths], replaced
    finally:
        shutil.rmtree(drawing, ignore_errors=True)


def _count(text: str) -> int:
    """A positive number of cases: ``1000000``, ``1e6``, ``1_000_000``."""
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 1 or not value.is_integer():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number ≥ 1")
    return int(value)


_BYTE_UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12, "ki": 2**10, "mi": 2**20, "gi": 2**30, "ti": 2**40}


def _byte_count(text: str) -> float:
    """A memory size: ``16G``, ``500MB``, ``2GiB``, ``3e9``."""
    match = re.fullmatch(r"\s*([0-9.eE+_]+)\s*([kKmMgGtT]i?)?[bB]?\s*", text)
    try:
        value = float(match.group(1).replace("_", "")) if match else -1.0
    except ValueError:
        value = -1.0
    if not value > 0 or match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a memory size such as 16G, 500MB or 2e9")
    return value * _BYTE_UNITS[(match.group(2) or "").lower()]


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
    run.add_argument(
        "--wide",
        action="store_true",
        help="print every column of the table (default: a column with one value in every row is said once under it)",
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
    run.add_argument(
        "--max-cases",
        type=_count,
        default=None,
        metavar="N",
        help="refuse a study of more than N cases, before anything is built (default: 1000000; "
        "'regcontact check' says a study's size)",
    )
    run.add_argument(
        "--max-memory",
        type=_byte_count,
        default=None,
        metavar="SIZE",
        help="refuse a study estimated to need more memory than SIZE, e.g. 16G (default: the memory available)",
    )
    run.set_defaults(handler=_run)

    check = commands.add_parser(
        "check", help="validate a study and say what it would run (cases, memory, time), without running it"
    )
    check.add_argument("config", help="the study's TOML file")
    check.add_argument("--set", action="append", metavar="KEY=VALUE", help="override a config key, as for run")
    check.add_argument("--device", choices=sorted(DEVICE_PLATFORMS), help="back end to check for, as for run")
    check.set_defaults(handler=_check)

    figures = commands.add_parser("figures", help="regenerate the paper figures")
    figures.add_argument("names", nargs="*", help="figures to draw (default: all)")
    figures.add_argument(
        "--out",
        default="figures-out",
        help="output folder (default: figures-out/; `--out figures` rewrites the tracked figures the docs show)",
    )
    figures.add_argument(
        "--from",
        dest="results",
        metavar="RESULTS",
        help="draw from a finished study's folder (what `regcontact run` wrote) instead of running the figure's own "
        "studies; --list says which figures can",
    )
    figures.add_argument("--list", action="store_true", help="list the figures and exit")
    figures.set_defaults(handler=_figures)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``argv``: its arguments, default ``sys.argv[1:]``) and return its exit status.

    The signal handlers come first: Ctrl-C ends it with one line and status 130 (128 + SIGINT, as shells report
    it), SIGTERM with 143, from its first moment on. When the process is the command line's own (no ``argv``),
    a watchdog answers a signal the main thread cannot take in time, and the process then ends at once (see
    :func:`_end`).
    """
    global _STOP
    _STOP = _Stop()
    own_process = argv is None
    try:  # around the handlers' own setting up too: a signal may come while the watchdog starts
        with _stop_signals(own_process):
            args = _parser().parse_args(argv)
            with _STOP.held():  # native code: a signal is raised once the imports are done
                _import_jax()
            status = args.handler(args)
            _STOP.raise_pending()  # taken, but its exception swallowed on the way: the command still stops
    except KeyboardInterrupt:
        status = _STOP.say("interrupted", INTERRUPTED)
    except _Terminated:
        status = _STOP.say("terminated", TERMINATED)
    finally:
        _STOP.ended.set()
    if own_process:
        _end(status)  # at once: tearing down JAX takes seconds, and may crash while its threads still run
    return status


if __name__ == "__main__":
    sys.exit(main())
