"""A verifier that disagrees with itself: the same answer, verified again, gets another reward.

`gym-pipeline reverify --repeat N` verifies every stored answer N times and records the rows whose rewards differ
(`rollouts_verifier_flakiness.json`, read only while the rollouts it measured are unchanged). Such a verifier (an
LLM judge, a sandboxed test with a race) adds noise to every reward and every comparison: a verifier runtime
problem, whichever answer the model gave.
"""

from __future__ import annotations

from gym_pipeline.core.flakiness import flakiness_path, read_flakiness
from gym_pipeline.core.formats import ROLLOUT_INDEX, ROLLOUTS_FILE, TASK_INDEX
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

LISTED_TASKS = 20


def rule_flaky_verifier(ev: Evidence) -> list[Finding]:
    rollouts = ev.run_dir / ROLLOUTS_FILE
    try:
        flakiness = read_flakiness(rollouts)
    except ValueError:
        return []  # an unreadable record measures nothing; the run's own files are judged by other rules
    if flakiness is None or not flakiness.flaky:
        return []
    per_task = flakiness.flaky_per_task
    tasks = sorted(per_task)
    listed = ", ".join(map(str, tasks[:LISTED_TASKS])) + (" ..." if len(tasks) > LISTED_TASKS else "")
    first = flakiness.flaky[0]
    record = ev.rel(flakiness_path(rollouts))
    name = flakiness.verifier.get("name", "the verifier")
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"Flaky verifier: {plural(len(flakiness.flaky), 'rollout')} of {flakiness.rollouts_checked} got different "
              f"rewards over {flakiness.repeats} verifications, in {plural(len(tasks), 'task')} ({listed})",
        evidence=[EvidenceLine(file=record, text=f"task {first[TASK_INDEX]} rollout {first[ROLLOUT_INDEX]}: rewards "
                                                 f"{first['rewards']} for the same answer ({name})")],
        cause=f"{name} gives different rewards for the same answer (randomness, a judge sampled at a temperature, a "
              f"race in a sandboxed test): tasks {listed} are scored by chance as much as by the model, and every "
              "comparison between checkpoints on them carries that noise.",
        fix=f"make the verifier deterministic (fix its seed, a judge at temperature 0, no shared state between "
            f"calls), then `gym-pipeline reverify {ev.run_dir} --env ENV --repeat {flakiness.repeats}` until it "
            "lists no flaky rows",
    )]
