"""Step 2: a `latest` link to a checkpoint, made with a target written relative to the wrong folder.

`ln -s TARGET LINK` stores TARGET as written, and a relative TARGET is resolved from the folder LINK is in, not from
where `ln` ran: `ln -sfn checkpoints/step_0200 checkpoints/latest` makes `checkpoints/latest` point at
`checkpoints/checkpoints/step_0200`, which does not exist. The model server given the link exits at start
(`checkpoint folder not found`) and nothing is collected; a script that reads the server's URL afterwards passes the
stages an empty one.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_SYMLINK = re.compile(r"\bln\s+(?:-\w*s\w*\s+)(?:-\w+\s+)*[\"']?(?P<target>[^\s\"';&|)]+)[\"']?\s+[\"']?"
                      r"(?P<link>[^\s\"';&|)]+)")
# a stage refusing the empty model URL read from a server that never wrote its ready file
_EMPTY_URL = re.compile(r"argument --model-url: must be an http")


def rule_checkpoint_link_resolved_from_its_own_folder(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("checkpoint_missing"):
        missing = PurePosixPath(hit.groups["path"].rstrip("/"))
        for file, number, line, match in lines_matching(ev.user_files, _SYMLINK, SCRIPT_SUFFIXES):
            target, link = PurePosixPath(match["target"]), PurePosixPath(match["link"])
            if link.name != missing.name or target.is_absolute() or len(target.parts) < 2 or "$" in str(link.parent):
                continue
            resolved = link.parent / target
            after = [line_of_match(ev.rel(log), head, match) for log, head in ev.log_heads
                     if (match := _EMPTY_URL.search(head))]
            return [Finding(
                category=MODEL_SERVING,
                title=f"{file.name}:{number} links {link} to `{target}`, which a link resolves from its own folder "
                      f"({resolved}): the checkpoint link dangles and the model server found no checkpoint",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), hit.evidence(), *after[:1]],
                cause=f"`ln -s` stores the target as written, and a relative target is resolved from the folder the "
                      f"link is in ({link.parent}), not from where `ln` ran: {link} points at {resolved}, which does "
                      f"not exist. The model server given {missing} exited at start (`checkpoint folder not found`), "
                      "so nothing was collected"
                      + (", and the stages were given an empty model URL." if after else "."),
                fix=f"In {file.name}, write the link's target relative to the link's own folder (`ln -sfn "
                    f"{target.name} {link}`), or give it as an absolute path (`ln -sfn \"$(realpath {target})\" "
                    f"{link}`); check with `readlink -f {link}` (or `ls {link}/`) before starting the server; then "
                    "serve the checkpoint and collect again.",
                explains=frozenset({"checkpoint_missing"}),
            )]
    return []
