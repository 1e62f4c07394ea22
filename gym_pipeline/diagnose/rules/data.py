"""Steps 5-6 of the debug order: the materialized inputs and their source data, the rollout output and profile."""

from __future__ import annotations

import re
from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.core.formats import ROLLOUTS_FILE
from gym_pipeline.core.manifest import MANIFEST_FILE
from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.data_writers import BOM, SEPARATOR_HINT, FailedWriter, failed_writer
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import (
    NOTE,
    Finding,
    agent_of,
    fmt_keys,
    model_url_of,
    ours,
    path_of,
    plural,
    profile_command,
    resume_command,
    unique,
)
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.manifests import (
    COLLECTED_ELSEWHERE,
    INPUTS_CHANGED,
    PROFILE_OUTDATED,
    RESUMED_OVER_OTHER_DATA,
    ROLLOUTS_REPLACED,
    SETTINGS_CHANGED,
    SOURCE_CHANGED,
    SOURCE_GONE,
    VERIFIER_CHANGED,
    sweep_config_beside,
)
from gym_pipeline.diagnose.rules.gym_settings import block_setting
from gym_pipeline.diagnose.rules.resume_scripts import existence_guard_over_empty_inputs
from gym_pipeline.diagnose.unrecorded_source import source_candidates
from gym_pipeline.diagnose.user_scripts import (
    MAKEFILE_NAMES,
    SCRIPT_SUFFIXES,
    copied_onto,
    copies_keeping_times,
    lines_matching,
    time_comparisons,
)
from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CONFIG,
    DATA_SCHEMA,
    MODEL_SERVING,
    SIDECAR_FLAG,
    VERIFIER_RUNTIME,
)

_SWEEP_CONFIG_OPTION = re.compile(r"--sweep-config[= ][\"']?(?P<path>[^\s\"']+)")

# ---------------------------------------------------------------------------------------------
# Step 5: materialized inputs and source data.


def rule_stale_inputs(ev: Evidence) -> list[Finding]:
    m = ev.manifest
    a = ev.artifacts
    refusals = [h.evidence() for h in ev.hits("stale_inputs_refused")][:1]
    inputs, rollouts = path_of(a.materialized), path_of(a.rollouts)
    settings = m.settings
    check = (f"`gym-pipeline check-stale --inputs {inputs} --source {m.source} --num-repeats "
             f"{settings.num_repeats if settings else '<n>'} --agent {(settings.agent if settings else None) or agent_of(ev)}`")
    findings = []
    if m.unreadable:
        findings.append(Finding(
            category=CACHE_RESUME,
            title="manifest.json cannot be read: whether the inputs are stale is unknown",
            evidence=[EvidenceLine(file=MANIFEST_FILE, text=m.unreadable)],
            cause="The run's manifest records what each stage read; unreadable, it cannot say whether the materialized "
                  "inputs still match their data, so a resume could mix old and new rows.",
            fix=f"Rebuild the inputs and collect again without --resume: `gym-pipeline materialize --input <data> "
                f"--num-repeats <n> --agent {agent_of(ev)} --output {inputs}`, then `gym-pipeline collect ...`.",
        ))
    for stale in m.of(SOURCE_CHANGED) + m.of(SOURCE_GONE):
        report = stale.report
        evidence = [stale.evidence]
        if report:
            evidence += [EvidenceLine(file=ev.rel(a.materialized.path), line=row["line"],
                                      text=f"task {row['_ng_task_index']} rollout {row['_ng_rollout_index']}: "
                                           f"{row['change']} compared with a fresh materialization")
                         for row in report.differing_rows[:2]]
        gone = stale.kind == SOURCE_GONE
        if gone and not refusals:  # the inputs may be fine: only their freshness can no longer be checked
            findings.append(Finding(
                category=CACHE_RESUME,
                role=NOTE,
                title=f"The source data {m.source} is gone: whether the inputs are still fresh cannot be checked",
                evidence=[stale.evidence],
                cause=f"{stale.message}.",
                fix="Restore the data (or point the environment at its new path) before resuming or re-running; "
                    "a resume would keep collecting against the rows materialized from the old data.",
            ))
            continue
        rebuild = report.rebuild_command if report else "gym-pipeline materialize --input <data> ..."
        copied = None if gone else copied_onto(ev.user_files, a.materialized.path.name)
        cached = (f" The inputs were copied in by {copied[0].name}:{copied[1]} (`{copied[2]}`"
                  + (f"; {'; '.join(copied[3])}" if copied[3] else "") + "): a kept copy that outlived the data it "
                  "was built from. Key such a cache by the data's content and the settings (its `sha256sum` in the "
                  "name), or delete the copy, so a changed dataset is materialized again." if copied else "")
        uses_make = any(Path(f.name).name in MAKEFILE_NAMES for f in ev.user_files)
        compared = None if uses_make else time_comparisons(ev.user_files)
        kept_time = copies_keeping_times(ev.user_files) if not gone and (uses_make or compared) else None
        judge = (f"{compared[0]}:{compared[1]} decides by times (`{compared[2][:80]}`)" if compared
                 else "make compares times")
        cached += (f" {kept_time[0]}:{kept_time[1]} copies the data keeping its old modification time "
                   f"(`{kept_time[2][:80]}`): {judge}, so the new data looked older than the inputs built "
                   "from the old and nothing was rebuilt. Copy without keeping times (`cp` without -p/-a, `rsync` "
                   "without -t/-a), or make the inputs depend on a stamp of the data's content." if kept_time else "")
        findings.append(Finding(
            category=CACHE_RESUME,
            title=f"Stale materialized inputs: their source {m.source} "
                  + ("is gone" if gone else "changed since they were built"),
            evidence=unique(evidence + refusals, limit=4),
            cause=f"{stale.message}."
                  + (f" What changed: {'; '.join(report.reasons)} ({report.rows_found} rows in the file, "
                     f"{report.rows_expected} from the data now)." if report and report.reasons else "")
                  + " Resuming (`--resume`, Gym's resume_from_cache) keeps collecting against the old rows: Gym never "
                    "checks, so the rollouts and profile would mix old and new tasks.",
            fix=("Restore the source or point the environment at its new path, then " if gone else
                 f"See the difference: {check}. Rebuild the inputs: `{rebuild}`; then ")
                + (f"collect again without --resume (`gym-pipeline collect --inputs {inputs} --output {rollouts} "
                   f"--model-url {model_url_of(ev)} --env <env>`) and profile ({profile_command(ev)}). In the sweep, "
                   "`gym-pipeline status` shows which partitions are stale." if ours(ev) else
                   f"collect again on a clean output path, without --resume: `gym eval run --no-serve --agent "
                   f"{(settings.agent if settings else None) or agent_of(ev)} --input {m.source} --output "
                   f"<new folder>/rollouts.jsonl --num-repeats {settings.num_repeats if settings else '<n>'}`, "
                   "then profile it.") + cached,
            explains=frozenset({"stale_inputs_refused"}),
        ))
    for stale in m.of(RESUMED_OVER_OTHER_DATA):
        findings.append(Finding(
            category=CACHE_RESUME,
            title="A resume collected nothing: the output already held a finished run of other data",
            evidence=[stale.evidence],
            cause=f"{stale.message}. `--resume` (resume_from_cache) reuses `{ev.rel(a.materialized.path)}` whatever "
                  "`--input` says: pointed at the output of an earlier run, it reports that run as done, and the new "
                  "data is never read; the profile is the earlier run's.",
            fix="Collect the new data into a new output folder, without --resume, so Gym materializes it afresh: "
                f"`gym eval run --no-serve --agent {agent_of(ev)} --input <new data> --output <new folder>/rollouts.jsonl "
                "...`, then profile it; use --resume only to finish an interrupted run of the same data, on the "
                "materialized inputs it wrote.",
        ))
    for stale in m.of(SETTINGS_CHANGED):
        if (passed := _other_sweep_config_passed(ev)) is not None:
            findings.append(_stages_given_another_sweep_config(stale.message, stale.evidence, *passed))
            continue
        findings.append(Finding(
            category=CACHE_RESUME,
            title="The sweep's settings changed since the inputs were materialized; later stages ran on the old inputs",
            evidence=unique([stale.evidence, *refusals]),
            cause=f"{stale.message}. Collecting and profiling reused the old materialized rows instead of building new "
                  "ones, so the rollouts follow the old settings (repeats, agent, overrides) whatever the config says.",
            fix=f"Materialize again with the current settings (`gym-pipeline stage materialize ...`, or the sweep's "
                f"`materialized_inputs` asset), then collect again without --resume and profile: {profile_command(ev)}.",
        ))
    for stale in m.of(VERIFIER_CHANGED):
        findings.append(Finding(
            category=CACHE_RESUME,
            title="The verifier changed since it scored these rows: the rewards are the old verifier's",
            evidence=[stale.evidence],
            cause=f"{stale.message}. A profile made again from these rows (or a resume) keeps the old verifier's "
                  "rewards: only re-scoring the stored answers, or collecting again, brings the fix into the numbers.",
            fix=f"Re-score the stored answers with the verifier as it is now, no model needed: `gym-pipeline reverify "
                f"{ev.run_dir} --env <env>` (or the sweep's `reverify` job), then profile: {profile_command(ev)}.",
        ))
    for stale in m.of(ROLLOUTS_REPLACED):
        if (rewrite := _script_rewriting(ev, Path(rollouts).name)) is not None:
            findings.append(_rollouts_rewritten_by_a_script(ev, stale, rewrite, inputs, rollouts))
            continue
        findings.append(Finding(
            category=CACHE_RESUME,
            title="The rollouts file was replaced or edited after the run wrote it",
            evidence=[stale.evidence],
            cause=f"{stale.message}. No stage of this run wrote the rows it holds now: a copy restored over it (a "
                  "backup, a sync from another machine or run), rows merged in, or a hand edit. A profile of it "
                  "reports rewards this run's collection did not produce.",
            fix=f"Collect again (`gym-pipeline collect --inputs {inputs} --output {rollouts} --model-url "
                f"{model_url_of(ev)} --env <env>`, or the sweep's rollouts asset) or put back the file the run wrote, "
                f"then profile: {profile_command(ev)}. Keep backups and syncs out of run folders that are still "
                "being written, or restore them into a folder of their own.",
        ))
    for stale in m.of(COLLECTED_ELSEWHERE):
        other = Path(rollouts).with_name(stale.other_file.name)
        findings.append(Finding(
            category=CACHE_RESUME,
            title=f"The last collection wrote {stale.other_file.name}, not {ev.artifacts.rollouts.path.name}: "
                  "the run's own rollouts file was left as it stopped",
            evidence=[stale.evidence],
            cause=f"{stale.message[0].upper()}{stale.message[1:]}. A collection given a new `--output` starts afresh in that file, even "
                  f"with --resume (a resume only finishes the file it is given), so {rollouts} still holds the rows "
                  f"of the collection that stopped, and whatever reads it (a profile, a comparison) sees a partial run.",
            fix=f"Profile the file the collection finished: `gym-pipeline profile --inputs {inputs} --rollouts {other}`. "
                f"To finish a stopped collection, --resume into the same --output it was writing: "
                f"`gym-pipeline collect --inputs {inputs} --output {rollouts} --model-url {model_url_of(ev)} --env <env> "
                "--resume`.",
        ))
    if m.output_over_inputs is not None:
        findings.append(Finding(
            category=CONFIG,
            title="The collection wrote its rollouts over its own inputs file (--output named the materialized inputs)",
            evidence=[m.output_over_inputs],
            cause="`collect` was given the materialized inputs as `--output`: a fresh collection clears its output "
                  "first, so the inputs were replaced by the rollouts, and everything after (the profile, a resume, "
                  "staleness checks) reads rollouts where inputs should be.",
            fix=f"Materialize the inputs again (`gym-pipeline materialize --input {m.source or '<data>'} ... --output "
                f"{inputs}`), then collect with `--output` pointing at the rollouts' own file (`<run>/rollouts.jsonl`) "
                "and profile; newer versions refuse this pair.",
            explains=frozenset({"stale_inputs_refused"}),
        ))
        return findings  # the inputs "changed" because they were overwritten: not staleness
    for stale in m.of(INPUTS_CHANGED):
        order_only = _order_only_prerequisite(ev, Path(rollouts).name, Path(inputs).name)
        findings.append(Finding(
            category=CACHE_RESUME,
            title="Rollouts were collected on materialized inputs that changed since"
                  + (f": {order_only[0]}:{order_only[1]} makes them an order-only prerequisite" if order_only else ""),
            evidence=unique([stale.evidence, *refusals, *([EvidenceLine(file=order_only[0], line=order_only[1],
                                                                        text=order_only[2])] if order_only else [])]),
            cause=f"{stale.message.rstrip('.')}. The rollouts' (task, rollout) keys now point at different rows, so a "
                  "resume or a profile would pair answers with the wrong tasks."
                  + (f" {order_only[0]}:{order_only[1]} (`{order_only[2]}`) lists the inputs after `|`: an order-only "
                     "prerequisite only has to exist, so make rebuilt the inputs and kept the rollouts made from the "
                     "old ones." if order_only else ""),
            fix=(f"In {order_only[0]}:{order_only[1]}, make the inputs a normal prerequisite, not an order-only one "
                 f"(drop the `|`: `{Path(rollouts).name}: {Path(inputs).name}`), so a change to them collects again; "
                 "then "
                 if order_only else "")
                + f"collect again without --resume on the current inputs (`gym-pipeline collect --inputs {inputs} "
                f"--output {rollouts} --model-url {model_url_of(ev)} --env <env>`), then profile: {profile_command(ev)}.",
            explains=frozenset({"stale_inputs_refused"}),
        ))
    return findings


def rule_empty_inputs(ev: Evidence) -> list[Finding]:
    """Materialized inputs with no rows: there was nothing to collect, whatever else the run did."""
    m = ev.artifacts.materialized
    if not m.exists or m.rows:
        return []
    if (guarded := existence_guard_over_empty_inputs(ev)) is not None:
        return [guarded]
    source = _source_data(ev)
    evidence = [EvidenceLine(file=ev.rel(m.path), text="0 rows")]
    if source is not None and _empty(source) and (writer := failed_writer(ev, source)) is not None:
        return [_writer_failed(ev, source, writer, evidence)]
    if source is not None and _empty(source):
        return [Finding(
            category=DATA_SCHEMA,
            title=f"The source data {ev.rel(source)} is empty, so the materialized inputs hold no rows",
            evidence=[EvidenceLine(file=ev.rel(source), text=f"{source.stat().st_size} bytes, no row"), *evidence],
            cause=f"The data file the run read, {ev.rel(source)}, is empty: whatever wrote it (an export, a copy, a "
                  "download) failed after truncating it, or wrote nothing. With no task there was nothing to collect.",
            fix=f"Restore the data: write {ev.rel(source)} again (rerun its export or copy and check it with `wc -l`), "
                f"or point the run at a non-empty dataset; then materialize again ({ev.rel(m.path)} is rebuilt from "
                "it) and run.",
        )]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The materialized inputs hold no rows: {ev.rel(m.path)} is empty",
        evidence=evidence,
        cause="Materialization wrote no row, so the run had nothing to collect: the source data was empty (a "
              "truncated copy, a filter or `limit` that kept nothing, the wrong file) or the inputs were cut short.",
        fix=f"Check the source data is not empty: `wc -l {source or '<source data>'}`; point the environment at the "
            f"dataset you meant, then materialize again ({ev.rel(m.path)} is rebuilt from it).",
    )]


def _header_hid_the_column(writer: FailedWriter) -> tuple[str, str]:
    """(why the script's lookup failed, how to read the CSV instead) when the CSV's header line hid the column."""
    script, table, column = writer.script.name, writer.csv, writer.column
    if writer.header_fault == BOM:
        return (f" {table} starts with a UTF-8 byte-order mark (BOM, what a spreadsheet's \"CSV UTF-8\" export writes), "
                f"which the `utf-8` codec keeps: the first column of its header is named `\\ufeff{column}`, so the "
                "lookup by its name failed.",
                f"Open {table} with `encoding=\"utf-8-sig\"` in {script} (it drops the BOM), or save the sheet as CSV "
                "without one; ")
    if writer.header_fault == SEPARATOR_HINT:
        return (f" {table} starts with `sep=,`, the line a spreadsheet's export writes to tell Excel the separator: "
                f"`csv.DictReader` took it as the header, so the real header (with the column `{column}`) became a "
                f"row and no column is named `{column}`.",
                f"In {script}, skip the `sep=` first line before reading the header (`if first.startswith('sep='): ...`, "
                f"or `next(f)` when it is there), or export {table} without it; ")
    return "", f"Fix the error in {script} ({writer.incident.text}); "


def _writer_failed(ev: Evidence, source: Path, writer: FailedWriter, evidence: list[EvidenceLine]) -> Finding:
    script, incident = writer.script.name, writer.incident
    why, how = _header_hid_the_column(writer)
    return Finding(
        category=DATA_SCHEMA,
        title=f"The source data {ev.rel(source)} is empty: {script}, which writes it, stopped on an error "
              f"({incident.text})",
        evidence=[incident.evidence(), EvidenceLine(file=ev.rel(source), text=f"{source.stat().st_size} bytes, no row"),
                  *evidence],
        cause=f"{script} opened {ev.rel(source)} for writing and then raised ({incident.file}:{incident.line}: "
              f"{incident.text}) before writing a row, so the run read an empty file and had nothing to collect.{why}",
        fix=how + f"run {script} again and check {ev.rel(source)} has rows (`wc -l`), then materialize again and run.",
    )


# the data path a stage or Gym could not find: ours (`error: tasks.jsonl: file not found`) or Gym's `--input` check
_DATA_NOT_FOUND = re.compile(r"Input file not found: '(?P<gyms>[^']+)'|error: (?P<ours>[^\s:]+\.jsonl): (?:input )?file not found")


def rule_data_file_its_writer_never_wrote(ev: Evidence) -> list[Finding]:
    """The data file a stage could not find, which the user's own script was to write and stopped before writing."""
    found = ev.first_in_log_heads(_DATA_NOT_FOUND)
    if found is None or ev.run_dir is None:
        return []
    said, match = found
    data = ev.run_dir / (match["gyms"] or match["ours"])
    if data.exists() or (writer := failed_writer(ev, data)) is None:
        return []
    script, incident = writer.script.name, writer.incident
    why, how = _header_hid_the_column(writer)
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The data file {data.name} was never written: {script}, which writes it, stopped on an error first "
              f"({incident.text})",
        evidence=[incident.evidence(), said],
        cause=f"{script} raised ({incident.file}:{incident.line}: {incident.text}) before it wrote {data.name}, and "
              f"the script went on to the stage that reads it, which found no file: nothing was collected.{why}",
        fix=how + f"run {script} again and check {data.name} has rows (`wc -l`); stop the run script at the first "
                  "failing step (`set -e`), then materialize again and run.",
    )]


_EMPTY_PROBE_BYTES = 4096  # an empty data file (only whitespace) is told from its first few kilobytes


def _empty(path: Path) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as data:
        return not data.read(_EMPTY_PROBE_BYTES).strip()


def _source_data(ev: Evidence) -> Path | None:
    """The data file the run materialized from: our manifest's source; else, of the data files a log names
    (`--input`) or the run folder holds, an empty one (the likeliest culprit), or the first."""
    if ev.manifest.source:
        return locate_named_file(ev.manifest.source, ev.run_dir)
    candidates = [path for path, _ in source_candidates(ev.run_dir, ev.artifacts.files, ev.logs)]
    return next((path for path in candidates if _empty(path)), candidates[0] if candidates else None)


def rule_malformed_jsonl(ev: Evidence) -> list[Finding]:
    findings = []
    for stats in ev.artifacts.malformed_files:
        first = stats.malformed[0]
        file = ev.rel(stats.path)
        where = f"{file}:{first.line}" + (f" field '{first.field}'" if first.field else "")
        torn = first.torn and stats.malformed_count == 1
        cause = (
            f"{stats.malformed_count} line(s) of the {stats.role} ({stats.rows} in all) cannot be read as rows; "
            f"the first: {first.error.message}."
        )
        if torn:
            cause += " It is the file's last line and has no newline: a write cut short when the run was killed."
        else:
            cause += " Counts and (task, rollout) keys of this file leave those lines out."
        # a rollout row is the verifier's response: one that parses but lacks a valid reward is the verifier's fault
        verify_response = (stats.role == "rollouts" and not torn and first.field is not None
                           and not first.field.startswith(("_ng_", "agent_ref", "response")))
        if verify_response:
            cause += (f" A rollout row is the verify response; its `{first.field}` is what the verifier returned, so "
                      "the verifier answered with the wrong schema (no reward, or a reward of the wrong type).")
        findings.append(Finding(
            category=VERIFIER_RUNTIME if verify_response else DATA_SCHEMA,
            title=(f"The verifier's responses are malformed: {where}" if verify_response
                   else f"Malformed JSONL at {where}"),
            evidence=[EvidenceLine(file=file, line=m.line, text=m.text) for m in stats.malformed[:3]],
            cause=cause,
            fix=(
                f"Look at the line: `sed -n '{first.line}p' {stats.path}`. "
                + (
                    f"Drop the torn line (`cp {stats.path} {stats.path}.bak && sed -i '{first.line}d' {stats.path}`) "
                    f"and resume: {resume_command(ev)}."
                    if torn
                    else "Make the verifier return a numeric `reward` (and Gym's other verify fields) for every "
                    "response, test it on that row alone, then re-run the collection on a clean output path."
                    if verify_response
                    else "Find what wrote it (a second writer, an edited file, a different Gym version); fix or "
                    "remove the bad rows, or re-run on a clean output path."
                )
            ),
            effect=torn,  # what a killed writer leaves: whatever killed it is the cause
        ))
    return findings


def rule_rollouts_without_inputs(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    findings = []
    if a.rollouts.valid_rows and not a.materialized.exists:
        findings.append(Finding(
            category=CACHE_RESUME,
            title=f"{a.rollouts.valid_rows} rollouts but no materialized inputs beside them",
            evidence=[EvidenceLine(file=ev.rel(a.materialized.path), text="file missing")],
            cause=(
                "`gym eval run` writes the materialized inputs before any rollout; without them nothing says which "
                "(task, rollout) keys were expected, the profile cannot run, and --resume would materialize anew "
                "from whatever the data is now."
            ),
            fix="Re-run the collection on a clean output path (`gym eval run ... --output <new>/rollouts.jsonl`), "
            "or restore the materialized inputs of this run.",
        ))
    if a.extra_rollout_keys:
        findings.append(Finding(
            category=CACHE_RESUME,
            title=f"{len(a.extra_rollout_keys)} rollouts have keys the materialized inputs do not list",
            evidence=a.extra_examples[:3],
            cause=(
                "The rollouts and the materialized inputs come from different runs: inputs re-materialized after the "
                "data or --num-repeats changed, or two runs writing one folder. Keys: "
                f"{fmt_keys(a.extra_rollout_keys)}."
            ),
            fix="Re-run on a clean output path; never resume after the data, repeats, agent or config changed.",
        ))
    if a.duplicate_rollout_keys:
        merge = _glob_merge_into(ev, a.rollouts.path.name)
        findings.append(Finding(
            category=CACHE_RESUME,
            title=f"{a.duplicate_rollout_keys} duplicate (task, rollout) keys in {ev.rel(a.rollouts.path)}",
            evidence=[*a.duplicate_examples[:3], *([merge] if merge else [])],
            cause="One key has several rollouts: two runs appended to one file, or a resume re-ran finished keys."
                  + (f" {merge.file}:{merge.line} builds the file from a glob (`{merge.text}`), which takes every "
                     "file it matches: outputs an earlier run left there (another shard count, another checkpoint) "
                     "are merged with this run's." if merge else ""),
            fix=(f"In {merge.file} line {merge.line} (`{merge.text}`), merge only this run's outputs: name the shards "
                 "it ran, or empty the folder before collecting. " if merge else "")
                + "Keep one row per key: re-collect on a clean output path (or drop the duplicate rows) and profile "
                "again. Run one job per output folder, and finish an interrupted collection with `--resume` on its own "
                "output (it runs only the keys without a rollout) instead of a fresh run whose rows are appended to "
                "the old ones.",
        ))
    return findings


def _glob_merge_into(ev: Evidence, name: str) -> EvidenceLine | None:
    """The user's script line that writes `name` by concatenating what a glob matches (`cat shards/*/rollouts.jsonl >
    rollouts.jsonl`)."""
    merge = re.compile(rf"^\s*cat\s+[^#\n]*\*[^#\n]*>>?\s*\S*\b{re.escape(name)}\b")
    found = next(lines_matching(ev.user_files, merge, SCRIPT_SUFFIXES), None)
    return None if found is None else EvidenceLine(file=found[0].name, line=found[1], text=found[2].strip())


# ---------------------------------------------------------------------------------------------
# Step 6: rollout output and profile counts.


def rule_rollouts_written_elsewhere(ev: Evidence) -> list[Finding]:
    """A collection that says it wrote rollouts, in a run folder that has none: its --output pointed elsewhere (a
    path inside a container, another folder), so the profile and this diagnosis find nothing here."""
    if ev.artifacts.rollouts.exists or not ev.artifacts.materialized.valid_rows:
        return []
    if ev.hits("model_endpoint_down"):
        return []  # a collection that found no model made nothing: the rollouts it says it wrote are another attempt's
    for hit in ev.hits("builtin_wrote"):
        path = hit.groups["path"]
        if ev.run_dir is not None and not Path(path).is_absolute() and (ev.run_dir / path).is_file():
            continue  # a part the run's own script writes inside the folder (a shard it merges later)
        return [Finding(
            category=CONFIG,
            title=f"The collection wrote {hit.groups['collected']} rollouts to {path}, not to this run folder",
            evidence=[hit.evidence()],
            cause=f"The collect command's --output was {path}: outside the run folder (a path inside a container "
                  "that is not the mounted run folder vanishes with it), so this folder holds the materialized inputs "
                  "and no rollouts, and the profile found none.",
            fix="Give `collect` an --output in the run folder, beside its inputs (`--output "
                f"{ev.run_dir / ROLLOUTS_FILE}`; in a container, a path of the mounted run folder), then collect and "
                "profile again.",
            explains=frozenset({"builtin_wrote"}),
        )]
    return []


def rule_missing_rollouts(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    strict = ev.hits("missing_rollout_keys")
    keys = a.missing_without_failure
    if not keys and not strict:
        return []
    if not keys and not a.missing_keys and a.materialized.valid_rows and a.files.profile.is_file():
        # the refusal is an earlier attempt's: the collection was finished since, and profiled
        return [Finding(
            category=CACHE_RESUME, role=NOTE,
            title="An earlier `gym eval profile` refused a partial run; the collection was finished and profiled since",
            evidence=[strict[0].evidence()],
            cause=f"{strict[0].file} is of an attempt that stopped before the end; every materialized key has a "
                  "rollout now, and the profile beside them is of the whole run.",
            fix="Nothing to do for this run.",
            explains=frozenset({"missing_rollout_keys"}),
        )]
    cut_short = ev.manifest.collection_cut_short
    evidence = list(a.missing_examples[:3]) + [h.evidence() for h in strict[:2]] + ([cut_short] if cut_short else [])
    if keys:
        title = (
            f"{len(keys)} of {a.materialized.valid_rows} materialized rollouts have no result and no recorded failure "
            "(partial output)"
        )
        cause = (
            "The collection stopped (killed, timed out, or a resume that never ran) before these (task, rollout) keys "
            f"finished, and no failed attempt explains them. Missing: {fmt_keys(keys)}."
        )
        if cut_short:
            cause += " The manifest still says the collection is running: it was cut short, not finished."
        if not a.failures.exists:
            cause += (
                f" The folder has no failures sidecar: without `{SIDECAR_FLAG}` a failed /run aborts the run and "
                "leaves no row, so read the eval log too."
            )
        if a.rollouts.malformed_count:
            cause += f" {a.rollouts.malformed_count} unreadable line(s) of the rollouts may hold some of them."
    else:
        listed = strict[0].groups.get("keys") or ""
        count = re.search(r"Missing rollout results for (\d+)", strict[0].text)
        title = "`gym eval profile` refused a partial run" + (
            f": {count.group(1)} materialized rows have no rollout" if count else "")
        cause = (
            "Strict profiling requires a rollout for every materialized (task, rollout) key, and the collection is "
            f"partial. Missing rollout keys: {listed}."
        )
        if a.missing_keys and not a.missing_without_failure:
            cause += " Every one of them has failed attempts in the sidecar: fix those first (findings above)."
        if not a.materialized.exists:
            cause += " Only the log is in this folder; check the run's rollouts_failures.jsonl for their failures."
    if strict and keys:
        cause += " `gym eval profile` refused this folder for the same reason (see the log line)."
    return [Finding(
        category=CACHE_RESUME,
        title=title,
        evidence=evidence,
        cause=cause,
        fix=(
            f"Finish the collection, then profile: {resume_command(ev)}, then {profile_command(ev)}. "
            f"To profile only what completed now: {profile_command(ev, partial=True)} (tasks without any rollout "
            "are dropped from the profile)."
        ),
        explains=frozenset({"missing_rollout_keys"}),
        effect=True,  # partial output is what a failure causes; alone, a collection cut short
    )]


def rule_partial_profile_log(ev: Evidence) -> list[Finding]:
    """Only a log of `gym eval profile ++allow_partial_rollouts=True` is here: it says what it dropped."""
    if ev.artifacts.materialized.exists:
        return []  # the run's own files are better evidence than the log's counts
    for hit in ev.hits("profile_dropped"):
        total, complete, partial, dropped = (int(hit.groups[k]) for k in ("total", "complete", "partial", "dropped"))
        if not (partial or dropped):
            continue
        return [Finding(
            category=CACHE_RESUME,
            title=f"The profile covers a partial collection: {complete} of {total} tasks complete, "
            f"{partial} partial, {dropped} dropped without any rollout",
            evidence=[hit.evidence()],
            cause=(
                "`gym eval profile` ran with ++allow_partial_rollouts=True over a collection that stopped short "
                "or whose failed attempts were routed to the failures sidecar; dropped tasks are absent from every "
                "statistic."
            ),
            fix=(
                "Check the run's rollouts_failures.jsonl for why those keys failed (diagnose the run folder itself), "
                f"then resume the collection, {resume_command(ev)}, and profile again in strict mode."
            ),
            explains=frozenset({"profile_dropped"}),
            effect=True,
        )]
    return []


def rule_profile_counts(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    rollouts = a.rollouts.valid_rows - a.duplicate_rollout_keys
    outdated = ev.manifest.of(PROFILE_OUTDATED)
    if rollouts <= 0 or a.profile.malformed_count:
        return []
    profile_file = ev.rel(a.profile.path)
    partial = bool(a.missing_keys)
    # masked rollouts leave the profile's statistics (Gym's profiler, and ours)
    counted = {rollouts, rollouts - a.masked_rollouts}
    evidence = [EvidenceLine(file=ev.rel(a.rollouts.path), text=f"{rollouts} rollouts")]
    if not a.profile.exists and not partial:
        # `gym eval run` never profiles: a complete run without a profile is simply not profiled yet
        return [Finding(
            category=CACHE_RESUME,
            role=NOTE,
            title=f"Not profiled yet: {rollouts} rollouts and no reward profile",
            evidence=[EvidenceLine(file=profile_file, text="file missing"), *evidence],
            cause="`gym eval run` does not profile; `gym eval profile` has not been run on this folder.",
            fix=f"Profile it when you need the statistics: {profile_command(ev)}.",
        )]
    if not a.profile.exists:
        title = f"No reward profile: {len(a.missing_keys)} materialized keys have no rollout"
        text = "file missing"
        cause = "`gym eval profile` refuses a partial collection in strict mode, so no profile was written."
    elif a.profile.rows == 0:
        title = f"The reward profile is empty while {rollouts} rollouts exist"
        text = "0 rows"
        cause = (
            "A few rollout rows and an empty profile point at verifier errors and the partial-output cache: a profile "
            "run cut short, or one that read another (empty or partial) rollouts file."
        )
    elif (a.profile_rollouts not in counted and not a.rollouts.malformed_count) or outdated:
        title = (f"Stale reward profile: it counts {a.profile_rollouts} rollouts, {ev.rel(a.rollouts.path)} holds "
                 f"{rollouts}" if a.profile_rollouts not in counted else
                 "Stale reward profile: it was computed from other files than the folder holds now")
        text = f"{a.profile.rows} rows, num_rollouts summing to {a.profile_rollouts}"
        cause = (
            "The profile describes another set of rollouts: a fresh run to the same output path leaves older profile "
            "files in place, and a resumed collection adds rollouts after the profile was written."
            + "".join(f" {s.message}." for s in outdated)
        )
        evidence += [s.evidence for s in outdated]
    else:
        return []
    return [Finding(
        category=CACHE_RESUME,
        title=title,
        evidence=unique([EvidenceLine(file=profile_file, text=text), *evidence]),
        cause=cause,
        fix=(
            f"Profile this folder again: {profile_command(ev, partial=partial)}"
            + (" (some materialized keys have no rollout; resume the collection first for a full profile)"
               if partial else "") + "."
        ),
        effect=True,  # a missing, empty or stale profile follows from whatever stopped or changed the run
    )]


def rule_several_writers(ev: Evidence) -> list[Finding]:
    """Several fresh `gym eval run` wrote one output folder with different inputs: each cleared and rewrote it.
    Inputs differ when the rows read, the repeats or the rows materialized differ between the runs' logs."""
    fresh = {h.file for h in ev.hits("gym_fresh_start")}
    shapes: dict[str, dict[str, int]] = {file: {} for file in fresh}
    for signature, what in (("gym_read_rows", "read"), ("gym_repeats", "repeats"), ("gym_materialized_rows", "rows")):
        for hit in ev.hits(signature):
            if hit.file in fresh:
                shapes[hit.file].setdefault(what, int(hit.groups["repeats" if what == "repeats" else "rows"]))
    outputs = {h.groups["path"] for h in ev.hits("gym_rollouts_output") if h.file in fresh}
    shapes = {file: shape for file, shape in shapes.items() if "rows" in shape}
    distinct = {tuple(sorted(shape.items())) for shape in shapes.values()}
    if len(shapes) < 2 or len(distinct) < 2 or len(outputs) > 1:
        return []
    a = ev.artifacts
    runs = ", ".join(f"{file} ({_shape_text(shape)})" for file, shape in sorted(shapes.items()))
    return [Finding(
        category=CACHE_RESUME,
        title=f"{len(shapes)} `gym eval run` wrote one output folder with different inputs: {runs}",
        evidence=unique([h.evidence() for h in ev.hits("gym_materialized_rows") if h.file in shapes], limit=4),
        cause=f"Each run started afresh (`Clearing output fpath`) on the same output and materialized its own rows; "
              f"the folder now holds {a.materialized.valid_rows} materialized rows, so the others' inputs were "
              "overwritten and their rollouts lost or mixed into these files (Gym never locks an output folder; two "
              "runs at once overwrite each other).",
        fix="Give every run its own output folder (`gym eval run ... --output <run folder>/rollouts.jsonl`), run one "
            "job per folder at a time, and re-run the collection you need on a clean folder.",
    )]


TRUNCATED_SHARE = 0.5  # answers cut at the token limit in at least this share of rollouts: the setting is wrong


def rule_truncated_answers(ev: Evidence) -> list[Finding]:
    """Most answers stopped at the output token limit: the rewards measure the limit, not the model. The run's setting
    (config), unless the rows ask for that limit themselves and no command sets it: then the data (a row template)."""
    a = ev.artifacts
    rollouts = a.rollouts.valid_rows
    if not rollouts or a.truncated_rollouts < TRUNCATED_SHARE * rollouts or a.truncated_example is None:
        return []
    limit = a.truncation_limit
    if limit and (from_rows := _limit_the_rows_ask_for(ev, limit)) is not None:
        return [_truncated_by_the_rows(ev, limit, from_rows)]
    if (merged := block_setting(ev, "extra_body", _TOKEN_CAP)) is not None:
        file, number, line, cap = merged
        return [Finding(
            category=CONFIG,
            title=f"{a.truncated_rollouts} of {rollouts} answers were cut at the output token limit: {file.name}:"
                  f"{number} puts `{cap.group(0).strip()}` into every request (`extra_body`)",
            evidence=[a.truncated_example, EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"Gym's model server merges `extra_body` ({file.name}) into every request it sends, and its "
                  f"`{cap['key']}` caps every generation whatever the rows ask (a latency benchmark's fixed, short "
                  "generations): most answers never reached their final answer and are scored as wrong.",
            fix=f"Remove `{cap['key']}` from `extra_body` in {file.name} (line {number}) for evals (keep it in the "
                "benchmark's own settings), then collect again on a clean output path and profile.",
        )]
    return [Finding(
        category=CONFIG,
        title=f"{a.truncated_rollouts} of {rollouts} answers were cut at the output token limit"
              + (f" (max_output_tokens={limit})" if limit else ""),
        evidence=[a.truncated_example],
        cause="The model server stopped these answers at the run's `max_output_tokens` (the response is "
              "`incomplete`, reason max_output_tokens), so most never reached their final answer and are scored "
              "as wrong: the run's setting, not the model or the verifier.",
        fix=f"Raise the output token limit{f' from {limit}' if limit else ''} to what the task needs "
            "(`gym eval run ... --max-output-tokens <n>`, or `responses_create_params: {max_output_tokens: <n>}`), "
            "then collect again on a clean output path and profile.",
    )]


_TOKEN_CAP = re.compile(r"\b(?P<key>max_tokens|max_completion_tokens|max_new_tokens)\s*[:=]\s*\d+")
_SETS_LIMIT_ON_COMMAND = re.compile(r"--max-output-tokens\b|max_output_tokens\s*=|--responses-create-params\b[^\n]*max_output_tokens")
_OVERRIDDEN_LIMIT = re.compile(r"Overriding responses_create_params fields with [^\n]*max_output_tokens")
_NAMES_LIMIT = re.compile(r"[\"']?max_output_tokens[\"']?\s*[:=]\s*(?P<value>\d+)")


def _limit_the_rows_ask_for(ev: Evidence, limit: int) -> tuple[int, EvidenceLine | None, EvidenceLine | None] | None:
    """(materialized line, the user's file line giving the rows that limit, the script line that reads that file) when
    the materialized rows carry `max_output_tokens` = `limit` themselves and no command of the run's scripts sets it."""
    if next(lines_matching(ev.user_files, _SETS_LIMIT_ON_COMMAND, {".sh", ".bash", ""}), None) is not None \
            or any(_OVERRIDDEN_LIMIT.search(head) for _, head in ev.log_heads) \
            or (ev.manifest.settings is not None and "max_output_tokens" in ev.manifest.settings.responses_create_params):
        return None  # a command set it (Gym says so when it writes it into the rows)
    row = next(readable_rows(ev.artifacts.files.materialized, 1), None)
    params = row[1].get("responses_create_params") if row else None
    if not isinstance(params, dict) or params.get("max_output_tokens") != limit:
        return None
    given = next(((file.name, number, line) for file, number, line, match in lines_matching(ev.user_files, _NAMES_LIMIT)
                  if int(match["value"]) == limit), None) or _limit_in_a_file_the_scripts_read(ev, limit)
    if given is None:
        return row[0], None, None
    name = Path(given[0]).name
    reader = next(((file, number, line) for file, number, line, _ in lines_matching(
        ev.user_files, re.compile(re.escape(name))) if file.name != given[0]
                   and not line.lstrip().startswith(("#", '"""', "'''"))), None)
    return (row[0], EvidenceLine(file=given[0], line=given[1], text=given[2].strip()),
            EvidenceLine(file=reader[0].name, line=reader[1], text=reader[2].strip()) if reader else None)


_READ_FILE_NAME = re.compile(r"[\"'](?P<name>[\w./-]+\.(?:json|ya?ml|toml))[\"']")


def _limit_in_a_file_the_scripts_read(ev: Evidence, limit: int) -> tuple[str, int, str] | None:
    """(file, line, text) of a settings or template file of the run folder, named by one of its scripts, that gives
    `max_output_tokens` the value `limit` (a row template a preparation script fills)."""
    if ev.run_dir is None:
        return None
    for _, _, _, match in lines_matching(ev.user_files, _READ_FILE_NAME):
        path = ev.run_dir / match["name"]
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines() if path.is_file() else []
        except OSError:
            continue
        for number, line in enumerate(lines[:500], 1):
            if (found := _NAMES_LIMIT.search(line)) and int(found["value"]) == limit:
                return ev.rel(path), number, line
    return None


def _truncated_by_the_rows(ev: Evidence, limit: int,
                           from_rows: tuple[int, EvidenceLine | None, EvidenceLine | None]) -> Finding:
    a = ev.artifacts
    line, given, reader = from_rows
    written = (f" {given.file} gives them that limit (line {given.line}: `{excerpt(given.text, 80)}`)"
               + (f", and {reader.file} builds the rows from it (line {reader.line})" if reader else "") + "."
               if given else "")
    return Finding(
        category=DATA_SCHEMA,
        title=f"{a.truncated_rollouts} of {a.rollouts.valid_rows} answers were cut at the output token limit "
              f"(max_output_tokens={limit}), which the rows themselves ask for",
        evidence=[a.truncated_example,
                  EvidenceLine(file=ev.rel(a.files.materialized), line=line,
                               text=f"responses_create_params.max_output_tokens = {limit}"),
                  *([given] if given else []), *([reader] if reader else [])],
        cause=f"Every row's responses_create_params asks for `max_output_tokens: {limit}`, and no command of the run "
              "sets it: the data does. The model server stopped the answers there (`incomplete`, reason "
              "max_output_tokens), so most never reached their final answer and scored 0." + written,
        fix=(f"Take `max_output_tokens` out of {given.file} (line {given.line}; or raise it to what these tasks need)"
             + (f", build the rows again with {reader.file}" if reader else "") if given else
             "Take `max_output_tokens` out of the rows' responses_create_params (or raise it to what these tasks need)")
            + ", then materialize and collect again on a clean output path, and profile.",
    )


def _resumed_across_weights(ev: Evidence) -> tuple[list[LogHit], dict[str, LogHit]]:
    """The resumes the logs show, and each set of weights the model servers' logs say they served."""
    resumed = ev.hits("gym_resumed") + ev.hits("builtin_resumed") + ev.hits("stage_resumed")
    weights = {h.group("checkpoint", "model"): h for h in ev.hits("served_weights") if h.group("checkpoint", "model")}
    return (resumed, weights) if resumed and len(weights) >= 2 else ([], {})


def rule_limited_inputs(ev: Evidence) -> list[Finding]:
    """Inputs materialized from the first N rows of their data (`limit`): worth knowing before reading the profile
    as the whole dataset's (a smoke test's limit kept for the full run is the usual way it happens)."""
    m = ev.manifest
    if m.settings is None or not m.settings.limit or m.source is None:
        return []
    try:
        with open(m.source, "rb") as data:
            rows = sum(1 for line in data if line.strip())
    except OSError:
        return []
    if rows <= m.settings.limit:
        return []
    return [Finding(
        category=CACHE_RESUME,
        role=NOTE,
        title=f"The inputs hold the first {m.settings.limit} of the data's {rows} rows (materialized with limit "
              f"{m.settings.limit})",
        evidence=[EvidenceLine(file=MANIFEST_FILE, text=f"materialized_inputs.settings.limit: {m.settings.limit}")],
        cause="The materialization read only the first rows of the data, so the rollouts and the profile describe "
              "that subset, not the dataset. A limit set for a smoke test and kept for the full run does this.",
        fix=f"If the whole dataset was meant, materialize again without the limit (`gym-pipeline materialize --input "
            f"{m.source} ...` without `--limit`; Gym: without `++limit`), then collect on a clean output path and "
            "profile.",
    )]


# `SCRATCH=/tmp/nightly-eval-scratch`: a folder by a fixed path (no job id, pid, date or mktemp in it)
_FIXED_FOLDER = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?(?P<path>/[^\s\"'$`]+)[\"']?\s*(?:#.*)?$")


def _fixed_work_folder(ev: Evidence) -> tuple[str, int, str] | None:
    """(script, line, assignment) of a fixed folder a script changes into and collects in with --resume."""
    for file in ev.user_files:
        if "--resume" not in file.text and "resume_from_cache" not in file.text:
            continue
        for number, line in enumerate(file.text.splitlines(), 1):
            folder = _FIXED_FOLDER.match(line)
            if folder and re.search(rf"\bcd\s+[\"']?\$\{{?{folder['name']}\b", file.text):
                return file.name, number, line.strip()
    return None


def _cleanup_missing_the_rollouts(ev: Evidence) -> tuple[str, int, str, str] | None:
    """(script, line, name removed, the rollouts file) of an `rm` meant for the rollouts that names another file
    (`rm -f results/rollout.jsonl` for results/rollouts.jsonl)."""
    wanted = ROLLOUTS_FILE
    for file in ev.user_files:
        for number, line in enumerate(file.text.splitlines(), 1):
            if not re.match(r"^\s*rm\s", line):
                continue
            for word in line.split("#", 1)[0].split()[1:]:
                name = Path(word).name
                if name != wanted and not word.startswith("-") and get_close_matches(name, [wanted], cutoff=0.9):
                    return file.name, number, word, str(Path(word).with_name(wanted))
    return None


# a script's output folder named by the date (`OUT=runs/$(date +%F)`): the same folder for every run of one day
_FOLDER_BY_DATE = re.compile(r"^\s*(?:export\s+)?\w+=[^\n#]*\$\(\s*date\b[^)]*\)")


def rule_resume_across_models(ev: Evidence) -> list[Finding]:
    """A resumed collection whose model servers served other weights than the first part: rollouts of two models."""
    resumed, weights = _resumed_across_weights(ev)
    if not resumed:
        return []
    names = ", ".join(f"`{w}` ({h.file})" for w, h in weights.items())
    dated = next(lines_matching(ev.user_files, _FOLDER_BY_DATE), None)
    fixed = None if dated else _fixed_work_folder(ev)
    missed = None if dated or fixed else _cleanup_missing_the_rollouts(ev)
    return [Finding(
        category=CACHE_RESUME,
        title=f"A resumed collection mixes rollouts of {len(weights)} models: {names}",
        evidence=unique([resumed[0].evidence(), *(h.evidence() for h in weights.values()),
                         *([EvidenceLine(file=dated[0].name, line=dated[1], text=dated[2].strip())] if dated else [])],
                        limit=4),
        cause="`--resume` (resume_from_cache) keeps the rollouts already written and collects only the missing keys, "
              "whatever model now answers: the rows before the restart come from one set of weights, the rest from "
              "another, and the profile averages them as one checkpoint.",
        fix=(f"{dated[0].name}:{dated[1]} names the output folder by the day (`{dated[2].strip()}`): a second "
             "checkpoint evaluated the same day resumes into the first one's folder; name it by the checkpoint (and "
             "the data) instead. " if dated else "")
            + (f"{fixed[0]}:{fixed[1]} works in a fixed folder (`{fixed[2]}`) that outlives the job, and collects "
               f"there with --resume: a later job finds the earlier one's rollouts and keeps them. Make the folder "
               "one per job (`$SLURM_JOB_ID` in its name, or `mktemp -d`), or empty it first. " if fixed else "")
            + (f"{missed[0]}:{missed[1]} means to start afresh but removes `{missed[2]}`, a file that is not there: "
               f"the rollouts are in `{missed[3]}`, which it leaves, so --resume keeps the earlier run's rows. "
               f"Remove `{missed[3]}` (check the name: `rm -v`, or `rm` without -f, says when nothing is removed). "
               if missed else "")
            + "Collect each checkpoint into its own output folder: re-run the resumed part on a clean path without "
            "--resume against the weights you meant ("
            + (f"`gym-pipeline collect --inputs {path_of(ev.artifacts.materialized)} --output <checkpoint folder>/"
               f"rollouts.jsonl --model-url <its server> --env <env>`, or the sweep's rollouts asset, which serves "
               "each checkpoint itself" if ours(ev) else "`gym eval run ... --output <checkpoint folder>/rollouts.jsonl`")
            + "); keep the first part only if it was the same checkpoint. A checkpoint folder overwritten in place "
              "is another checkpoint: export new weights to a new folder.",
    )]


_STEP = re.compile(r"(\d+)")


def rule_served_another_checkpoint(ev: Evidence) -> list[Finding]:
    """The run says it collected checkpoint N; the model server's own log says it served checkpoint M."""
    if ev.manifest.checkpoint is None or _resumed_across_weights(ev)[0]:  # a resume onto other weights says more
        return []
    name, line = ev.manifest.checkpoint
    wanted = _STEP.findall(name)
    served = [h for h in ev.hits("served_weights")
              if (step := _STEP.findall(h.group("checkpoint") or "")) and wanted and int(step[-1]) != int(wanted[-1])]
    if not served:
        return []
    hit = served[0]
    return [Finding(
        category=MODEL_SERVING,
        title=f"The rollouts say checkpoint {name}, but the model server served {hit.group('checkpoint')}",
        evidence=[EvidenceLine(file=MANIFEST_FILE, line=line, text=f"rollouts.checkpoint.name: {name}"), hit.evidence()],
        cause=f"The collection was pointed at a model server that serves another checkpoint ({hit.file} says "
              f"{hit.group('checkpoint')}): a server left running from an earlier sweep, or a `--model-url` of another "
              f"partition. Every rollout of {name} is the other checkpoint's answer, and the profile and comparisons "
              "credit it to the wrong one.",
        fix=f"Serve checkpoint {name} (stop the old server, or let the sweep start one: the `rollouts` asset serves "
            f"each checkpoint itself), check it with `curl -s {model_url_of(ev)}/models`, then collect again on a clean "
            "output path (`collect` without `--resume`) and profile.",
    )]


def _order_only_prerequisite(ev: Evidence, target: str, inputs: str) -> tuple[str, int, str] | None:
    """(Makefile, line, text) of a make rule for `target` that lists `inputs` as an order-only prerequisite."""
    rule = re.compile(rf"^\S*{re.escape(target)}\s*:[^|#\n]*\|[^#\n]*\b{re.escape(inputs)}\b")
    return next(((file.name, number, line.strip()) for file, number, line, _ in lines_matching(
        [file for file in ev.user_files if Path(file.name).name in MAKEFILE_NAMES], rule)), None)


# a script line writing a file in place: a redirect or a move onto it, an in-place edit
def _writes_onto(name: str) -> re.Pattern[str]:
    quoted = re.escape(name)
    return re.compile(rf">\s*[\"']?(?:\S*/)?{quoted}\b|\b(?:mv|cp)\b[^#\n]*\s[\"']?(?:\S*/)?{quoted}[\"']?\s*(?:$|[;&|#])"
                      rf"|\b(?:sed|perl)\s+-i\b[^#\n]*{quoted}")


def _script_rewriting(ev: Evidence, name: str) -> tuple[str, int, str] | None:
    """(script, line, text) of the first line of the user's scripts that writes `name` in place (not a collection)."""
    return next(((file.name, number, line.strip()) for file, number, line, _ in lines_matching(
        ev.user_files, _writes_onto(name), SCRIPT_SUFFIXES)
        if not line.lstrip().startswith("#") and not re.search(r"\bcollect\b|\beval\s+run\b", line)), None)


def _rollouts_rewritten_by_a_script(ev: Evidence, stale, rewrite: tuple[str, int, str], inputs: str,
                                    rollouts: str) -> Finding:
    script, number, line = rewrite
    return Finding(
        category=CACHE_RESUME,
        title=f"{script}:{number} rewrote {Path(rollouts).name} after the run wrote it: the rows profiled are what "
              "that line left",
        evidence=[stale.evidence, EvidenceLine(file=script, line=number, text=line)],
        cause=f"{stale.message}. {script}:{number} (`{excerpt(line, 160)}`) writes the run's own rollouts file in "
              "place (a filter or an export meant for another use): the rows it dropped or changed are gone from "
              "the run, and a profile of the file (with --allow-partial it does not even refuse) reports what the "
              "line kept, not what the collection produced.",
        fix=f"In {script}, write what `{line.split()[0]}` keeps to a file of its own (`... > sft/<name>.jsonl`) and leave "
            f"{Path(rollouts).name} as the collection wrote it; then collect again (`gym-pipeline collect --inputs "
            f"{inputs} --output {rollouts} --model-url {model_url_of(ev)} --env <env>`) or put back a copy of the "
            f"file the run wrote, and profile: {profile_command(ev)}.",
    )


def _shape_text(shape: dict[str, int]) -> str:
    read = f"{shape['read']} rows x {shape['repeats']} repeats = " if "read" in shape and "repeats" in shape else ""
    return f"{read}{shape['rows']} materialized"


def rule_stale_files(ev: Evidence) -> list[Finding]:
    """A task-folder run's summary lists files another run left in its results folder."""
    a = ev.artifacts
    if not a.stale_files or a.stale_files_line is None:
        return []
    return [Finding(
        category=CACHE_RESUME,
        title=f"Two runs on one checkout overwrite each other: the run summary lists {plural(len(a.stale_files), 'stale file')}",
        evidence=[a.stale_files_line],
        cause="Whatever their harnesses, runs of one dataset write skipped.json, images.json and rollouts.jsonl (and "
              "the files named after it) under results/harbor/<taskset>/, and runs with one harness share "
              "tasks_<agent>.jsonl and run_config_<agent>.yaml; quality_summary.json and rollout_verdicts.jsonl keep "
              "one name per folder. A run alone does it too when it stopped before collection or ran with "
              f"--disable-aggregation or --no-health-check. Stale: {', '.join(a.stale_files[:5])}.",
        fix="Run one job per taskset at a time on a checkout, or give each concurrent job its own checkout pointing "
            "at one shared NEMO_GYM_DATASETS_DIR (`export NEMO_GYM_DATASETS_DIR=<shared dir>`); `--output` separates "
            "only the rollouts and the files named after them. Rerun the affected taskset.",
    )]




_PROFILE_FILE_SUFFIX = "_reward_profiling.jsonl"


def rule_profile_of_swapped_files(ev: Evidence) -> list[Finding]:
    """Our profile warned that its `--rollouts` hold no reward at all: the materialized inputs, given in the
    rollouts' place (Gym profiles such a pair too, every reward read as 0)."""
    hits = ev.hits("profile_inputs_swapped")
    if not hits:
        return []
    read_as_rollouts = Path(hits[0].groups["path"])
    written = locate_named_file(read_as_rollouts.with_name(read_as_rollouts.stem + _PROFILE_FILE_SUFFIX), ev.run_dir)
    evidence = [hits[0].evidence()]
    if written.is_file():  # the profile it wrote, named after the file it read as rollouts
        evidence.append(EvidenceLine(file=ev.rel(written), text="the profile of the swapped pair"))
    a = ev.artifacts
    return [Finding(
        category=CONFIG,
        title=f"The profile was given the materialized inputs as its rollouts ({read_as_rollouts.name}): --inputs "
              "and --rollouts swapped",
        evidence=evidence,
        cause=f"`--rollouts` named {read_as_rollouts.name}, a file without a single reward, and `--inputs` most likely "
              "the rollouts: the profile read the inputs as unscored rollouts and reports no reward at all (pass@k "
              "over 0 tasks), so the collection was never profiled. Gym's `gym eval profile` accepts the pair too.",
        fix=f"Profile again with the two files the right way round: `gym-pipeline profile --inputs "
            f"{path_of(a.materialized)} --rollouts {path_of(a.rollouts)}` (Gym: `gym eval profile --inputs ... "
            f"--rollouts ...`), and remove the wrong profile's files (named after {read_as_rollouts.stem}).",
    )]


def _other_sweep_config_passed(ev: Evidence) -> tuple[str, int, str, str, str] | None:
    """(script, line number, line, config passed, config compared) when the user's script runs the stages with a
    `--sweep-config` other than the sweep config beside the run (the one edited, and compared with the manifest)."""
    found = sweep_config_beside(ev.run_dir)
    if found is None:
        return None
    compared = found[1].name
    for file in ev.user_files:
        for number, line in enumerate(file.text.splitlines(), 1):
            given = _SWEEP_CONFIG_OPTION.search(line)
            if given is None or "$" in given["path"] or line.lstrip().startswith("#"):
                continue
            passed = Path(given["path"]).name
            if passed != compared and (ev.run_dir / passed).is_file():
                return file.name, number, line.strip(), passed, compared
    return None


def _stages_given_another_sweep_config(message: str, evidence: EvidenceLine, script: str, number: int, line: str,
                                       passed: str, compared: str) -> Finding:
    return Finding(
        category=CONFIG,
        title=f"{script}:{number} runs the stages with --sweep-config {passed}, not {compared}: the settings edited "
              f"in {compared} never reached the run",
        evidence=[EvidenceLine(file=script, line=number, text=excerpt(line)), evidence],
        cause=f"{message}: the stages read {passed}, an older copy beside it, so its settings (data, repeats, agent) "
              f"made this run, whatever {compared} says.",
        fix=f"Point {script}:{number} at the config you edit (`--sweep-config {compared}`), or remove the copy "
            f"{passed} (re-export it from {compared} when something else needs it); then materialize, collect and "
            "profile again.",
    )
