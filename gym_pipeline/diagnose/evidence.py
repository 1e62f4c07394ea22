"""Evidence: what every collector found about one run, gathered once. Rules read only this.

    collect_evidence(run_dir, probe=False, extra_logs={"dagster step failure": text}, model_url=None)

- artifacts (`artifacts.py`): the run's JSONL files, run summary and skipped.json;
- logs (`logs.py`): every log below the run folder, plus texts given as `extra_logs` (a failed
  Dagster step's error, for a run that stopped before writing anything) read exactly like logs;
- launcher state (`launcher.py`), manifests (`manifests.py`: stale inputs);
- with `probe=True`, live probes (`probes.py`) of what the run's files name.

The run folder may be missing when `extra_logs` tell the story (a stage that failed first thing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from urllib.parse import urlsplit

from gym_pipeline.core.manifest import MANIFEST_FILE
from gym_pipeline.diagnose.answer_texts import AnswerText, GradedAnswer, read_answer_texts, read_graded_answers
from gym_pipeline.diagnose.artifacts import ArtifactFacts, collect_artifacts
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match, redact
from gym_pipeline.diagnose.launcher import LauncherRecord, read_launcher_states
from gym_pipeline.diagnose.logs import LogFacts, LogHit, LogIncident, scan_logs
from gym_pipeline.diagnose.manifests import ManifestFacts, read_manifest_facts
from gym_pipeline.diagnose.probes import (
    DEFAULT_HEAD_URL,
    DEFAULT_SOURCE,
    HEAD_SERVER,
    MODEL,
    PORT,
    ProbeResult,
    ProbeTarget,
    is_loopback,
)
from gym_pipeline.diagnose.probes import probe as run_probes
from gym_pipeline.diagnose.unrecorded_source import check_unrecorded_source
from gym_pipeline.diagnose.user_scripts import UserFile, read_user_files
from gym_pipeline.diagnose.verifier_source import verifier_sources

__all__ = ["Evidence", "EvidenceLine", "collect_evidence", "redact"]

MAX_PORT_PROBES = 16


FAILED_RUN_SOURCE = "dagster: run failure"  # the name a failed run's error text goes by in evidence
FAILED_RUN_LOG = "logs/dagster_failure.log"  # where the failed-run sensor keeps that text in the run folder


LOG_HEAD_BYTES = 64 << 10
MAX_LOG_HEADS = 50
MAX_TEXT_SETTINGS_BYTES = 64 << 10  # a settings list kept as text beside the run (`overrides.txt`)


@dataclass
class Evidence:
    run_dir: Path
    artifacts: ArtifactFacts
    logs: LogFacts
    launchers: list[LauncherRecord]
    manifest: ManifestFacts
    probes: list[ProbeResult] | None = None  # None: not probed
    scripts_dir: Path | None = None  # the folder of shards this run folder is one of: its scripts ran it
    _hits: dict[str, list[LogHit]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._hits = {name: list(hits) for name, hits in self.logs.hits.items()}
        for name, hit in self.artifacts.hits:
            self._hits.setdefault(name, []).append(hit)

    def hits(self, name: str) -> list[LogHit]:
        """Lines (of logs, or of the run's files' error texts) that match one signature."""
        return self._hits.get(name, [])

    def hit_count(self, name: str) -> int:
        return self.logs.hit_counts[name] + sum(1 for n, _ in self.artifacts.hits if n == name)

    def rel(self, path: Path | None) -> str:
        return self.artifacts.rel(path)

    def incidents_near(self, file: str, line: int, window: int = 5) -> list[LogIncident]:
        return [i for i in self.logs.incidents if i.file == file and i.start - window <= line <= i.end + window]

    @cached_property
    def user_files(self) -> list[UserFile]:
        """The user's own scripts and settings files in the run folder, read once for every rule that looks."""
        return read_user_files(self.run_dir, self.scripts_dir)

    @cached_property
    def answer_texts(self) -> list[AnswerText]:
        """The reply texts of the first rollouts, read once for every rule that looks at what the model answered."""
        return read_answer_texts(self.artifacts.files.rollouts)

    @cached_property
    def graded_answers(self) -> list[GradedAnswer]:
        """The expected and extracted answers of the first rollouts, read once for every rule that compares them."""
        return read_graded_answers(self.artifacts.files.rollouts)

    @cached_property
    def verifier_sources(self) -> list[Path]:
        """The verifier code the run folder holds (a workspace verifier, a user's resources server), found once."""
        return verifier_sources(self.run_dir)

    @cached_property
    def verifier_lines(self) -> list[tuple[str, int, str]]:
        """(file as shown, line number, line) of every line of the verifier sources that can be read, read once."""
        lines = []
        for source in self.verifier_sources:
            try:
                rows = source.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            lines += [(self.rel(source), number, row) for number, row in enumerate(rows, 1)]
        return lines

    @cached_property
    def log_heads(self) -> list[tuple[Path, str]]:
        """The first LOG_HEAD_BYTES of each log of the run folder, read once for every rule that looks at what a
        server says when it starts (what it serves, and where); never the whole of a log that may be gigabytes."""
        heads = []
        for log in sorted(self.run_dir.rglob("*.log"))[:MAX_LOG_HEADS]:
            try:
                with log.open("rb") as file:
                    heads.append((log, file.read(LOG_HEAD_BYTES).decode("utf-8", errors="replace")))
            except OSError:
                continue
        return heads

    @cached_property
    def text_settings(self) -> list[tuple[str, list[str]]]:
        """(name, lines) of the run folder's own small top-level `*.txt` files (an overrides list kept as
        `team_overrides.txt`), read once for every rule that looks for a setting in them."""
        texts = []
        for path in sorted(self.run_dir.glob("*.txt")) if self.run_dir else []:
            try:
                if path.stat().st_size <= MAX_TEXT_SETTINGS_BYTES:
                    texts.append((path.name, path.read_text(encoding="utf-8", errors="replace").splitlines()))
            except OSError:
                continue
        return texts

    def first_in_log_heads(self, pattern: re.Pattern[str]) -> tuple[EvidenceLine, re.Match[str]] | None:
        """The whole line of the first log head where `pattern` matches, and the match."""
        for log, head in self.log_heads:
            if match := pattern.search(head):
                return line_of_match(self.rel(log), head, match), match
        return None

    @property
    def has_anything(self) -> bool:
        return bool(self.artifacts.has_run_files or self.logs.files or self.launchers or self.manifest.present)

    @property
    def servers_expected_live(self) -> bool:
        """A log says every Gym server came up and never says they shut down: they should answer now."""
        return any(
            h.groups["ready"] == h.groups["total"] and not self.logs.ended_in_shutdown.get(h.file, False)
            for h in self.hits("servers_ready")
        )


def probe_targets(ev: Evidence, model_url: str | None) -> list[ProbeTarget]:
    """What to probe: addresses the run's own files name, the caller's model URL, Gym's default head."""
    targets = [ProbeTarget(MODEL, model_url, "given")] if model_url else []
    targets += [ProbeTarget(MODEL, h.groups["url"], f"{h.file}:{h.line}") for h in ev.hits("model_url")]
    targets += [ProbeTarget(MODEL, url, f"manifest.json:{line}") for url, line in ev.manifest.model_urls]
    heads = ev.hits("head_server_listening")
    targets += [ProbeTarget(HEAD_SERVER, h.groups["url"], f"{h.file}:{h.line}") for h in heads[-1:]]
    if not heads:
        targets.append(ProbeTarget(HEAD_SERVER, DEFAULT_HEAD_URL, DEFAULT_SOURCE))
    ports = [(h, h.groups.get("server")) for h in heads[-1:] + ev.hits("server_listening")]
    for hit, server in ports[:MAX_PORT_PROBES]:
        parts = urlsplit(hit.groups["url"])
        if parts.port and is_loopback(parts.hostname):
            targets.append(ProbeTarget(PORT, f"{parts.hostname}:{parts.port}", f"{hit.file}:{hit.line}",
                                       server or "head server"))
    return targets


def collect_evidence(
    run_dir: Path | str,
    probe: bool = False,
    extra_logs: Mapping[str, str] | None = None,
    model_url: str | None = None,
    scripts_dir: Path | None = None,
) -> Evidence:
    """Gather the evidence of one run folder (ours or any NeMo Gym output folder); `scripts_dir`: the folder of
    shards it is one of, whose scripts are read with its own."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir() and not extra_logs:
        raise FileNotFoundError(f"{run_dir}: not a folder")
    artifacts = collect_artifacts(run_dir)
    # a run kept in a subfolder of the one given (week49/) has its manifest beside its rollouts
    manifest_dir = run_dir if (run_dir / MANIFEST_FILE).is_file() else artifacts.files.rollouts.parent
    ev = Evidence(
        run_dir=run_dir,
        artifacts=artifacts,
        logs=scan_logs(run_dir, (extra_logs or {}).items()),
        launchers=read_launcher_states(run_dir),
        manifest=read_manifest_facts(manifest_dir, artifacts.files.materialized, artifacts.files.rollouts),
        scripts_dir=scripts_dir,
    )
    check_unrecorded_source(ev.manifest, run_dir, artifacts.files, ev.logs)  # a Gym folder: no manifest to ask
    if probe:
        ev.probes = run_probes(probe_targets(ev, model_url))
    return ev
