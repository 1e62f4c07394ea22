"""One line on stderr when a signal ends a `gym-pipeline` command, saying which and who sends it.

Python ends on SIGHUP, SIGALRM, SIGXCPU, SIGTERM and SIGUSR1/2 without a word: the log of a collection that a
closed ssh session, a verifier's forgotten `signal.alarm` or a CPU-time limit ended just stops. Each handler
writes the line, then puts the default action back and sends the signal again, so the process still ends by
that signal (a launcher still records "killed by SIGALRM", a shell still sees 128+N) and nothing else changes:
code that installs its own handler (a verifier's alarm handler, a server's SIGTERM handler) replaces ours.
`gym-pipeline diagnose` reads the line (`ended by SIG...` in gym_pipeline/diagnose/signatures.py).
"""

from __future__ import annotations

import os
import signal
from types import FrameType

WHO_SENDS: dict[str, str] = {
    "SIGHUP": "the terminal or ssh session that started it went away (run long work under nohup, tmux or sbatch)",
    "SIGALRM": "an alarm went off, and gym-pipeline sets none: code it ran (a verifier, a library) called "
               "signal.alarm and never cancelled it with signal.alarm(0)",
    "SIGXCPU": "it used up its CPU-time limit (`ulimit -t`, RLIMIT_CPU: a login node's or a job script's cap)",
    "SIGTERM": "another process asked it to stop (kill, scancel, a scheduler's time limit, `docker stop`, a "
               "supervisor)",
    "SIGUSR1": "a user signal, whose default action ends the process (a scheduler's warning, `sbatch --signal`)",
    "SIGUSR2": "a user signal, whose default action ends the process (a scheduler's warning, `sbatch --signal`)",
}


def announce_fatal_signals(command: str) -> None:
    """Make the signals above say, on stderr, that they ended `gym-pipeline COMMAND` and who sends them."""

    def announce_then_end(number: int, _frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        # os.write: a handler may run while stderr's Python buffer is mid-write
        os.write(2, f"\ngym-pipeline {command}: ended by {name}: {WHO_SENDS[name]}\n".encode())
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)

    announce_then_end.announces = True
    for name in WHO_SENDS:
        number = signal.Signals[name]
        current = signal.getsignal(number)
        # a signal ignored on purpose (nohup ignores SIGHUP) stays ignored, and another handler stays in place
        if current == signal.SIG_DFL or getattr(current, "announces", False):
            signal.signal(number, announce_then_end)
