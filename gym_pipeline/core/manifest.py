"""The run manifest: what each stage read and how, recorded beside its output.

`manifest.json` in an output's folder holds one record per stage: the
fingerprints of its inputs, its settings, the code version, and where it ran.
"""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.formats import write_json_atomic
from gym_pipeline.core.redaction import redact_value

MANIFEST_FILE = "manifest.json"

# Stage records the engines and the profiler write and the diagnosis reads, and a collection's status.
ROLLOUTS_STAGE = "rollouts"
PROFILE_STAGE = "reward_profile"  # also the run-directory lock holder's stage
REVERIFY_STAGE = "reverify"  # the stored answers scored again (`gym-pipeline reverify`)
COLLECTING, COMPLETE = "collecting", "complete"  # a "collecting" record after a crash marks a resumable run


def read_manifest(run_dir: Path) -> dict[str, Any]:
    path = Path(run_dir) / MANIFEST_FILE
    return orjson.loads(path.read_bytes()) if path.exists() else {}


def record_stage(run_dir: Path, stage: str, record: dict[str, Any]) -> dict[str, Any]:
    """Add or replace one stage's record in the folder's manifest (atomic rewrite).

    Secrets are hidden first (a model URL with credentials, an API key in the settings): a manifest is
    shared with the run's files and shown in diagnoses.
    """
    manifest = read_manifest(run_dir)
    manifest[stage] = redact_value(record) | {
        "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "ran_on": {"launcher": "local", "host": socket.gethostname(), "pid": os.getpid()},
    }
    write_json_atomic(Path(run_dir) / MANIFEST_FILE, manifest, indent=True)
    return manifest[stage]


def annotate_stage(run_dir: Path, stage: str, fields: dict[str, Any]) -> None:
    """Add fields to a stage's record (e.g. where a launcher ran it), keeping the rest as the stage wrote it."""
    manifest = read_manifest(run_dir)
    manifest[stage] = manifest.get(stage, {}) | redact_value(fields)
    write_json_atomic(Path(run_dir) / MANIFEST_FILE, manifest, indent=True)
