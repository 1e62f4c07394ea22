"""Step 1: Gym's retries of a failed rollout turned off by a setting left in the user's environment.

`NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=1` (in a debug env file, "fail fast while debugging the verifier") makes every failed
/run final: a model server that was briefly away (reloading, redeployed) fails the rollouts sent meanwhile, and
neither the run nor a resume tries them again, so the strict profile refuses the run. With Gym's default of three
attempts those calls would have been retried once the server was back.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_ONE_ATTEMPT = re.compile(r"^\s*(?:export\s+)?NEMO_GYM_MAX_ROLLOUT_ATTEMPTS\s*=\s*[\"']?1[\"']?\s*(?:#.*)?$")


# what a later attempt would have got past: a server away for a moment (reloading, redeployed, restarting)
_TRANSIENT = re.compile(r"\b50[234]\b|still loading|Connection refused|Cannot connect|Server disconnected|"
                        r"ConnectionReset|Connection reset", re.IGNORECASE)


def rule_rollout_retries_turned_off(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    transient = [group for group in a.failure_groups if _TRANSIENT.search(group.text)]
    if not transient or not a.missing_keys:
        return []  # no failure another attempt could have passed: the retries are not what is wrong
    found = next(iter(lines_matching(ev.user_files, _ONE_ATTEMPT)), None)
    if found is None:
        return []
    file, number, line, _ = found
    failed = sum(group.count for group in transient)
    return [Finding(
        category=CONFIG,
        title=f"{file.name}:{number} sets NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=1: the {failed} failed rollouts were never "
              "tried again",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), transient[0].first],
        cause=f"With one attempt a rollout, every failed /run is final, in the run and in a resume: the "
              f"{len(a.missing_keys)} keys whose call failed (the failures below: often a server that was away for a "
              "moment) stay without a rollout, and the strict profile refuses the run. Gym's default, three "
              "attempts, would have tried them again.",
        fix=f"Remove `{line.strip()}` from {file.name} (or set it back to 3) outside debugging, and `unset "
            "NEMO_GYM_MAX_ROLLOUT_ATTEMPTS` in a shell that sourced it; then resume, so the failed keys are collected "
            "again, and profile.",
    )]
