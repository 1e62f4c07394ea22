"""The diagnosis of one run folder: evidence -> rules -> a report as JSON and as a short note.

    report = diagnose(run_dir)                          # the CLI, the diagnostic_report asset
    report = diagnose(run_dir, probe=True, model_url=u) # `gym-pipeline diagnose --probe`
    report = diagnose_failed_run(run_dir, error_text)   # a run-failure sensor, even with no file yet
    write_diagnosis(report, run_dir)                    # run_dir/diagnosis.json
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import BaseModel

from gym_pipeline.core.formats import DIAGNOSIS_FILE, write_json_atomic
from gym_pipeline.core.redaction import redact_value
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.diagnose.evidence import FAILED_RUN_SOURCE, Evidence, collect_evidence
from gym_pipeline.diagnose.findings import CAUSE, CONSEQUENCE, NOTE, Finding, plural
from gym_pipeline.diagnose.launcher import outcome
from gym_pipeline.diagnose.rules import run_rules
from gym_pipeline.diagnose.shards import (
    joined_shards,
    unjoined_shards,
    with_shard_findings,
    with_unjoined_shard_findings,
)
from gym_pipeline.diagnose.vocabulary import HEALTHY, Category

DIAGNOSIS_STAGE = "diagnostic_report"  # its record in the run's manifest, and the lock holder's stage

Verdict = Literal["healthy"] | Category


class DiagnosisReport(BaseModel):
    """`category` is the top cause's category (the first thing to fix), or `healthy` when no finding is a
    cause: consequences and notes never set it. `findings` are in the causal order of `rules.link_causes`."""

    run_dir: str
    category: Verdict
    findings: list[Finding]
    summary: dict[str, Any]

    @property
    def causes(self) -> list[Finding]:
        return [f for f in self.findings if f.role == CAUSE]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.role == NOTE]

    @property
    def healthy(self) -> bool:
        return not self.causes

    @property
    def rules_failed(self) -> list[str]:
        """The rules that raised on this folder: without their findings, "healthy" is only what the others saw."""
        return self.summary.get("rules_failed", [])

    def consequences_of(self, cause: Finding) -> list[Finding]:
        return [f for f in self.findings if f.role == CONSEQUENCE and f.caused_by == cause.id]

    @property
    def headline(self) -> str:
        """One line for an asset check or a table: `healthy`, or the top cause's category and title."""
        if self.healthy and self.rules_failed:
            return f"no cause found, but the diagnosis is incomplete ({', '.join(self.rules_failed)} failed)"
        return HEALTHY if self.healthy else f"{self.category}: {self.causes[0].title}"

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "findings": [finding.model_dump(mode="json") for finding in self.findings],
            "run_dir": self.run_dir,
            "summary": self.summary,
        }


def summarize(ev: Evidence) -> dict[str, Any]:
    """The counts behind the verdict, for the report and for dashboards."""
    a = ev.artifacts
    stats = {"materialized": a.materialized, "rollouts": a.rollouts, "failures": a.failures, "profile": a.profile}
    summary: dict[str, Any] = {
        "stem": a.files.stem,
        "files": {name: (ev.rel(s.path) if s.exists else None) for name, s in stats.items()},
        "rows": {name: s.rows for name, s in stats.items()},
        "materialized_tasks": a.materialized_tasks,
        "profile_rollouts": a.profile_rollouts,
        "missing_rollouts": len(a.missing_keys),
        "missing_without_failure": len(a.missing_without_failure),
        "recovered_after_failure": a.recovered_keys,
        "failure_classes": dict(a.failure_classes),
        "http_statuses": {str(status): count for status, count in sorted(a.http_statuses.items())},
        "failure_kinds": {kind: k.count for kind, k in sorted(a.failure_kinds.items())},
        "masked_rollouts": a.masked_rollouts,
        "malformed_lines": {ev.rel(s.path): s.malformed_count for s in stats.values() if s.malformed_count},
        "log_files": list(ev.logs.files),
        "log_bytes": ev.logs.bytes_scanned,
        "log_errors": sum(ev.logs.incident_counts.values())
        - sum(1 for i in ev.logs.incidents if i.after_shutdown),
        "other_stems": list(a.files.other_stems),
        "launchers": [
            {"file": r.file, "outcome": outcome(r.state).summary if r.state else f"unreadable: {r.error}"}
            for r in ev.launchers
        ],
        "stale_inputs": [s.kind for s in ev.manifest.stale],
    }
    if ev.probes is not None:
        summary["probes"] = [
            {"kind": p.target.kind, "address": p.target.address, "source": p.target.source, "ok": p.ok,
             "detail": p.detail}
            for p in ev.probes
        ]
    return summary


def diagnose(
    run_dir: Path | str,
    probe: bool = False,
    *,
    extra_logs: dict[str, str] | None = None,
    model_url: str | None = None,
    scripts_dir: Path | None = None,
) -> DiagnosisReport:
    """Diagnose a run folder (ours or any folder NeMo Gym wrote).

    `probe`: also ask what the run's files name whether it answers now (loopback or the run's own URLs).
    `extra_logs`: texts read exactly like logs, by name, e.g. a failed run's error (the folder may not exist).
    `model_url`: a model base URL to probe besides the ones the run's files name.
    `scripts_dir`: the folder of shards `run_dir` is one of; the scripts in it are read as the run's own.
    """
    evidence = collect_evidence(run_dir, probe=probe, extra_logs=extra_logs, model_url=model_url,
                                scripts_dir=scripts_dir)
    findings = run_rules(evidence)
    if shards := joined_shards(evidence.artifacts.files, evidence.run_dir):
        findings = with_shard_findings(evidence, findings, shards, partial(_shard_findings, evidence.run_dir))
    elif shards := unjoined_shards(evidence.artifacts.files, evidence.run_dir):
        findings = with_unjoined_shard_findings(evidence, findings, shards, partial(_shard_findings, evidence.run_dir))
    causes = [f for f in findings if f.role == CAUSE]
    summary = summarize(evidence) | {"rules_failed": [f.id for f in findings if f.diagnosis_fault]}
    return DiagnosisReport(
        run_dir=str(run_dir),
        category=causes[0].category if causes else HEALTHY,
        findings=findings,
        summary=redact_value(summary),  # probe addresses and details may hold a URL's credentials
    )


def _shard_findings(run_dir: Path, shard: Path) -> list[Finding]:
    return diagnose(shard, scripts_dir=run_dir).findings


def diagnose_failed_run(run_dir: Path | str, failure_text: str | None = None,
                        source: str = FAILED_RUN_SOURCE) -> DiagnosisReport:
    """The diagnosis of a run that failed, with its error (e.g. a Dagster step failure's message and stack)
    read as one more log: it names the cause even when the run stopped before writing any file.
    """
    return diagnose(run_dir, extra_logs={source: failure_text} if failure_text else None)


def _looked_at(summary: dict[str, Any]) -> str:
    rows, files = summary["rows"], summary["files"]
    parts = []
    if files["materialized"]:
        parts.append(f"{rows['materialized']} materialized rollouts ({summary['materialized_tasks']} tasks)")
    if files["rollouts"]:
        parts.append(plural(rows["rollouts"], "rollout"))
    if files["failures"]:
        parts.append(f"{plural(rows['failures'], 'failed attempt')} in the sidecar")
    if files["profile"]:
        parts.append(f"a profile of {plural(rows['profile'], 'task')}")
    elif files["rollouts"]:
        parts.append("no profile")
    if summary["missing_rollouts"]:
        parts.append(f"{plural(summary['missing_rollouts'], 'key')} without a rollout")
    if summary["log_files"]:
        parts.append(f"{plural(len(summary['log_files']), 'log')} ({_size(summary['log_bytes'])})")
    parts += [launcher["outcome"] for launcher in summary["launchers"]]
    text = ", ".join(parts) if parts else "no run files"
    return text[:1].upper() + text[1:]


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def _probed(summary: dict[str, Any]) -> str | None:
    if "probes" not in summary:
        return None
    if not summary["probes"]:
        return "Probes: nothing the run names could be probed."
    return "Probes: " + "; ".join(f"{p['kind']} {p['address']}: {p['detail']}" for p in summary["probes"]) + "."


def render_text(report: DiagnosisReport) -> str:
    """A short note: the verdict first, what was read, then each cause with its evidence, cause and fix, what
    followed from it beneath, and the notes last."""
    summary = report.summary
    looked_at = _looked_at(summary)
    probed = _probed(summary)
    notes = report.notes
    if report.healthy and report.rules_failed:
        lines = [f"{report.run_dir}: no cause found, but the diagnosis is incomplete: "
                 f"{plural(len(report.rules_failed), 'rule')} failed on this folder ({', '.join(report.rules_failed)}). "
                 f"{looked_at}."]
        lines += [probed] if probed else []
        lines += [f"Note: {note.title}. {note.fix}" for note in notes]
        return "\n".join(lines) + "\n"
    if report.healthy:
        lines = [f"{report.run_dir}: healthy. {looked_at}; nothing failed. Nothing to fix."]
        lines += [probed] if probed else []
        lines += [f"Note: {note.title}. {note.fix}" for note in notes]
        return "\n".join(lines) + "\n"
    causes = report.causes
    lines = [
        f"{report.run_dir}: {report.category}. {causes[0].title}",
        f"Read: {looked_at}. "
        + (f"{len(causes)} causes in the guide's debug order: fix the first one first." if len(causes) > 1 else
           "1 cause."),
    ]
    if probed:
        lines.append(probed)
    for number, cause in enumerate(causes, start=1):
        lines.append("")
        lines += _render_finding(f"{number}. [{cause.category}]", cause, "   ")
        followed = report.consequences_of(cause)
        if followed:
            lines.append(f"   What followed from it ({plural(len(followed), 'finding')}):")
            for consequence in followed:
                lines += _render_finding("   -", consequence, "     ")
    if notes:
        lines.append("")
        lines += [f"Note: {note.title}. {note.fix}" for note in notes]
    return "\n".join(lines) + "\n"


def _render_finding(head: str, finding: Finding, indent: str) -> list[str]:
    lines = [f"{head} {finding.title}"]
    lines += [f"{indent}{line.where}: {line.text}" for line in finding.evidence]
    lines.append(f"{indent}Cause: {finding.cause}")
    lines.append(f"{indent}Fix: {finding.fix}")
    return lines


def write_diagnosis(report: DiagnosisReport, path: Path | str) -> Path:
    """Write the report's JSON atomically, holding its folder's lock; a folder (existing, or a path without
    `.json`) gets `diagnosis.json`."""
    path = Path(path)
    if path.is_dir() or path.suffix != ".json":
        path = path / DIAGNOSIS_FILE
    with run_directory_lock(path.parent, DIAGNOSIS_STAGE):
        write_json_atomic(path, report.to_json_dict(), indent=True)
    return path


def read_diagnosis(path: Path | str) -> DiagnosisReport:
    """A report written by `write_diagnosis` (a folder means its `diagnosis.json`)."""
    path = Path(path)
    if path.is_dir():
        path = path / DIAGNOSIS_FILE
    return DiagnosisReport.model_validate(orjson.loads(path.read_bytes()))
