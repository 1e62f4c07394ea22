"""Step 2: a model server given the folder of a training run instead of one of its checkpoints.

A serving script that takes "the latest checkpoint" with a glob one level deep (`ls -d checkpoints/*/ | tail -1`)
picks a checkpoint while the trainer writes `checkpoints/step_N/`; once it nests its steps in a folder per training
run (`checkpoints/sft-run-1201/step_N/`) the same glob picks the run's folder, which has no model files of its own:
the server refuses it (`config.json: missing`), and nothing is collected.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_NO_CONFIG = re.compile(r"error: (?P<folder>\S+?)/?config\.json: missing")
# a line picking a folder by a glob: `ls -d checkpoints/*/`, `CKPT=$(ls -dt ckpt/* | head -1)`
_GLOB_PICK = re.compile(r"(?P<glob>[\w./${}-]*/\*/?)")


def rule_checkpoint_folder_one_level_up(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_NO_CONFIG)
    if refused is None or ev.run_dir is None:
        return []
    said, match = refused
    folder = match["folder"].rstrip("/")
    served = Path(folder) if Path(folder).is_absolute() else ev.run_dir / folder
    if not served.is_dir():
        return []
    steps = sorted(child.name for child in served.iterdir() if (child / "config.json").is_file())
    if not steps:
        return []
    picked = next(((file, number, line) for file, number, line, glob in lines_matching(ev.user_files, _GLOB_PICK)
                   if Path(glob["glob"].rstrip("/*")).name == served.parent.name
                   and not line.lstrip().startswith("#")), None)
    where = [EvidenceLine(file=picked[0].name, line=picked[1], text=picked[2].strip())] if picked else []
    return [Finding(
        category=MODEL_SERVING,
        title=f"The model server was given {folder}, a folder of checkpoints ({', '.join(steps[:3])}), not a "
              "checkpoint: it refused it and nothing was served",
        evidence=[said, *where],
        cause=f"{folder} holds no model files of its own, only the checkpoints of a training run ({', '.join(steps)}): "
              "the trainer nests its steps one level deeper than the serving script's pick expects"
              + (f" ({picked[0].name}:{picked[1]} `{picked[2].strip()}` takes a folder one level deep)" if picked else "")
              + ", so the server stopped at start and every request of the collection found no server.",
        fix=(f"In {picked[0].name}:{picked[1]}, pick a checkpoint (a folder with its own config.json) one level "
             "deeper" if picked else "Point the server at a checkpoint (a folder with its own config.json)")
            + f" (`{folder}/{steps[-1]}`, e.g. a glob of `{Path(folder).parent}/*/step_*/` sorted by step), print what "
            "it picks, then serve it and collect again.",
    )]
