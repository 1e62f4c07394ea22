"""Step 6: the run's replies are older than its inputs: a proxy's reply cache, kept on disk, answered from an earlier run.

A gateway that stores the completions it forwards in a file, and loads the file when it starts ("re-running a report
costs nothing"), answers every request it has seen before from that file. Across runs that is a cache keyed without
what changed: the model is served under one name from checkpoint to checkpoint, so the new checkpoint's eval gets the
old checkpoint's answers. Nothing fails; the rows tell, for their responses were made before this run's inputs were
even written (the manifest's time for them).
"""

from __future__ import annotations

from datetime import UTC, datetime

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.rules.user_proxies import replies_kept_on_disk
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

ROWS_READ = 500
MIN_ROWS = 4
OLDER_SHARE = 0.5  # of the rows read, made before the inputs: the run's answers, not a straggler's


def _inputs_written_at(ev: Evidence) -> int | None:
    """The second (Unix time) the materialized inputs were recorded as written, from the manifest."""
    recorded = ev.manifest.inputs_recorded
    if recorded is None:
        return None
    try:
        stamp = datetime.fromisoformat(recorded.text.rsplit(": ", 1)[1].replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(stamp.astimezone(UTC).timestamp())


def _replies_made_before(ev: Evidence, written_at: int) -> tuple[int, int, EvidenceLine | None]:
    """(rows read, rows whose response was made before `written_at`, the first of them): both times are whole
    seconds, cut down, so a reply of the same second as the inputs never counts as older."""
    rollouts = ev.artifacts.files.rollouts
    if not rollouts.is_file():
        return 0, 0, None
    read = older = 0
    first = None
    for number, row in readable_rows(rollouts, ROWS_READ):
        response = row.get("response")
        made = response.get("created_at") if isinstance(response, dict) else None
        if not isinstance(made, int | float) or isinstance(made, bool):
            continue
        read += 1
        if int(made) < written_at:
            older += 1
            if first is None:
                when = datetime.fromtimestamp(int(made), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
                first = EvidenceLine(file=ev.rel(rollouts), line=number, text=f"response.created_at: {int(made)} ({when})")
    return read, older, first


def replies_from_an_earlier_run(ev: Evidence) -> Finding | None:
    """The finding, when most replies of the rows are older than the run's inputs and a proxy of the run keeps its
    replies in a file it reads back when it starts."""
    kept = replies_kept_on_disk(ev)
    written_at = _inputs_written_at(ev)
    if kept is None or written_at is None:
        return None
    read, older, first = _replies_made_before(ev, written_at)
    if read < MIN_ROWS or older < OLDER_SHARE * read or first is None:
        return None
    proxy, table, file_line, path = kept
    table_name = table.text.split("=", 1)[0].strip()
    recorded = ev.manifest.inputs_recorded
    return Finding(
        category=CACHE_RESUME,
        title=f"{older} of {read} replies were made before this run's inputs were written: {proxy} answered them from "
              f"the replies it keeps in {path}",
        evidence=[first, recorded, file_line, table],
        cause=f"{proxy} keeps the replies it forwards in {table_name} ({table.where}), writes them to {path} "
              f"({file_line.where}) and reads that file back when it starts, so a request it has answered before, in "
              f"any earlier run, gets that old reply. {older} of the {read} rows read carry a response made before "
              f"this run's inputs were even written ({recorded.text}): they are an earlier run's answers, from "
              "whatever checkpoint was served then (the model name the requests carry does not change with it), "
              "and the model served now was never measured. Nothing fails.",
        fix=f"Move {path} aside (or delete it) and restart {proxy}, then collect again on a clean output path and "
            f"profile. For later evals, keep {table_name} out of the eval's path in {proxy} ({file_line.where}): send "
            "the run straight to the model server, or key the cache by the checkpoint served.",
    )


def rule_replies_from_an_earlier_run(ev: Evidence) -> list[Finding]:
    finding = replies_from_an_earlier_run(ev)
    return [finding] if finding is not None else []
