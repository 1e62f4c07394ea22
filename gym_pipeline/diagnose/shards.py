"""A run folder of shard collections, joined at its top level or not: each shard is diagnosed on its own.

Users who collect at scale split the data, collect each part in a subfolder of its own (one job or one
process per shard, a Slurm job array), then often join the parts with `cat shards/*/rollouts.jsonl >
rollouts.jsonl`. The joined files keep no failures sidecar and no manifest, and their keys collide (each
shard numbers its tasks from 0), so what failed is only in the shards. The shards' causes lead the report:
they are upstream of the join; what the joined files show follows from the join. A folder of shards not
joined has no collection of its own: what one shard shows is not the run's, so every shard is read.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import orjson

from gym_pipeline.diagnose.artifacts import MATERIALIZED_SUFFIX, RunFiles, run_files_at, walk_glob
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import CAUSE, CONSEQUENCE, NOTE, Finding, plural
from gym_pipeline.diagnose.logs import TIMED_OUT
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, CONFIG

# Bytes compared at the start of each shard's place in the joined file: enough to tell a join from a
# coincidence of sizes, without reading the files again.
_COMPARED_BYTES = 4096
_EVIDENCE_PER_SHARD = 2
MERGE_ID = "shards_joined"
SHARDS_ID = "shard_collections"
_DIGITS = re.compile(r"\d+")
_MAX_DATA_BYTES = 256 << 20


def _sub_collections(run_dir: Path) -> list[RunFiles]:
    """The collections in the run folder's subfolders (a materialized file with its rollouts), in name order."""
    shards = []
    for materialized in walk_glob(run_dir, MATERIALIZED_SUFFIX):
        if materialized.parent == run_dir:
            continue
        stem = materialized.name.removesuffix(MATERIALIZED_SUFFIX)
        rollouts = materialized.parent / f"{stem}.jsonl"
        if rollouts.is_file():
            shards.append(run_files_at(materialized.parent, stem))
    return sorted(shards, key=lambda s: str(s.rollouts))


def unjoined_shards(files: RunFiles, run_dir: Path) -> list[RunFiles]:
    """The shard collections of a run folder that has no collection of its own: subfolders named alike but for
    their numbers (`shards/0`, `part_01`) whose materialized inputs are different data. Not runs of one dataset
    (per checkpoint or per day, which hold the same rows); [] when the folder is no such set."""
    if files.directory == run_dir:
        return []
    shards = _sub_collections(run_dir)
    if len(shards) < 2 or len({_DIGITS.sub("#", str(s.directory.relative_to(run_dir))) for s in shards}) != 1:
        return []
    first_rows = set()
    for shard in shards:
        with shard.materialized.open("rb") as materialized:
            first_rows.add(materialized.readline().strip())
    return shards if len(first_rows) == len(shards) else []


def joined_shards(files: RunFiles, run_dir: Path) -> list[RunFiles]:
    """The shard collections below `run_dir` whose rollouts files, joined in name order (as a shell glob
    sorts them), are the top-level rollouts file byte for byte; [] when it is no such join."""
    top = files.rollouts
    if files.directory != run_dir or not top.is_file():
        return []
    shards = _sub_collections(run_dir)
    if len(shards) < 2 or sum(s.rollouts.stat().st_size for s in shards) != top.stat().st_size:
        return []
    offset = 0
    with top.open("rb") as joined:
        for shard in shards:
            with shard.rollouts.open("rb") as part:
                head = part.read(_COMPARED_BYTES)
            joined.seek(offset)
            if joined.read(len(head)) != head:
                return []
            offset += shard.rollouts.stat().st_size
    return shards


def with_shard_findings(
    ev: Evidence,
    findings: list[Finding],
    shards: list[RunFiles],
    diagnose_shard: Callable[[Path], list[Finding]],
) -> list[Finding]:
    """The report of a joined folder: each shard cause (once for all the shards it holds in), then the join,
    then the top-level findings; those that read the joined files follow from the join."""
    names = [ev.rel(s.directory) for s in shards]
    shard_causes = _shard_causes(names, shards, diagnose_shard)
    join = _join_finding(ev, names, keys_collide=ev.artifacts.duplicate_rollout_keys > 0)
    # what the joined files show follows from the join when it made the keys collide, else from the shards' cause
    explained_by = join if join.role == CAUSE else (shard_causes or [None])[0]
    if explained_by is None:
        return [*findings, join]
    joined_files = {ev.rel(p) for p in (ev.artifacts.files.materialized, ev.artifacts.files.rollouts,
                                        ev.artifacts.files.failures, ev.artifacts.files.profile)}
    moved = {f.id for f in findings if f.role == CAUSE and _reads_joined_files(f, joined_files)}
    top_causes, followed, notes = [], [], []
    for finding in findings:
        if finding.id in moved or finding.caused_by in moved:
            followed.append(finding.model_copy(update={"role": CONSEQUENCE, "caused_by": explained_by.id}))
        elif finding.role == NOTE:
            notes.append(finding)
        else:
            (top_causes if finding.role == CAUSE else followed).append(finding)
    if join.role == CAUSE:
        return [*shard_causes, join, *followed, *top_causes, *notes]
    return [*shard_causes, *followed, *top_causes, *notes, join]


def with_unjoined_shard_findings(
    ev: Evidence,
    findings: list[Finding],
    shards: list[RunFiles],
    diagnose_shard: Callable[[Path], list[Finding]],
) -> list[Finding]:
    """The report of a folder of shards not joined: each shard cause (once for all the shards it holds in), then
    what the folder's own files and logs show; the findings of the one shard the folder was read as are its own."""
    names = [ev.rel(s.directory) for s in shards]
    shard_causes = _shard_causes(names, shards, diagnose_shard)
    read_as = ev.rel(ev.artifacts.files.directory)
    own = [f for f in findings if not any(line.file.startswith(f"{read_as}/") for line in f.evidence)]
    note = Finding(
        category="data_schema", role=NOTE, id=SHARDS_ID,
        evidence=[EvidenceLine(file=name, text=f"{plural(_rows(shard), 'materialized rollout')}")
                  for name, shard in zip(names[:_EVIDENCE_PER_SHARD * 2], shards, strict=False)],
        title=f"{plural(len(shards), 'shard collection')} ({', '.join(names)}), not joined: each shard was "
              "diagnosed on its own",
        cause="The run folder has no collection of its own, and its subfolders hold one part of the data each: "
              "each shard was read on its own, and its causes lead this report.",
        fix="Profile and resume each shard in its own folder; join only finished shards.")
    if stale := _shard_of_other_data(ev, shards):
        own = [stale, *own]
    if left_out := _rows_in_no_shard(ev, shards):
        # the rows a split lost follow from the folder's own cause when it has one (an array numbered off its files)
        cause = next((f for f in own if f.role == CAUSE), None)
        own = [left_out, *own] if cause is None else [
            *own, left_out.model_copy(update={"role": CONSEQUENCE, "caused_by": cause.id})]
    shard_causes, followed = _effects_of(shard_causes, next((f for f in own if f.role == CAUSE), None))
    return [*shard_causes, *[f for f in own if f.role == CAUSE], *followed, *[f for f in own if f.role == CONSEQUENCE],
            *[f for f in own if f.role == NOTE], note]


def _task_key(row: dict) -> bytes:
    """A data row's task, as a materialized row of it still shows it: its prompt and its label."""
    return orjson.dumps([row.get("responses_create_params"), row.get("expected_answer")], option=orjson.OPT_SORT_KEYS)


def _task_keys(path: Path) -> list[bytes] | None:
    """The task of each row of a JSONL data file, in order; None when it is no data of tasks (not JSON rows, or
    rows the engine wrote) or too large to read here."""
    if path.stat().st_size > _MAX_DATA_BYTES:
        return None
    keys = []
    with path.open("rb") as data:
        for line in data:
            if not line.strip():
                continue
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError:
                return None
            if not isinstance(row, dict) or "_ng_task_index" in row or "responses_create_params" not in row:
                return None
            keys.append(_task_key(row))
    return keys


# a shell line computing a shard's size with integer division: `SIZE=$(( N / SLURM_ARRAY_TASK_COUNT ))`
_DIVIDED_SIZE = re.compile(r"\$\(\(\s*\$?\{?\w+\}?\s*/\s*\$?\{?\w+\}?\s*\)\)")


def _rows_in_no_shard(ev: Evidence, shards: list[RunFiles]) -> Finding | None:
    """The rows of the folder's data file that no shard holds: the split of the data lost them, and each shard's
    run is complete, so nothing else says so. A config cause of the script that splits; not when the run was cut by
    a `timeout` (shards it never started hold no rows either)."""
    if ev.first_in_log_heads(TIMED_OUT) is not None:
        return None
    held = set()
    for shard in shards:
        held.update(_materialized_task_keys(shard.materialized))
    supersets = [(data, keys) for data in sorted(ev.run_dir.glob("*.jsonl"))
                 if (keys := _task_keys(data)) and held and held <= set(keys)]
    # the smallest file the shards were split from: one they cover whole (tasks.jsonl cut from data.jsonl) says so
    for data, keys in sorted(supersets, key=lambda found: len(found[1]))[:1]:
        missing = [number for number, key in enumerate(keys, 1) if key not in held]
        if not missing:
            return None
        name = ev.rel(data)
        split = next(((file, number, line) for file, number, line, _ in lines_matching(ev.user_files, _DIVIDED_SIZE)),
                     None)
        return Finding(
            category=CONFIG, id="rows_in_no_shard",
            title=f"{plural(len(missing), 'row')} of {name}'s {len(keys)} {'is' if len(missing) == 1 else 'are'} in no "
                  f"shard: the split left {'it' if len(missing) == 1 else 'them'} out, and no shard evaluated "
                  f"{'it' if len(missing) == 1 else 'them'}",
            evidence=[EvidenceLine(file=name, line=missing[0], text=f"row {missing[0]} of {len(keys)}: in no shard"),
                      *([EvidenceLine(file=split[0].name, line=split[1], text=split[2].strip())] if split else [])],
            cause=f"The shards' inputs hold {len(keys) - len(missing)} of the {len(keys)} tasks of {name} (rows "
                  f"{_ranges(missing)} are in none): each shard ran to the end on its part, so every job exits 0 and "
                  "the rows the split dropped are simply not in the result."
                  + (f" {split[0].name}:{split[1]} sizes the shards by integer division, which rounds down: the "
                     "remainder rows fall after the last shard." if split else ""),
            fix=("Size the shards by rounding up (`SIZE=$(( (N + COUNT - 1) / COUNT ))`), or give the last shard the "
                 "remainder of the rows, " if split else "Split the data so that every row is in one shard, ")
                + f"then evaluate the rows left out (rows {_ranges(missing)} of {name}) and profile them with the rest.",
        )
    return None


# a script line joining the shards' files by a glob: `cat shard_*/rollouts.jsonl > merged.jsonl`
_JOIN_GLOB = re.compile(r"\b(?:cat|jq\b[^\n|]*?|python3?\b[^\n|]*?)\s[^\n|]*\*[^\n|]*rollouts[^\n|]*\.jsonl")


def _shard_of_other_data(ev: Evidence, shards: list[RunFiles]) -> Finding | None:
    """A shard folder none of whose tasks are in the data the other shards were split from: left by an earlier run
    with more shards (the team dropped tasks since), and taken in by a join that globs the shard folders."""
    held = {ev.rel(shard.directory): _materialized_task_keys(shard.materialized) for shard in shards}
    materialized_of = {ev.rel(shard.directory): shard.materialized.name for shard in shards}
    split_from = []  # (shards it holds the tasks of, those it holds none of, the data file)
    for data in sorted(ev.run_dir.glob("*.jsonl")):
        keys = set(_task_keys(data) or [])
        of_data = [name for name, tasks in held.items() if tasks and tasks <= keys]
        others = [name for name, tasks in held.items() if tasks and not tasks & keys]
        if len(of_data) >= 2 and others:  # the whole data the shards were split from, not one shard's file
            split_from.append((of_data, others, data))
    for of_data, others, data in sorted(split_from, key=lambda found: -len(found[0]))[:1]:
        stale = others[0]
        join = next(((file, number, line.strip()) for file, number, line, _ in lines_matching(ev.user_files, _JOIN_GLOB)
                     if not line.lstrip().startswith("#")), None)
        name = ev.rel(data)
        return Finding(
            category=CACHE_RESUME, id="shard_of_other_data",
            title=f"{stale} holds none of the tasks of {name}, which the other {plural(len(of_data), 'shard')} were "
                  "split from: it is a stale shard left by an earlier run"
                  + (f", and {join[0].name}:{join[1]} joins it in by its glob" if join else ""),
            evidence=[EvidenceLine(file=f"{stale}/{materialized_of[stale]}", line=1,
                                   text=f"{stale}: {plural(len(held[stale]), 'task')}, none of them in {name}"),
                      *([EvidenceLine(file=join[0].name, line=join[1], text=join[2])] if join else [])],
            cause=f"The shards of this run ({', '.join(of_data)}) hold tasks of {name}; {stale} holds only tasks "
                  f"{name} no longer has (an earlier run split more tasks into more shards, and each shard job clears "
                  "only its own folder)"
                  + (f". {join[0].name}:{join[1]} joins every folder its glob matches, so the stale shard's rollouts "
                     "(another week's tasks, and model) count in this run's result" if join else "")
                  + ". Every command exits 0.",
            fix=f"Remove the stale shard folders before the run splits the data (`rm -rf {stale}`, or `rm -rf "
                f"shard_*/` in the submit script), and join only this run's shards"
                + (f" in {join[0].name}" if join else "")
                + " (by the count it split into, not a glob such as `shard_*`); then join and profile again.",
        )
    return None


def _materialized_task_keys(path: Path) -> set[bytes]:
    """The tasks a shard's materialized inputs hold."""
    keys = set()
    with path.open("rb") as materialized:
        for line in materialized:
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(row, dict):
                keys.add(_task_key(row))
    return keys


def _ranges(numbers: list[int]) -> str:
    """`3-5, 9` for [3, 4, 5, 9]."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)


def _effects_of(shard_causes: list[Finding], cause: Finding | None) -> tuple[list[Finding], list[Finding]]:
    """(the shard causes, those that follow from the folder's own `cause`): a shard's partial output or missing
    profile is a cause in the shard only because nothing in the shard explains it; the folder's cause (a job
    held, a limit, a cancel) does."""
    if cause is None:
        return shard_causes, []
    return ([f for f in shard_causes if not f.effect],
            [f.model_copy(update={"role": CONSEQUENCE, "caused_by": cause.id}) for f in shard_causes if f.effect])


def _rows(shard: RunFiles) -> int:
    with shard.materialized.open("rb") as materialized:
        return sum(1 for line in materialized if line.strip())


def _shard_causes(names: list[str], shards: list[RunFiles], diagnose_shard: Callable[[Path], list[Finding]]
                  ) -> list[Finding]:
    """Each shard's causes, one finding per rule for all the shards it holds in."""
    by_rule: dict[str, list[tuple[str, Finding]]] = defaultdict(list)
    for name, shard in zip(names, shards, strict=True):
        for finding in diagnose_shard(shard.directory):
            if finding.role == CAUSE or finding.diagnosis_fault:
                by_rule[finding.id].append((name, finding))
    return [_across_shards(held, len(shards)) for held in by_rule.values()]


def _reads_joined_files(finding: Finding, joined_files: set[str]) -> bool:
    """Whether a finding reads the joined files: it cites them, or a log line naming them."""
    return any(
        line.file in joined_files or any(name in line.text for name in joined_files)
        for line in finding.evidence
    )


def _across_shards(held: list[tuple[str, Finding]], shard_count: int) -> Finding:
    """One shard cause, as found in each shard it holds in: its first shard's words, every shard's lines."""
    first_name, first = held[0]
    names = [name for name, _ in held]
    evidence = [
        line.model_copy(update={"file": os.path.normpath(f"{name}/{line.file}")}) if not line.file.startswith("/")
        else line
        for name, finding in held for line in finding.evidence[:_EVIDENCE_PER_SHARD]
    ]
    where = (f"In {first_name}" if len(held) == 1 else
             f"In {len(held)} of {shard_count} shards ({', '.join(names)})")
    others = f" The same holds in {', '.join(names[1:])}." if len(held) > 1 else ""
    return first.model_copy(update={
        "id": f"shard:{first.id}",
        "title": f"{where}: {first.title}",
        "evidence": evidence,
        "fix": f"{first.fix} (shown for {first_name}.{others})",
    })


def _join_finding(ev: Evidence, names: list[str], keys_collide: bool) -> Finding:
    rollouts = ev.rel(ev.artifacts.files.rollouts)
    joined = f"{rollouts} is {plural(len(names), 'shard collection')} joined ({', '.join(names)})"
    evidence = [EvidenceLine(file=rollouts, text=f"{ev.artifacts.rollouts.rows} rows: the shards' rollouts files "
                                                 "one after another, byte for byte")]
    if not keys_collide:
        return Finding(
            category="data_schema", role=NOTE, id=MERGE_ID, evidence=evidence,
            title=f"{joined}; each shard was diagnosed on its own",
            cause="The top-level files are a join of the shards' own collections: their failures and manifests are "
                  "in the shard folders, so each shard was read on its own, and its causes lead this report.",
            fix="Profile and resume each shard in its own folder; join only finished shards.",
        )
    return Finding(
        category="data_schema", role=CAUSE, id=MERGE_ID, evidence=evidence,
        title=f"{joined}: each shard numbers its tasks from 0, so the joined file repeats "
              f"{plural(ev.artifacts.duplicate_rollout_keys, '(task, rollout) key')}",
        cause="A shard's `_ng_task_index` and `_ng_rollout_index` count within its own data, so joining the shards' "
              "files gives several rows the same key: the profile refuses the joined file or mixes different tasks "
              "under one index, and what the joined files show (duplicates, stale inputs, missing keys) follows from "
              "the join, not from the data.",
        fix="Profile each shard in its own folder (`gym-pipeline profile --inputs <shard>/rollouts_materialized_"
            "inputs.jsonl --rollouts <shard>/rollouts.jsonl`), or materialize the whole dataset once and give each "
            "shard a slice of those rows, so the keys stay unique when the shards' rollouts are joined.",
    )
