"""A run's progress: a tqdm bar on a terminal, plain lines in a log."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from simkit.simulate.config import SimulationConfig

#: Off a terminal, a plain progress line at most this often (seconds);
#: ``$SIMKIT_PROGRESS_INTERVAL`` sets another.
PROGRESS_INTERVAL_S = 5.0


class ProgressLines:
    """Progress as plain lines on stderr, for a log (CI, ``nohup``, ``| tee``): a line every
    :data:`PROGRESS_INTERVAL_S` from a timer thread, whether or not a chunk came in (the
    workers' start and a long chunk are not silent), and one at the end if any was printed
    before it (a run shorter than the interval prints nothing).  An interval of 0 prints a
    line at every chunk instead."""

    def __init__(self, total: int, done: int, stream: Any = None) -> None:
        self.total = total
        self.done = self.resumed = done
        self.stream = stream
        self.start = time.monotonic()
        self.printed = False
        try:
            self.interval = float(os.environ.get("SIMKIT_PROGRESS_INTERVAL", PROGRESS_INTERVAL_S))
        except ValueError:
            self.interval = PROGRESS_INTERVAL_S
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._timer: threading.Thread | None = None
        if self.interval > 0:
            self._timer = threading.Thread(target=self._tick, name="simkit-progress", daemon=True)
            self._timer.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            if self.done < self.total:  # the end's line is update's
                self._print()

    def _print(self) -> None:
        with self._lock:
            self.printed = True
            print(self.line(time.monotonic()), file=self.stream or sys.stderr, flush=True)

    def update(self, n: int) -> None:
        """Count ``n`` more games done; print a line now where the interval is 0 (every
        chunk), or at the end where a line was printed before."""
        self.done += n
        if self.interval <= 0 or (self.printed and self.done >= self.total):
            self._print()

    def line(self, now: float) -> str:
        """``simulate: 47,104 / 300,000 games (15.7%), 12 s elapsed, ~64 s left``."""
        elapsed = now - self.start
        head = (
            f"simulate: {self.done:,} / {self.total:,} games "
            f"({100 * self.done / self.total:.1f}%), {elapsed:.0f} s elapsed"
        )
        if self.done >= self.total:
            return head + ", done"
        played = self.done - self.resumed
        if played <= 0:
            return head
        return head + f", ~{elapsed * (self.total - self.done) / played:.0f} s left"

    def close(self) -> None:
        """Stop the timer (no line after the run's end)."""
        self._stop.set()
        if self._timer is not None:
            self._timer.join()


def progress_bar(config: SimulationConfig, done: int, progress: bool | None) -> Any:
    """A tqdm bar on a terminal (or where ``progress`` is True), plain lines elsewhere
    (:class:`ProgressLines`: CI, logs, pipes), None where ``progress`` is False."""
    if progress is False:
        return None
    if progress is None and not (sys.stderr.isatty() and not os.environ.get("CI")):
        return ProgressLines(config.n_games, done)
    from tqdm import tqdm

    return tqdm(
        total=config.n_games,
        initial=done,
        unit="games",
        unit_scale=True,
        desc=f"simulate {len(config.variants)} variant(s)",
        smoothing=0.1,
    )
