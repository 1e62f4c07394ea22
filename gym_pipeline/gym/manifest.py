"""Fingerprints and the per-run manifest that records what each stage read and how.

A manifest (`manifest.json` in the run directory) holds one record per stage:
the digests of its inputs, its settings, the code version, and where it ran.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import socket
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

from gym_pipeline.gym.formats import write_json_atomic

MANIFEST_FILE = "manifest.json"
_CHUNK = 1 << 20


def file_digest(path: Path | str) -> str:
    """sha256 of a file's content (never its mtime)."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return "sha256:" + digest.hexdigest()


def value_digest(value: Any) -> str:
    """sha256 of a JSON-serializable value, independent of dict key order."""
    return "sha256:" + hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()


def code_version(*modules: ModuleType) -> str:
    """A code version derived from the source of the modules that produce an output."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(inspect.getsource(module).encode())
    return digest.hexdigest()[:16]


def read_manifest(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / MANIFEST_FILE
    return orjson.loads(path.read_bytes()) if path.exists() else {}


def record_stage(run_dir: Path, stage: str, record: dict[str, Any]) -> dict[str, Any]:
    """Add or replace one stage's record in the run's manifest (atomic rewrite)."""
    manifest = read_manifest(run_dir)
    manifest[stage] = record | {
        "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "ran_on": {"launcher": "local", "host": socket.gethostname(), "pid": os.getpid()},
    }
    write_json_atomic(Path(run_dir) / MANIFEST_FILE, manifest, indent=True)
    return manifest[stage]
