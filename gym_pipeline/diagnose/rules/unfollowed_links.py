"""Step 1: a data file reached through a symlink on a file system mounted `nosymfollow`.

Security baselines mount scratch or home file systems `nosymfollow`: the kernel refuses to follow any symlink there
and says `Too many levels of symbolic links` (ELOOP), as if the link went round in a circle. A run that links its
data in (`ln -s /shared/datasets/.../tasks.jsonl scratch/`) as on the workstations cannot open it: Gym reports the
input as not found, our materialize as unreadable. Named when a log shows ELOOP for a path of the run folder that is
a symlink whose chain has no circle (a circle is the link's own fault).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import INFRA

_ELOOP = re.compile(r"(?:^|[\s'\"])(?P<path>[^\s'\":]+)['\"]?: Too many levels of symbolic links", re.M)
MAX_LINKS_FOLLOWED = 40  # the kernel's own limit


def _circular(link: Path) -> bool:
    """Whether following `link`'s chain of symlinks comes back to one already seen."""
    seen, path = set(), link
    for _ in range(MAX_LINKS_FOLLOWED):
        if not path.is_symlink():
            return False
        if path in seen:
            return True
        seen.add(path)
        path = path.parent / os.readlink(path)
    return True


def rule_link_not_followed_on_a_nosymfollow_mount(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        for refused in _ELOOP.finditer(head):
            link = ev.run_dir / refused["path"]
            if not link.is_symlink() or _circular(link):
                continue
            target = os.readlink(link)
            return [Finding(
                category=INFRA,
                title=f"{refused['path']} is a symlink (to {Path(target).name} in {Path(target).parent.name}/) that the "
                      "file system refuses to follow (`Too many levels of symbolic links` without a circle): it is "
                      "mounted `nosymfollow`",
                evidence=[line_of_match(ev.rel(log), head, refused),
                          EvidenceLine(file=refused["path"], text=f"-> {target} (one link, no circle)")],
                cause=f"The link {refused['path']} points at a file, not round in a circle, and still could not be "
                      "opened: the file system it is on is mounted with `nosymfollow` (a security baseline for "
                      "scratch and home mounts), where the kernel follows no symlink and answers ELOOP. The run could "
                      "not read its data (Gym says the input is not found); the data, servers and model are fine.",
                fix=f"Copy the file instead of linking it (`cp {target} {refused['path']}`), or keep the data on a "
                    "mount that follows symlinks; check the mount's options with `findmnt -no OPTIONS --target "
                    f"{Path(refused['path']).parent}` (`nosymfollow` among them); then run again.",
            )]
    return []
