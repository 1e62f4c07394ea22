"""A collection interrupted by hand: what its progress bar says about why it was taking so long.

Nothing failed, so no error says why a user gave up. Gym's progress bar does: a count that stopped
moving while the time ran on means requests got no answer (a server that hangs: model serving); a
count that kept moving, slowly, at a concurrency of one or two means the run was simply too slow for
the time the user gave it (throughput: raise the concurrency); a count that stood still, then jumped by
many at once, means requests sent together were held by one process doing them one at a time (a
verifier's CPU-bound work blocking its server's event loop, a one-slot server) and released together.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, plural, resume_command
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.rules.time_budgets import collection_cut_by_its_time_budget
from gym_pipeline.diagnose.rules.timeout_units import budget_in_other_units
from gym_pipeline.diagnose.rules.user_proxies import costly_work_per_call, pacing_proxy
from gym_pipeline.diagnose.user_scripts import (
    SCRIPT_SUFFIXES,
    SHELL_VARIABLE,
    SerialCollections,
    assignment_of,
    concurrency_source,
    lines_matching,
    serial_collections,
    server_capacity_settings,
)
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING, THROUGHPUT_RESOURCES

STALLED_S = 60  # no rollout finished for this long: not slow, stuck
LOW_CONCURRENCY = 2
SLOW_MIN_S = 30  # a run stopped sooner was not given the time to look slow
BURST_QUIET_S = 10  # a burst: no rollout finished for this long, then ...
BURST_MIN_ROLLOUTS = 4  # ... at least this many (and half the concurrency) within BURST_WITHIN_S
BURST_WITHIN_S = 2
_UPDATE = re.compile(r"(?P<done>\d+)/(?P<total>\d+) \[(?P<elapsed>[\d:]+)<(?P<left>[\d:?]+)")
_OUR_UPDATE = re.compile(r"(?P<done>\d+)/(?P<total>\d+) (?P<elapsed>\d+:\d\d:\d\d)\s*$")


def _seconds(clock: str) -> int:
    seconds = 0
    for part in clock.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def _updates(hits: list[LogHit]) -> list[tuple[int, int, int, str]]:
    """(done, total, elapsed s, time left) of every progress update the hits hold, in order: Gym's bar
    (`10/32 [00:33<01:12`) and ours (`0/15 0:01:14`)."""
    return [(int(m["done"]), int(m["total"]), _seconds(m["elapsed"]), m.groupdict().get("left") or "?")
            for hit in hits for pattern in (_UPDATE, _OUR_UPDATE) for m in pattern.finditer(hit.text)]



def _budget_spent(interrupt: LogHit) -> bool:
    """`timeout`'s exit status (as the shell or the user's script prints it), or our command's line saying another
    process ended it (a time budget most often)."""
    return interrupt.text.rstrip(" )\n").endswith("124") or "ended by SIGTERM" in interrupt.text


def rule_interrupted_collection(ev: Evidence) -> list[Finding]:
    interrupts = ev.hits("user_interrupt") + ev.hits("ended_by_terminate")
    # our collector's own line on a Ctrl-C says a stall as well; whether a run was too slow needs Python's or a budget's
    stopped = interrupts + ev.hits("builtin_interrupted")
    if not stopped:
        return _cut_short_at_low_concurrency(ev)
    progress = [h for h in ev.hits("gym_progress") + ev.hits("builtin_progress")
                if any(i.file == h.file for i in stopped)]
    updates = _updates(progress)
    if updates and updates[-1][0] < updates[-1][1]:
        done, total, elapsed, _ = updates[-1]
        # when the count last moved (a count still at 0 never moved since the start)
        since = 0 if done == 0 else min(e for d, _, e, _ in updates if d == done)
        if elapsed - since >= STALLED_S:
            return [_stalled(ev, progress[-1], next(i for i in stopped if i.file == progress[-1].file), done, total,
                             elapsed - since)]
    if not interrupts:
        return []
    missing = ev.artifacts.missing_without_failure
    if (not ev.artifacts.rollouts.valid_rows and _budget_spent(interrupts[-1]) and (parts := ev.hits("builtin_wrote"))
            and (loop := serial_collections(ev.user_files)) is not None):
        # the loop's collections each wrote a part of their own, to be merged at the end the budget never reached
        done, rows = sum(int(hit.groups["collected"]) for hit in parts), ev.artifacts.materialized.valid_rows
        return [_serial_collections(ev, interrupts[-1], loop, f"{max(rows - done, 0)} of {rows} rollouts were still "
                                    f"to do ({plural(len(parts), 'collection')} had finished, each writing a part "
                                    "the script merges only at its end)")]
    if not missing or ev.artifacts.failure_groups or not ev.artifacts.rollouts.valid_rows:
        return []  # stopped after the end or before anything finished, or something failed: other rules say why
    if updates and updates[-1][2] < SLOW_MIN_S and not _budget_spent(interrupts[-1]):
        return []  # stopped by hand within seconds: a change of mind, not a run too slow to wait for
    return _too_slow(ev, interrupts[-1], len(missing), updates)


def _cut_short_at_low_concurrency(ev: Evidence) -> list[Finding]:
    """No log says why, but the manifest does: a collection that never finished, one request at a time, with nothing
    failing, was ended by whatever gave it its time (a wrapper's `timeout`, a job's wall time)."""
    cut_short = ev.manifest.collection_cut_short
    concurrency = min((n for n, _ in ev.manifest.concurrency), default=None)
    missing = ev.artifacts.missing_without_failure
    if (cut_short is None or concurrency != 1 or not missing
            or ev.artifacts.failure_groups or not ev.artifacts.rollouts.valid_rows):
        return []
    line = next((line for n, line in ev.manifest.concurrency if n == concurrency), None)
    evidence = [cut_short, EvidenceLine(file=cut_short.file, line=line, text=f"rollouts.concurrency: {concurrency}")]
    left = f"{len(missing)} of {ev.artifacts.materialized.valid_rows} rollouts were still to do"
    return [_few_at_a_time(ev, evidence, concurrency, "", left)]


def _stalled(ev: Evidence, progress: LogHit, interrupt: LogHit, done: int, total: int, stalled_s: int) -> Finding:
    stopped = ev.hits("process_stopped")
    return Finding(
        category=MODEL_SERVING,
        title=f"The collection stalled at {done}/{total} for {stalled_s} s before it was interrupted",
        evidence=[progress.evidence(), interrupt.evidence()] + [h.evidence() for h in stopped[:1]],
        cause=f"No rollout finished for {stalled_s} s while requests were in flight, and no error came back: "
              "the server they wait on stopped answering without closing its connections (a hung or stopped "
              "model server most often"
              + (f"; `ps` shows `{excerpt(stopped[0].group('command'), 100)}` stopped, state T" if stopped else "")
              + "). Gym waits for its request timeout, so the run looks frozen.",
        fix="See whether the model server still answers (`curl -s <model-url>/models`, `ps -o pid,stat,cmd -p "
            "<pid>`: T is stopped, D waits on I/O; `py-spy dump --pid <pid>` shows where it hangs); restart it "
            f"(`kill -CONT <pid>` for a stopped one), then resume: {resume_command(ev)}.",
    )


def _too_slow(ev: Evidence, interrupt: LogHit, missing: int, updates: list[tuple[int, int, int, str]]
              ) -> list[Finding]:
    """Stopped by hand or by a time budget while it worked, with nothing failing: what held it back."""
    concurrency = min([int(h.groups["concurrency"]) for h in ev.hits("gym_concurrency")]
                      + [n for n, _ in ev.manifest.concurrency], default=None)
    busy: dict[str, list[LogHit]] = {}
    for hit in ev.hits("server_busy"):
        busy.setdefault(hit.file, []).append(hit)
    most_running = {file: max(int(h.groups["running"]) for h in hits) for file, hits in busy.items()}
    # a server that never ran more than LOW_CONCURRENCY requests at once, below what the run sent: the narrow part
    narrow = {file: running for file, running in most_running.items()
              if running <= LOW_CONCURRENCY and (concurrency is None or running < concurrency)}
    rate = f" ({updates[-1][0]}/{updates[-1][1]} after {updates[-1][2]} s)" if updates else ""
    left = f"{missing} of {ev.artifacts.materialized.valid_rows} rollouts were still to do"
    if narrow:
        file, running = next(iter(narrow.items()))
        waiting = max(int(h.groups["waiting"]) for h in busy[file])
        who = Path(file).stem.replace("_", " ")
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"Stopped before the end{rate}: the server of {file} ran {running} request(s) at a time",
            evidence=[interrupt.evidence(), busy[file][-1].evidence()],
            cause=f"The collection was stopped (by hand or a time budget) while it still worked, and {left}. Nothing "
                  f"failed: every request waited its turn at the server logging to {file} ({who}), which never ran "
                  f"more than {running} at once"
                  + (f" while {waiting} waited" if waiting else "")
                  + (f", though the run sent {concurrency}" if concurrency else "")
                  + ": that server, not the model or the verifier's logic, set the pace (seed 000: throughput).",
            fix=f"Give that server ({who}) more capacity: a higher concurrency, more requests at once (vLLM "
                "`--max-num-seqs`, a judge's or sandbox's slots), or replicas behind a load balancer; or give the run the time that pace needs"
                + (f" (its capacity is set in the run's own files: {'; '.join(settings)})"
                   if (settings := server_capacity_settings(ev.user_files)) else "")
                + f". Then resume: {resume_command(ev)}.",
        )]
    burst = _burst(updates, concurrency)
    if burst is not None and concurrency is not None and concurrency > LOW_CONCURRENCY:
        quiet_s, jumped, at_s = burst
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"Stopped before the end{rate}: rollouts finished in bursts ({jumped} at once after {quiet_s} s "
                  f"with none), at a concurrency of {concurrency}",
            evidence=[interrupt.evidence()] + [h.evidence() for h in ev.hits("gym_concurrency")[:1]],
            cause=f"The collection was stopped (by hand or a time budget) while it still worked, and {left}. Nothing "
                  f"failed, but nothing finished for {quiet_s} s and then {jumped} rollouts did within "
                  f"{BURST_WITHIN_S} s (at {at_s} s): the {concurrency} requests in flight were held by one process "
                  "that handled them one at a time and released them together. The usual cause is CPU-bound work "
                  "inside an async handler (a verifier's `verify` computing for seconds) blocking its server's event "
                  "loop, so its requests are served one after another whatever the concurrency (seed 000: "
                  "throughput); a server with a single slot does the same.",
            fix="Find the server that holds the requests (the verifier's resources server when the model answers "
                "fast: time one `/verify`); move its CPU-bound work off the event loop (`await asyncio.to_thread(...)` "
                "or a process pool, or a sync `def` endpoint that FastAPI runs in threads), or give it more workers; "
                f"then resume: {resume_command(ev)}.",
        )]
    if _budget_spent(interrupt) and (in_other_units := budget_in_other_units(ev, interrupt)) is not None:
        return [in_other_units]
    # batches so small that starting a collect process per batch spent the budget (whether `timeout` ended one
    # mid-collection or between two, which is timing)
    if _budget_spent(interrupt) and (start_up := collection_cut_by_its_time_budget(ev, only_start_up_bound=True)):
        return [start_up]
    if _budget_spent(interrupt) and (loop := serial_collections(ev.user_files)) is not None:
        return [_serial_collections(ev, interrupt, loop, left)]
    if _budget_spent(interrupt) and (paced := pacing_proxy(ev)) is not None:
        return [_paced_by_a_proxy(ev, interrupt, paced, left)]
    if _budget_spent(interrupt) and (costly := costly_work_per_call(ev)) is not None:
        return [_costly_work_per_call(ev, interrupt, costly, left)]
    if _budget_spent(interrupt) and (concurrency is None or concurrency > LOW_CONCURRENCY):
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"The time budget ran out before the end{rate}: {left}, and nothing failed",
            evidence=[interrupt.evidence()] + [h.evidence() for h in ev.hits("gym_concurrency")[:1]],
            cause=("`timeout` ended the collection (exit status 124)" if "124" in interrupt.text else
                   "Another process ended the collection (SIGTERM: `timeout`, a scheduler or a kill)")
                  + f" while it still worked, and {left}. No request "
                  "failed and no error was logged: the run was simply slower than its budget"
                  + (f" at a concurrency of {concurrency}" if concurrency else "")
                  + ". When raising the concurrency changes nothing, one part handles the rollouts one at a time: "
                  "most often the verifier (a blocking call in it, such as a synchronous HTTP lookup or `time.sleep`, "
                  "or a lock held around a slow grading call), otherwise a model server with a single slot.",
            fix="Time one verification (the verifier on one stored row, or one `/verify` of the resources server) and "
                "one model request. Make a slow verifier concurrent: async calls instead of blocking ones, no lock "
                "around the slow part (or a pool of clients), CPU work off the event loop; check the CPUs the step "
                "gets (a stage pinned to a busy core with `taskset`, or a cgroup's CPU quota, runs a CPU-bound "
                "verifier at a fraction of its speed); or give the step the time that pace needs"
                + _where_the_pace_is_set(ev) + f". Then resume: {resume_command(ev)}.",
        )]
    if concurrency is not None and concurrency <= LOW_CONCURRENCY:
        return [_few_at_a_time(ev, [interrupt.evidence()] + [h.evidence() for h in ev.hits("gym_concurrency")[:1]],
                               concurrency, rate, left)]
    return []


def _paced_by_a_proxy(ev: Evidence, interrupt: LogHit, paced: tuple[EvidenceLine, EvidenceLine | None],
                      left: str) -> Finding:
    sleep, setting = paced
    by = f" ({setting.text.split('#')[0].strip()}, {setting.file}:{setting.line})" if setting else ""
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"The time budget ran out before the end: {sleep.file}, the proxy before the model server, holds each "
              f"request back{by}",
        evidence=[interrupt.evidence(), sleep] + ([setting] if setting else []),
        cause=f"The time budget ended the collection while it still worked, and {left}; nothing failed and nothing "
              f"was refused. {sleep.file}:{sleep.line} (`{sleep.text}`) makes each request wait its turn before it "
              f"is forwarded{by}: a limit the proxy sets, not the model server's speed, paced the run (seed 000: "
              "throughput).",
        fix=f"Send the eval straight to the model server, or raise the proxy's limit for it{by}; or give the run the "
            f"time that pace needs. Then resume: {resume_command(ev)}.",
    )


def _costly_work_per_call(ev: Evidence, interrupt: LogHit,
                          costly: tuple[EvidenceLine, str, str, str, EvidenceLine | None], left: str) -> Finding:
    line, call, does, avoid, setting = costly
    by = f" ({setting.text.split('#')[0].strip()}, {setting.file}:{setting.line})" if setting else ""
    lower = f" (or lower {setting.text.split('=')[0].strip()})" if setting else ""
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"The time budget ran out before the end: {line.file}:{line.line} {does}{by}",
        evidence=[interrupt.evidence(), line] + ([setting] if setting else []),
        cause=f"The time budget ended the collection while it still worked, and {left}; nothing failed. "
              f"{line.file}:{line.line} (`{line.text}`) {does}{by}: that work, repeated for every request or answer, "
              "not the model, set the pace (seed 000: throughput).",
        fix=f"In {line.file}, stop calling `{call}` on every call: {avoid}{lower}; time one call before and after. "
            f"Then resume: {resume_command(ev)}.",
    )


def _serial_collections(ev: Evidence, interrupt: LogHit, loop: SerialCollections, left: str) -> Finding:
    name, number, line = loop.file.name, loop.line, loop.text
    pause = ""
    if loop.pause is not None:
        value = next((f"; {assigned[2]} at {assigned[0].name}:{assigned[1]}" for variable in SHELL_VARIABLE.finditer(
            loop.pause[1]) if (assigned := assignment_of([loop.file], variable["name"]))), "")
        pause = f"`{loop.pause[1]}`{value}"
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"The time budget ran out before the end: {name} runs one collection per pass of a loop, one after "
              "another" + (", with a pause between them" if pause else ""),
        evidence=[interrupt.evidence(), EvidenceLine(file=name, line=number, text=excerpt(line, 160))]
                 + ([EvidenceLine(file=name, line=loop.pause[0], text=loop.pause[1])] if loop.pause else [])
                 + ([EvidenceLine(file=name, line=loop.waited[0], text=loop.waited[1])] if loop.waited else []),
        cause=f"The time budget ended the collections while they still worked, and {left}; nothing failed. "
              f"{name}:{number} (`{excerpt(line, 80)}`) runs a collection for each "
              + ("file `split` cut the inputs into" if loop.splits else "pass")
              + ", in turn"
              + (f" (the `{loop.waited[1]}` at line {loop.waited[0]}, inside the loop, waits for each `... &` "
                 "collection before the next starts: they never run side by side)" if loop.waited else "")
              + ": each has only its own few rollouts in flight and pays its own start-up"
              + (f", and a pause waits between them ({pause})" if pause else "")
              + ", so the servers sit mostly idle and the whole takes many times what one collection would (seed "
              "000: throughput).",
        fix="Collect all the rows in one call with the concurrency the servers take (`gym-pipeline collect "
            "--inputs <all materialized rows> --concurrency <n>`), instead of "
            + ("`split` and " if loop.splits else "")
            + f"`{excerpt(line, 60)}` in {name}"
            + (f", and take out the pause ({pause}): a server queues what it cannot run at once, so a concurrency "
               "within its slots is what spares it" if pause else "")
            + (f" (or, to keep the chunks side by side, move the `wait` of line {loop.waited[0]} after the loop's "
               "`done`)" if loop.waited else "")
            + "; a bad row fails alone there (its failed attempts go to the sidecar), so per-chunk runs are not "
            f"needed to isolate it. Then resume: {resume_command(ev)}.",
    )


def _few_at_a_time(ev: Evidence, evidence: list[EvidenceLine], concurrency: int, rate: str, left: str) -> Finding:
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Stopped before the end{rate}: {plural(concurrency, 'request')} at a time",
        evidence=evidence,
        cause=f"The collection was stopped (by hand or a time budget) while it still worked, and {left}. Nothing "
              f"failed: with {concurrency} request(s) in flight, the rollouts ran one after the other, slow, "
              "not broken.",
        fix=f"Raise the concurrency so the servers work on many requests at once (`--concurrency "
            f"{max(8, concurrency * 16)}` for `gym eval run` or `gym-pipeline collect`, `concurrency` in "
            "sweep.yaml), within what the model server runs at once"
            + (f" (the run's comes from its own files: {source}; a request in flight waits on the servers, not "
               "on a CPU of the job)" if (source := concurrency_source(ev.user_files)) else "")
            + _time_limit_line(ev)
            + f"; then resume: {resume_command(ev)}.",
    )


_SBATCH_SHRINKS = re.compile(r"^\s*#SBATCH\b.*\s--(?:time-min|deadline)[= ]\S+")
_SBATCH_TIME = re.compile(r"^\s*#SBATCH\s+(?:--time[= ]|-t\s*)\S+")


def _time_limit_line(ev: Evidence) -> str:
    """When Slurm's time limit ended the job: the job script's `#SBATCH --time` line, the other setting to change."""
    if not ev.hits("slurm_time_limit") or (set_at := next(lines_matching(ev.user_files, _SBATCH_TIME), None)) is None:
        return ""
    file, number, line, _ = set_at
    shrinking = [f"`{text.strip()}` (line {at})" for at, text in enumerate(file.text.splitlines(), 1)
                 if _SBATCH_SHRINKS.match(text)]
    return (f", or give the job the time this set needs: Slurm ended it at the limit {file.name}:{number} sets "
            f"(`{line.strip()}`); raise `--time` there for a larger set"
            + (f". {' and '.join(shrinking)} let Slurm cut that limit down (to `--time-min`) to start the job "
               "sooner or end it before the deadline: drop them, or raise `--time-min` to the time the set needs"
               if shrinking else ""))


def _burst(updates: list[tuple[int, int, int, str]], concurrency: int | None) -> tuple[int, int, int] | None:
    """(quiet seconds, rollouts finished together, at what second) of the first burst the progress bar shows: a
    count standing still for BURST_QUIET_S, then jumping by many within BURST_WITHIN_S."""
    least = max(BURST_MIN_ROLLOUTS, (concurrency or 0) // 2)
    for index, (done, _, elapsed, _) in enumerate(updates):
        since = min(e for d, _, e, _ in updates[: index + 1] if d == done)  # when the count reached `done`
        for later_done, _, later_elapsed, _ in updates[index + 1:]:
            if later_elapsed - elapsed > BURST_WITHIN_S:
                break
            if later_done - done >= least and elapsed - since >= BURST_QUIET_S:
                return elapsed - since, later_done - done, later_elapsed
    return None


# where a run sets its budget (`#SBATCH --time=2`, `timeout 35 ...`) and its concurrency (`--concurrency 4`)
_BUDGET_LINE = re.compile(r"^\s*#SBATCH\s+(?:--time[= ]|-t\s*)\S+|\btimeout\s+(?:-\S+\s+)*\d+[smh]?\s")
_CONCURRENCY_GIVEN = re.compile(r"--concurrency[= ]\d+|\+\+num_samples_in_parallel=\d+")


def _where_the_pace_is_set(ev: Evidence) -> str:
    """` (the budget: file:line `...`; the concurrency: file:line `--concurrency 4`)`, from the run's scripts."""
    budget = next(lines_matching(ev.user_files, _BUDGET_LINE, SCRIPT_SUFFIXES), None)
    concurrency = next(lines_matching(ev.user_files, _CONCURRENCY_GIVEN, SCRIPT_SUFFIXES), None)
    said = [f"{what}: {found[0].name}:{found[1]} `{found[3].group(0).strip()}`"
            for what, found in (("the budget", budget), ("the concurrency", concurrency)) if found is not None]
    return f" ({'; '.join(said)})" if said else ""
