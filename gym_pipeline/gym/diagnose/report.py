"""The diagnosis of one run folder: evidence -> rules -> a report as JSON and as a short note."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from gym_pipeline.gym.diagnose.evidence import Evidence, collect_evidence
from gym_pipeline.gym.diagnose.rules import HEALTHY, Category, Finding, run_rules
from gym_pipeline.gym.formats import write_json_atomic

DIAGNOSIS_FILE = "diagnosis.json"

Verdict = Literal["healthy"] | Category


class DiagnosisReport(BaseModel):
    """`category` is the first finding's category (the first thing to fix), or `healthy`."""

    run_dir: str
    category: Verdict
    findings: list[Finding]
    summary: dict[str, Any]

    @property
    def healthy(self) -> bool:
        return not self.findings

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "findings": [finding.model_dump(mode="json") for finding in self.findings],
            "run_dir": self.run_dir,
            "summary": self.summary,
        }


def summarize(ev: Evidence) -> dict[str, Any]:
    """The counts behind the verdict, for the report and for dashboards."""
    stats = {"materialized": ev.materialized, "rollouts": ev.rollouts, "failures": ev.failures, "profile": ev.profile}
    return {
        "stem": ev.files.stem,
        "files": {name: (ev.rel(s.path) if s.exists else None) for name, s in stats.items()},
        "rows": {name: s.rows for name, s in stats.items()},
        "materialized_tasks": ev.materialized_tasks,
        "profile_rollouts": ev.profile_rollouts,
        "missing_rollouts": len(ev.missing_keys),
        "missing_without_failure": len(ev.missing_without_failure),
        "recovered_after_failure": ev.recovered_keys,
        "failure_classes": dict(ev.failure_classes),
        "http_statuses": {str(status): count for status, count in sorted(ev.http_statuses.items())},
        "failure_kinds": {kind: k.count for kind, k in sorted(ev.failure_kinds.items())},
        "masked_rollouts": ev.masked_rollouts,
        "malformed_lines": {ev.rel(s.path): s.malformed_count for s in stats.values() if s.malformed_count},
        "log_files": list(ev.log_files),
        "log_errors": sum(1 for i in ev.log_incidents if not i.after_shutdown),
        "other_stems": list(ev.files.other_stems),
    }


def diagnose(run_dir: Path | str) -> DiagnosisReport:
    """Diagnose a run folder (ours or any folder NeMo Gym wrote)."""
    evidence = collect_evidence(run_dir)
    findings = run_rules(evidence)
    return DiagnosisReport(
        run_dir=str(run_dir),
        category=findings[0].category if findings else HEALTHY,
        findings=findings,
        summary=summarize(evidence),
    )


def _counts_sentence(summary: dict[str, Any]) -> str:
    rows, files = summary["rows"], summary["files"]
    parts = []
    if files["materialized"]:
        parts.append(f"{rows['materialized']} materialized rollouts ({summary['materialized_tasks']} tasks)")
    if files["rollouts"]:
        parts.append(f"{rows['rollouts']} rollouts")
    if files["failures"]:
        parts.append(f"{rows['failures']} failed attempts in the sidecar")
    if files["profile"]:
        parts.append(f"a profile of {rows['profile']} tasks")
    elif files["rollouts"]:
        parts.append("no profile")
    if summary["missing_rollouts"]:
        parts.append(f"{summary['missing_rollouts']} keys without a rollout")
    if summary["log_files"]:
        parts.append(f"{len(summary['log_files'])} log file(s)")
    return ", ".join(parts) if parts else "no run files"


def render_text(report: DiagnosisReport) -> str:
    """A short note: the verdict first, then each finding with its evidence, cause and fix."""
    summary = report.summary
    counts = _counts_sentence(summary)
    if report.healthy:
        return f"{report.run_dir}: healthy. {counts[:1].upper()}{counts[1:]}; nothing failed. Nothing to fix.\n"
    count = len(report.findings)
    lines = [
        f"{report.run_dir}: {report.category}. {report.findings[0].title}",
        f"{counts[:1].upper()}{counts[1:]}. "
        + (f"{count} findings in debug order: fix the first one first." if count > 1 else "1 finding."),
    ]
    for number, finding in enumerate(report.findings, start=1):
        lines.append("")
        lines.append(f"{number}. [{finding.category}] {finding.title}")
        for line in finding.evidence:
            lines.append(f"   {line.where}: {line.text}")
        lines.append(f"   Cause: {finding.cause}")
        lines.append(f"   Fix: {finding.fix}")
    return "\n".join(lines) + "\n"


def write_diagnosis(report: DiagnosisReport, path: Path | str) -> Path:
    """Write the report's JSON atomically; a folder gets `diagnosis.json` inside it."""
    path = Path(path)
    if path.is_dir():
        path = path / DIAGNOSIS_FILE
    write_json_atomic(path, report.to_json_dict(), indent=True)
    return path
