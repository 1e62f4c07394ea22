"""Automatic diagnosis of a NeMo Gym run folder: evidence collectors -> rules in the debug order -> report.

    from gym_pipeline.gym.diagnose import diagnose, render_text, write_diagnosis
    report = diagnose(run_dir)          # DiagnosisReport: category, findings, summary
    print(render_text(report))
    write_diagnosis(report, run_dir)    # run_dir/diagnosis.json
"""

from gym_pipeline.gym.diagnose.evidence import Evidence, EvidenceLine, collect_evidence, redact
from gym_pipeline.gym.diagnose.report import DIAGNOSIS_FILE, DiagnosisReport, diagnose, render_text, write_diagnosis
from gym_pipeline.gym.diagnose.rules import CATEGORIES, HEALTHY, RULES, Finding, Rule

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
    "redact",
    "render_text",
    "write_diagnosis",
]
