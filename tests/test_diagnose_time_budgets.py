"""A collection run under a time budget (`timeout 20`, as a CI step gives it) in batches, run for real: batches of one
row start a collect process per rollout, start-up eats the budget, `timeout` ends the step (exit 124) and the profile
finds rollouts missing. The diagnosis names the budget and the batches (throughput), not the partial output. In one
batch, the same collection finishes inside the budget."""

import pytest
from script_support import CLI, materialize_line, run_scripts

SCRIPT = f"""BATCH_SIZE=ROWS_PER_BATCH
{CLI} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf batches && mkdir -p batches/in batches/out
split -l "$BATCH_SIZE" -d -a 3 rollouts_materialized_inputs.jsonl batches/in/part_
# CI gives the collect step 20 s
timeout 20 bash -c 'for part in batches/in/part_*; do
  {CLI} collect --inputs "$part" --output "batches/out/$(basename "$part").jsonl" --model-url URL --env string_match --concurrency 4 || exit $?
done'
echo "collect step exit: $?"
cat batches/out/*.jsonl > rollouts.jsonl
{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
"""


@pytest.mark.parametrize("batch_size", [1, 30])
def test_a_collection_in_batches_of_one_row_cut_by_its_time_budget(tmp_path, batch_size):
    from gym_pipeline.diagnose import diagnose

    run = run_scripts(tmp_path, [SCRIPT.replace("ROWS_PER_BATCH", str(batch_size))])
    log = (run / "logs" / "run_eval_0.log").read_text()
    assert ("collect step exit: 124" in log) is (batch_size == 1), log[-1500:]

    report = diagnose(run)

    if batch_size > 1:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    # `timeout` ends the step mid-collection or between two collect processes (timing): the same reading either way
    assert top.category == "throughput_resources", [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:7 gives the collection `timeout 20`, which ended it before it finished")
    assert "collect processes of a few rows each, mostly start-up" in top.title and "Collect in one process" in top.fix


DRIVER = f'''"""drive_eval.py MODEL_URL: the nightly eval; every step is bounded so that a hung server cannot block CI."""
import subprocess
import sys

CLI = {CLI.split()!r}
TIMEOUT_S = {{"materialize": 60, "collect": COLLECT_BUDGET, "profile": 60}}  # sized on the smoke set
STEPS = {{
    "materialize": ["materialize", "--input", "data.jsonl", "--num-repeats", "12", "--agent", "string_match_simple_agent",
                    "--output", "rollouts_materialized_inputs.jsonl"],
    "collect": ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", "4"],
    "profile": ["profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
}}
for step, argv in STEPS.items():
    try:
        subprocess.run(CLI + argv, check=True, timeout=TIMEOUT_S[step])
    except subprocess.TimeoutExpired:
        print(f"warning: {{step}} exceeded {{TIMEOUT_S[step]}} s, going on with what it wrote", flush=True)
'''


@pytest.mark.parametrize("budget", [6, 120])
def test_a_python_drivers_timeout_sized_on_a_smoke_set_cuts_the_collection(tmp_path, budget):
    """The team's Python driver runs each step with `subprocess.run(..., timeout=TIMEOUT_S[step])`, sized on a smoke
    set: on the full set collect is killed when its 6 s are up, the driver goes on, and the profile finds rollouts
    missing. The diagnosis names the driver's line and its budget (throughput). With 120 s, healthy."""
    from gym_pipeline.diagnose import diagnose

    driver = DRIVER.replace("COLLECT_BUDGET", str(budget))
    run = run_scripts(tmp_path, [f"{CLI.split()[0]} drive_eval.py URL\n"], files={"drive_eval.py": driver})
    log = (run / "logs" / "run_eval_0.log").read_text()
    assert ("warning: collect exceeded" in log) is (budget == 6), log[-1500:]

    report = diagnose(run)

    if budget > 6:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "collection_cut_by_its_time_budget"), [
        f.title for f in report.causes]
    line = next(n for n, text in enumerate(driver.splitlines(), start=1) if "timeout=TIMEOUT_S[step]" in text)
    assert top.title.startswith(f"drive_eval.py:{line} gives collect 6 s (`timeout=TIMEOUT_S[step]`), which ended it "
                                "before it finished: ")
    assert "raise `TIMEOUT_S[step]` in drive_eval.py" in top.fix


SHARD_DRIVER = f'''"""drive_eval.py MODEL_URL: collect the materialized inputs in 4 shards at once, merge, profile."""
import subprocess
import sys

CLI = {CLI.split()!r}
SHARDS = 4
lines = open("rollouts_materialized_inputs.jsonl").readlines()
for i in range(SHARDS):
    with open(f"shard_{{i}}.jsonl", "w") as f:
        f.writelines(lines[i::SHARDS])


def start(i):
    print(f"shard {{i}}: collect started", flush=True)
    return subprocess.Popen(CLI + ["collect", "--inputs", f"shard_{{i}}.jsonl", "--output", OUTPUT,
                                   "--model-url", sys.argv[1], "--env", "string_match", "--concurrency", "1"])


GATHER
with open("rollouts.jsonl", "w") as out:
    for i in range(SHARDS):
        out.write(open(OUTPUT).read())
'''
SERIAL, AT_ONCE = ("codes = [start(i).wait() for i in range(SHARDS)]",
                   "procs = [start(i) for i in range(SHARDS)]\ncodes = [p.wait() for p in procs]")
# collects at once need a folder each (the run folder's lock lets one collect write in it at a time)
OUTPUT = {SERIAL: 'f"rollouts_{i}.jsonl"', AT_ONCE: 'f"shards/{i}/rollouts.jsonl"'}


@pytest.mark.parametrize("gather", [SERIAL, AT_ONCE], ids=["waited_in_turn", "at_once"])
def test_shards_waited_for_inside_the_comprehension_that_starts_them_run_past_the_budget(tmp_path, gather):
    """A driver meant to collect 4 shards at once calls `.wait()` inside the comprehension that starts them: the
    shards run one after another (each 10 requests, one at a time, against a server answering in 250 ms) and the CI
    step's `timeout 14` ends the driver (throughput, the comprehension named). Started first and waited for after,
    the shards run at once within the budget (each in a folder of its own). The manifest's record of a shard's collection is not read as the
    materialized inputs' (no stale inputs)."""
    from gym_pipeline.diagnose import diagnose

    run = run_scripts(tmp_path, [materialize_line(4) + f"timeout 14 {CLI.split()[0]} drive_eval.py URL\n"
                                 'echo "eval step exit: $?"\n'],
                      files={"drive_eval.py": SHARD_DRIVER.replace("GATHER", gather).replace("OUTPUT", OUTPUT[gather])})
    log = (run / "logs" / "run_eval_0.log").read_text()

    report = diagnose(run)

    if gather == AT_ONCE:
        assert "eval step exit: 0" in log, log[-1500:]
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "eval step exit: 124" in log, log[-1500:]
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "collection_cut_by_its_time_budget"), [
        f.title for f in report.causes]
    line = next(n for n, text in enumerate(SHARD_DRIVER.splitlines(), 1) if text == "GATHER")
    assert top.evidence[-1].where == f"drive_eval.py:{line}" and "start every shard first and wait afterwards" in top.fix
