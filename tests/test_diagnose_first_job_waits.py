"""A script that serves the checkpoint itself, collects three shards side by side in the background and stops its
server after `wait -n`, run for real: `wait -n` returns when the first (smallest) shard is done, the server is killed
while the other two still ask it, and their remaining rollouts fail. The diagnosis names the `wait -n` and the kill
(model serving). Waiting for the collections' own pids, every shard is collected and the run is healthy."""

import pytest
from script_support import CLI, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("wait", ["wait -n", 'wait "${pids[@]}"'])
def test_a_server_stopped_after_wait_n_returned_for_the_first_shard(tmp_path, wait):
    run, checkpoint = string_match_run(tmp_path, rows=9)
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\nrm -f policy_url.txt\n{CLI} serve-policy --port 0 --ready-file policy_url.txt --checkpoint "
        f"{checkpoint} --latency-ms 300 > logs/model_server.log 2>&1 &\nSERVER=$!\n"
        "for i in $(seq 60); do [ -s policy_url.txt ] && break; sleep 0.5; done\nURL=$(cat policy_url.txt)\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "split -l 12 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_\n"
        "for s in 00 01 02; do\n  mkdir -p out_$s\n"
        f"  {CLI} collect --inputs shard_$s.jsonl --output out_$s/rollouts.jsonl --model-url $URL --env string_match "
        "--concurrency 2 > logs/collect_$s.log 2>&1 &\n  pids+=($!)\ndone\n"
        f"{wait}   # the collects\nkill $SERVER\nwait\ncat out_*/rollouts.jsonl > rollouts.jsonl\n"
        f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run_eval_script(run)
    collected = len((run / "rollouts.jsonl").read_text().splitlines())
    assert (collected < 27) is (wait == "wait -n"), collected

    report = diagnose(run)

    if wait != "wait -n":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "server_stopped_after_waiting_for_one_job"), [
        f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:15 stops the model server after `wait -n` (run_eval.sh:14)")
