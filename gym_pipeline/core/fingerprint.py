"""Content fingerprints: what an output depends on, never when a file was last touched.

Every digest is `sha256:<hex>`. Files are hashed in large chunks into one reused
buffer, which runs at memory speed on machines with SHA extensions.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson

_CHUNK = 4 << 20
PREFIX = "sha256:"


def file_digest(path: Path | str) -> str:
    """sha256 of a file's content."""
    digest = hashlib.sha256()
    buffer = bytearray(_CHUNK)
    view = memoryview(buffer)
    with Path(path).open("rb", buffering=0) as handle:
        while read := handle.readinto(buffer):
            digest.update(view[:read])
    return PREFIX + digest.hexdigest()


def folder_digest(path: Path | str) -> str:
    """sha256 over a folder's files, in sorted relative-path order: each path and its content digest."""
    root = Path(path)
    return folder_digest_of(root, {file: file_digest(file) for file in root.rglob("*") if file.is_file()})


def folder_digest_of(root: Path, file_digests: dict[Path, str]) -> str:
    """The folder digest from its files' content digests (however they were obtained)."""
    digest = hashlib.sha256()
    for file in sorted(file_digests, key=lambda f: f.relative_to(root).as_posix()):
        digest.update(f"{file.relative_to(root).as_posix()}\0{file_digests[file]}\n".encode())
    return PREFIX + digest.hexdigest()


def value_digest(value: Any) -> str:
    """sha256 of a JSON-serializable value, independent of dict key order."""
    return PREFIX + hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()
