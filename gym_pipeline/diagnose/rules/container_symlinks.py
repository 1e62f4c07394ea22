"""Step 2: a model server in a container told to serve a symlink whose absolute target the container does not have.

The trainer keeps `checkpoints/latest -> /host/path/checkpoints/step_0200` (an absolute link); the serving script
mounts the checkpoints folder at `/ckpt` and serves `/ckpt/latest`. Inside the container the link still points at
the host path, which is not mounted there: the server stops at start with "checkpoint folder not found", and the
collection finds nothing listening. Named from the script's `-v HOST:TARGET` and the link's target (on disk, or as
an `ls -l` in the logs shows it).
"""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_NOT_FOUND = re.compile(r"(?P<path>/\S+): checkpoint folder not found|checkpoint (?:folder |path )?(?P<path2>/\S+) "
                        r"(?:does not exist|not found)", re.I)
# `-v /host/checkpoints:/ckpt:ro`: a bind mount of an absolute host folder
_BIND_MOUNT = re.compile(r"(?:\s-v|--volume)[ =][\"']?(?P<host>/[^\s:\"']+):(?P<target>/[^\s:\"']*)")
# `lrwxrwxrwx 1 root root 67 Dec  7 11:01 latest -> /tmp/.../checkpoints/step_0200`
_LISTED_LINK = re.compile(r"\s(?P<name>[\w.-]+) -> (?P<target>/\S+)\s*$")


def _link_target(ev: Evidence, host: str, name: str) -> tuple[str, EvidenceLine | None] | None:
    """(the absolute target of the link `name` in the host folder, the log line listing it) from disk or a log."""
    path = os.path.join(host, name)
    if os.path.islink(path) and os.path.isabs(target := os.readlink(path)):
        return target, None
    for log, head in ev.log_heads:
        for number, line in enumerate(head.splitlines(), 1):
            if (listed := _LISTED_LINK.search(line)) and listed["name"] == name:
                return listed["target"], EvidenceLine(file=ev.rel(log), line=number, text=line.strip())
    return None


def rule_container_serves_a_link_to_a_host_path(ev: Evidence) -> list[Finding]:
    missing = next(((log, number, line, match["path"] or match["path2"]) for log, head in ev.log_heads
                    for number, line in enumerate(head.splitlines(), 1) if (match := _NOT_FOUND.search(line))), None)
    if missing is None:
        return []
    log, number, line, path = missing
    for file, at, text, mount in lines_matching(ev.user_files, _BIND_MOUNT):
        target = mount["target"].rstrip("/")
        if not path.startswith(target + "/"):
            continue
        name = PurePosixPath(path[len(target) + 1:]).parts[0]
        linked = _link_target(ev, mount["host"], name)
        if linked is None or linked[0].startswith(target + "/"):
            continue
        link_target, listed = linked
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server's container serves {path}, a symlink to the host path {link_target}, which the "
                  f"container does not have: the server stopped at start",
            evidence=[EvidenceLine(file=ev.rel(log), line=number, text=line.strip()),
                      EvidenceLine(file=file.name, line=at, text=text.strip()), *([listed] if listed else [])],
            cause=f"{file.name}:{at} mounts {mount['host']} at {target} and serves {path}; `{name}` there is an "
                  f"absolute symlink to {link_target}, a path of the host that is not mounted in the container, so the "
                  "link points at nothing inside it and the server found no checkpoint. Nothing listened on its "
                  "port, and the collection's requests were refused.",
            fix=f"In {file.name}, serve the checkpoint the link names by its path under the mount "
                f"({target}/{PurePosixPath(link_target).name}), or make `{name}` a relative symlink (`ln -sfn "
                f"{PurePosixPath(link_target).name} {name}` in {mount['host']}), or mount the link's target at the same "
                f"path (`-v {PurePosixPath(link_target).parent}:{PurePosixPath(link_target).parent}:ro`); then start the "
                "server again and collect.",
        )]
    return []
