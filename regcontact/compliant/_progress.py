"""The progress of a sweep: a bar on stderr or lines of text, and the time left estimated from the first chunk."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType

import tqdm

__all__ = ["SweepProgress"]

_BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} cases [{elapsed}<{remaining}, {rate_fmt}]"


class SweepProgress:
    """What a sweep of ``total`` cases says while it solves the ``left`` of them not solved before.

    Used as a context manager around the solving loop, told of each chunk as it comes back
    (:meth:`chunk_done`). It shows a bar with cases done, solves/s and the time left on stderr when ``bar`` is
    true and stderr is a terminal; without a bar it says a line per chunk (``chunk_lines``). With
    ``announce_above`` cases or more to solve it says the pace of the first chunk (:meth:`pace_line`).

    Args:
        total: cases in the sweep.
        left: cases still to solve (the rest were solved before).
        say: receives each line of text (default: none is said).
        bar: show the bar (on a terminal).
        announce_above: say the first chunk's pace when at least this many cases are left (default: never).
        chunk_lines: without a bar, say ``solved i/total cases (t s)`` after each chunk.
        started: the ``time.perf_counter()`` the solving started at (default: on entering the context).

    Examples:
        >>> from regcontact.compliant import SweepProgress
        >>> lines = []
        >>> with SweepProgress(640, 640, say=lines.append, announce_above=100, started=0.0) as progress:
        ...     progress.chunk_done(64)
        >>> len(lines)
        2
    """

    def __init__(
        self,
        total: int,
        left: int,
        say: Callable[[str], None] | None = None,
        bar: bool = False,
        announce_above: int | None = None,
        chunk_lines: bool = True,
        started: float | None = None,
    ):
        self.total = total
        self.left = left
        self.solved = total - left
        self.say = say or (lambda line: None)
        self.shown = bar
        self.announce_above = announce_above
        self.chunk_lines = chunk_lines
        self.started = started
        self._bar: tqdm.tqdm | None = None

    def __enter__(self) -> SweepProgress:
        self._bar = tqdm.tqdm(
            total=self.total,
            disable=None if self.shown else True,
            file=sys.stderr,
            unit=" solves",
            desc="solving",
            bar_format=_BAR_FORMAT,
            dynamic_ncols=True,
            leave=True,
        )
        self._bar.update(self.solved)
        if self.started is None:
            self.started = time.perf_counter()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        assert self._bar is not None
        self._bar.close()

    def chunk_done(self, count: int) -> None:
        """``count`` more cases are solved: move the bar, and say what is due (the pace after the first chunk)."""
        assert self._bar is not None and self.started is not None, "use SweepProgress as a context manager"
        first = self.solved == self.total - self.left
        self._bar.update(count)
        self.solved += count
        seconds = time.perf_counter() - self.started
        if first and self.announce_above is not None and self.left >= self.announce_above:
            self.say(self.pace_line(self.left, count, seconds))
        if self._bar.disable and self.chunk_lines:
            self.say(f"solved {self.solved}/{self.total} cases ({seconds:.2f} s)")

    @staticmethod
    def pace_line(total: int, solved: int, seconds: float) -> str:
        """``100,000 cases: the first 64 took 0.25 s, about 6.5 min for all at this pace``: a sweep's size and
        time estimate, from its first chunk."""
        estimate = total * seconds / max(1, solved)
        shown = f"{estimate:.0f} s"
        for unit, size in (("h", 3600.0), ("min", 60.0)):
            if estimate >= 2 * size:
                shown = f"{estimate / size:.1f} {unit}"
                break
        return f"{total:,} cases: the first {solved} took {seconds:.2f} s, about {shown} for all at this pace"
