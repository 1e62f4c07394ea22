"""A Slurm job array whose task ids are not the numbers of the files its tasks read.

`split -d` and Python number shards from 0; `#SBATCH --array=1-4` numbers array tasks from 1. A job script that reads
`shards/shard_$SLURM_ARRAY_TASK_ID.jsonl` then never reads shard_0, and its last task finds no shard_4: one shard is
silently left out, and the job's exit says little (one task of four failed). A range with a step kept from a sweep
template (`--array=0-6:2` over seeds 0, 2, 4, 6) runs every other shard: the odd ones never run, and nothing fails.

A batch script submitted through `sbatch --wrap "bash shard.sbatch"` (CI glue) is no batch script to sbatch: its
`#SBATCH --array=0-2` is a comment to bash, so one plain job runs it, with no array task id: one shard is evaluated
and the run looks whole.
"""

from __future__ import annotations

import itertools
import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile, assignment_of
from gym_pipeline.diagnose.vocabulary import CONFIG

_ARRAY = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s*)(?P<first>\d+)-(?P<last>\d+)(?::(?P<step>\d+))?(?:%\d+)?\s*"
                    r"(?:#.*)?$")
_PATH_WITH = r"(?P<path>[\w./-]*\$\{{?{name}\}}?[\w.-]*)"
MAX_IDS = 10_000  # array tasks compared, at most


def _task_id_names(file: UserFile) -> list[tuple[str, str, str]]:
    """(name, text before, text after) of SLURM_ARRAY_TASK_ID and the variables the script builds from it
    (`SHARD=$SLURM_ARRAY_TASK_ID`, `SHARD=shard_${SLURM_ARRAY_TASK_ID}`: `$SHARD` is then `shard_<id>`)."""
    names = [("SLURM_ARRAY_TASK_ID", "", "")]
    for match in re.finditer(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=\"?(?P<before>[\w.-]*)\$\{?SLURM_ARRAY_TASK_ID\}?"
                             r"(?P<after>[\w.-]*)\"?\s*(?:#.*)?$", file.text, re.M):
        names.append((match["name"], match["before"], match["after"]))
    return names


def _numbers_on_disk(ev: Evidence, path: str, name: str, before: str = "", after: str = "") -> tuple[set[int], str] | None:
    """The numbers the files named by `path` (with `$name` for `before`, the task id, `after`) have in the run folder,
    found by the file name's pattern anywhere below it (a bounded walk); and one such file."""
    file_name = path.rsplit("/", 1)[-1]
    parts = re.split(rf"\$\{{?{re.escape(name)}\}}?", file_name)
    if len(parts) != 2:
        return None
    parts = [parts[0] + before, after + parts[1]]
    pattern = re.compile("^" + re.escape(parts[0]) + r"(\d+)" + re.escape(parts[1]) + "$")
    numbers, example = set(), ""
    for candidate in itertools.islice(ev.run_dir.rglob(f"{parts[0]}*{parts[1]}"), MAX_IDS):
        if (found := pattern.match(candidate.name)) is not None:
            numbers.add(int(found.group(1)))
            example = example or ev.rel(candidate)
    return (numbers, example) if numbers else None


def rule_array_ids_not_the_files_numbers(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file in ev.user_files:
        lines = file.text.splitlines()
        array = next(((n, m) for n, line in enumerate(lines, 1) if (m := _ARRAY.match(line))), None)
        if array is None:
            continue
        array_line, span = array
        first, last, step = int(span["first"]), int(span["last"]), int(span["step"] or 1)
        if last - first > MAX_IDS or step < 1:
            continue
        ids = set(range(first, last + 1, step))
        written = f"{first}-{last}" + (f":{step}" if step > 1 else "")
        for name, before, after in _task_id_names(file):
            for number, line in enumerate(lines, 1):
                if re.match(rf"^\s*(?:export\s+)?{re.escape(name)}=", line):
                    continue  # the variable's own assignment: what it names is read where it is used
                for used in re.finditer(_PATH_WITH.format(name=re.escape(name)), line):
                    on_disk = _numbers_on_disk(ev, used["path"], name, before, after)
                    if on_disk is None or on_disk[0] == ids:
                        continue
                    numbers, example = on_disk
                    missed, absent = sorted(numbers - ids), sorted(ids - numbers)
                    if not missed:
                        continue
                    meant = f"{min(numbers)}-{max(numbers)}"
                    assigned = assignment_of([file], name) if name != "SLURM_ARRAY_TASK_ID" else None
                    return [Finding(
                        category=CONFIG,
                        title=f"{file.name} runs array tasks {written}, but the files its tasks read are numbered "
                              f"{meant}: {', '.join(map(str, missed))} never ran"
                              + (f", {', '.join(map(str, absent))} found no file" if absent else ""),
                        evidence=[EvidenceLine(file=file.name, line=array_line, text=lines[array_line - 1].strip()),
                                  *([EvidenceLine(file=file.name, line=assigned[1], text=assigned[2])]
                                    if assigned else []),
                                  EvidenceLine(file=file.name, line=number, text=line.strip()),
                                  EvidenceLine(file=example, text=f"numbered {meant} in the run folder")],
                        cause=f"Each array task reads `{used['path']}` with its SLURM_ARRAY_TASK_ID, and `--array="
                              f"{written}` gives ids {', '.join(map(str, sorted(ids)))} while the files are numbered "
                              f"{meant}: "
                              f"{', '.join(map(str, missed))} never ran"
                              + (f", and task {', '.join(map(str, absent))} found no file" if absent else "")
                              + ". The results hold fewer shards than the data, without an error that stops the job.",
                        fix=f"In {file.name}, number the array as the files are: `#SBATCH --array={meant}` "
                            + (f"(drop the step `:{step}`, kept from a sweep template: it runs one id in {step})"
                               if step > 1 else f"(or read the file of SLURM_ARRAY_TASK_ID minus {first - min(numbers)})")
                            + "; then run the shards that were left out ("
                            + ", ".join(re.sub(r"\d+(?=\D*$)", str(n), example.rsplit("/", 1)[-1]) for n in missed)
                            + f", numbered from {min(numbers)} as `split -d` and Python number files) and profile.",
                    )]
    return []


# a path built on the job's own id: `results/${SLURM_JOB_ID}/shard_N`
_OWN_JOB_ID_PATH = re.compile(r"(?P<path>[\w./-]*/)\$\{?SLURM_JOB_ID\}?(?=[/\s\"']|$)")


def rule_array_tasks_write_under_their_own_job_ids(ev: Evidence) -> list[Finding]:
    """An array script writing under `$SLURM_JOB_ID`: each task of an array is a job of its own with its own id
    (only the first task's is the array's, `$SLURM_ARRAY_JOB_ID`), so the tasks wrote to as many folders, and a merge
    of the array's folder (`results/$JOB/shard_*`, with the id sbatch printed) finds one task's shard alone."""
    for file in ev.user_files:
        if (array := next((m for line in file.text.splitlines() if (m := _ARRAY.match(line))), None)) is None:
            continue
        for number, line in enumerate(file.text.splitlines(), 1):
            if line.lstrip().startswith("#") or (used := _OWN_JOB_ID_PATH.search(line)) is None:
                continue
            parent = used["path"].rstrip("/").rsplit(ev.run_dir.name + "/", 1)[-1].lstrip("/")
            folders = sorted(p.name for p in (ev.run_dir / parent).glob("*") if p.is_dir() and p.name.isdigit()) \
                if (ev.run_dir / parent).is_dir() else []
            if len(folders) < 2:
                continue
            tasks = int(array["last"]) - int(array["first"]) + 1
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} writes each array task's results under `$SLURM_JOB_ID`, the task's own "
                      f"job id: its {tasks} tasks wrote to {len(folders)} folders ({', '.join(folders[:4])}), and a "
                      "merge of the array's one folder reads one task's",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
                cause="Every task of a job array runs as a job of its own with its own `SLURM_JOB_ID` (only the first "
                      "task's equals the array's id, `SLURM_ARRAY_JOB_ID`, the one sbatch printed): the shards went "
                      f"to {parent}/{folders[0]}, {parent}/{folders[1]} ..., and what merges {parent}/<array id> took "
                      "one task's shard and left the others out, without an error.",
                fix=f"In {file.name}:{number}, build the folder on the array's id: `${{SLURM_ARRAY_JOB_ID}}` instead "
                    f"of `${{SLURM_JOB_ID}}` (the same for every task, the id sbatch printed), so every shard lands in "
                    f"{parent}/<array id>/; then merge the shards already written ({parent}/*/) or run the array again.",
            )]
    return []


# `--array=<ids>` given to sbatch itself (or in a variable its line expands)
_ARRAY_OPTION = re.compile(r"(?:--array[= ]|-a\s*)(?P<ids>[\d,-]+)(?:%\d+)?(?=[\s\"']|$)")


def _ids(spec: str) -> set[int] | None:
    """The task ids of an array range without a step (`0-3`, `0,2`, `5`); None when it is not one."""
    ids: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            return None
        ids.update(range(int(first), int(last or first) + 1))
    return ids if len(ids) <= MAX_IDS else None


def _array_given_to_sbatch(ev: Evidence, script: str) -> tuple[UserFile, int, str, str] | None:
    """(file, line, text, ids) of the `--array` the user's scripts give sbatch when they submit `script`: on the
    sbatch line, or in a variable that line expands (`SBATCH_ARGS="--array=0"`)."""
    for file in ev.user_files:
        for number, line in enumerate(file.text.splitlines(), 1):
            if line.lstrip().startswith("#") or not re.search(rf"\bsbatch\b[^#\n]*\b{re.escape(script)}\b", line):
                continue
            if option := _ARRAY_OPTION.search(line):
                return file, number, line.strip(), option["ids"]
            for name in re.findall(r"\$\{?(\w+)", line):
                assigned = assignment_of(ev.user_files, name)
                if assigned and (option := _ARRAY_OPTION.search(assigned[2])):
                    return assigned[0], assigned[1], assigned[2], option["ids"]
    return None


def rule_array_range_overridden_on_the_command_line(ev: Evidence) -> list[Finding]:
    """`#SBATCH --array=0-3` in the job script, and `--array=0` (kept from a trial) given to sbatch: the command line
    wins over the directive, so only the tasks it names run, and a merge of the shards' results is partial."""
    for batch in ev.user_files:
        lines = batch.text.splitlines()
        directive = next(((n, line.strip(), m) for n, line in enumerate(lines, 1) if (m := _ARRAY.match(line))), None)
        if directive is None or directive[2]["step"]:
            continue
        planned = set(range(int(directive[2]["first"]), int(directive[2]["last"]) + 1))
        given = _array_given_to_sbatch(ev, batch.name.rsplit("/", 1)[-1])
        if given is None or (ran := _ids(given[3])) is None or not ran < planned:
            continue
        file, number, line, ids = given
        left_out = sorted(planned - ran)
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} gives sbatch `--array={ids}`, which overrides {batch.name}'s `#SBATCH "
                  f"--array={directive[2]['first']}-{directive[2]['last']}`: array tasks {_listed(left_out)} never ran",
            evidence=[EvidenceLine(file=file.name, line=number, text=line),
                      EvidenceLine(file=batch.name, line=directive[0], text=directive[1])],
            cause=f"An option given to sbatch on its command line wins over the same `#SBATCH` directive in the "
                  f"script, without a word: the job array was submitted with tasks {ids} only, not "
                  f"{directive[2]['first']}-{directive[2]['last']}, so the shards of tasks {_listed(left_out)} were "
                  "never evaluated, and whatever merges the shards' results merged a part of the data.",
            fix=f"In {file.name}:{number} (`{line.split('#', 1)[0].strip()}`), drop `--array={ids}` (kept from a trial) "
                "so the directive's range applies, "
                f"or give the whole range on the command line (`--array={directive[2]['first']}-"
                f"{directive[2]['last']}`); then submit again and merge only when every array task has finished.",
        )]
    return []


def _listed(ids: list[int]) -> str:
    return ", ".join(map(str, ids[:8])) + (f" ... ({len(ids)} in all)" if len(ids) > 8 else "")


_WRAPPED = re.compile(r"\bsbatch\b(?P<options>[^\n]*?)--wrap[= ](?P<quote>[\"'])(?:bash|sh|source|\.)?\s*(?P<script>[^\s\"']+)")
_ARRAY_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s*)\S+", re.M)


def rule_array_directive_of_a_wrapped_script(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        for number, line in enumerate(file.text.splitlines(), 1):
            if line.lstrip().startswith("#") or (wrapped := _WRAPPED.search(line)) is None \
                    or _ARRAY_OPTION.search(wrapped["options"] + line[wrapped.end():]):
                continue
            name = wrapped["script"].rsplit("/", 1)[-1]
            script = next((other for other in ev.user_files if other.name.rsplit("/", 1)[-1] == name), None)
            directive = _ARRAY_DIRECTIVE.search(script.text) if script is not None else None
            if directive is None:
                continue
            at = script.text.count("\n", 0, directive.start()) + 1
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} submits {name} with `sbatch --wrap`, so its `{directive[0].strip()}` is "
                      "never read: one plain job ran it, not the array",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()[:300]),
                          EvidenceLine(file=script.name, line=at, text=directive[0].strip())],
                cause=f"With `--wrap`, sbatch's job is the wrapped command line, and {name} runs inside it as a plain "
                      f"bash script: its `#SBATCH` lines are comments there, so `{directive[0].strip()}` made no array. "
                      "One job ran, with no SLURM_ARRAY_TASK_ID, so only the shard a missing id falls back to was "
                      "evaluated, and every command exited 0.",
                fix=f"In {file.name}:{number}, submit the script itself (`sbatch {name}`), so sbatch reads its "
                    f"#SBATCH directives (`{directive[0].strip()}`); or give the array on the command line with the wrap (`sbatch --array=... --wrap "
                    "...`); then evaluate the shards that never ran and merge again.",
            )]
    return []
