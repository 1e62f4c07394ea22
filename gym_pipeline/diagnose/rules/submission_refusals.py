"""Step 1: a batch script asking for more of a resource than any node of the partition has, refused by sbatch.

A directive kept from another cluster's template (`#SBATCH --tmp=200G` for a GPU node's local NVMe, `--mem=512G`)
asks for more than every node here has: sbatch refuses the job at submission (`Temporary disk specification can
not be satisfied`, then `Requested node configuration is not available`) and nothing runs. A node layout kept from
a GPU node's template (`--cores-per-socket=4` on nodes of other sockets and cores) is refused the same way. The request is the
user's to change: named with the directive.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_REFUSED = re.compile(r"sbatch: error: (?P<what>Temporary disk|Memory|Socket, core and/or thread) specification can "
                      r"not be satisfied")
_ASKED_FOR = {"Socket, core and/or thread": "sockets, cores or threads per node"}
# per resource: the option that asks for it (a pattern, its name), and sinfo's field for the nodes' own
_OPTIONS = {"Temporary disk": (r"--tmp\b", "--tmp", "%d", "temporary disk, MB"),
            "Memory": (r"--mem(?:-per-cpu|-per-gpu)?\b", "--mem", "%m", "memory, MB"),
            "Socket, core and/or thread": (r"--(?:cores-per-socket|sockets-per-node|threads-per-core)\b|-B\b",
                                           "--cores-per-socket", "%z", "sockets:cores:threads of each node")}


def rule_request_beyond_every_node(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_REFUSED)
    if refused is None:
        return []
    said, match = refused
    option, name, field, unit = _OPTIONS[match["what"]]
    asked = next(lines_matching(ev.user_files, re.compile(rf"(?:^\s*#SBATCH\s+|\b(?:sbatch|srun)\b[^\n|;&]*\s)(?:{option})"
                                                          r"[= ]?(?P<value>\S+)")), None)
    where = f"{asked[0].name}:{asked[1]}" if asked else "the job's options"
    value = asked[3]["value"] if asked else "?"
    if asked is not None and (given := re.search(r"--[\w-]+|-B\b", asked[2].split("#SBATCH", 1)[-1])):
        name = given.group(0)  # the option the directive gives (`--sockets-per-node`), not the resource's usual one
    return [Finding(
        category=CONFIG,
        title=f"sbatch refused the job: {where} asks for {_ASKED_FOR.get(match['what'], match['what'].lower())} "
              f"({name}={value}) "
              "beyond what any node of the partition has",
        evidence=[said, *([EvidenceLine(file=asked[0].name, line=asked[1], text=asked[2].strip())] if asked else [])],
        cause=f"The job asks for more {_ASKED_FOR.get(match['what'], match['what'].lower())} than every node of the "
              "partition offers (a directive "
              "kept from another cluster's template), so Slurm cannot place it anywhere and refuses it at submission: "
              "nothing ran.",
        fix=f"In {where}, lower `{name}` to what the nodes have (`sinfo -o '%n {field}'` shows their node "
            f"configuration: {unit}) or drop the directive if it came with another cluster's template, or submit to a "
            "partition whose nodes have it; then submit again.",
    )]
