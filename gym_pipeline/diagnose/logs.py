"""Log evidence: every log a run produced, streamed once, reduced to hits and real errors.

A log can be gigabytes of INFO lines with the one line that matters near the end, so the scan
never looks at a line in Python unless it can matter:

1. read the file in chunks of whole lines into one reused buffer (memory does not grow with the log);
2. view the chunk as Arrow binary elements of ~64 KiB of whole lines, without copying, and run
   every signature of `signatures.SIGNATURES` at once over them with Arrow's RE2 kernel (a DFA:
   its speed does not depend on how many signatures there are). Most chunks end here;
3. only the lines of a block that matched are split and matched one by one, then per signature;
4. only the matching lines (and the lines of a traceback) reach Python, which records named hits
   and turns errors into incidents: a traceback headed by its exception line, or a burst of error
   lines. Shutdown noise and wrapper errors are no incident; incidents after a shutdown (Ctrl-C,
   SIGTERM, "Shutting down", a cancelled task) are marked as such: the earlier real error wins.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.signatures import (
    CAUSED_BY,
    ERROR_LINE,
    EXCEPTION_LINE,
    EXCEPTION_NAME,
    NOT_THE_ERROR,
    SHUTDOWN,
    SIGNATURES,
    STARTUP,
    STRUCTURE,
    TAIL_SIGNATURES,
    TRACEBACK,
    Signature,
)

# What counts as a log below a run folder: our `logs/*.log`, Gym's `*.log` anywhere, Slurm's
# `slurm-<job>.out`, harbor's verifier output, and a log rotation's last copies (`model_server.log.1`: where a server's
# end is, once its log was rotated). Virtual environments and caches are never logs.
LOG_PATTERNS = ("*.log", "*.out", "*.err", "test-stdout.txt", "*.log.[0-9]")
TASK_FILE = "task.toml"  # marks a task folder (Harbor's format)
SKIPPED_DIRS = frozenset({".venv", "venv", "site-packages", "node_modules", "__pycache__", ".git", ".cache"})

# Also the longest line read whole (a longer one is cut, the rest skipped). Each RE2 call builds its DFA afresh,
# which for the union of every signature costs as much as scanning megabytes: fewer, larger chunks scan faster
# (8 MiB: 150-190 MB/s on a noisy log, 32 MiB: 240-250 under the same load), for a constant 50 MiB more memory.
CHUNK_BYTES = 32 << 20
SMALL_FILE_BUFFER = 64 << 10  # the least buffer a log is read through (one that grows while read keeps its lines)
BLOCK_BYTES = 64 << 10  # the unit of the first RE2 pass: only blocks with a match are read line by line
MAX_LINES_MATCHED_IN_PYTHON = 100  # per chunk; more are matched signature by signature with RE2
MAX_EXAMPLES = 20  # hits kept per signature: the first ones and the last
TAIL_BYTES = 256 << 10  # the end of each log, read again for `signatures.TAIL_SIGNATURES`
MAX_INCIDENTS_PER_FILE = 20  # later errors of a file are counted, not kept
MAX_TRACEBACK_LINES = 2000
MAX_FRAMES = 8  # per traceback: the outermost frame and the innermost ones, where it was raised

# The union the RE2 pass runs; `(?m)` so `$` matches before each line's own newline.
_ANY_SIGNATURE = "(?m)" + "|".join(f"(?:{s.bare})" for s in SIGNATURES)
_EACH_SIGNATURE = tuple((s, "(?m)" + s.bare) for s in SIGNATURES)

_PREFIX = re.compile(
    r"^(?:\((?P<server>[^)\n]*)\) )?(?:\[\d{4}-\d\d-\d\d[ T][\d:,.]+\] ?|\d{4}-\d\d-\d\d[ T][\d:,.]+\s+)?"
)
_TRACEBACK_CONTINUES = re.compile(
    r"^(?:\s|$|During handling of the above exception|The above exception was the direct cause)"
)
# what ends a traceback: its exception, or a warning raised as one (`PYTHONWARNINGS=error`); only after a traceback's
# lines, since Python prints a warning it does not raise as `file.py:12: UserWarning: ...`
_EXCEPTION_HEADLINE = re.compile(r"(?:" + EXCEPTION_NAME + r"|(?:[A-Za-z_]\w*\.)*[A-Z]\w*Warning\b)(?::|\s*$)")
# how many lines of other processes may be printed into a traceback before it goes on (under load, a server
# starting beside the one that crashed writes its own lines between the crash's frames and its exception)
_INTERLEAVED_LINES = 3
_SHUTDOWN_HEADLINE = next(s.regex for s in SIGNATURES if s.name == SHUTDOWN)

# a command ended by `timeout` (exit 124) or by SIGTERM, as a script or CI step logs it
TIMED_OUT = re.compile(r"\b(?:exit(?: code| status)?:?\s*|returned\s+)124\b|\bTerminated\b", re.I)


@dataclass
class LogHit:
    file: str
    line: int
    text: str
    groups: dict[str, str | None]

    def evidence(self) -> EvidenceLine:
        return EvidenceLine(file=self.file, line=self.line, text=self.text)

    def group(self, *names: str) -> str | None:
        """The first of `names` the match filled."""
        return next((self.groups[n] for n in names if self.groups.get(n)), None)


@dataclass
class LogIncident:
    """One real error in a log: a traceback (headline = its exception line) or a burst of error lines."""

    file: str
    start: int
    end: int
    line: int  # the headline's line
    text: str
    kind: str  # "traceback" | "error"
    after_shutdown: bool = False
    signatures: set[str] = field(default_factory=set)  # what the incident's lines also matched
    server: str | None = None  # the `(name)` prefix Gym puts on a server's lines
    frames: list[str] = field(default_factory=list)  # a traceback's `File "...", line N, in f` lines (bounded)
    chain: list[str] = field(default_factory=list)  # an error line's `Caused by:` lines (bounded)

    @property
    def full_text(self) -> str:
        """The headline and its chain of causes: what the error is."""
        return "\n".join([self.text, *self.chain])

    def evidence(self) -> EvidenceLine:
        return EvidenceLine(file=self.file, line=self.line, text=self.text)


@dataclass
class LogFacts:
    """What the logs show, bounded whatever their size."""

    files: list[str] = field(default_factory=list)
    incidents: list[LogIncident] = field(default_factory=list)
    incident_counts: Counter[str] = field(default_factory=Counter)  # per file, kept or not
    hits: dict[str, list[LogHit]] = field(default_factory=dict)
    hit_counts: Counter[str] = field(default_factory=Counter)
    ended_in_shutdown: dict[str, bool] = field(default_factory=dict)  # per file: its last word was a shutdown
    bytes_scanned: int = 0
    lines_scanned: int = 0

    def add_hit(self, name: str, hit: LogHit) -> None:
        self.hit_counts[name] += 1
        bucket = self.hits.setdefault(name, [])
        if len(bucket) < MAX_EXAMPLES:
            bucket.append(hit)
        else:
            bucket[-1] = hit  # keep the first ones and the last one


def find_log_files(run_dir: Path) -> list[Path]:
    """Every log below the run folder, in a stable order (top level first)."""
    found: list[Path] = []
    for folder, subfolders, names in os.walk(run_dir):
        if TASK_FILE in names:  # a task folder kept beside the run: its files are the task's inputs, not run logs
            subfolders[:] = []
            continue
        subfolders[:] = sorted(d for d in subfolders if d not in SKIPPED_DIRS and not d.startswith("."))
        base = Path(folder)
        found += sorted(base / n for n in names if any(Path(n).match(p) for p in LOG_PATTERNS))
    return sorted(found, key=lambda p: (len(p.relative_to(run_dir).parts), str(p)))


def _whole_line_chunks(handle, chunk_bytes: int) -> Iterator[tuple[bytearray | bytes, int]]:
    """The file as (buffer, length) of whole lines, ending with b"\n"; one reused buffer.

    A line longer than the buffer is cut: its first `chunk_bytes` are yielded as a line and the
    rest of it skipped, so line numbers stay right.
    """
    buffer = bytearray(chunk_bytes)
    view = memoryview(buffer)
    filled = 0
    skipping = False  # inside the rest of a cut line
    while True:
        read = handle.readinto(view[filled:])
        if not read:
            if filled and not skipping:
                yield bytes(view[:filled]) + b"\n", filled + 1  # a last line without its newline
            return
        if skipping:  # `filled` is 0: look for the end of the cut line in what was just read
            newline = buffer.find(b"\n", 0, read)
            if newline < 0:
                continue
            skipping = False
            filled = read - newline - 1
            view[:filled] = view[newline + 1 : read]
        else:
            filled += read
        last = buffer.rfind(b"\n", 0, filled)
        if last >= 0:
            yield buffer, last + 1
            rest = filled - last - 1
            view[:rest] = view[last + 1 : filled]
            filled = rest
        elif filled == len(buffer):
            yield bytes(view) + b"\n", filled + 1
            filled, skipping = 0, True


# An error line whose details are on the next lines (pydantic: the field's path, then what it wants and the value;
# Gym's unset config value: which key it references).
# lines that say ERROR and end in nothing: the dynamic loader ignoring an LD_PRELOAD library it cannot load
_NOT_AN_ERROR = re.compile(r"ld\.so: object \S+ from LD_PRELOAD cannot be preloaded [^\n]*: ignored")
_DETAILS_FOLLOW = re.compile(r"\d+ validation errors? for \w+\s*$|Config value '[^']+'\s*$")


class _Chunk:
    """Whole lines in buffer[:length]; a line is addressed by its byte range [start, end), newline excluded."""

    def __init__(self, buffer: bytearray | bytes, length: int):
        self.buffer = buffer
        self.length = length
        self.bytes = np.frombuffer(buffer, dtype=np.uint8, count=length)

    def text(self, start: int, end: int) -> str:
        """The line as the signatures see it (a progress bar's "\r"s kept)."""
        return bytes(self.buffer[start:end]).decode("utf-8", errors="replace")

    def shown(self, start: int, end: int) -> str:
        """What a terminal shows of the line: the text after a progress bar's last "\r"."""
        line = self.text(start, end).rstrip("\r")
        return line.rsplit("\r", 1)[-1] if "\r" in line else line

    def lines_from(self, start: int) -> Iterator[tuple[int, int]]:
        while start < self.length:
            end = self.buffer.find(b"\n", start, self.length)
            yield start, end
            start = end + 1

    def block_starts(self) -> np.ndarray:
        """Byte offsets cutting the chunk into blocks of about BLOCK_BYTES of whole lines (and its length)."""
        starts = [0]
        for target in range(BLOCK_BYTES, self.length, BLOCK_BYTES):
            newline = self.buffer.find(b"\n", max(target, starts[-1]), self.length)
            if 0 <= newline < self.length - 1:
                starts.append(newline + 1)
        return np.array([*dict.fromkeys(starts), self.length], dtype=np.int32)

    def as_binary(self, offsets: np.ndarray) -> pa.Array:
        """The byte ranges [offsets[i], offsets[i+1]) as an Arrow binary array, without a copy."""
        return pa.Array.from_buffers(pa.binary(), len(offsets) - 1,
                                     [None, pa.py_buffer(offsets), pa.py_buffer(memoryview(self.buffer)[: self.length])])


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based, in the file
    start: int
    end: int


class _FileScan:
    """The state of one log's scan: line count, shutdown, an open traceback, the last incident."""

    def __init__(self, rel: str, facts: LogFacts):
        self.rel = rel
        self.facts = facts
        self.lines_before = 0  # lines of earlier chunks
        self.shutdown = False
        self.traceback: dict | None = None  # {"start", "server", "signatures"} while inside one
        self.kept = 0

    # -- a chunk of whole lines -----------------------------------------------------------------

    def feed(self, buffer: bytearray | bytes, length: int) -> None:
        chunk = _Chunk(buffer, length)
        newlines = chunk.bytes == 10
        self.facts.bytes_scanned += length
        resume = self._continue_traceback(chunk, 0, self.lines_before + 1) if self.traceback else 0
        lines, candidate_lines = self._candidates(chunk, newlines)
        if lines:
            names = self._hits_and_names(candidate_lines, lines, chunk)
            for line, line_names in zip(lines, names, strict=True):
                if line.start < resume:
                    self._attach(line_names)  # a line of the traceback just read
                    continue
                resume = self._structure(line, line_names, chunk)
        count = int(np.count_nonzero(newlines))
        self.lines_before += count
        self.facts.lines_scanned += count

    def _candidates(self, chunk: _Chunk, newlines: np.ndarray) -> tuple[list[_Line], pa.Array | None]:
        """The lines that match any signature, and their bytes as an Arrow array.

        One RE2 pass over the chunk's blocks finds the few blocks worth reading (a block without a
        match holds no matching line); only the lines of those blocks, copied together, are matched
        one by one.
        """
        starts = chunk.block_starts()
        hot = pc.indices_nonzero(pc.match_substring_regex(chunk.as_binary(starts), _ANY_SIGNATURE)).to_numpy()
        if not len(hot):
            return [], None
        per_block = [np.count_nonzero(newlines[a:b]) for a, b in zip(starts[:-1], starts[1:], strict=True)]
        lines_before_block = np.concatenate(([0], np.cumsum(per_block)))
        line_ends, first_numbers = [], []
        for block in hot.tolist():
            line_ends.append(np.flatnonzero(newlines[starts[block]:starts[block + 1]]) + starts[block])
            first_numbers.append(self.lines_before + lines_before_block[block] + 1)
        ends = np.concatenate(line_ends)  # each hot line's newline, in the chunk
        begins = np.concatenate([np.concatenate(([starts[b]], e[:-1] + 1)) for b, e in zip(hot.tolist(), line_ends,
                                                                                           strict=True)])
        numbers = np.concatenate([n + np.arange(len(e)) for n, e in zip(first_numbers, line_ends, strict=True)])
        copy = np.concatenate([chunk.bytes[starts[b]:starts[b + 1]] for b in hot.tolist()])
        offsets = np.concatenate(([0], np.cumsum(ends + 1 - begins))).astype(np.int32)
        hot_lines = pa.Array.from_buffers(pa.binary(), len(ends), [None, pa.py_buffer(offsets), pa.py_buffer(copy)])
        matched = pc.indices_nonzero(pc.match_substring_regex(hot_lines, _ANY_SIGNATURE))
        found = [_Line(int(numbers[k]), int(begins[k]), int(ends[k])) for k in matched.to_numpy().tolist()]
        return found, pc.take(hot_lines, matched)

    def finish(self) -> None:
        if self.traceback is not None:
            start = self.traceback["start"]
            self._add_incident(start, self.lines_before, start, "Traceback (most recent call last): (log ends inside it)",
                               "traceback", self.traceback["signatures"], server=self.traceback["server"],
                               frames=self.traceback["frames"])
            self.traceback = None
        self.facts.ended_in_shutdown[self.rel] = self.shutdown

    # -- per candidate line -----------------------------------------------------------------------

    def _hits_and_names(self, candidate_lines: pa.Array, lines: list[_Line], chunk: _Chunk) -> list[list[str]]:
        """Record each signature's hits in this chunk; return the signature names of each candidate line.

        A few lines are matched in Python; many (a flood of errors) one signature at a time with RE2,
        whose cost is mostly compiling the pattern, once per call.
        """
        if len(lines) <= MAX_LINES_MATCHED_IN_PYTHON:
            texts = [chunk.text(line.start, line.end) for line in lines]
            matches = [(s, [k for k, text in enumerate(texts) if s.regex.search(text)]) for s in SIGNATURES]
        else:
            matches = [(s, pc.indices_nonzero(pc.match_substring_regex(candidate_lines, pattern)).to_numpy().tolist())
                       for s, pattern in _EACH_SIGNATURE]
        names: list[list[str]] = [[] for _ in lines]
        for signature, matched in matches:
            for k in matched:
                names[k].append(signature.name)
            if matched and signature.name not in STRUCTURE:
                self._record_hits(signature, [lines[k] for k in matched], chunk)
        return names

    def _record_hits(self, signature: Signature, lines: list[_Line], chunk: _Chunk) -> None:
        """Keep the first hits and the last one; a flood of one signature is counted, not read."""
        room = MAX_EXAMPLES - len(self.facts.hits.get(signature.name, ()))
        read = lines if len(lines) <= room else [*lines[: max(room, 0)], lines[-1]]
        self.facts.hit_counts[signature.name] += len(lines) - len(read)
        for line in read:
            text = chunk.text(line.start, line.end)
            match = signature.regex.search(text)
            if match is None:  # RE2 and Python disagree on this line: keep only what Python confirms
                continue
            shown = text if match.start() <= 80 else "…" + text[match.start():]
            self.facts.add_hit(signature.name, LogHit(self.rel, line.number, shown, match.groupdict()))

    def _structure(self, line: _Line, names: list[str], chunk: _Chunk) -> int:
        """Shutdown state and incidents for one candidate line; returns the byte offset of the next line to look at."""
        if STARTUP in names:
            self.shutdown = False
        if SHUTDOWN in names:
            self.shutdown = True
        after = line.end + 1
        if self.kept >= MAX_INCIDENTS_PER_FILE:
            if {TRACEBACK, ERROR_LINE, EXCEPTION_LINE} & set(names):
                self.facts.incident_counts[self.rel] += 1
            return after
        if TRACEBACK in names:
            server, _ = _split_prefix(chunk.shown(line.start, line.end))
            self.traceback = {"start": line.number, "server": server, "signatures": set(names), "frames": []}
            return self._continue_traceback(chunk, after, line.number + 1)
        if CAUSED_BY in names:
            self._chain(line.number, chunk.shown(line.start, line.end).strip())
            return after
        if ERROR_LINE in names or EXCEPTION_LINE in names:
            shown = chunk.shown(line.start, line.end)
            if _NOT_AN_ERROR.search(shown):
                return after
            self._add_incident(line.number, line.number, line.number, shown, "error", set(names),
                               server=_split_prefix(shown)[0])
            if _DETAILS_FOLLOW.search(shown):  # pydantic's "1 validation error for X": the field and problem follow
                for number, (start, end) in enumerate(itertools.islice(chunk.lines_from(after), 2), line.number + 1):
                    self._chain(number, chunk.shown(start, end).strip())
        return after

    def _continue_traceback(self, chunk: _Chunk, start: int, number: int) -> int:
        """Read an open traceback's lines from byte `start` (line `number`) until its exception line;
        returns the byte offset of the first line after it (the chunk's length while it is still open)."""
        traceback = self.traceback
        assert traceback is not None
        first = traceback["start"]
        for line_start, line_end in chunk.lines_from(start):
            shown = chunk.shown(line_start, line_end)
            server, body = _split_prefix(shown)
            if server is not None and server != traceback["server"]:
                number += 1
                continue  # another server's line interleaved with this traceback
            if _TRACEBACK_CONTINUES.match(body) and number - first < MAX_TRACEBACK_LINES:
                if body.startswith('  File "'):
                    _keep_frame(traceback["frames"], body.strip())
                number += 1
                continue
            if not _EXCEPTION_HEADLINE.match(body) and traceback["frames"] \
                    and _goes_on(chunk, line_end + 1, traceback["server"]):
                number += 1
                continue  # an unprefixed line of another process (Ray, a server starting) printed into it
            self.traceback = None
            where = {"server": traceback["server"], "frames": traceback["frames"]}
            if _EXCEPTION_HEADLINE.match(body):
                self._add_incident(first, number, number, shown, "traceback", traceback["signatures"], **where)
                if _DETAILS_FOLLOW.search(body):  # a traceback ending in pydantic's "1 validation error for X"
                    for detail, (start, end) in enumerate(itertools.islice(chunk.lines_from(line_end + 1), 2),
                                                          number + 1):
                        self._chain(detail, chunk.shown(start, end).strip(), after_traceback=True)
                if _SHUTDOWN_HEADLINE.search(body):  # a traceback ended by a Ctrl-C: what follows is its noise
                    self.shutdown = True
                return line_end + 1
            self._add_incident(first, number - 1, first, "Traceback (most recent call last): (no exception line)",
                               "traceback", traceback["signatures"], **where)
            return line_start
        return chunk.length

    def _chain(self, number: int, text: str, after_traceback: bool = False) -> None:
        """A `Caused by:` line right under an error line belongs to it (and a detail line under a traceback's)."""
        incidents = self.facts.incidents
        previous = incidents[-1] if incidents and incidents[-1].file == self.rel else None
        kind = "traceback" if after_traceback else "error"
        if previous is not None and previous.kind == kind and number - previous.end <= 1:
            previous.end = number
            if len(previous.chain) < MAX_FRAMES:
                previous.chain.append(text)

    def _attach(self, names: list[str]) -> None:
        """Signatures seen on a traceback's lines belong to its incident."""
        if self.traceback is not None:
            self.traceback["signatures"].update(names)
        elif self.facts.incidents and self.facts.incidents[-1].file == self.rel:
            self.facts.incidents[-1].signatures.update(names)

    def _add_incident(self, start: int, end: int, line: int, text: str, kind: str, names: set[str],
                      server: str | None = None, frames: list[str] | None = None) -> None:
        if NOT_THE_ERROR.search(text):
            return
        incidents = self.facts.incidents
        previous = incidents[-1] if incidents and incidents[-1].file == self.rel else None
        if previous is not None and previous.kind == "traceback" and kind == "traceback" \
                and start - previous.end <= 4 and previous.after_shutdown == self.shutdown:
            # "The above exception was the direct cause of the following exception": one chained error, headed by
            # the exception that ended it, the earlier ones (its causes) kept in its chain
            if len(previous.chain) < MAX_FRAMES:
                previous.chain.append(previous.text)
            previous.end, previous.line, previous.text = end, line, text
            previous.frames = frames or previous.frames
            previous.signatures |= names
            return
        if previous is not None and previous.kind == "error" and start - previous.end <= 3:
            if kind == "traceback":
                # "ERROR: Exception in ASGI application" + its traceback: one incident, headed by the exception
                previous.kind, previous.line, previous.text = "traceback", line, text
                previous.frames = frames or []
                previous.server = previous.server or server
            previous.end = end  # one burst of error lines is one incident
            previous.signatures |= names
            return
        self.facts.incident_counts[self.rel] += 1
        self.kept += 1
        incidents.append(LogIncident(self.rel, start, end, line, text, kind, self.shutdown, set(names), server,
                                     frames or []))


def _goes_on(chunk: _Chunk, start: int, server: str | None) -> bool:
    """Whether a traceback of `server` goes on (a frame, a code line or its exception) within the lines from `start`."""
    for line_start, line_end in itertools.islice(chunk.lines_from(start), _INTERLEAVED_LINES):
        other, body = _split_prefix(chunk.shown(line_start, line_end))
        if other is not None and other != server:
            continue
        if body.startswith("  ") or _EXCEPTION_HEADLINE.match(body):
            return True
    return False


def _keep_frame(frames: list[str], frame: str) -> None:
    """Keep the outermost frame and the innermost MAX_FRAMES - 1 (where the error was raised)."""
    frames.append(frame)
    if len(frames) > MAX_FRAMES:
        del frames[1]


def _split_prefix(line: str) -> tuple[str | None, str]:
    match = _PREFIX.match(line)
    return (match.group("server"), line[match.end():]) if match else (None, line)


def scan_file(path: Path, rel: str, facts: LogFacts, chunk_bytes: int = CHUNK_BYTES) -> None:
    """Scan one log file into `facts`."""
    facts.files.append(rel)
    scan = _FileScan(rel, facts)
    size = path.stat().st_size
    with path.open("rb", buffering=0) as handle:
        # a small log gets a buffer its size (a line of it cannot be longer), not a whole chunk's to allocate
        for buffer, length in _whole_line_chunks(handle, min(chunk_bytes, max(size + 1, SMALL_FILE_BUFFER))):
            scan.feed(buffer, length)
        handle.seek(max(0, path.stat().st_size - TAIL_BYTES))
        tail = handle.read(TAIL_BYTES)
    scan.finish()
    _scan_tail(rel, tail, scan.lines_before, facts, cut=len(tail) == TAIL_BYTES)


def _scan_tail(rel: str, tail: bytes, total_lines: int, facts: LogFacts, cut: bool) -> None:
    """The tail signatures, on the last lines of a log (the first one dropped when the tail cut through it)."""
    lines = tail.decode("utf-8", errors="replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if cut and lines:
        lines.pop(0)
    first = total_lines - len(lines) + 1
    for offset, text in enumerate(lines):
        for signature in TAIL_SIGNATURES:
            if match := signature.regex.search(text):
                shown = text if match.start() <= 80 else "…" + text[match.start():]
                facts.add_hit(signature.name, LogHit(rel, first + offset, shown, match.groupdict()))


def scan_text(name: str, text: str, facts: LogFacts) -> None:
    """Scan a text that is not a file (a failed run's error message) exactly like a log."""
    facts.files.append(name)
    scan = _FileScan(name, facts)
    data = text.encode("utf-8", errors="replace")
    if data:
        data = data if data.endswith(b"\n") else data + b"\n"
        scan.feed(data, len(data))
    scan.finish()
    _scan_tail(name, data[-TAIL_BYTES:], scan.lines_before, facts, cut=len(data) > TAIL_BYTES)


def scan_logs(run_dir: Path | None, extra_logs: Iterable[tuple[str, str]] = ()) -> LogFacts:
    """All logs below `run_dir` (paths relative to it), then each extra (name, text)."""
    facts = LogFacts()
    if run_dir is not None and run_dir.is_dir():
        for path in find_log_files(run_dir):
            scan_file(path, str(path.relative_to(run_dir)), facts)
    for name, text in extra_logs:
        scan_text(name, text, facts)
    return facts
