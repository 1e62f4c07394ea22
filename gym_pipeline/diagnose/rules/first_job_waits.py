"""Step 2: a script that stops its own model server after `wait -n`, which returns when the FIRST background job ends.

`for s in 00 01 02; do gym-pipeline collect ... &; done`, then `wait -n` meant as "wait for the collections", then
`kill $SERVER`: bash's `wait -n` returns as soon as any one background job finishes, so the server is stopped while
the other collections still ask it; their remaining requests are refused (failures, missing rollouts), and the
script goes on to merge and profile. The server was fine; its owner stopped it (model serving, the script's line).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import SERVER_IN_BACKGROUND
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_PID_KEPT = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=\$!")
_WAIT_FOR_ONE = re.compile(r"^\s*wait\s+-n\b")
_BACKGROUND = re.compile(r"&\s*(?:#.*)?$")


def rule_server_stopped_after_waiting_for_one_job(ev: Evidence) -> list[Finding]:
    stopped = next((hit for hit in ev.hits("model_server_stopped")), None)
    if stopped is None or not ev.artifacts.missing_keys and not ev.artifacts.failure_kinds:
        return []
    for file in shell_files(ev):
        lines = file.text.splitlines()
        started = next((n for n, line in enumerate(lines, 1) if SERVER_IN_BACKGROUND.search(line)), None)
        if started is None:
            continue
        pid = next((match["name"] for line in lines[started:started + 3] if (match := _PID_KEPT.match(line))), None)
        waits = next((n for n, line in enumerate(lines, 1) if n > started and _WAIT_FOR_ONE.match(line)), None)
        if pid is None or waits is None:
            continue
        kill = next((n for n, line in enumerate(lines, 1) if n > waits
                     and re.search(rf"^\s*kill\b[^\n#]*\${{?{pid}\b", line)), None)
        jobs = sum(1 for line in lines[started:waits - 1] if _BACKGROUND.search(line) and not line.lstrip().startswith("#"))
        if kill is None or jobs < 1:
            continue
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{kill} stops the model server after `wait -n` ({file.name}:{waits}), which returned "
                  "when the first collection ended: the others lost their server mid-run",
            evidence=[EvidenceLine(file=file.name, line=waits, text=lines[waits - 1].strip()),
                      EvidenceLine(file=file.name, line=kill, text=lines[kill - 1].strip()), stopped.evidence()],
            cause="bash's `wait -n` waits for the next background job to end, not for all of them: the first "
                  f"collection to finish let {file.name} go on to `{lines[kill - 1].strip()}`, which stopped the "
                  "model server while the other collections were still asking it. Their remaining requests were "
                  "refused, and the merge and profile after it had rollouts missing.",
            fix=f"In {file.name}:{waits}, replace `{lines[waits - 1].strip()}` (`wait -n` returns after the first job): "
                "wait for every collection before stopping the server: keep the collect "
                f"jobs' pids (`pids+=($!)` after each) and `wait \"${{pids[@]}}\"` (a bare `wait` would wait for the "
                f"server too), then `kill ${pid}`; collect the missing rollouts (`--resume`) and merge and profile "
                "again.",
        )]
    return []
