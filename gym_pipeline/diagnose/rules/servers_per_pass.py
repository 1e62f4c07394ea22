"""Step 2: a loop that starts a fresh model server for every shard it collects, inside a time limit.

A runbook's "one server per shard, so a crash cannot spoil the next" makes every pass of the loop pay the server's
load (weights read, CUDA graphs captured: tens of seconds to minutes) before a collection of seconds: the job's time
goes to loading, and its limit (or the CI step's budget) ends it part way. Nothing is broken; the work is arranged
so it cannot fit. Named when a script's loop both starts a model server and collects, and the run was ended by a
time limit or a budget.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.background_collections import COLLECTION
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import SHELL_LOOP, loop_body
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

_STARTS_SERVER = re.compile(r"\bserve-policy\b|\bvllm\s+serve\b|\bsglang\.launch_server\b|\bgym\s+env\s+start\b")
_ENDED = ("slurm_time_limit", "ended_by_terminate")


def rule_model_server_started_for_every_pass(ev: Evidence) -> list[Finding]:
    ended = next(((name, hit) for name in _ENDED for hit in ev.hits(name)
                  if name == "slurm_time_limit" or "collect" in hit.text), None)  # not a server the loop stopped
    missing = ev.artifacts.missing_without_failure
    if ended is None and not missing:
        return []
    by = ended[0] if ended else None
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if not SHELL_LOOP.match(line):
                continue
            body = loop_body(lines, number)
            server = next(((n, text) for n, text in body if _STARTS_SERVER.search(text)), None)
            if server is None or not any(COLLECTION.search(text) for _, text in body):
                continue
            return [Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"{file.name}:{number} starts a fresh model server in every pass of its loop "
                      f"({file.name}:{server[0]}): the time went to loading servers, and the "
                      + {"slurm_time_limit": "job's time limit ended the run", "ended_by_terminate": "budget ended "
                         "the run"}.get(by, f"run stopped with {len(missing)} rollouts still to do"),
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=server[0], text=server[1].strip()),
                          *([ended[1].evidence()] if ended else [])],
                cause=f"Each pass of the loop at {file.name}:{number} starts a model server, waits for it to load, "
                      "collects its shard and stops it: every shard pays the server's whole start-up (loading the "
                      "weights) for a collection that takes a fraction of it, so the passes run back to back through "
                      "the limit. Nothing failed; the shards were arranged so the work could not fit.",
                fix=f"In {file.name}, start one model server (`{_STARTS_SERVER.search(server[1])[0]}`) before the "
                    f"loop (line {server[0]} moved above line {number}) and collect every shard against it (or all rows in one collection); a crash of the "
                    "server then fails the shard's requests, which go to the failures sidecar and `--resume` runs "
                    "again. Then submit again, with a `--time` that covers one load and the whole collection.",
                explains=frozenset(_ENDED),
            )]
    return []
