"""Content digests that are not computed twice: kept by file identity, like git's index and DVC's state.

A file's digest is stored with its (device, inode, size, modification time in ns) and reused while all four
match; any change of them hashes the file again. The blind spot, as in git and DVC: a file rewritten in place
with the same size and the same mtime (an mtime set back on purpose, or two writes within the file system's
timestamp resolution) keeps its old digest; `rehash=True` (`gym-pipeline status --rehash`, `rehash_sources`
in sweep.yaml) hashes everything.

Where a checkpoint publishes its files' sha256, it is read instead of hashing: a `<file>.sha256` beside a file
(`sha256sum` output, not older than the file), or a Hugging Face cache's snapshot link to `blobs/<sha256>`.
Digests are the same values `fingerprint.file_digest` and `folder_digest` compute, so cached, published and
computed digests can be mixed and compared.

The store is one SQLite file in the workspace, safe for the several processes that observe at once (the
webserver's daemon, `gym-pipeline status`, run workers).
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.core.fingerprint import PREFIX, file_digest, folder_digest_of

SHA256_HEX = re.compile(r"[0-9a-f]{64}")
PARALLEL_BYTES = 64 << 20  # below this, threads cost more than they save
PROGRESS_EVERY_S = 2.0


@dataclass(frozen=True)
class FileIdentity:
    device: int
    inode: int
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, stat: os.stat_result) -> FileIdentity:
        return cls(stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)


@dataclass
class HashingStats:
    """What the last call did: files whose digest was reused, read from a publisher, or computed."""

    reused: int = 0
    published: int = 0
    hashed: int = 0
    hashed_bytes: int = 0


def published_digest(path: Path, mtime_ns: int) -> str | None:
    """The sha256 a checkpoint publishes for `path`, if any: a fresh `.sha256` sidecar or a Hugging Face blob name."""
    if path.is_symlink():
        target = path.resolve()
        if target.parent.name == "blobs" and SHA256_HEX.fullmatch(target.name):
            return PREFIX + target.name
    sidecar = path.with_name(path.name + ".sha256")
    try:
        if sidecar.stat().st_mtime_ns < mtime_ns:
            return None  # written before the file last changed: it may describe an older content
        words = sidecar.read_text(encoding="ascii", errors="replace").split()
    except OSError:
        return None
    return PREFIX + words[0].lower() if words and SHA256_HEX.fullmatch(words[0].lower()) else None


class DigestCache:
    """`file_digest` and `folder_digest` with a persistent cache keyed by file identity."""

    def __init__(self, store: Path, *, rehash: bool = False, workers: int | None = None,
                 progress: Callable[[str], None] | None = None):
        self.store = Path(store)
        self.rehash = rehash
        self.workers = workers or os.cpu_count() or 1
        self.progress = progress
        self.stats = HashingStats()
        self.store.parent.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as connection, connection:
            connection.execute("CREATE TABLE IF NOT EXISTS digests (path TEXT PRIMARY KEY, device INTEGER, "
                               "inode INTEGER, size INTEGER, mtime_ns INTEGER, digest TEXT NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.store, timeout=60)
        connection.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
        connection.execute("PRAGMA synchronous=NORMAL")  # a lost cache entry only costs a hash
        return connection

    def file_digest(self, path: Path | str) -> str:
        return self.digests([Path(path)])[Path(path)]

    def folder_digest(self, path: Path | str) -> str:
        """The same value as `fingerprint.folder_digest`, reusing what is known of each file."""
        root = Path(path)
        files = [f for f in root.rglob("*") if f.is_file()]
        digests = self.digests(files, label=str(root))
        return folder_digest_of(root, digests)

    def digests(self, paths: Iterable[Path], label: str | None = None) -> dict[Path, str]:
        self.stats = HashingStats()
        paths = list(paths)
        identities = {path: FileIdentity.of(path.stat()) for path in paths}
        keys = {path: str(path.absolute()) for path in paths}
        known = {} if self.rehash else self._lookup(keys.values())
        found: dict[Path, str] = {}
        to_hash: list[Path] = []
        for path in paths:
            cached = known.get(keys[path])
            if cached and cached[0] == identities[path]:
                found[path] = cached[1]
                self.stats.reused += 1
            elif not self.rehash and (published := published_digest(path, identities[path].mtime_ns)):
                found[path] = published
                self.stats.published += 1
            else:
                to_hash.append(path)
        found |= self._hash(to_hash, identities, label or (str(paths[0]) if len(paths) == 1 else "files"))
        self._remember({keys[path]: (identities[path], found[path]) for path in paths
                        if known.get(keys[path]) != (identities[path], found[path])})
        return found

    def _lookup(self, keys: Iterable[str]) -> dict[str, tuple[FileIdentity, str]]:
        keys = list(keys)
        rows = []
        with closing(self._connect()) as connection:
            for start in range(0, len(keys), 500):  # SQLite's limit on bound parameters
                chunk = keys[start:start + 500]
                rows += connection.execute(
                    f"SELECT path, device, inode, size, mtime_ns, digest FROM digests WHERE path IN "
                    f"({','.join('?' * len(chunk))})", chunk).fetchall()
        return {row[0]: (FileIdentity(*row[1:5]), row[5]) for row in rows}

    def _remember(self, entries: dict[str, tuple[FileIdentity, str]]) -> None:
        if not entries:
            return
        with closing(self._connect()) as connection, connection:
            connection.executemany(
                "INSERT OR REPLACE INTO digests VALUES (?, ?, ?, ?, ?, ?)",
                [(key, i.device, i.inode, i.size, i.mtime_ns, digest) for key, (i, digest) in entries.items()])

    def _hash(self, paths: list[Path], identities: dict[Path, FileIdentity], label: str) -> dict[Path, str]:
        if not paths:
            return {}
        total = sum(identities[path].size for path in paths)
        done = {"files": 0, "bytes": 0}
        last_report = [time.monotonic()]

        def hash_one(path: Path) -> str:
            digest = file_digest(path)
            done["files"] += 1
            done["bytes"] += identities[path].size
            if self.progress and time.monotonic() - last_report[0] >= PROGRESS_EVERY_S:
                last_report[0] = time.monotonic()
                self.progress(f"hashing {label}: {done['files']} of {len(paths)} files, "
                              f"{done['bytes'] / 1e9:.1f} of {total / 1e9:.1f} GB")
            return digest

        # hashlib and file reads release the GIL: threads hash several large files at once
        workers = min(self.workers, len(paths)) if total >= PARALLEL_BYTES else 1
        with ThreadPoolExecutor(max_workers=workers) as pool:
            digests = dict(zip(paths, pool.map(hash_one, paths), strict=True))
        self.stats.hashed, self.stats.hashed_bytes = len(paths), total
        if self.progress and total >= PARALLEL_BYTES:
            self.progress(f"hashed {label}: {len(paths)} files, {total / 1e9:.1f} GB")
        return digests
