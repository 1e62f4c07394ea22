"""Step 1: a batch script asking for more of a resource than any node of the partition has, refused by sbatch.

A directive kept from another cluster's template (`#SBATCH --tmp=200G` for a GPU node's local NVMe, `--mem=512G`)
asks for more than every node here has: sbatch refuses the job at submission (`Temporary disk specification can
not be satisfied`, then `Requested node configuration is not available`) and nothing runs. A node layout kept from
a GPU node's template (`--cores-per-socket=4` on nodes of other sockets and cores) is refused the same way. The request is the
user's to change: named with the directive.

A name the cluster does not define (`--licenses=judge_slots:1`, a QOS, account, partition, feature, reservation or
node (`--nodelist`) of the old cluster) is refused the same way, `Invalid license specification`: the option is the user's to change. A
partition closed to the submitting host or account (`AllocNodes`, `AllowAccounts`, `AllowGroups`) is refused with
`Access/permission denied`: the request is fine, where it comes from is not (infra).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA

_REFUSED = re.compile(r"sbatch: error: (?P<what>Temporary disk|Memory|Socket, core and/or thread) specification can "
                      r"not be satisfied")
_ASKED_FOR = {"Socket, core and/or thread": "sockets, cores or threads per node"}
# per resource: the option that asks for it (a pattern, its name), and sinfo's field for the nodes' own
_OPTIONS = {"Temporary disk": (r"--tmp\b", "--tmp", "%d", "temporary disk, MB"),
            "Memory": (r"--mem(?:-per-cpu|-per-gpu)?\b", "--mem", "%m", "memory, MB"),
            "Socket, core and/or thread": (r"--(?:cores-per-socket|sockets-per-node|threads-per-core)\b|-B\b",
                                           "--cores-per-socket", "%z", "sockets:cores:threads of each node")}


def _option_line(ev: Evidence, option: str, value: str = r"[^\s\"']+") -> tuple[str, int, str, str] | None:
    """Where the scripts give `option` (a directive or an sbatch/srun argument): file, line, text and its value."""
    found = next(lines_matching(ev.user_files, re.compile(
        rf"(?:^\s*#SBATCH\s+|\b(?:sbatch|srun)\b[^\n|;&]*\s)(?:{option})[= ]?(?P<value>{value})")), None)
    return None if found is None else (found[0].name, found[1], found[2].strip(), found[3]["value"])


def rule_request_beyond_every_node(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_REFUSED)
    if refused is None:
        return []
    said, match = refused
    option, name, field, unit = _OPTIONS[match["what"]]
    asked = _option_line(ev, option, r"\S+")
    where = f"{asked[0]}:{asked[1]}" if asked else "the job's options"
    value = asked[3] if asked else "?"
    if asked is not None and (given := re.search(r"--[\w-]+|-B\b", asked[2].split("#SBATCH", 1)[-1])):
        name = given.group(0)  # the option the directive gives (`--sockets-per-node`), not the resource's usual one
    return [Finding(
        category=CONFIG,
        title=f"sbatch refused the job: {where} asks for {_ASKED_FOR.get(match['what'], match['what'].lower())} "
              f"({name}={value}) "
              "beyond what any node of the partition has",
        evidence=[said, *([EvidenceLine(file=asked[0], line=asked[1], text=asked[2])] if asked else [])],
        cause=f"The job asks for more {_ASKED_FOR.get(match['what'], match['what'].lower())} than every node of the "
              "partition offers (a directive "
              "kept from another cluster's template), so Slurm cannot place it anywhere and refuses it at submission: "
              "nothing ran.",
        fix=f"In {where}, lower `{name}` to what the nodes have (`sinfo -o '%n {field}'` shows their node "
            f"configuration: {unit}) or drop the directive if it came with another cluster's template, or submit to a "
            "partition whose nodes have it; then submit again.",
    )]


_UNDEFINED = re.compile(r"sbatch: error: (?:Batch job submission failed: )?(?P<what>Invalid (?P<kind>license|qos|account|"
                        r"partition name|feature|generic resource \(gres\)) specification|Invalid account or "
                        r"account/partition combination specified|Requested reservation is invalid|Invalid node name specified)")
# per kind of name: the options that give it, and the command that lists what the cluster defines
_DEFINED_BY = {"license": (r"--licenses?|-L", "scontrol show licenses"),
               "qos": (r"--qos|-q", "sacctmgr show qos format=name"),
               "account": (r"--account|-A", "sacctmgr show assoc user=$USER format=account,partition"),
               "partition name": (r"--partition|-p", "sinfo -s"),
               "feature": (r"--constraint|-C", "sinfo -o '%n %f'"),
               "generic resource (gres)": (r"--gres|--gpus(?:-per-\w+)?|-G", "sinfo -o '%P %G'"),
               "reservation": (r"--reservation", "scontrol show reservation"),
               "node name": (r"--nodelist|-w", "sinfo -N -o '%N'")}
_SUBMITTED = re.compile(r"^Submitted batch job \d+", re.M)
_ACCESS_DENIED = re.compile(r"sbatch: error: Batch job submission failed: Access/permission denied")


def _submitted_after(ev: Evidence, said: EvidenceLine) -> bool:
    """Whether the log that holds the refusal goes on to a job sbatch took: a fallback submission that worked."""
    text = next((text for path, text in ev.log_heads if ev.rel(path) == said.file), "")
    return bool(_SUBMITTED.search("\n".join(text.splitlines()[said.line:])))


def rule_name_the_cluster_does_not_define(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_UNDEFINED)
    if refused is None or _submitted_after(ev, refused[0]):
        return []
    said, match = refused
    kind = match["kind"] or next((name for name in ("reservation", "node name") if name in match["what"]), "account")
    option, listing = _DEFINED_BY[kind]
    asked = _option_line(ev, option)
    where = f"{asked[0]}:{asked[1]}" if asked else "the job's options"
    given = f"`{asked[2].split('#SBATCH', 1)[-1].strip()}`" if asked else f"the {kind} it asks for"
    return [Finding(
        category=CONFIG,
        title=f"sbatch refused the job ({match['what']}): {where} asks for a {kind} this cluster does not define",
        evidence=[said, *([EvidenceLine(file=asked[0], line=asked[1], text=asked[2])] if asked else [])],
        cause=f"{given} names a {kind} that this cluster's Slurm does not have (a directive kept from another "
              "cluster's template, or a name mistyped), so sbatch refused the job at submission: nothing ran.",
        fix=f"In {where}, drop {given} (its #SBATCH line) or give a {kind} this cluster defines (`{listing}` lists them); "
            "then submit again.",
    )]


def rule_partition_closed_to_the_submitter(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_ACCESS_DENIED)
    if refused is None or _submitted_after(ev, refused[0]):
        return []
    said, _ = refused
    asked = _option_line(ev, r"--partition|-p")
    partition = asked[3] if asked else "<partition>"
    return [Finding(
        category=INFRA,
        title=f"sbatch refused the job: Access/permission denied by the partition{f' `{partition}`' if asked else ''} "
              "(the host or account it is submitted from is not allowed)",
        evidence=[said, *([EvidenceLine(file=asked[0], line=asked[1], text=asked[2])] if asked else [])],
        cause="Slurm refuses a submission the partition does not allow from where it comes: its `AllocNodes` (the "
              "hosts jobs may be submitted from, often the login nodes only), `AllowAccounts`, `AllowGroups` or "
              "`AllowQos`. The job's options are fine; the place or account it was submitted from is not, so "
              "nothing ran.",
        fix=f"sbatch's `Access/permission denied` comes from the partition's own limits: `scontrol show partition "
            f"{partition}` shows AllocNodes, AllowAccounts and AllowGroups: submit from a "
            "host it allows (a login node), or with an allowed account, or ask the cluster's admins to open the "
            "partition to this host; then submit again.",
    )]
