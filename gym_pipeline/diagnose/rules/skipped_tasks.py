"""Step 1: task folders that did not load, placed by what their reasons say (`skip_reasons`).

Gym's and our loaders list each refused task in skipped.json; the known problem "Some tasks could not
load" reads as a settings fault. When the reasons say the host lacks an image, or the folders lack a file
the format requires, this finding places it there instead, and subsumes the known problem's. A run of our
task-folder engine has its own, richer finding (`taskfolders.rule_tasks_not_loadable`), placed the same way.
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import NOTE, Finding, plural, unique
from gym_pipeline.diagnose.rules.taskfolders import task_folder_run
from gym_pipeline.diagnose.skip_reasons import kind_of_skips

_SIGNATURES = ("tasks_not_loadable", "skip_unloadable_hint", "validate_skipped", "skipped_task")


def rule_skipped_tasks_by_reason(ev: Evidence) -> list[Finding]:
    skipped = ev.hits("skipped_task")
    kind = kind_of_skips(hit.text for hit in skipped)
    run = task_folder_run(ev)
    if kind is None or (run is not None and run.summary.get("skipped")):  # our engine's run: rule_tasks_not_loadable
        return []
    hits = sorted((h for name in _SIGNATURES for h in ev.hits(name)), key=lambda h: (h.file, h.line))
    tasks = sorted({hit.groups.get("task") or hit.text.split(":")[0] for hit in skipped})
    a = ev.artifacts
    if a.rollouts.valid_rows and not a.missing_keys:  # skipped as asked (skip_unloadable), and the rest all ran
        return [Finding(
            category=kind.category, role=NOTE,
            title=f"{plural(len(tasks), 'task')} left out as unloadable ({kind.what}: {', '.join(tasks[:5])}); every "
                  "other task ran",
            evidence=unique(h.evidence() for h in hits),
            cause=f"skip_unloadable (`--skip-unloadable`) let the run go on without them: {skipped[0].text}. The "
                  "profile covers the loadable tasks only.",
            fix=f"Nothing, if they were left out on purpose (a draft); otherwise: {kind.fix}",
            explains=frozenset(_SIGNATURES),
        )]
    return [Finding(
        category=kind.category,
        title=f"{plural(len(tasks), 'task')} could not load: {kind.what} ({', '.join(tasks[:5])})",
        evidence=unique(h.evidence() for h in hits),
        cause=f"skipped.json gives each refused task its reason, and they say {kind.what}: "
              f"{skipped[0].text}. Without skip_unloadable (`--skip-unloadable`) the run stops before any episode.",
        fix=kind.fix,
        explains=frozenset(_SIGNATURES),
    )]
