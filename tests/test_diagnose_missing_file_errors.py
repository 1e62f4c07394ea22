"""An error line about a missing file, in a run whose outputs are whole and profiled, run for real:
- the run script rotates last run's rollouts (`mv rollouts.jsonl rollouts.prev.jsonl`) before collecting; on the
  first run of a fresh folder mv prints "cannot stat 'rollouts.jsonl'", and the run then writes that file: harmless
  noise, healthy;
- the script builds the tasks by copying shards and one shard is missing ("cp: cannot stat 'shards/part-2.jsonl'"):
  the run is whole on the rows it got, but the data lost a shard (data/schema, the line named)."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

COLLECT = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
           f"--env string_match --concurrency 4\n{CLI} profile --inputs rollouts_materialized_inputs.jsonl "
           "--rollouts rollouts.jsonl\n")
SCRIPTS = {
    "rotate": "mv rollouts.jsonl rollouts.prev.jsonl   # keep last run's rollouts\n" + MATERIALIZE + COLLECT,
    "missing_shard": "mkdir -p shards && head -5 data.jsonl > shards/part-1.jsonl\n"
                     "cat /dev/null > tasks.jsonl\nfor part in 1 2; do cp shards/part-$part.jsonl part.jsonl && "
                     "cat part.jsonl >> tasks.jsonl; done\n"
                     + MATERIALIZE.replace("data.jsonl", "tasks.jsonl") + COLLECT,
}


@pytest.mark.parametrize("script", list(SCRIPTS))
def test_an_error_about_a_file_the_run_made_since_is_noise(tmp_path: Path, script: str) -> None:
    run = run_scripts(tmp_path, [SCRIPTS[script]])
    log = (run / "logs" / "run_eval_0.log").read_text()
    assert "cannot stat" in log, log

    report = diagnose(run)

    if script == "rotate":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert report.category == "data_schema", [f.title for f in report.causes]
    assert "shards/part-2.jsonl" in report.causes[0].title
