"""Step 6: a collection whose output a script pipes into `head` (`gym eval run ... 2>&1 | head -n 25`, to keep the
console short). `head` exits once it has its lines and closes the pipe; the collection's next write then gets SIGPIPE
(or BrokenPipeError) and it ends part way, with no error of its own in the log: the rollouts stop short."""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.rules.background_collections import COLLECTION
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import joined_commands
from gym_pipeline.diagnose.vocabulary import CONFIG

# a pipe into a command that stops reading before the end: `head`, `sed -n 1,20p;q`-like quits, `grep -m`
_PIPED_INTO_A_QUITTER = re.compile(r"\|\s*(?P<reader>head\b[^|;&#\n]*|grep\s+(?:-\w+\s+)*-m\s*\d+[^|;&#\n]*)")


def rule_collection_piped_into_head(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if not a.missing_without_failure:
        return []
    for file in shell_files(ev):
        for number, command in joined_commands(file):
            text = command.strip()
            if text.startswith("#") or not COLLECTION.search(text):
                continue
            piped = _PIPED_INTO_A_QUITTER.search(text)
            if piped is None:
                continue
            reader = piped["reader"].strip()
            missing, total = len(a.missing_without_failure), a.materialized.rows
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} pipes the collection into `{reader}`, which stopped reading: the "
                      f"collection ended with {missing} of {total} rollouts missing",
                evidence=[EvidenceLine(file=file.name, line=number, text=text), *a.missing_examples[:1]],
                cause=f"`{reader}` exits once it has printed what it was asked for and closes the pipe; the "
                      "collection's next line of output then meets a closed pipe (SIGPIPE, or Python's "
                      "BrokenPipeError) and the collection ends there, part way, printing nothing more: "
                      f"{plural(missing, 'materialized rollout')} have no result and no recorded failure.",
                fix=f"Do not pipe the collection into `{reader}`: write its whole output to a file and show the start "
                    f"of that (`... > logs/eval.log 2>&1; head -n 25 logs/eval.log`, or `| tee logs/eval.log` without "
                    f"the `| {reader.split()[0]}`); then run it again with `--resume` (or on a clean output path).",
            )]
    return []
