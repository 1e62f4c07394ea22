"""A collection interrupted by hand: what its progress bar says about why it was taking so long.

Nothing failed, so no error says why a user gave up. Gym's progress bar does: a count that stopped
moving while the time ran on means requests got no answer (a server that hangs: model serving); a
count that kept moving, slowly, at a concurrency of one or two means the run was simply too slow for
the time the user gave it (throughput: raise the concurrency).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import excerpt
from gym_pipeline.diagnose.findings import Finding, plural, resume_command
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING, THROUGHPUT_RESOURCES

STALLED_S = 60  # no rollout finished for this long: not slow, stuck
LOW_CONCURRENCY = 2
_UPDATE = re.compile(r"(?P<done>\d+)/(?P<total>\d+) \[(?P<elapsed>[\d:]+)<(?P<left>[\d:?]+)")


def _seconds(clock: str) -> int:
    seconds = 0
    for part in clock.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def _updates(hits: list[LogHit]) -> list[tuple[int, int, int, str]]:
    """(done, total, elapsed s, time left) of every progress update the hits hold, in order."""
    return [(int(m["done"]), int(m["total"]), _seconds(m["elapsed"]), m["left"])
            for hit in hits for m in _UPDATE.finditer(hit.text)]


def rule_interrupted_collection(ev: Evidence) -> list[Finding]:
    interrupts = ev.hits("user_interrupt")
    progress = [h for h in ev.hits("gym_progress") if any(i.file == h.file for i in interrupts)]
    updates = _updates(progress)
    if not updates:
        return []
    done, total, elapsed, left = updates[-1]
    if done >= total:
        return []
    since = min(e for d, _, e, _ in updates if d == done)  # when the count last moved
    evidence = [progress[-1].evidence(), next(i for i in interrupts if i.file == progress[-1].file).evidence()]
    if elapsed - since >= STALLED_S:
        stopped = ev.hits("process_stopped")
        return [Finding(
            category=MODEL_SERVING,
            title=f"The collection stalled at {done}/{total} for {elapsed - since} s before it was interrupted",
            evidence=evidence + [h.evidence() for h in stopped[:1]],
            cause=f"No rollout finished for {elapsed - since} s while requests were in flight, and no error came back: "
                  "the server they wait on stopped answering without closing its connections (a hung or stopped "
                  "model server most often"
                  + (f"; `ps` shows `{excerpt(stopped[0].group('command'), 100)}` stopped, state T" if stopped else "")
                  + "). Gym waits for its request timeout, so the run looks frozen.",
            fix="See whether the model server still answers (`curl -s <model-url>/models`, `ps -o pid,stat,cmd -p "
                "<pid>`: T is stopped, D waits on I/O; `py-spy dump --pid <pid>` shows where it hangs); restart it "
                f"(`kill -CONT <pid>` for a stopped one), then resume: {resume_command(ev)}.",
        )]
    concurrency = min((int(h.groups["concurrency"]) for h in ev.hits("gym_concurrency")), default=None)
    if concurrency is None or concurrency > LOW_CONCURRENCY or done == 0:
        return []
    per_rollout = elapsed / done
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Interrupted at {done}/{total} after {elapsed} s: {plural(concurrency, 'request')} at a time, "
              f"{per_rollout:.1f} s a rollout",
        evidence=evidence + [h.evidence() for h in ev.hits("gym_concurrency")[:1]],
        cause=f"The collection was progressing, one rollout every {per_rollout:.1f} s, with {concurrency} "
              f"request(s) in flight ({'about ' + left + ' left' if left != '?' else 'more to go'}): it was slow, "
              "not broken, and was stopped by hand before the end.",
        fix=f"Raise the concurrency so the server works on many requests at once (`gym eval run ... --concurrency "
            f"{max(8, concurrency * 16)}`, within what the model server runs at once), then resume: "
            f"{resume_command(ev)}.",
    )]
