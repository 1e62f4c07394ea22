"""A run script that collects its shards in a loop and, following a runbook, starts a fresh model server for every
shard, run for real by bash against the simulated policy with a slow start (`--slow-start-s`, its weights loading):
each pass pays the load, and the CI step's budget ends the collection part way (throughput). One server started
before the loop, the shards fit in the budget and the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_eval_script, string_match_run

from gym_pipeline.diagnose import diagnose

SERVE = f"{CLI} serve-policy --port 0 --ready-file $URL_FILE --checkpoint CKPT --latency-ms 30 --slow-start-s 6"
WAIT = "until [ -s $URL_FILE ] && curl -sf $(cat $URL_FILE)/models > /dev/null; do sleep 1; done"


@pytest.mark.parametrize("per_pass", [True, False])
def test_a_model_server_started_for_every_shard_spends_the_budget_loading(tmp_path: Path, per_pass: bool) -> None:
    run, checkpoint = string_match_run(tmp_path, rows=8)
    serve = SERVE.replace("CKPT", str(checkpoint))
    start = f"  URL_FILE=$shard.url\n  {serve} > logs/server.log 2>&1 &\n  SERVER=$!\n  {WAIT}\n"
    loop = ("for shard in shards/part_0?; do\n"
            + (start if per_pass else "")
            + f"  {CLI} collect --inputs $shard --output $shard.rollouts.jsonl --model-url $(cat $URL_FILE) "
              "--env string_match --concurrency 4\n"
            + ("  kill $SERVER; wait $SERVER\n" if per_pass else "") + "done\n")
    (run / "collect_shards.sh").write_text("#!/bin/bash\n" + loop)
    (run / "run_eval.sh").write_text(
        "#!/bin/bash\n" + materialize_line(2)
        + "rm -rf shards && mkdir shards && split -n l/4 -d rollouts_materialized_inputs.jsonl shards/part_\n"
        + ("" if per_pass else f"export URL_FILE=server.url\n{serve} > logs/server.log 2>&1 &\nSERVER=$!\n{WAIT}\n")
        + "# the CI step's budget\n"
        + "timeout 22 bash collect_shards.sh\n" + ("" if per_pass else "kill $SERVER\n")
        + "cat shards/part_0?.rollouts.jsonl > rollouts.jsonl\n")
    run_eval_script(run)

    report = diagnose(run)

    if not per_pass:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "model_server_started_for_every_pass"), [
        f.title for f in report.causes]
    assert top.title.startswith("collect_shards.sh:2 starts a fresh model server in every pass of its loop "
                                "(collect_shards.sh:4)"), top.title
    assert top.fix.startswith("In collect_shards.sh, start one model server (`serve-policy`) before the loop")
