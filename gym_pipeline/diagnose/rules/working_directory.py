"""Step 1: a command run from a folder it cannot write in, which writes beside itself.

Named when the refused path is relative, or inside the folder the script changed into before the command (this
pipeline's stages lock their run directory, the working directory when `--output` is a bare name).

`gym eval run` writes its run log folder (`outputs/<date>/<time>`, Hydra's) under the working directory, whatever
`--output` says. A script that changes into a read-only folder first (the team's shared dataset folder, to give the
input by its short name) makes that write fail: `OSError: [Errno 30] Read-only file system: 'outputs'`, and the
eval stops before collecting. The relative path in the error, and the script's `cd`, show it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import INFRA

# Python's `[Errno 30] Read-only file system: 'outputs'`, or a tool's `cannot lock run directory /x: Read-only ...`
_READ_ONLY = re.compile(r"(?:Errno 30\] )?Read-only file system: '(?P<path>[^']+)'"
                        r"|(?P<path2>/[^\s:'\"]+): Read-only file system")
_CD = re.compile(r"^\s*cd\s+[\"']?(?P<folder>[^\s\"';&|]+)")
_RUNS = re.compile(r"\bgym\s+eval\s+run\b|\bgym[-_]pipeline(?:\.cli)?\s+(?:collect|materialize|stage)\b|\bng_collect_rollouts\b")


def rule_command_run_from_a_read_only_folder(ev: Evidence) -> list[Finding]:
    said = next(((log, text, match) for log, text in ev.log_heads if (match := _READ_ONLY.search(text))), None)
    if said is None:
        return []
    log, text, refused = said
    written = refused["path"] or refused["path2"]
    for script in ev.user_files:
        folder = None
        for number, line in enumerate(script.text.splitlines(), 1):
            if line.lstrip().startswith("#"):
                continue
            if cd := _CD.match(line):
                folder = (number, cd["folder"], line.strip())
            elif _RUNS.search(line) and folder is not None:
                cd_line, path, cd_text = folder
                inside = (f"{written}/".startswith(f"{path.rstrip('/')}/") if path.startswith("/")
                          else f"/{path.strip('/')}/" in f"{written}/")
                if written.startswith("/") and not inside:
                    continue  # an absolute path elsewhere: not the folder it changed into
                shown = "/".join(path.rstrip("/").split("/")[-2:])  # the folder's last names: `shared/evals`
                return [Finding(
                    category=INFRA,
                    title=f"{script.name}:{number} runs its command from {shown} ({script.name}:{cd_line}), a "
                          f"read-only folder: it could not write {written} beside itself",
                    evidence=[EvidenceLine(file=script.name, line=cd_line, text=cd_text),
                              EvidenceLine(file=script.name, line=number, text=line.strip()[:200]),
                              EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, refused.start()) + 1,
                                           text=refused.group(0))],
                    cause=f"The command writes `{written}` in its working directory (`gym eval run` "
                          f"keeps its run log folder, outputs/<date>/<time>, there, whatever --output says), and "
                          f"{script.name}:{cd_line} changed into {path}, which is mounted read-only (a shared dataset "
                          "folder): the write was refused and the command stopped before collecting.",
                    fix=f"In {script.name}, run the command from a folder you can write (your results folder), and give "
                        f"the files of {shown} by their full path (`--input {path}/<file>`) instead of changing into "
                        "that folder, which is mounted read-only (a shared folder); then run again.",
                )]
    return []
