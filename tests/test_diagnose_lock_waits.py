"""A collection run under a lock the team's scripts share, with a time budget around both: `timeout 12 flock LOCK
collect ...`. While another eval holds the lock, the budget runs out before the collection starts. Run for real by
bash against the simulated policy, the lock held by a real `flock` of another process; its twin, with the lock free,
collects everything."""

import subprocess
from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("held", [True, False])
def test_a_time_budget_spent_waiting_for_a_lock_another_eval_holds(tmp_path: Path, held: bool) -> None:
    lock = tmp_path / "shared_model_server.lock"
    script = (MATERIALIZE + f"timeout 12 flock {lock} {CLI} collect --inputs rollouts_materialized_inputs.jsonl "
              "--output rollouts.jsonl --model-url URL --env string_match --concurrency 8\n")
    holder = subprocess.Popen(["flock", str(lock), "sleep", "60"]) if held else None
    try:
        run = run_scripts(tmp_path, [script])
    finally:
        if holder is not None:
            holder.kill()
            holder.wait()

    report = diagnose(run)

    if not held:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "collection_timed_out_waiting_for_a_lock")
    assert top.title == (f"run_eval.sh:3 gives the collection 12 s including its wait for {lock}, and it wrote no "
                         "rollout: the lock was held the whole time")
    assert f"take the lock outside the budget (`flock {lock} timeout 12 ...`" in top.fix
    assert [f.id for f in report.consequences_of(top)] == ["missing_rollouts"]
