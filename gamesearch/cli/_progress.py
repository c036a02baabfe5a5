"""Progress of long commands, and what they print when stopped with Ctrl-C.

On a terminal, :func:`progress` draws a rich progress bar on standard error with the
steps done, the time spent and an estimate of the time left. Anywhere else (a pipe, a
file, CI) it writes one line to standard error every :data:`LINE_INTERVAL` seconds,
so a long run is never silent, and nothing at all for a run shorter than that.

:func:`interruptible` turns Ctrl-C inside its block into a flag, so the command can
print what it has finished before it exits with :data:`EXIT_INTERRUPTED`::

    with interruptible() as stop, progress("solving", len(items), unit="positions") as bar:
        for item in items:
            results.append(work(item))
            bar.advance()
    print_report(results)
    if stop.interrupted:
        return report_interruption(len(results), len(items), "positions")
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Self

import attrs

if TYPE_CHECKING:  # (rich is imported when a display starts: a usage error needs none)
    from rich.console import Console, RenderableType

#: the exit status of a command stopped with Ctrl-C (128 + SIGINT, as shells report it)
EXIT_INTERRUPTED = 130
#: seconds between two progress lines when standard error is not a terminal
LINE_INTERVAL = 5.0


def duration(seconds: float) -> str:
    """Return ``seconds`` as short text: ``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


@functools.cache
def _bar_class() -> Any:
    """Return the class of the bar: a rich progress bar with one line of text under it
    (what the work found so far), made when the first bar is drawn."""
    from rich.progress import Progress
    from rich.text import Text

    class BarAndStatus(Progress):
        status = ""

        def get_renderables(self) -> Iterable[RenderableType]:
            yield from super().get_renderables()
            if self.status:
                yield Text(self.status, no_wrap=True, overflow="ellipsis")

    return BarAndStatus


def _amount(value: float, unit: str) -> str:
    if unit == "bytes":
        return f"{value / 1e6:,.1f} MB"
    return f"{value:,.0f}"


class ProgressReport:
    """A progress display for one piece of work of ``total`` steps (bytes when ``unit``
    is ``"bytes"``); use it as a context manager and call :meth:`advance` or
    :meth:`set_completed` as the work goes on."""

    def __init__(
        self,
        description: str,
        total: float,
        *,
        unit: str = "",
        console: Console | None = None,
        interval: float | None = None,
    ) -> None:
        self.description = description
        self.total = total
        self.unit = unit
        self.completed = 0.0
        self.status = ""  #: what the work has found so far (see :meth:`set_status`)
        if console is None:
            from rich.console import Console

            console = Console(stderr=True)
        self._console = console
        self._interval = LINE_INTERVAL if interval is None else interval
        self._started = time.monotonic()
        self._bar: Any = None  # (a rich progress bar, on a terminal)
        self._task: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.lines_written = 0

    @property
    def is_bar(self) -> bool:
        """Return whether the display is a bar on a terminal (else periodic lines)."""
        return self._console.is_terminal

    def __enter__(self) -> Self:
        self._started = time.monotonic()
        if self.is_bar:
            from rich.progress import (
                BarColumn,
                DownloadColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            amount = DownloadColumn() if self.unit == "bytes" else MofNCompleteColumn()
            self._bar = _bar_class()(
                TextColumn("{task.description}"),
                BarColumn(),
                amount,
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=self._console,
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        else:
            self._thread = threading.Thread(
                target=self._write_lines, name="progress lines", daemon=True
            )
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=self._interval + 1)
            if self.lines_written and kind is None:
                self._write_line()

    def advance(self, amount: float = 1, note: str | None = None) -> None:
        """Record ``amount`` more steps done; ``note`` (on the bar) names the last one."""
        self.set_completed(self.completed + amount, note)

    def set_completed(self, completed: float, note: str | None = None) -> None:
        """Record that ``completed`` steps are done in all."""
        self.completed = completed
        if self._bar is not None and self._task is not None:
            description = self.description if note is None else f"{self.description}: {note}"
            self._bar.update(self._task, completed=completed, description=description)

    def set_status(self, status: str) -> None:
        """Show ``status`` (what the work has found so far) from now on, until the next call
        replaces it: on a line of its own under the bar, or in each line after the
        description."""
        self.status = status
        if self._bar is not None:
            self._bar.status = status
            self._bar.refresh()

    def _described(self) -> str:
        return f"{self.description}: {self.status}" if self.status else self.description

    def status_line(self) -> str:
        """Return one line: steps done of the total, time spent, an estimate of the time left."""
        elapsed = time.monotonic() - self._started
        done, total = self.completed, self.total
        unit = "" if self.unit in ("", "bytes") else f" {self.unit}"
        share = f" ({100 * done / total:.0f}%)" if total else ""
        if done > 0 and total:
            left = f", about {duration(elapsed * (total - done) / done)} left"
        else:
            left = ", time left unknown yet"
        return (
            f"{self._described()}: {_amount(done, self.unit)} of "
            f"{_amount(total, self.unit)}{unit}{share}, "
            f"{duration(elapsed)} elapsed{left}"
        )

    def _write_line(self) -> None:
        stream: IO[str] = self._console.file
        stream.write(self.status_line() + "\n")
        stream.flush()
        self.lines_written += 1

    def _write_lines(self) -> None:
        while not self._stop.wait(self._interval):
            self._write_line()


def progress(
    description: str, total: float, *, unit: str = "", console: Console | None = None
) -> ProgressReport:
    """Return a :class:`ProgressReport` on standard error (``console`` if given) for
    ``total`` steps of ``unit`` (``"positions"``, ``"games"``, ``"bytes"``...)."""
    return ProgressReport(description, total, unit=unit, console=console)


@attrs.define
class Interruption:
    """Whether Ctrl-C stopped the block of :func:`interruptible`."""

    interrupted: bool = False


@contextmanager
def interruptible() -> Iterator[Interruption]:
    """Run the block; on Ctrl-C stop it quietly and set ``interrupted`` on the yielded flag."""
    state = Interruption()
    try:
        yield state
    except KeyboardInterrupt:
        state.interrupted = True


def report_interruption(done: int, total: int, unit: str) -> int:
    """Print on standard error how far the work got, and return :data:`EXIT_INTERRUPTED`."""
    print(
        f"gamesearch: interrupted after {done:,} of {total:,} {unit}; the figures above are for "
        f"those {done:,}",
        file=sys.stderr,
        flush=True,
    )
    return EXIT_INTERRUPTED
