"""Automatic diagnosis of a NeMo Gym run folder: evidence collectors -> rules in the debug order -> report.

    from gym_pipeline.diagnose import diagnose, diagnose_failed_run, render_text, write_diagnosis
    report = diagnose(run_dir)                       # DiagnosisReport: category, findings, summary
    report = diagnose(run_dir, probe=True)           # plus live probes of what the run's files name
    report = diagnose_failed_run(run_dir, error)     # a failed run's error text read as one more log
    print(render_text(report))
    write_diagnosis(report, run_dir)                 # run_dir/diagnosis.json

One module per concern: `artifacts`, `logs`, `launcher`, `manifests`, `probes` collect evidence
(`evidence` gathers them; `nested` reads error bodies, `evidence_line` redacts and cuts what a report quotes), `signatures` is
the table of log signatures and the known problems they prove, `vocabulary` the categories and the
failure vocabulary, `rules/` the rules in the guide's debug order, `shards` a join of shard collections read
shard by shard, `report` the output.
"""

from gym_pipeline.diagnose.evidence import Evidence, collect_evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, redact
from gym_pipeline.diagnose.findings import Finding, Rule
from gym_pipeline.diagnose.report import (
    DIAGNOSIS_FILE,
    DiagnosisReport,
    diagnose,
    diagnose_failed_run,
    read_diagnosis,
    render_text,
    write_diagnosis,
)
from gym_pipeline.diagnose.rules import RULES
from gym_pipeline.diagnose.vocabulary import CATEGORIES, HEALTHY

__all__ = [
    "CATEGORIES",
    "DIAGNOSIS_FILE",
    "HEALTHY",
    "RULES",
    "DiagnosisReport",
    "Evidence",
    "EvidenceLine",
    "Finding",
    "Rule",
    "collect_evidence",
    "diagnose",
    "diagnose_failed_run",
    "read_diagnosis",
    "redact",
    "render_text",
    "write_diagnosis",
]
