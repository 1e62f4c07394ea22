"""Step 2: a model server restarted on other weights while the collection ran.

A serving wrapper that always serves the newest checkpoint of a training run (`ls -d step_* | sort | tail -1` in a
loop, restarting the server when a newer one appears) changes the model under a running eval: the requests in flight
when it restarts fail (connection refused), and the rollouts after it are another checkpoint's. Named when one model
server log shows the server stopped and then serving other weights, and the collection had failures; the wrapper's
line that picks the newest checkpoint is named when the folder holds it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# a script picking the newest checkpoint by its listing: `ls -d ckpts/step_* | sort | tail -1`, `ls -t ... | head -1`
_PICKS_NEWEST = re.compile(r"\bls\b[^\n|]*\|\s*(?:sort\b[^\n|]*\|\s*tail\s+-(?:n\s*)?1|head\s+-(?:n\s*)?1)")


def rule_server_restarted_on_other_weights(ev: Evidence) -> list[Finding]:
    if not ev.artifacts.failures.valid_rows:
        return []
    by_file: dict[str, list] = {}
    for hit in ev.hits("served_weights") + ev.hits("model_server_stopped"):
        by_file.setdefault(hit.file, []).append(hit)
    for file, hits in by_file.items():
        hits.sort(key=lambda hit: hit.line)
        served = [hit for hit in hits if hit.groups.get("checkpoint") or hit.groups.get("model")]
        stopped = [hit for hit in hits if hit not in served]
        weights = [hit.group("checkpoint", "model") for hit in served]
        if len(set(weights)) < 2 or not any(served[0].line < hit.line < served[-1].line for hit in stopped):
            continue
        first, last = served[0], next(hit for hit in served if hit.group("checkpoint", "model") != weights[0])
        stop = next(hit for hit in stopped if first.line < hit.line < last.line)
        picker = next(lines_matching(ev.user_files, _PICKS_NEWEST, SCRIPT_SUFFIXES), None)
        wrapper = f"{picker[0].name}:{picker[1]}" if picker else None
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server was restarted during the collection, from {weights[0]} to "
                  f"{last.group('checkpoint', 'model')}" + (f" (by {wrapper}, which serves the newest checkpoint)"
                                                           if wrapper else ""),
            evidence=[first.evidence(), stop.evidence(), last.evidence()]
                     + ([EvidenceLine(file=picker[0].name, line=picker[1], text=picker[2].strip())] if picker else []),
            cause=f"{file} shows the server serving {weights[0]}, stopped, then serving "
                  f"{last.group('checkpoint', 'model')}: the requests in flight when it stopped failed (nothing "
                  "listened for a moment), and the rollouts collected after it are another checkpoint's, so the run "
                  "measures neither. " + (f"{wrapper} (`{picker[2].strip()}`) picks the newest checkpoint and restarts "
                                          "the server when a newer one appears (a trainer saving while the eval ran)."
                                          if picker else "Something restarted it on newer weights."),
            fix=(f"Serve the checkpoint the eval is of, pinned for the whole run: start the server with `--checkpoint "
                 f"<that checkpoint>` instead of {wrapper.split(':')[0]}'s latest one (or stop its restarts while an "
                 "eval runs)" if wrapper else "Serve the checkpoint the eval is of, pinned for the whole run (pass "
                 "`--checkpoint <that checkpoint>`; no restart on newer weights while an eval runs)")
                + "; then collect the whole run again into a fresh output (a resume would mix the two checkpoints).",
        )]
    return []
