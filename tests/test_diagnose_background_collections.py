"""A run script that starts the collection in the background (`&`, to follow the logs meanwhile) and goes straight on
to the profile, run for real by bash against the simulated policy: the profile meets rollouts still being written and
fails, the script ends, and the collection finishes on its own afterwards. With `wait` before the profile, healthy."""

import subprocess
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import CLI, SERVERS_START_WAIT_S, listening

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints


def _run_leaving_the_collection_behind(tmp_path: Path, script: str) -> Path:
    """run_eval.sh run by bash against a slow policy; the policy keeps serving until the collection the script may
    have left in the background (its pid in collect.pid) has finished."""
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:8]))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    port = free_loopback_port()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "250"], stdout=log, stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: listening(port), SERVERS_START_WAIT_S)
        (run / "run_eval.sh").write_text(script.replace("URL", f"http://127.0.0.1:{port}/v1"))
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=180)
        collection = (run / "collect.pid").read_text().strip()
        assert wait_for(lambda: not Path(f"/proc/{collection}").exists(), 180)
    finally:
        server.terminate()
        server.wait(10)
    return run


@pytest.mark.parametrize("waits", [False, True])
def test_a_collection_started_in_the_background_is_profiled_before_it_ends(tmp_path: Path, waits: bool) -> None:
    run = _run_leaving_the_collection_behind(tmp_path, (
        "#!/bin/bash\n"
        f"{CLI} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "# in the background, to follow the server's log meanwhile\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
        "--env string_match --concurrency 4 > logs/collect.log 2>&1 &\n"
        "echo $! > collect.pid\n"
        + ("wait\n" if waits else "")
        + f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"))

    report = diagnose(run)

    if waits:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert len((run / "rollouts.jsonl").read_text().splitlines()) == 24  # every rollout, written after the script
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "collection_backgrounded_before_its_profile"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:4 starts the collection in the background (`&`) and profiles at line 6 "
                         "without `wait`: the profile ran before the rollouts were written")
    assert [line.where for line in top.evidence][:2] == ["run_eval.sh:4", "run_eval.sh:6"]
    assert top.fix.startswith("In run_eval.sh, add `wait` before the profile")
