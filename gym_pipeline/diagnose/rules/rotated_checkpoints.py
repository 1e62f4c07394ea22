"""Step 2: a checkpoint chosen from a training run that is still saving, deleted before the eval's server loaded it.

A trainer keeps its last few checkpoints (`keep_last`, `save_total_limit`) and deletes the oldest as it saves new
ones. An eval job submitted on one of them starts its model server when the scheduler runs it: if the trainer saved
again meanwhile, the chosen checkpoint is gone, the server exits at start (`checkpoint folder not found`) and nothing
is collected. Named when a log of the run listed the checkpoint (an `ls` of the training run's folder, when it was
chosen) and the model server then did not find it; the training folder, when still there, tells which steps replaced it.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING


def _listed_in(ev: Evidence, name: str, other_than: str) -> EvidenceLine | None:
    """The first line of a log (not `other_than`) that is `name` alone or ends in `/name`: a listing that had it."""
    listed = re.compile(rf"^(?:\S*/)?{re.escape(name)}/?\s*$", re.M)
    for log, head in ev.log_heads:
        if ev.rel(log) != other_than and (match := listed.search(head)):
            return EvidenceLine(file=ev.rel(log), line=head.count("\n", 0, match.start()) + 1, text=match[0].strip())
    return None


def rule_checkpoint_deleted_after_it_was_chosen(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("checkpoint_missing"):
        path = Path(hit.groups["path"])
        listed = _listed_in(ev, path.name, hit.file)
        if listed is None:
            continue
        now = sorted(p.name for p in path.parent.iterdir()) if path.parent.is_dir() else []
        held = (f"; {path.parent.name} now holds {', '.join(now)}" if now
                else f"; {path.parent} is gone now")
        return [Finding(
            category=MODEL_SERVING,
            title=f"{path.name} was there when it was chosen ({listed.where} lists it) and gone when the model server "
                  f"started: deleted in between{held}",
            evidence=[listed, *(missing.evidence() for missing in ev.hits("checkpoint_missing")[:3])],
            cause=f"The checkpoint was taken from a training run's folder that was still changing: between the listing "
                  f"and the start of the model server, {path.name} was deleted (a trainer's checkpoint rotation, "
                  "`keep_last` / `save_total_limit`, deletes the oldest as it saves new ones; or a clean-up). The "
                  "server exited at start and nothing was collected.",
            fix=f"Copy the checkpoint out of the training run's folder when you choose it (`cp -r {path} "
                f"<evals>/{path.name}`), and give `serve-policy --checkpoint` (or vLLM) the copy; or raise the "
                f"trainer's `keep_last` so the evaluated steps stay; then submit the eval again.",
            explains=frozenset({"checkpoint_missing"}),
        )]
    return []
