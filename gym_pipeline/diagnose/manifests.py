"""Manifest evidence: are the run's files still what its stages were built from?

Our run folders keep `manifest.json` (see `gym.manifest`): the materialization records its
source's digest and settings, the collection the digest of the inputs it started on, the
profile the digests of what it read. This collector asks `gym.staleness` the questions Gym never
asks (`ensure_resume_is_safe` for the verdict, `compare_materialized` for what changed) and
compares the profile's inputs with the files now in the folder. A Gym folder has no manifest:
nothing here, and the log signatures of a changed task folder speak instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import JsonlFormatError
from gym_pipeline.core.manifest import COLLECTING, MANIFEST_FILE, PROFILE_STAGE, REVERIFY_STAGE, ROLLOUTS_STAGE
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE, MaterializationSettings
from gym_pipeline.core.staleness import StaleInputsError, StaleReport, compare_materialized, ensure_resume_is_safe
from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_holding
from gym_pipeline.diagnose.taskset_source import is_taskset_record, taskset_staleness

SOURCE_CHANGED = "source_changed"  # the data changed since the inputs were materialized
SOURCE_GONE = "source_gone"
INPUTS_CHANGED = "inputs_changed"  # the inputs changed since the rollouts were collected on them
PROFILE_OUTDATED = "profile_outdated"  # the profile read other files than the folder holds now
RESUMED_OVER_OTHER_DATA = "resumed_over_other_data"  # a resume that ran nothing, beside data it never read
SETTINGS_CHANGED = "settings_changed"  # the sweep config beside the run asks for other materialization settings
VERIFIER_CHANGED = "verifier_changed"  # the workspace verifier's code changed since it scored the rows
ROLLOUTS_REPLACED = "rollouts_replaced"  # the rollouts file is not the one the last collection (or re-scoring) wrote
COLLECTED_ELSEWHERE = "collected_elsewhere"  # the last collection wrote another file of the folder (a new --output)
# The sweep config a stage read: kept beside the run, or written by a launched stage's step (logs/<stage>.sweep.json).
SWEEP_CONFIGS = ("sweep.json", "sweep.yaml", "logs/*.sweep.json")


@dataclass
class Staleness:
    kind: str
    message: str
    evidence: EvidenceLine
    report: StaleReport | None = None  # what changed, for SOURCE_CHANGED
    other_file: Path | None = None  # the file the last collection wrote instead, for COLLECTED_ELSEWHERE


@dataclass
class ManifestFacts:
    present: bool = False
    unreadable: str | None = None
    stale: list[Staleness] = field(default_factory=list)
    collection_cut_short: EvidenceLine | None = None  # the rollouts record still says "collecting"
    source: str | None = None
    settings: MaterializationSettings | None = None
    model_urls: list[tuple[str, int | None]] = field(default_factory=list)  # (url, manifest line)
    concurrency: list[tuple[int, int | None]] = field(default_factory=list)  # (requests in flight, manifest line)
    checkpoint: tuple[str, int | None] | None = None  # (the checkpoint the rollouts record names, its line)
    checkpoint_path: str | None = None  # ... and the folder it records for it
    collection_model: str | None = None  # the model name the last collection asked the server for
    output_over_inputs: EvidenceLine | None = None  # a collection whose --output was its own inputs file
    inputs_recorded: EvidenceLine | None = None  # when the materialized inputs were written (their record's time)

    def of(self, kind: str) -> list[Staleness]:
        return [s for s in self.stale if s.kind == kind]


def read_manifest_facts(run_dir: Path | None, materialized: Path, rollouts: Path) -> ManifestFacts:
    facts = ManifestFacts()
    path = run_dir / MANIFEST_FILE if run_dir is not None else None
    if path is None or not path.is_file():
        return facts
    facts.present = True
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        manifest: dict[str, Any] = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        facts.unreadable = str(error)
        return facts
    if not isinstance(manifest, dict):
        facts.unreadable = f"expected a JSON object of stage records, got {type(manifest).__name__}"
        return facts
    lines = text.splitlines()
    facts.model_urls = [(url, line_holding(lines, url)) for url in _values_of(manifest, "model_url")]
    facts.concurrency = [(n, line_holding(lines, f'"concurrency": {n}')) for n in _values_of(manifest, "concurrency", int)]
    rollouts_record = manifest.get(ROLLOUTS_STAGE) if isinstance(manifest.get(ROLLOUTS_STAGE), dict) else {}
    checkpoint = rollouts_record.get("checkpoint")
    if isinstance(rollouts_record.get("model"), str):
        facts.collection_model = rollouts_record["model"]
    if isinstance(checkpoint, dict) and isinstance(checkpoint.get("name"), str):
        facts.checkpoint = (checkpoint["name"], line_holding(lines, f'"name": "{checkpoint["name"]}"'))
        facts.checkpoint_path = checkpoint.get("path") if isinstance(checkpoint.get("path"), str) else None
    try:
        _check_records(facts, manifest, materialized, rollouts, lines)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        # A record edited by hand or written by another tool: say so rather than guess what it meant.
        facts.unreadable = f"a stage record is not as gym_pipeline writes it ({type(error).__name__}: {error})"
    return facts


def _check_records(facts: ManifestFacts, manifest: dict[str, Any], materialized: Path, rollouts: Path,
                   lines: list[str]) -> None:
    inputs_record = manifest.get(MATERIALIZED_INPUTS_STAGE)
    rollouts_record = manifest.get(ROLLOUTS_STAGE)
    if inputs_record:
        if isinstance(inputs_record.get("recorded_at"), str):
            facts.inputs_recorded = EvidenceLine(
                file=MANIFEST_FILE, line=line_holding(lines, f'"recorded_at": "{inputs_record["recorded_at"]}"'),
                text=f"{MATERIALIZED_INPUTS_STAGE}.recorded_at: {inputs_record['recorded_at']}")
        _check_source(facts, inputs_record, materialized, lines)
        _check_settings(facts, inputs_record["settings"], materialized.parent, lines)
    # a collection of another inputs file (a shard a driver cut from them) says nothing of these inputs
    of_these_inputs = Path(str((rollouts_record or {}).get("inputs", {}).get("path", ""))).name == materialized.name
    if rollouts_record and materialized.is_file() and of_these_inputs:
        try:
            ensure_resume_is_safe(materialized, rollouts_record, None)
        except StaleInputsError as error:
            recorded = rollouts_record["inputs"]["digest"]
            facts.stale.append(Staleness(INPUTS_CHANGED, str(error), EvidenceLine(
                file=MANIFEST_FILE, line=line_holding(lines, recorded), text=f"rollouts.inputs.digest: {recorded}")))
    if rollouts_record and (rollouts_record.get("output") or {}).get("path") == rollouts_record["inputs"]["path"]:
        facts.output_over_inputs = EvidenceLine(
            file=MANIFEST_FILE, line=line_holding(lines, '"output"'),
            text=f"rollouts.inputs.path and rollouts.output.path: {rollouts_record['inputs']['path']}")
    if rollouts_record and isinstance(rollouts_record.get("verifier"), dict):
        _check_verifier(facts, rollouts_record["verifier"], rollouts.parent, lines)
    digests: dict[Path, str] = {}
    _check_rollouts_output(facts, manifest, rollouts, lines, digests)
    if rollouts_record and rollouts_record.get("status") == COLLECTING:
        facts.collection_cut_short = EvidenceLine(
            file=MANIFEST_FILE, line=line_holding(lines, f'"{COLLECTING}"'),
            text=f"rollouts.status: {COLLECTING} (recorded {rollouts_record.get('recorded_at', '?')})")
    profile_record = manifest.get(PROFILE_STAGE)
    if profile_record:
        _check_profile(facts, profile_record, {"materialized": materialized, "rollouts": rollouts}, lines, digests)


def _check_rollouts_output(facts: ManifestFacts, manifest: dict[str, Any], rollouts: Path, lines: list[str],
                           digests: dict[Path, str]) -> None:
    """The rollouts file against the digest its last writer recorded (the collection, or a re-scoring after it): a
    copy restored over it, rows merged in or edited by hand leave rewards no stage of the run produced."""
    writers = [(record.get("recorded_at") or "", stage, record) for stage in (ROLLOUTS_STAGE, REVERIFY_STAGE)
               if isinstance(record := manifest.get(stage), dict) and record.get("status") != COLLECTING]
    if not writers or not rollouts.is_file():
        return
    recorded_at, stage, record = max(writers, key=lambda writer: writer[0])
    written = (record.get("output") or {}).get("path")
    if isinstance(written, str) and (other := locate_named_file(written, rollouts.parent)).is_file() \
            and other.name != rollouts.name:
        # A collection given a new --output starts afresh there (even with --resume): the folder's rollouts
        # file is an earlier collection's, left as it stopped.
        rows = (record.get("output") or {}).get("rows")
        facts.stale.append(Staleness(
            COLLECTED_ELSEWHERE,
            f"the last {stage} stage ({recorded_at}, status {record.get('status', '?')}) wrote {other.name}"
            + (f" ({rows} rows)" if isinstance(rows, int) else "") + f", not {rollouts.name}",
            EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, written), text=f"{stage}.output.path: {written}"),
            other_file=other))
        return
    recorded = (record.get("output") or {}).get("digest")
    if not isinstance(recorded, str) or (current := _digest(rollouts, digests)) == recorded:
        return
    facts.stale.append(Staleness(
        ROLLOUTS_REPLACED,
        f"{rollouts.name} is not the file the {stage} stage wrote at {recorded_at} (its digest was {recorded}, it is "
        f"{current} now; modified {_modified(rollouts)})",
        EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, recorded), text=f"{stage}.output.digest: {recorded}")))


def _digest(path: Path, digests: dict[Path, str]) -> str:
    """A file's digest, read once per diagnosis: the collection's record and the profile's both name the rollouts."""
    if path not in digests:
        digests[path] = file_digest(path)
    return digests[path]


def _modified(path: Path) -> str:
    return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _values_of(value: Any, key: str, kind: type = str) -> list[Any]:
    """Every value of type `kind` under `key` anywhere in a manifest (a stage may record the model URL it used)."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get(key), kind) and not isinstance(item.get(key), bool):
                found.append(item[key])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _check_source(facts: ManifestFacts, record: dict[str, Any], materialized: Path, lines: list[str]) -> None:
    if is_taskset_record(record):  # a folder of task folders, compared task by task
        facts.source, facts.settings = record["source"]["path"], MaterializationSettings(**record["settings"])
        if stale := taskset_staleness(record, materialized):
            evidence = EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, record["source"]["digest"]),
                                    text=f"materialized_inputs.source: {facts.source} at {record['source']['digest']}")
            facts.stale.append(Staleness(SOURCE_CHANGED if stale[1] else SOURCE_GONE, stale[0], evidence, stale[1]))
        return
    source = locate_named_file(record["source"]["path"], materialized.parent)
    record = record | {"source": record["source"] | {"path": str(source)}}
    recorded = record["source"]["digest"]
    facts.source = str(source)
    facts.settings = MaterializationSettings(**record["settings"])
    try:
        ensure_resume_is_safe(materialized, None, record)
    except StaleInputsError as error:
        evidence = EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, recorded),
                                text=f"materialized_inputs.source: {source} at {recorded}")
        if not source.exists():
            facts.stale.append(Staleness(SOURCE_GONE, str(error), evidence))
            return
        try:
            report = compare_materialized(materialized, source, facts.settings, recorded) if materialized.is_file() else None
        except JsonlFormatError:  # a malformed inputs or source file is reported by the artifact evidence
            report = None
        facts.stale.append(Staleness(SOURCE_CHANGED, str(error), evidence, report))


def sweep_config_beside(run_dir: Path) -> tuple[Any, Path] | None:
    """The sweep config beside the run (the latest written), or else the workspace's whose runs_dir holds the run
    (`home/sweep.yaml` for `home/runs/<checkpoint>/<env>`), read without importing its verifiers; None when there is
    none or it does not load (the run's own error reports that)."""
    configs = sorted((path for pattern in SWEEP_CONFIGS for path in run_dir.glob(pattern)),
                     key=lambda path: path.stat().st_mtime_ns)
    if configs:
        return _loaded(configs[-1])
    for home in run_dir.resolve().parents[:_WORKSPACE_LEVELS]:
        if (home / "sweep.yaml").is_file() and (found := _loaded(home / "sweep.yaml")) is not None \
                and run_dir.resolve().is_relative_to(found[0].resolved(home).runs_dir):
            return found
    return None


_WORKSPACE_LEVELS = 4  # folders above a run folder where its workspace's sweep.yaml may be


def _loaded(path: Path) -> tuple[Any, Path] | None:
    from gym_pipeline.config import ConfigError, SweepConfig, load_sweep_config  # the config model: only when needed

    try:
        return (SweepConfig.validate_from_step(path.read_bytes()) if path.suffix == ".json"
                else load_sweep_config(path, load_verifiers=False)), path
    except (ConfigError, ValueError, OSError):
        return None


def _check_verifier(facts: ManifestFacts, recorded: dict[str, Any], run_dir: Path, lines: list[str]) -> None:
    """The workspace verifier that scored the rows, against its code now: edited since, the rows keep old rewards."""
    from gym_pipeline.code_versions import verifier_version

    found = sweep_config_beside(run_dir)
    name, version = recorded.get("name"), recorded.get("version")
    if found is None or not isinstance(name, str) or not isinstance(version, str):
        return
    config, _ = found
    environment = next((e for e in config.environments if e.verifier == name), None)
    if environment is None:
        return  # a bundled verifier (its version moves with the project) or one the config no longer names
    module, workspace = workspace_verifier(config, environment.name, run_dir)
    try:
        current = verifier_version(module, workspace)
    except (ModuleNotFoundError, OSError, SyntaxError, ValueError):
        return
    if current != version:
        facts.stale.append(Staleness(
            VERIFIER_CHANGED,
            f"the verifier `{name}` of environment {environment.name} scored these rows at version {version}; its "
            f"code is at version {current} now",
            EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, version), text=f"rollouts.verifier: {name} {version}")))


def workspace_verifier(config: Any, environment: str, run_dir: Path) -> tuple[str, Path | None]:
    """(module, workspace) of an environment's verifier, the workspace found below the run folder when the folder was
    copied or moved since (None for a bundled verifier)."""
    module, workspace = config.verifier_module(environment)
    if workspace is not None and not workspace.is_dir():
        workspace = locate_named_file(workspace, run_dir, folder=True)
    return module, workspace


def _check_settings(facts: ManifestFacts, recorded: dict[str, Any], run_dir: Path, lines: list[str]) -> None:
    """The sweep config the later stages read, against the settings the inputs were materialized with."""
    found = sweep_config_beside(run_dir)
    if found is None:
        return
    config, config_path = found
    for environment in config.environments:
        current = config.materialization_settings(environment.name).as_dict()
        if current["agent"] != recorded["agent"]:
            continue  # another environment of the sweep
        # settings a newer version added are compared only where the record has them
        changed = {key: (recorded[key], value) for key, value in current.items() if key in recorded and recorded[key] != value}
        if changed:
            what = ", ".join(f"{key} {old!r} -> {new!r}" for key, (old, new) in changed.items())
            facts.stale.append(Staleness(
                SETTINGS_CHANGED,
                f"{config_path.relative_to(run_dir)} asks for {what} (environment {environment.name}); the inputs were "
                f"materialized with the old settings",
                EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, '"settings"'),
                             text=f"materialized_inputs.settings: {recorded}")))
        return


def _check_profile(facts: ManifestFacts, record: dict[str, Any], files: dict[str, Path], lines: list[str],
                   digests: dict[Path, str]) -> None:
    for name, path in files.items():
        recorded = record.get("inputs", {}).get(name)
        if not recorded or not path.is_file():
            continue
        current = _digest(path, digests)
        if current != recorded:
            facts.stale.append(Staleness(
                PROFILE_OUTDATED,
                f"the reward profile was computed from {path.name} at {recorded}; it is {current} now",
                EvidenceLine(file=MANIFEST_FILE, line=line_holding(lines, recorded),
                             text=f"reward_profile.inputs.{name}: {recorded}")))
