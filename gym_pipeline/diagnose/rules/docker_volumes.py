"""Step 2: a `docker run -v eval-out:/results` meant as the folder ./eval-out. Docker takes a source without a slash
for the name of a volume it manages, creates it empty, and the container writes there: the script's later reads of
the folder eval-out/ find nothing (or an empty folder the mount never touched)."""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import CONTAINER_RUN, joined_commands
from gym_pipeline.diagnose.vocabulary import CONFIG

# `-v name:/target` or `--volume name:/target`, the source a bare name (no `/`, `.`, `~` or `$` at its start)
_NAMED_VOLUME = re.compile(r"(?:\s-v|--volume)[ =][\"']?(?P<name>[A-Za-z0-9][\w.-]*):(?P<target>/[^\s:\"']*)")


def rule_folder_mounted_as_a_named_volume(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, command in joined_commands(file):
            if command.lstrip().startswith("#") or not CONTAINER_RUN.search(command):
                continue
            for match in _NAMED_VOLUME.finditer(command):
                name = match["name"]
                read = next(((later, text.strip()) for later, text in enumerate(lines[number:], start=number + 1)
                             if re.search(rf"(?<![\w/.-]){re.escape(name)}/", text)
                             and not text.lstrip().startswith("#")), None)
                folder = ev.run_dir / name
                # the folder holds what the container wrote when it was mounted (a lock file of a later reader aside)
                if read is None or (folder.is_dir() and any(not p.name.startswith(".") for p in folder.iterdir())):
                    continue
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} mounts `{name}:{match['target']}`: Docker made `{name}` a named "
                          f"volume, not the folder {name}/ that {file.name}:{read[0]} reads",
                    evidence=[EvidenceLine(file=file.name, line=number, text=lines[number - 1].strip()),
                              EvidenceLine(file=file.name, line=read[0], text=read[1])],
                    cause=f"A `-v` source without a slash is the name of a volume Docker manages (`docker volume ls` "
                          f"lists `{name}`), created empty under Docker's own data folder: the container wrote its "
                          f"{match['target']} there, and the folder {name}/ beside the script, which the later lines "
                          "read, never got it.",
                    fix=f"Mount the folder by its path: `-v \"$PWD/{name}:{match['target']}\"` (or `./{name}`; a bind "
                        f"mount needs a path), in {file.name}:{number}; the results of this run are in the volume "
                        f"(`docker run --rm -v {name}:/v <image> ls /v`); then run again.",
                )]
    return []
