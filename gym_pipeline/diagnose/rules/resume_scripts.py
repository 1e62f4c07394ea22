"""A user's script that makes an interrupted collection worse: retries that start over, a done check that counts tasks.

- A loop that retries the collection (after a preemption, a `timeout`) without `--resume`: each attempt starts a
  fresh rollouts file and throws away what the attempt before it collected, so attempts that together would have
  finished never do.
- A "skip the collection when it is done" check that compares the rollouts file's lines with the number of tasks:
  with several repeats per task, a file cut short by an interruption already has as many lines as there are tasks,
  and the rerun skips the collection and profiles the partial file.
- A "collect once" marker file (`if [ -f .collect_done ]; then echo skipping...`) that an earlier run left in the
  folder: the new run (a new checkpoint, new data) skipped its collection and profiled the old rollouts. A lock folder
  (`if ! mkdir eval.lock; then ... exit 0`) that a killed run never removed does the same to every later run.
- A script that fetches a shared folder (`git pull` of the team's eval repo, `rsync`, `aws s3 sync`) before a collection
  with `--resume` into it: a teammate's committed rollouts arrive complete, the resume finds nothing left to do and asks
  the model nothing, and the profile is the teammate's checkpoint's.
- A "materialize once" guard that tests the inputs file exists (`[ -e inputs.jsonl ] || materialize ...`): a file
  a cleanup emptied (`: > file`) still exists, so the run skipped materializing and collected nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, path_of, resume_command
from gym_pipeline.diagnose.logs import find_log_files
from gym_pipeline.diagnose.rules.checkpoint_choice import rollouts_of_an_older_server
from gym_pipeline.diagnose.rules.command_lines import gym_commands
from gym_pipeline.diagnose.rules.taskfolders import task_folder_run
from gym_pipeline.diagnose.user_scripts import (
    SCRIPT_SUFFIXES,
    SHELL_LOOP,
    SHELL_VARIABLE,
    UserFile,
    assignment_of,
    lines_matching,
    loop_body,
)
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_FOR_VARIABLE = re.compile(r"^\s*for\s+(?P<name>[A-Za-z_]\w*)\s+in\b")
_COLLECTS = re.compile(r"\b(?:gym-pipeline|cli)\s+(?:stage\s+)?collect\b|\bgym\s+eval\s+run\b")
_STAGE_COLLECT = re.compile(r"\bgym-pipeline\s+stage\s+collect\b")
_RESUMES = re.compile(r"--resume\b|\+\+resume=[Tt]rue")
# `[ $(wc -l < rollouts.jsonl) -ge $TASKS ]`: the rollouts file's lines against a count
_LINES_AGAINST = re.compile(r"\$\(\s*wc\s+-l\s*<?\s*(?P<file>\S*rollouts\S*\.jsonl)\s*\)\s*\"?\s*-(?:ge|eq|gt)\s+"
                            r"\"?\$\{?(?P<count>\w+)\}?")
_COUNTS_LINES_OF = re.compile(r"\bwc\s+-l\s*<?\s*(?P<file>\S+\.jsonl)")


def _scripts(ev: Evidence) -> list[UserFile]:
    return [file for file in ev.user_files if file.suffix in SCRIPT_SUFFIXES]


def _retry_loop_without_resume(file: UserFile) -> tuple[int, str, int, str] | None:
    """(loop line, its text, collect line, its text) of a loop that retries a collection without --resume: the same
    collection each time (a `for` whose variable the command uses goes over several collections, no retry)."""
    lines = file.text.splitlines()
    for number, line in enumerate(lines, 1):
        if not SHELL_LOOP.match(line):
            continue
        variable = _FOR_VARIABLE.match(line)
        for inner, text in loop_body(lines, number):
            command = text.rstrip("\\").strip()
            continued = inner
            while lines[continued - 1].rstrip().endswith("\\") and continued < len(lines):  # the whole command
                command += " " + lines[continued].strip()
                continued += 1
            over_items = variable is not None and re.search(rf"\$\{{?{variable['name']}\b", command)
            if _COLLECTS.search(command) and not _RESUMES.search(command) and not over_items:
                return number, line.strip(), inner, text.strip()
    return None


def rule_retries_that_start_over(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if not a.missing_keys:
        return []
    for file in _scripts(ev):
        found = _retry_loop_without_resume(file)
        if found is None:
            continue
        loop_line, loop, collect_line, collect = found
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name} retries the collection in a loop without --resume: each attempt starts over, and "
                  f"{len(a.missing_keys)} materialized rollouts are still missing",
            evidence=[EvidenceLine(file=file.name, line=loop_line, text=loop),
                      EvidenceLine(file=file.name, line=collect_line, text=collect)],
            cause="Without --resume a collection starts a fresh rollouts file: every attempt of the loop threw away "
                  "what the attempt before it had collected, so attempts that together would have finished each "
                  "stopped part way again, and the last one left a partial file.",
            fix=f"In {file.name}, add `--resume` to the collection the loop retries (each attempt then runs only the "
                f"keys without a rollout: {resume_command(ev)}); then profile.",
        )]
    return []


def rule_done_check_counts_tasks(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    rows = a.rollouts.valid_rows
    if not a.missing_keys or not a.materialized_tasks or rows < a.materialized_tasks:
        return []
    for file in _scripts(ev):
        for number, line in enumerate(file.text.splitlines(), 1):
            check = _LINES_AGAINST.search(line)
            if check is None:
                continue
            count = check["count"]
            assigned = assignment_of([file], count)
            counted = _COUNTS_LINES_OF.search(assigned[2]) if assigned else None
            if counted is None or "rollout" in counted["file"]:
                continue  # not a count of the data's tasks
            return [Finding(
                category=CACHE_RESUME,
                title=f"{file.name} takes {check['file']} as complete when it has as many lines as there are tasks "
                      f"({count}): a partial file with {rows} of {a.materialized.valid_rows} rollouts passed",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=assigned[1], text=assigned[2])],
                cause=f"{count} counts the lines of {counted['file']}, one per task, while the collection writes one "
                      f"line per task and repeat ({a.materialized.valid_rows} here): a collection interrupted part way "
                      "already had enough lines, so the rerun skipped it and went on with the partial file.",
                fix=f"In {file.name}, compare with the materialized rows (`wc -l < rollouts_materialized_inputs.jsonl`, "
                    f"tasks x repeats), not {count}, or always run the collection with --resume (it does only what is "
                    f"missing): {resume_command(ev)}; then profile.",
            )]
    return []


_MARKER_GUARD = re.compile(r"^\s*if\s+(?:(?P<test>\[\[?\s+-[fes]\s+\"?(?P<marker>[\w./${}-]+)\"?\s*\]\]?)"
                           r"|!\s+mkdir\s+\"?(?P<lock>[\w./-]+)\"?)")  # `if ! mkdir eval.lock`: a lock folder
_BRANCH_END = re.compile(r"^\s*(?:else|elif|fi)\b")
_ONE_LINE_BRANCH = re.compile(r";\s*then\b(?P<taken>.*?)(?:\b(?:else|elif)\b(?P<otherwise>.*))?$")
_ECHOED = re.compile(r"\becho\s+[\"'](?P<text>[^\"']+)")
_EXPANSION = re.compile(r"\$(?:\{[^}]*\}|\([^)]*\)|\w+)")  # what the shell replaces in an echoed text
MIN_ECHOED_WORDS = 12  # characters of an echoed text, between expansions, to find it in a log
_LOG_BYTES = 1 << 20  # of each log, searched for the script's own words


def _logged(ev: Evidence, words: str) -> EvidenceLine | None:
    """The first log line holding `words`."""
    for log in find_log_files(ev.run_dir):
        with log.open("rb") as handle:
            text = handle.read(_LOG_BYTES).decode("utf-8", errors="replace")
        if (at := text.find(words)) >= 0:
            number = text.count("\n", 0, at) + 1
            return EvidenceLine(file=ev.rel(log), line=number, text=text.splitlines()[number - 1].strip())
    return None


def _skips_taken(ev: Evidence):
    """(script, line number, line, guard match, the log line of its skip) of each `if` guard of a script that skips the
    collection when a file exists (or a lock folder cannot be made), and whose skip message a log shows."""
    for file in _scripts(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            guard = _MARKER_GUARD.match(line)
            if guard is None:
                continue
            branch, otherwise = _branches(lines, number)
            said = next((m["text"] for text in branch if (m := _ECHOED.search(text))), None)
            if said is None or not any(_COLLECTS.search(text) for text in otherwise[:20]) \
                    or any(_COLLECTS.search(text) for text in branch) or not _skips(lines, number):
                continue
            words = max(_EXPANSION.split(said), key=len)
            if len(words) >= MIN_ECHOED_WORDS and (skipped := _logged(ev, words[:40])) is not None:
                yield file, number, line, guard, skipped


def rule_done_marker_left_by_an_earlier_run(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, guard, skipped in _skips_taken(ev):
        if guard["lock"]:
            return [_lock_left_by_a_killed_run(file, number, line, guard["lock"], skipped)]
        marker = guard["marker"]
        if Path(marker).name == Path(path_of(ev.artifacts.rollouts)).name:  # the output itself: whole, it is done
            if ev.artifacts.missing_keys:
                return [_partial_output_taken_for_done(ev, file, number, line, guard["test"], skipped)]
            if (servers := rollouts_of_an_older_server(ev)) is not None:
                return [_output_of_an_older_checkpoint_taken_for_done(ev, file, number, line, marker, skipped,
                                                                      *servers)]
            continue
        if (key := _key_of_names(file, marker)) is not None:
            return [_cache_keyed_on_file_names(file, number, line, marker, skipped, *key)]
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name}:{number} skipped the collection because {marker} exists: the rollouts profiled are "
                  "an earlier run's",
            evidence=[skipped, EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"{file.name} collects only when {marker} is missing, and an earlier run left it in this folder: "
                  f"this run found it ({skipped.file}:{skipped.line}), skipped the collection, and profiled the "
                  "rollouts of that earlier run, whatever model or data it had. A marker that says only "
                  "\"collected once\" cannot tell one run from the next.",
            fix=f"Remove {marker} before a new run, or make the marker name the run it is for (the checkpoint and "
                f"the data's digest in its name or content, checked in {file.name}), or let `gym-pipeline collect "
                "--resume` decide what is left to do (it checks the inputs); then collect again and profile.",
        )]
    return []


# a cache key made from what a folder's listing shows (its file names, sizes, times), not from its contents:
# `KEY=$(ls "$CKPT" | md5sum)`, `$(du -s ...)`, `$(stat -c %s ...)`
_KEY_OF_NAMES = re.compile(r"^\s*(?:export\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?\$\(\s*(?P<listing>(?:ls|du|stat|find)\b"
                           r"[^|)]*)\|[^)]*\b(?:md5sum|sha\d*sum|cksum|b2sum)\b")


def _key_of_names(file: UserFile, marker: str) -> tuple[int, str, str] | None:
    """(line, text, variable) of the assignment of a cache key the marker's path uses, when the key hashes a
    listing of names rather than the files' contents."""
    for number, text in enumerate(file.text.splitlines(), 1):
        key = _KEY_OF_NAMES.match(text)
        if key is not None and re.search(rf"\$\{{?{key['name']}\b", marker + _assigned_path(file, marker)):
            return number, text.strip(), key["name"]
    return None


def _assigned_path(file: UserFile, marker: str) -> str:
    """What the variable the marker's path starts with (`$OUT/...`) is set to in the script, or ''."""
    start = re.match(r"\$\{?(?P<name>[A-Za-z_]\w*)", marker)
    assigned = assignment_of([file], start["name"]) if start else None
    return assigned[2].split("=", 1)[1] if assigned else ""


def _cache_keyed_on_file_names(file: UserFile, number: int, line: str, marker: str, skipped: EvidenceLine,
                               key_line: int, key_text: str, key: str) -> Finding:
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} reused cached rollouts under a cache key made from file names "
              f"({file.name}:{key_line}): another checkpoint with the same files got the same key",
        evidence=[skipped, EvidenceLine(file=file.name, line=key_line, text=key_text),
                  EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"The cache key ${key} hashes a listing of the folder (`{key_text.split('=', 1)[1].strip()}`): its file "
              "names, not their contents. Every checkpoint of a training run holds the same file names, so this "
              f"checkpoint got the key of an earlier one, {file.name} found that one's {marker} and skipped the "
              f"collection ({skipped.file}:{skipped.line}): the rollouts published are the earlier checkpoint's.",
        fix=f"In {file.name}:{key_line}, key the cache on what differs between checkpoints: the checkpoint's path "
            "and step, or a digest of its contents (`sha256sum` of the weights' index or config, not `ls`); clear "
            "the entries made under the old key, then collect again and profile.",
    )


_LEAVES = re.compile(r"\b(?:exit|return|continue|break)\b")
_ELSE = re.compile(r"^\s*(?:else|elif)\b")
_FI = re.compile(r"(?:^|;)\s*fi\b")


def _skips(lines: list[str], number: int) -> bool:
    """The `if` at line `number` keeps the collection from running when its test holds: its branch leaves (`exit`,
    `continue`...) or the collection is in its `else`. A branch that only says something (`echo "note: eval.lock is
    there"`) skips nothing after the `fi`."""
    body = lines[number:]
    if (one_line := _ONE_LINE_BRANCH.search(lines[number - 1])) and one_line["taken"].strip():
        if _LEAVES.search(one_line["taken"]):
            return True
        if one_line["otherwise"] is not None:  # `...; else collect ...; fi` on the same line
            return bool(_COLLECTS.search(_FI.split(one_line["otherwise"])[0]))
        if _FI.search(one_line["taken"]):  # closed on its own line: what follows runs either way
            return False
    in_else = False
    for text in body:
        if _ELSE.match(text):
            in_else = True
        elif re.match(r"^\s*fi\b", text):
            return False
        elif _LEAVES.search(text) and not in_else or in_else and _COLLECTS.search(text):
            return True
    return False


def _branches(lines: list[str], number: int) -> tuple[list[str], list[str]]:
    """What the `if` at line `number` runs when its test holds, and what comes after that (its else, and on): on one
    line (`if [ -s f ]; then echo ...; else collect ...; fi`) or on the lines below it."""
    if (one_line := _ONE_LINE_BRANCH.search(lines[number - 1])) and one_line["taken"].strip():
        return [one_line["taken"]], [one_line["otherwise"] or "", *lines[number:]]
    branch = []
    for text in lines[number:]:
        if _BRANCH_END.match(text):
            break
        branch.append(text)
    return branch, lines[number + len(branch):]


def _partial_output_taken_for_done(ev: Evidence, file: UserFile, number: int, line: str, test: str,
                                   skipped: EvidenceLine) -> Finding:
    a = ev.artifacts
    run = task_folder_run(ev)
    staged = any(_STAGE_COLLECT.search(text) for text in file.text.splitlines())
    again = (run.rerun() if run is not None else "run the script's `stage collect` line without the check (the stage "
             "collects the partition afresh)" if staged else f"collect with --resume: {resume_command(ev)}")
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} skipped the collection because {Path(path_of(a.rollouts)).name} was there: "
              f"the partial file of a run that did not finish ({a.rollouts.valid_rows} of {a.materialized.valid_rows} "
              "rollouts) was profiled",
        evidence=[skipped, EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"{file.name} collects only when `{test}` fails: it takes a rollouts file that exists (and is not "
              "empty) for a finished collection. A run killed part way leaves one, so this run "
              f"({skipped.file}:{skipped.line}) skipped the collection and profiled the partial file: "
              f"{len(a.missing_keys)} (task, rollout) keys have no result.",
        fix=f"In {file.name}, replace `{test}` with a check that the collection is complete (`[ \"$(wc -l < "
            f"{Path(path_of(a.rollouts)).name})\" -ge \"$(wc -l < {Path(path_of(a.materialized)).name})\" ]`), or "
            f"run the collection every time; now {again}; then profile.",
    )


def _output_of_an_older_checkpoint_taken_for_done(ev: Evidence, file: UserFile, number: int, line: str, marker: str,
                                                  skipped: EvidenceLine, of_rollouts: tuple[int, EvidenceLine],
                                                  newest: tuple[str, int, EvidenceLine]) -> Finding:
    folder = _EXPANSION.search(marker)
    keyed = assignment_of([file], folder.group(0).strip("${}")) if folder and folder.group(0)[1] != "(" else None
    # the key the path is built from, one assignment further (`CACHE=.../$KEY`, `KEY=$(basename $1)`)
    key = next((found for variable in SHELL_VARIABLE.finditer(keyed[2].split("=", 1)[1])
                if (found := assignment_of([file], variable["name"]))), None) if keyed else None
    by = (f" It names the output by {file.name}:{keyed[1]} `{keyed[2]}`"
          + (f", from {file.name}:{key[1]} `{key[2]}`" if key else "") + ", which holds neither." if keyed else "")
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} skipped the collection because {marker} was there: the rollouts profiled are "
              f"the step {of_rollouts[0]} server's, while the step {newest[1]} server started for this run was asked "
              "nothing",
        evidence=[skipped, EvidenceLine(file=file.name, line=number, text=line.strip()), of_rollouts[1], newest[2],
                  *([EvidenceLine(file=file.name, line=keyed[1], text=keyed[2])] if keyed else [])],
        cause=f"{file.name} takes an existing rollouts file for this run's, done; but the path it checks does not "
              f"change with the checkpoint or the model.{by} So the run of step {newest[1]} found the rollouts an "
              f"earlier run collected from step {of_rollouts[0]} (their manifest records that server's address), "
              f"skipped the collection and profiled them as step {newest[1]}'s. Nothing fails.",
        fix=f"Name the output after what it evaluates: in {file.name}, put the checkpoint (and the data's digest) in "
            + (f"{folder.group(0)} (`{key[2] if key else keyed[2]}` -> a key that tells checkpoints of different "
               "runs apart: the checkpoint's full path or its digest, not its step name alone)" if keyed
               else "the checked path")
            + ", or let `gym-pipeline collect --resume` decide what is left (it checks the inputs); now move "
              f"{Path(path_of(ev.artifacts.rollouts)).parent} away, collect from the step {newest[1]} server and "
              "profile.",
    )


def _lock_left_by_a_killed_run(file: UserFile, number: int, line: str, lock: str, skipped: EvidenceLine) -> Finding:
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} skipped the run because its lock folder {lock} was there: a lock left by a run "
              "that did not end normally",
        evidence=[skipped, EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"{file.name} takes {lock} as a lock (`mkdir` fails when it exists) and removes it when it ends. A run "
              "killed outright (SIGKILL, an out-of-memory kill, a node that went down) never runs its EXIT trap, so "
              f"{lock} stayed, and every later run ({skipped.file}:{skipped.line}) took it for a run in progress, "
              "exited 0 and left the folder as the killed run had it: partial rollouts of an earlier run.",
        fix=f"Remove the stale lock (`rmdir {lock}`) once no run is going, and in {file.name} take a lock that ends "
            f"with its holder: `exec 9>{lock}.file; flock -n 9 || exit 1` (the kernel releases it when the process "
            "dies), or write the holder's pid into the lock and take over one whose pid is gone; then collect again "
            "(`--resume` keeps what the killed run finished) and profile.",
    )


_EMPTIES_FILES = re.compile(r"(?:^|;|\bdo)\s*:?\s*>\s*\"?\$?[\w./{}*-]+\"?\s*(?:;|$)|\btruncate\s+-s\s*0\b")


def existence_guard_over_empty_inputs(ev: Evidence) -> Finding | None:
    """The materialized inputs are empty, and a script materializes only when they do not exist."""
    name = ev.artifacts.materialized.path.name
    guard = re.compile(rf"(?:\[\[?|\btest)\s+-[ef]\s+\"?(?P<file>[\w./-]*{re.escape(name)})\"?\s*\]?\]?\s*\|\|")
    guarded = next(lines_matching(_scripts(ev), guard), None)
    if guarded is None:
        return None
    file, number, line, match = guarded
    emptier = next(((f, n, text) for f, n, text, _ in lines_matching(_scripts(ev), _EMPTIES_FILES)), None)
    test = match.group(0).rstrip("|").strip()
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} materializes only when {name} does not exist (`{test}`): the file was there, "
              "empty, so the run collected nothing",
        evidence=[EvidenceLine(file=ev.rel(ev.artifacts.materialized.path), text="0 rows"),
                  EvidenceLine(file=file.name, line=number, text=line.strip()),
                  *([EvidenceLine(file=emptier[0].name, line=emptier[1], text=emptier[2].strip())] if emptier else [])],
        cause=f"`{test}` asks whether {name} exists, not whether it holds rows"
              + (f"; {emptier[0].name}:{emptier[1]} empties the outputs instead of removing them "
                 f"(`{emptier[2].strip()}`)" if emptier else "")
              + ": an empty inputs file passed for the materialized one, the run skipped materializing, and the "
                "collection had no row to run. Nothing failed.",
        fix=f"In {file.name}, test for rows (`[ -s {match['file']} ]`) instead of `{test}`"
            + (f", and have {emptier[0].name} remove the old outputs (`rm -f`) rather than empty them" if emptier
               else "")
            + "; then materialize again and collect.",
    )


# a command bringing files from elsewhere into the folder a script works in
_FETCHES = re.compile(r"^\s*(?:git\s+(?:-C\s+\S+\s+)?(?:pull|checkout|reset\s+--hard|clone)\b|rsync\b|aws\s+s3\s+(?:sync|cp)\b"
                      r"|gsutil\s+(?:-m\s+)?(?:rsync|cp)\b|rclone\s+(?:copy|sync)\b|dvc\s+pull\b)")
_OUTPUT_OPTION = re.compile(r"(?:--output[ =]|output_jsonl_fpath=)(?P<path>\S+)")


def rule_resume_over_rows_a_fetch_brought(ev: Evidence) -> list[Finding]:
    """A collection with --resume that found every rollout done and sent the model nothing, right after the script
    fetched the folder it writes into (`git pull` of a repo where a teammate committed their results)."""
    kept = [hit for hit in ev.hits("builtin_resumed") if hit.text.lstrip().startswith("0 collected")] \
        + ev.hits("gym_resume_nothing_to_run")
    if not kept:
        return []
    for file in _scripts(ev):
        fetch = next(((number, line) for _, number, line, _ in lines_matching([file], _FETCHES)), None)
        collect = next(((number, command) for _, number, command in gym_commands([file])
                        if _COLLECTS.search(command) and _RESUMES.search(command)
                        and fetch is not None and number > fetch[0]), None)
        if collect is None:
            continue
        output = _OUTPUT_OPTION.search(collect[1])
        target = output["path"] if output else "the output"
        fetched = fetch[1].strip()
        return [Finding(
            category=CACHE_RESUME,
            title=f"The collection asked the model nothing: --resume found every rollout already in {target}, right "
                  f"after {file.name}:{fetch[0]} `{fetched}` brought the folder up to date",
            evidence=[kept[-1].evidence(), EvidenceLine(file=file.name, line=fetch[0], text=fetched),
                      EvidenceLine(file=file.name, line=collect[0], text=collect[1].strip())],
            cause=f"`{fetched}` brings whatever the shared copy holds, results included: rollouts someone else "
                  f"collected and committed (or synced) for their checkpoint. The collection that follows resumes into "
                  f"{target}, finds every key done and sends nothing to the model server started for this run, so "
                  "the profile is of the other run's rollouts. A --resume trusts whatever rows the output holds, "
                  "whoever wrote them.",
            fix=f"Keep results out of what `{fetched}` brings (for git: `results/` in .gitignore and `git rm -r "
                f"--cached results`; for a sync, exclude the results folder), and collect each checkpoint into its "
                f"own output folder; pass --resume only to continue an interrupted collection of the same run. Now: "
                f"move {target} away, collect again without --resume, then profile.",
        )]
    return []
