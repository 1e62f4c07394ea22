"""Step 5: a link meant to move to this week's dataset folder that `ln -sf` left on last week's.

`ln -sf datasets/v2 current` replaces `current` only when it is not already a link to a folder: when it is, `ln`
follows it and makes the new link inside the old folder (`datasets/v1/v2`), and `current` keeps pointing at last
week's data. Every command exits 0; the run reads the old rows and scores against their labels. Named when a script of
the run links a folder with `ln -s` without `-n`/`-T`, the name is a link to a folder now, and that folder holds the
link `ln` made (a link named as the source, pointing at it).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.replaced_links import lines_differ, lines_differing
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import joined_commands
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_LINK_COMMAND = re.compile(r"(?:^|[;&|(]\s*)ln\s+(?P<args>[^;&|#\n)]+)")
# options that make `ln` replace a link to a folder instead of following it, or name the folder itself
_NO_DEREFERENCE = re.compile(r"^-[a-zA-Z]*[nTt]|^--(?:no-dereference|no-target-directory|target-directory)")


def _folder_links(command: str) -> list[tuple[str, str, str]]:
    """(the `ln` command, source, name) of each `ln -s SOURCE NAME` of `command` that follows a link to a folder at NAME."""
    found = []
    for match in _LINK_COMMAND.finditer(command):
        try:
            words = shlex.split(match["args"])
        except ValueError:
            continue
        options = [word for word in words if word.startswith("-")]
        operands = [word for word in words if not word.startswith("-")]
        symbolic = any(re.match(r"^-[a-zA-Z]*s", option) or option == "--symbolic" for option in options)
        if (symbolic and len(operands) == 2 and not any(map(_NO_DEREFERENCE.match, options))
                and not any("$" in word for word in operands)):
            found.append((f"ln {match['args'].strip()}", operands[0], operands[1].rstrip("/")))
    return found


def _differing_file(old: Path, new: Path, name: str, text: str) -> tuple[str, int] | None:
    """(file, differing lines) of the first file the scripts read through `name/` that differs between the old folder
    and the new one."""
    for read in re.findall(rf"(?<![\w./-]){re.escape(name)}/(?P<file>[\w.-]+)", text):
        differing = lines_differing(old / read, new / read)
        if differing:
            return read, differing
    return None


def rule_folder_link_followed_instead_of_replaced(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    scripts = shell_files(ev)
    every_script = "\n".join(file.text for file in scripts)
    for file in scripts:
        for number, command in joined_commands(file):
            for ln, source, name in _folder_links(command):
                link = ev.run_dir / name
                if not (link.is_symlink() and link.is_dir()):
                    continue
                made = link / Path(source).name
                if not made.is_symlink() or os.readlink(made) != source:
                    continue
                old = os.readlink(link)
                new = Path(source) if Path(source).is_absolute() else ev.run_dir / source
                differing = _differing_file(link, new, name, every_script)
                return [Finding(
                    category=CACHE_RESUME,
                    title=f"{file.name}:{number} `{ln}` did not move {name}: it already was a link "
                          f"to the folder {old}, so ln made the link {old}/{Path(source).name} inside it, and the "
                          f"run read {old}" + (f" ({differing[0]}: {lines_differ(differing[1])} from {source}'s)"
                                               if differing else ""),
                    evidence=[EvidenceLine(file=file.name, line=number, text=command.strip()),
                              EvidenceLine(file=name, text=f"-> {old} (a link to a folder: ln followed it)"),
                              EvidenceLine(file=f"{name}/{Path(source).name}", text=f"-> {source} (made by ln)")],
                    cause=f"Without -n, `ln -sf SOURCE NAME` treats a NAME that is a link to a folder as that folder "
                          f"and makes the new link inside it: {name} still points at {old}, and every command exits 0 "
                          "while the run reads last time's data and scores against its labels.",
                    fix=f"Use `ln -sfn {source} {name}` (or `ln -sfT`: replace the link itself), remove the stray "
                        f"link `rm {old}/{Path(source).name}`, check with `ls -l {name}`, then run again from "
                        "materialize (the inputs were made from the old rows).",
                )]
    return []
