"""Users' batch scripts, run on the real Slurm.

- A model server started with `srun ... &` by a batch script that ends without `wait`: Slurm cancels the job's steps
  when the batch script ends, so the server printed its URL and was gone, and the collection against it found
  nothing. The diagnosis names the script's line, not a cancelled job; the same script ending with `wait` is no
  finding of that kind.
- A job run with `#SBATCH --export=NONE` whose script reads MODEL_URL, exported by the script that submits it: the
  job does not get it, and the collection is given no URL. Naming the variable in `--export` passes it.
- A job whose `#SBATCH --export=ALL,MODEL_URL=...` names the team's long-running server of an older checkpoint: the
  directive's value beats the MODEL_URL the submitting shell exports, and the rollouts are the old model's. With
  `--export=ALL`, the job takes the exported URL.
- A job array numbered from 1 over shard files `split -d` numbered from 0: shard 0 is never run, and the last task
  finds no file; a range with a step (`0-2:2`, from a sweep template) never runs shard 1. Numbering the array as the
  files are is no finding.
- A collection whose concurrency is the job's `--cpus-per-task` (1): it runs one request at a time against a slow
  server until the job's time limit ends it. The time limit is what followed; the serial collection is the cause,
  and the fix names where its concurrency came from.
- Shards collected by a job array with no `%` limit: its tasks run at once against one small server, which refuses
  what it cannot queue (429). The overload's fix names the array and its throttle.
- A job whose `--output` is in a folder the submit folder lacks: Slurm does not create it, and the job fails before
  running a line. With the folder made first, the job runs.
- A job whose `--chdir` is a folder copied from another user's script: slurmstepd runs it in /tmp, where its relative
  paths name nothing. Set to the run's folder, the job runs. Written with `~`, no shell expands it there.
- A CI step that submits the eval job, waits a few seconds and cancels it: held by its own `#SBATCH --begin` (kept from
  a nightly template), or queued behind the user's own `--exclusive` job, it never started, and squeue's reason says
  whose it is to change. Without either, the job runs within the wait.
- Two shards collected as parallel `srun ... &` steps of a job of `--ntasks=1`: srun holds the second back until the
  first ends ("step creation temporarily disabled"). With `--ntasks=2`, both run at once.
- A job whose one-minute limit, sized for last month's smaller set, ends a collection four requests at a time against a
  slow server (throughput): the fix names the directive and the concurrency, where the run sets them. At a
  concurrency of 24 the same job finishes.
- A job whose time limit reaches into a maintenance reservation the admins put on the node: it stays PENDING
  (ReqNodeNotAvail, Reserved for maintenance) and the CI step gives up (infra, the reservation and the job's `--time`
  named). With a limit that ends before the reservation starts, the job runs.
- Shards a job starts in the background each under the same `flock` (meant to keep other evals off the node): they
  wait for each other and run in turn past the one-minute limit (throughput, the locked line named). Without the
  per-shard lock, they run at once within it.
- A job that runs its eval under `flock` of a shared lock another holder keeps: it waits out its one-minute limit,
  and the wait is the cause. With the lock free, the job runs.
- A profile job chained on the collect job with `--dependency=afterok:$JOB`, where JOB kept sbatch's sentence (no
  `--parsable`): sbatch refuses the chained job. With --parsable, both run.
- A job that goes to $SLURM_SUBMIT_DIR and reads its data by a relative name, submitted by a script that first went
  to the home folder (as cron starts it): the data is not there. Submitted from the run folder, the job finds it.
- A job that passes $SLURM_CPUS_PER_TASK to a command without asking for --cpus-per-task: Slurm does not set it, and
  the command gets no value. With the directive, the job runs.
- A job submitted from a shell that exports `SBATCH_TIMELIMIT=1` (left from a test of the short queue): sbatch takes
  it before the script's `#SBATCH --time=10`, and the job is cancelled after a minute. `#SBATCH --time=1:00`, meant
  as an hour, is a minute to Slurm (minutes:seconds): cancelled too. With `--time=1:00:00`, the job runs.
- A batch script saved with Windows (CRLF) line endings: sbatch refuses it, and no job runs. Saved with Unix line
  endings, the same script runs.
- A batch script fixed after its job ran (`DATA=dev.jsonl` -> `test.jsonl`) and the job requeued with `scontrol
  requeue`: Slurm reruns the script it stored at submission, so the inputs are of the dev split again, beside a script
  naming the test split. Submitted anew with sbatch, the fixed script materializes the test split.
- A submit script that copies the data into a staging folder and queues the job behind another: labels fixed while
  the job waits never reach the staged copy, and the run is of the old rows. Fixed before submitting, the copy is
  the fixed data.
- A job suspended while it collects (`scontrol suspend`, as a partition that preempts by suspension does): its
  processes stop, and the submit script gives up with the run incomplete. Not suspended, it finishes.
- A job kept `--dependency=singleton` from a template while the user's debugging job of the same name runs: it stays
  PENDING until the CI step gives up (scontrol's fields say why). With no other job of that name, it runs.
- Shard jobs submitted by a loop, each asking for every CPU of the node: they queue behind each other (squeue's `PD
  Resources`) and the CI step's budget runs out. Asking for half the node each, both run at once.
- Two shard jobs, submitted on two lines, each asking `--mem` for 60% of the node's memory: the same queueing, read
  from an squeue format that adds the memory column. Asking for 30% each, both run at once.
- A job whose output folder is the run's logs/, a symlink into node-local scratch this node lacks: Slurm cannot open
  the output file and the job fails at launch (infra). With the scratch folder there, the job runs.
- A submit script that cancels last week's leftover job by name (`scancel --name=...`) after the sbatch of this week's
  job of the same name: it cancels its own job before it runs. Cancelling first, the job runs.
- A model server run as a batch job of its own whose `--time=1` ends it while the eval still collects: model
  serving, the server job's directive named. With `--time=5`, healthy.
- A job whose time limit the admins cut while it ran (`scontrol update JobId=... TimeLimit=1`, ahead of a
  maintenance): infra, told by how long it ran against its `--time`. A job of one minute that sleeps 40 s of it
  before its work ran out of its own time: the sleep is named (throughput).
- A job array of shards whose range keeps `%1` from another template: its tasks wait (JobArrayTaskLimit) and run one
  after another past the CI step's budget. Without the throttle, they run at once.
- A `#SBATCH --signal=B:USR1@50` kept from a training template in a job that does not trap USR1: the signal ends the
  job before its limit. Trapped, the job runs on, and the directive is not blamed.
- A job staging its data on the node's local disk with `sbcast`, which refuses to replace last week's copy there
  (`File exists`): the run reads last week's labels (cache/resume). With `--force`, healthy.
- `#SBATCH --test-only` left from a start-time check: sbatch submits nothing and the submit script waits for no job
  (config). Without it, the job runs.
- A batch script saying `#!/bin/sh` (a cluster's minimal example) written in bash (an array of options): Slurm runs
  it with dash, which stops at the array (config). Saying `#!/bin/bash`, the job collects.
- `#SBATCH --dependency=afterok:$PREP_JOB`: sbatch never expands the variable and refuses the job (config). Given on
  sbatch's command line, the shell expands it and the job collects after the prep.
- An eval chained `afterok` on a prep job that stopped at a data row without an answer: the eval stays PENDING
  (DependencyNeverSatisfied); the prep's last line and its data file are named (data). Every row answered, it runs.
- An array writing each task's results under `results/${SLURM_JOB_ID}` (each task's own id) merged from the array's
  id: one shard of three is merged (config). Under `${SLURM_ARRAY_JOB_ID}`, every shard is (and not this reading).
- A CI step whose hook caps CPU time (`ulimit -t 1`) submits the eval job: Slurm gives the job the submitting shell's
  limits, and its collect dies of SIGXCPU though no file of the run sets one (infra). With `--propagate=NONE`, the job
  runs.
- A job submitted as `nobody` (a CI policy for unprivileged jobs) whose output folder only its owner writes: slurmd
  cannot create the output file, and the job fails at launch (infra). Submitted as the folder's owner, it runs.
- A job renamed by `sbatch -J smoke-eval` (a submit script copied from the smoke pipeline) whose script picks its
  settings by $SLURM_JOB_NAME: it runs the smoke settings (config). Without `-J`, the directive's name.
- A submit script that finds its model-server job by name (`squeue -n ... | head -1`) while last week's server job of
  that name still runs: the older job is listed first, and the run collects from last week's checkpoint (model
  serving: the lookup and `scancel` named). Keeping the id `sbatch --parsable` prints, the run is this week's.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from launcher_support import slurm_cluster, wait_for

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

pytestmark = pytest.mark.integration  # needs the real one-node Slurm

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RULE = "step_ended_with_its_batch_script"


JOB_START_WAIT_S = 180  # a job queued behind an earlier test's, on a node still completing it
SERVER_START_WAIT_S = 150  # the simulated policy's start (Python imports) on a machine the other tests load


def _string_match_run(tmp_path: Path, repeats: int) -> tuple[Path, Path]:
    """(run folder with logs/ and the string_match tasks materialized `repeats` times each, a demo checkpoint)."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(repeats, environment.agent_name))
    return run, checkpoint


def _collect_line(port: int, concurrency: int | str) -> str:
    """A batch script's line collecting the run folder's inputs against the policy on `port`."""
    return (f"{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency {concurrency}\n")


@contextmanager
def _policy_served(run: Path, checkpoint: Path, *options: str) -> Iterator[int]:
    """The simulated policy on a free loopback port (yielded once it listens), logging to logs/model_server.log."""
    port = free_loopback_port()
    ready = run.parent / "model_server.ready"  # outside the run folder: nothing the diagnosis reads
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--ready-file", str(ready), *options], stdout=log, stderr=subprocess.STDOUT)
    try:
        assert wait_for(ready.exists, SERVER_START_WAIT_S), (run / "logs" / "model_server.log").read_text()
        yield port
    finally:
        server.terminate()
        server.wait(10)


def _job_state(job: str) -> str:
    """squeue's state of `job` ("PENDING", "RUNNING"...), or "" once it has left the queue."""
    return subprocess.run(["squeue", "-h", "-j", job, "-o", "%T"], capture_output=True, text=True,
                          timeout=30).stdout.strip()


def _batch_served_run(tmp_path: Path, ending: str) -> Path:
    """A run folder whose model server a batch job started in the background; `ending` is the script's last line."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    ready = run / "server_url"
    script = run / "serve.sbatch"
    script.write_text(
        "#!/bin/bash\n#SBATCH --job-name=serve-policy\n"
        f"#SBATCH --output={run}/logs/serve_%j.log\n#SBATCH --time=5\n"
        f"srun --ntasks=1 {' '.join(CLI)} serve-policy --port 0 --ready-file {ready} --checkpoint {checkpoint} &\n"
        f"for i in $(seq {SERVER_START_WAIT_S}); do [ -s {ready} ] && break; sleep 1; done\n"
        'echo "model server up"\n' + ending)
    job = subprocess.run(["sbatch", "--parsable", str(script)], capture_output=True, text=True, check=True,
                         timeout=30).stdout.strip()
    try:
        # The script's own wait starts when the job does: a job still pending behind an earlier test's is waited for
        # first, so that a loaded machine's slow start is not read as a server that never came up.
        assert wait_for(lambda: _job_state(job) != "PENDING", JOB_START_WAIT_S), f"job {job} never started"
        assert wait_for(lambda: ready.exists() and bool(ready.read_text().strip()), SERVER_START_WAIT_S), (
            f"the server never started (job {job} {_job_state(job) or 'gone'}): "
            + "".join(log.read_text() for log in (run / "logs").glob("serve_*.log")))
        url = ready.read_text().strip()  # the server removes its ready file when it stops
        time.sleep(10)  # the script's end, and Slurm's cancel of its step when nothing waits
        inputs = run / "rollouts_materialized_inputs.jsonl"
        materialize_file(environment.dataset_path, inputs, MaterializationSettings(2, environment.agent_name))
        with (run / "logs" / "run_eval.log").open("w") as log:
            subprocess.run([*CLI, "collect", "--inputs", str(inputs), "--output", str(run / "rollouts.jsonl"),
                            "--model-url", url, "--env", "string_match"],
                           stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        subprocess.run(["scancel", job], check=False, timeout=30)
        wait_for(lambda: not _job_state(job), 60)
    return run


def test_a_server_step_the_batch_script_does_not_wait_for_is_cancelled_with_the_job(tmp_path: Path) -> None:
    run = _batch_served_run(tmp_path, ending="")

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == (MODEL_SERVING, RULE)
    assert top.evidence[0].where == "serve.sbatch:5"
    assert "CANCELLED" in top.evidence[-1].text
    assert "add `wait` after the `srun ... &` line" in top.fix


def test_a_batch_script_that_waits_for_its_server_step_is_not_blamed(tmp_path: Path) -> None:
    run = _batch_served_run(tmp_path, ending="wait\n")

    assert all(finding.id != RULE for finding in diagnose(run).findings)


def test_a_job_array_of_shards_without_a_throttle_overloads_one_server(tmp_path: Path) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    for shard in range(3):
        (run / "shards" / str(shard)).mkdir(parents=True)
        data = run / "shards" / str(shard) / "tasks.jsonl"
        data.write_text("".join(rows[shard * 4:(shard + 1) * 4]))
        materialize_file(data, run / "shards" / str(shard) / "rollouts_materialized_inputs.jsonl",
                         MaterializationSettings(3, environment.agent_name))
    script = run / "collect_shards.sbatch"
    with _policy_served(run, checkpoint, "--latency-ms", "500", "--max-running", "2", "--max-waiting", "2") as port:
        script.write_text(
            "#!/bin/bash\n#SBATCH --job-name=collect-shards\n#SBATCH --array=0-2\n"
            f"#SBATCH --output={run}/logs/collect_shard_%a.log\n#SBATCH --time=5\n"
            f"cd {run}/shards/$SLURM_ARRAY_TASK_ID\n"
            + _collect_line(port, 4))
        subprocess.run(["sbatch", "--wait", str(script)], capture_output=True, text=True, timeout=300)
    assert "429" in "".join(p.read_text() for p in run.glob("shards/*/rollouts_failures.jsonl"))

    report = diagnose(run)

    top = report.causes[0]
    assert report.category == "throughput_resources", [f.title for f in report.causes]
    assert top.title.startswith("In ") and "overloaded" in top.title
    assert top.fix.startswith("collect_shards.sbatch runs its job array's 3 tasks (`--array=0-2`) at once")
    assert "`#SBATCH --array=0-2%1`" in top.fix


def _submitted_with_export(tmp_path: Path, export: str) -> Path:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(1, environment.agent_name))
    (run / "collect.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\n#SBATCH --export={export}\n"
        f"cd {run}\n{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        "--model-url $MODEL_URL --env string_match\n")
    (run / "submit.sh").write_text("#!/bin/bash\nexport MODEL_URL=http://127.0.0.1:9/v1\n"
                                   "sbatch --wait collect.sbatch\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    return run


def test_a_variable_the_submitting_script_exports_is_empty_in_a_job_run_with_export_none(tmp_path: Path) -> None:
    run = _submitted_with_export(tmp_path, "NONE")
    assert "--model-url: expected one argument" in "".join(p.read_text() for p in run.glob("logs/collect_*.log"))

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "variable_not_exported_to_the_job")
    assert [line.where for line in top.evidence] == ["collect.sbatch:4", "collect.sbatch:6", "submit.sh:2"]
    assert "`#SBATCH --export=MODEL_URL`" in top.fix


def test_a_variable_named_in_export_reaches_the_job(tmp_path: Path) -> None:
    run = _submitted_with_export(tmp_path, "MODEL_URL")
    assert "expected one argument" not in "".join(p.read_text() for p in run.glob("logs/collect_*.log"))

    assert all(f.id != "variable_not_exported_to_the_job" for f in diagnose(run).findings)


def _submitted_against_two_servers(tmp_path: Path, export: str) -> Path:
    """A job submitted with MODEL_URL of this week's step_0200 server exported, while the team's step_0100 server
    also runs; `export` is the job's `--export` (`{old}` is replaced by the old server's URL)."""
    run, _ = _string_match_run(tmp_path, 1)
    old, new = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    urls, servers = [], []
    for checkpoint, log in ((old, "shared_server.log"), (new, "model_server.log")):
        port = free_loopback_port()
        with (run / "logs" / log).open("w") as out:
            servers.append(subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port)],
                                            stdout=out, stderr=subprocess.STDOUT))
        urls.append(f"http://127.0.0.1:{port}/v1")
    try:
        assert wait_for(lambda: all("READY" in (run / "logs" / log).read_text()
                                    for log in ("shared_server.log", "model_server.log")), SERVER_START_WAIT_S)
        (run / "collect.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\n"
            f"#SBATCH --export={export.format(old=urls[0])}\n"
            f"cd {run}\n{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            "--model-url $MODEL_URL --env string_match\n")
        (run / "submit.sh").write_text(f"#!/bin/bash\nexport MODEL_URL={urls[1]}\nsbatch --wait collect.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
    return run


@pytest.mark.parametrize("export", ["ALL,MODEL_URL={old}", "ALL"])
def test_a_model_url_pinned_in_the_export_directive_beats_the_one_the_submitting_shell_exports(
        tmp_path: Path, export: str) -> None:
    run = _submitted_against_two_servers(tmp_path, export)
    served = json.loads((run / "manifest.json").read_text())["rollouts"]["model_url"]
    assert (served in (run / "collect.sbatch").read_text()) == ("{old}" in export)  # the directive's URL won

    report = diagnose(run)

    if "{old}" not in export:
        assert report.category == "healthy", report.causes[0].title
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "model_url_pinned_to_an_older_server")
    assert [line.where for line in top.evidence] == ["collect.sbatch:4", "logs/shared_server.log:1",
                                                     "logs/model_server.log:1"]
    assert "Drop `MODEL_URL=...` from the `#SBATCH --export` line of collect.sbatch" in top.fix


def _array_over_split_shards(tmp_path: Path, array: str, index: str = "SLURM_ARRAY_TASK_ID",
                             submit: str | None = None, directive: bool | None = None) -> Path:
    """Shards of data.jsonl materialized by the job array `array` of shards.sbatch; with `submit`, the submit line
    that gives the array on sbatch's command line instead of an `#SBATCH --array` line (`directive`: both)."""
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:6]))
    (run / "shards.sbatch").write_text(
        "#!/bin/bash\n" + (f"#SBATCH --array={array}\n" if (not submit if directive is None else directive) else "")
        + f"#SBATCH --output={run}/logs/shard_%a.log\n#SBATCH --time=2\n"
        f"cd {run}\nSHARD=${{{index}}}\nmkdir -p results/shard_$SHARD && cd results/shard_$SHARD\n"
        f"{' '.join(CLI)} materialize --input ../../shards/shard_$SHARD.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    (run / "submit.sh").write_text("#!/bin/bash\nmkdir -p shards\n"
                                   "split -l 2 -d -a 1 --additional-suffix=.jsonl data.jsonl shards/shard_\n"
                                   f"{submit or 'sbatch --wait shards.sbatch'}\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    return run


def test_a_job_array_numbered_from_one_over_shards_numbered_from_zero_leaves_one_out(tmp_path: Path) -> None:
    run = _array_over_split_shards(tmp_path, "1-3")
    assert not (run / "results" / "shard_0").exists() and (run / "shards" / "shard_0.jsonl").is_file()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "array_ids_not_the_files_numbers")
    assert top.title == ("shards.sbatch runs array tasks 1-3, but the files its tasks read are numbered 0-2: 0 never "
                         "ran, 3 found no file")
    assert "`#SBATCH --array=0-2`" in top.fix


def test_a_job_array_range_with_a_step_kept_from_a_sweep_template_leaves_every_other_shard_out(tmp_path: Path) -> None:
    run = _array_over_split_shards(tmp_path, "0-2:2")
    assert not (run / "results" / "shard_1").exists() and (run / "results" / "shard_2").is_dir()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "array_ids_not_the_files_numbers")
    assert top.title == "shards.sbatch runs array tasks 0-2:2, but the files its tasks read are numbered 0-2: 1 never ran"
    assert "`#SBATCH --array=0-2` (drop the step `:2`" in top.fix


def test_a_job_array_numbered_as_its_shards_is_no_finding(tmp_path: Path) -> None:
    run = _array_over_split_shards(tmp_path, "0-2")

    report = diagnose(run)
    assert all(f.id != "array_ids_not_the_files_numbers" for f in report.findings)
    assert all("SLURM_ARRAY_JOB_ID" not in f.fix for f in report.findings)


def test_a_job_array_that_picks_its_shard_by_the_arrays_job_id_finds_no_file(tmp_path: Path) -> None:
    run = _array_over_split_shards(tmp_path, "0-2", index="SLURM_ARRAY_JOB_ID")
    assert not (run / "results" / "shard_0" / "rollouts_materialized_inputs.jsonl").exists()

    top = diagnose(run).causes[0]

    assert top.category == "config", top.title
    assert "shards.sbatch:6 (`SHARD=${SLURM_ARRAY_JOB_ID}`) takes SLURM_ARRAY_JOB_ID" in top.fix
    assert "write `${SLURM_ARRAY_TASK_ID}` there" in top.fix


@pytest.mark.parametrize("limits", ["#SBATCH --time=1", "#SBATCH --time=10 --time-min=1 --deadline=now+75"])
def test_a_serial_collection_ended_by_the_jobs_time_limit_is_throughput_and_names_cpus_per_task(tmp_path: Path,
                                                                                                 limits: str) -> None:
    """Also with a limit Slurm cut down itself: `--time-min` and `--deadline` (a backfill template's) let it shrink
    `--time` to end the job before the deadline."""
    run, checkpoint = _string_match_run(tmp_path, 3)
    with _policy_served(run, checkpoint, "--latency-ms", "3000") as port:
        (run / "collect.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --cpus-per-task=1\n{limits}\n"
            f"cd {run}\n" + _collect_line(port, "$SLURM_CPUS_PER_TASK"))
        subprocess.run(["sbatch", "--wait", str(run / "collect.sbatch")], capture_output=True, timeout=300)
    assert "DUE TO TIME LIMIT" in "".join(p.read_text() for p in run.glob("logs/collect_*.log"))

    report = diagnose(run)

    top = report.causes[0]
    assert top.category == "throughput_resources" and "1 request at a time" in top.title
    assert "collect.sbatch:6 passes `--concurrency $SLURM_CPUS_PER_TASK`" in top.fix
    assert "`#SBATCH --cpus-per-task=1` sets SLURM_CPUS_PER_TASK=1" in top.fix
    assert f"Slurm ended it at the limit collect.sbatch:4 sets (`{limits}`); raise `--time`" in top.fix
    assert ("let Slurm cut that limit down (to `--time-min`)" in top.fix) == ("--time-min" in limits)
    assert any("time limit" in f.title for f in report.consequences_of(top))


def _submitted_with_output_folder(tmp_path: Path, make_folder: bool) -> Path:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    run.mkdir()
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    (run / "nightly.sbatch").write_text(
        "#!/bin/bash\n#SBATCH --output=slurm_logs/eval_%j.out\n#SBATCH --time=2\n"
        f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    (run / "submit.sh").write_text("#!/bin/bash\n" + ("mkdir -p slurm_logs\n" if make_folder else "")
                                   + "sbatch --wait nightly.sbatch\necho \"job done: $?\"\n")
    with (run / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    return run


def test_a_job_whose_output_folder_is_missing_fails_before_running_a_line(tmp_path: Path) -> None:
    run = _submitted_with_output_folder(tmp_path, make_folder=False)
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()  # the job ran nothing

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "job_output_in_a_missing_folder")
    assert [line.where for line in top.evidence] == ["nightly.sbatch:2"]
    assert "`mkdir -p slurm_logs`" in top.fix


def test_a_job_whose_output_folder_was_made_runs(tmp_path: Path) -> None:
    run = _submitted_with_output_folder(tmp_path, make_folder=True)
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(f.id != "job_output_in_a_missing_folder" for f in diagnose(run).findings)


def _submitted_with_chdir(tmp_path: Path, chdir: str | None) -> Path:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    (run / "nightly.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --chdir={chdir or run}\n#SBATCH --time=2\n"
        f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["sbatch", "--wait", "nightly.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       timeout=300)
    return run


def test_a_job_folder_copied_from_a_colleagues_script_runs_the_job_in_tmp(tmp_path: Path) -> None:
    run = _submitted_with_chdir(tmp_path, "/home/akumar/evals/nightly")
    assert "going to /tmp instead" in "".join(p.read_text() for p in run.glob("logs/eval_*.log"))

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "job_folder_copied_from_another_script")
    assert top.evidence[0].where == "nightly.sbatch:3"
    assert "instead of /home/akumar/evals/nightly" in top.fix


def test_a_job_folder_that_is_the_runs_own_is_no_finding(tmp_path: Path) -> None:
    run = _submitted_with_chdir(tmp_path, None)
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(f.id != "job_folder_copied_from_another_script" for f in diagnose(run).findings)


def test_a_job_folder_written_with_a_tilde_is_not_expanded_and_runs_the_job_in_tmp(tmp_path: Path) -> None:
    run = _submitted_with_chdir(tmp_path, "~/evals/nightly")
    assert "going to /tmp instead" in "".join(p.read_text() for p in run.glob("logs/eval_*.log"))

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "job_folder_left_unexpanded")
    assert top.title == ("nightly.sbatch:3 sets the job's folder to `~/evals/nightly`, which no shell expands in an "
                         "#SBATCH line: the job ran in /tmp")
    assert "`#SBATCH --chdir=/home/<user>/evals/nightly`" in top.fix


WAITING_SUBMIT = """#!/bin/bash
cd "$(dirname "$0")"
START_HOLDER
JOB=$(sbatch --parsable ci_eval.sbatch)
for i in $(seq 15); do
  squeue -h -j $JOB | grep -q . || break
  sleep 1
done
squeue -j $JOB -o '%.10i %.9P %.12j %.8T %.10M %R'
if squeue -h -j $JOB | grep -q .; then
  echo "job $JOB still queued after 15 s: cancelling (CI step budget)"
  scancel $JOB
fi
[ -n "$HOLDER" ] && scancel $HOLDER
"""
HOLDER = ("#!/bin/bash\n#SBATCH --job-name=holder\n#SBATCH --exclusive\n#SBATCH --output=/dev/null\n"
          "#SBATCH --time=2\nsleep 60\n")


def _ci_eval_job(tmp_path: Path, directive: str) -> Path:
    """A run folder with its data and ci_eval.sbatch (a job named ci-eval that materializes it), given `directive`."""
    slurm_cluster()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "ci_eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --job-name=ci-eval\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
        f"{directive}\ncd {run}\n{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    return run


def _ci_step(tmp_path: Path, directive: str, holder: bool) -> Path:
    run = _ci_eval_job(tmp_path, directive)
    if holder:
        (run / "server.sbatch").write_text(HOLDER)
    (run / "submit.sh").write_text(WAITING_SUBMIT.replace(
        "START_HOLDER", "HOLDER=$(sbatch --parsable server.sbatch)\nsleep 2" if holder else ""))
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    return run


def test_a_job_held_by_a_begin_time_kept_from_a_template_never_starts(tmp_path: Path) -> None:
    run = _ci_step(tmp_path, "#SBATCH --begin=now+2hours", holder=False)
    assert "(BeginTime)" in (run / "logs" / "submit.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "job_never_started")
    assert [line.where.split(":")[0] for line in top.evidence] == ["logs/submit.log", "ci_eval.sbatch"]
    assert top.fix.startswith("In ci_eval.sbatch, remove `#SBATCH --begin=now+2hours`")


def test_a_job_queued_behind_the_users_own_exclusive_job_never_starts(tmp_path: Path) -> None:
    run = _ci_step(tmp_path, "#SBATCH --cpus-per-task=1", holder=True)
    assert "(Resources)" in (run / "logs" / "submit.log").read_text() or \
        "(Priority)" in (run / "logs" / "submit.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("throughput_resources", "job_never_started")
    assert "in server.sbatch line 3 (`#SBATCH --exclusive`), drop `--exclusive`" in top.fix


def test_a_job_that_starts_within_the_wait_is_no_finding(tmp_path: Path) -> None:
    run = _ci_step(tmp_path, "#SBATCH --cpus-per-task=1", holder=False)
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(f.id != "job_never_started" for f in diagnose(run).findings)


@pytest.mark.parametrize("shell", ["/opt/homebrew/bin/zsh", "/bin/bash"])
def test_a_job_script_naming_a_shell_the_node_lacks_never_runs(tmp_path: Path, shell: str) -> None:
    """The job script's `#!` line, from a laptop's template, names Homebrew's zsh: slurmstepd cannot start it. With
    bash it runs."""
    slurm_cluster()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "nightly.sbatch").write_text(
        f"#!{shell}\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\ncd {run}\n"
        f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["sbatch", "--wait", "nightly.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       timeout=300)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if shell == "/bin/bash":
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert "job_script_interpreter_missing" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("config", "job_script_interpreter_missing"), list(findings)
    assert top.fix.startswith("In nightly.sbatch, make the first line `#!/bin/bash` (instead of "
                              "`#!/opt/homebrew/bin/zsh`")


def _settings_beside_the_job_script(tmp_path: Path, folder: str) -> Path:
    """A job script that reads its settings from `folder`/settings.env, falling back to a quick check's defaults."""
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows))
    (run / "quick_check.jsonl").write_text("".join(rows[:2]))
    (run / "settings.env").write_text("DATA=data.jsonl\nREPEATS=3\n")
    (run / "nightly.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
        f'source "{folder}/settings.env" || echo "(no settings.env: defaults)"\n'
        f"cd {run}\n{' '.join(CLI)} materialize --input ${{DATA:-quick_check.jsonl}} --num-repeats ${{REPEATS:-1}} "
        "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    subprocess.run(["sbatch", "--wait", "nightly.sbatch"], cwd=run, capture_output=True, timeout=300, check=True)
    return run


def test_settings_looked_for_beside_dollar_zero_are_not_found_in_a_job(tmp_path: Path) -> None:
    run = _settings_beside_the_job_script(tmp_path, '$(dirname "$0")')
    assert len((run / "rollouts_materialized_inputs.jsonl").read_text().splitlines()) == 2  # the defaults ran

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "files_looked_for_beside_the_spool_copy")
    assert top.title.startswith("nightly.sbatch:4 looks for settings.env beside `$0`, which in a job is Slurm's copy")
    assert top.fix.startswith("In nightly.sbatch:4, find the file from the folder the job was submitted from: "
                              "`$SLURM_SUBMIT_DIR/settings.env`")


def test_settings_read_from_the_submit_folder_are_found(tmp_path: Path) -> None:
    run = _settings_beside_the_job_script(tmp_path, "$SLURM_SUBMIT_DIR")
    assert len((run / "rollouts_materialized_inputs.jsonl").read_text().splitlines()) > 2

    assert all(f.id != "files_looked_for_beside_the_spool_copy" for f in diagnose(run).findings)


@pytest.mark.parametrize("submitted_from_home", [True, False])
def test_a_job_run_in_its_submit_folder_submitted_from_home_finds_none_of_its_files(
        tmp_path: Path, submitted_from_home: bool) -> None:
    """A weekly submit script (cron starts it in the home folder) submits a job that goes to $SLURM_SUBMIT_DIR and
    reads its data by a relative name. Submitted from the run folder, the job finds it."""
    slurm_cluster()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
        "cd $SLURM_SUBMIT_DIR   # next to the files, wherever the folder is\n"
        f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    (run / "submit.sh").write_text(f"#!/bin/bash\ncd {tmp_path / 'home' if submitted_from_home else run}\n"
                                   f"sbatch --wait {run}/eval.sbatch\necho \"job done: $?\"\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    findings = diagnose(run).findings

    if not submitted_from_home:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "job_submitted_from_another_folder" for f in findings)
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()
    top = findings[0]
    assert (top.category, top.id) == ("config", "job_submitted_from_another_folder")
    assert [line.where for line in top.evidence][:3] == ["submit.sh:2", "submit.sh:3", "eval.sbatch:4"]
    assert "replace `cd $SLURM_SUBMIT_DIR` with a `cd` to the run folder's absolute path" in top.fix


@pytest.mark.parametrize("asks_for_cpus", [False, True])
def test_a_job_reading_slurm_cpus_per_task_without_asking_for_cpus_gets_an_empty_value(
        tmp_path: Path, asks_for_cpus: bool) -> None:
    """The job's repeats come from $SLURM_CPUS_PER_TASK, which Slurm sets only for a job given --cpus-per-task:
    without the directive, materialize gets `--num-repeats` with no value. With it, the job runs."""
    slurm_cluster()
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
        + ("#SBATCH --cpus-per-task=1\n" if asks_for_cpus else "")
        + f"cd {run}\n{' '.join(CLI)} materialize --input data.jsonl --num-repeats $SLURM_CPUS_PER_TASK "
          "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, capture_output=True, timeout=300)

    findings = diagnose(run).findings

    if asks_for_cpus:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "slurm_variable_the_job_never_gets" for f in findings)
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()
    top = findings[0]
    assert (top.category, top.id) == ("config", "slurm_variable_the_job_never_gets")
    assert top.title.startswith("eval.sbatch:5 reads $SLURM_CPUS_PER_TASK, which Slurm sets only for a job given "
                                "--cpus-per-task")
    assert top.fix.startswith("Add `#SBATCH --cpus-per-task=<n>` to eval.sbatch")


@pytest.mark.parametrize("line_ending", ["\r\n", "\n"])
def test_a_batch_script_saved_with_windows_line_endings_is_refused_by_sbatch(tmp_path: Path, line_ending: str) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    script = (f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
              f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n")
    (run / "eval.sbatch").write_bytes(script.replace("\n", line_ending).encode())
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if line_ending == "\n":
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "batch_script_with_windows_line_endings" for f in report.findings)
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()  # no job ran
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "batch_script_with_windows_line_endings")
    assert top.title == "sbatch refused eval.sbatch: it has Windows (CRLF) line endings, so no job was submitted"
    assert top.fix.startswith("Convert eval.sbatch to Unix line endings (`sed -i 's/\\r$//' eval.sbatch`")


@pytest.mark.parametrize("ntasks", [1, 2])
def test_parallel_srun_steps_in_a_job_of_one_task_wait_for_each_other(tmp_path: Path, ntasks: int) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    for shard in (0, 1):
        (run / f"shard_{shard}.jsonl").write_text("".join(rows[shard * 4:shard * 4 + 4]))
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --ntasks={ntasks}\n#SBATCH --time=2\n"
        "# the two shards in parallel, one job step each\nfor i in 0 1; do\n"
        f"  srun --ntasks=1 --exact bash -c \"{' '.join(CLI)} materialize --input shard_$i.jsonl --num-repeats 1 \\\n"
        "    --agent string_match_simple_agent --output inputs_$i.jsonl && sleep 4\" &\ndone\nwait\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    job_log = "".join(path.read_text() for path in run.glob("logs/eval_*.log"))

    report = diagnose(run)

    if ntasks == 2:
        assert "step creation temporarily disabled" not in job_log
        assert all(f.id != "steps_queued_inside_the_job" for f in report.findings)
        return
    assert "step creation temporarily disabled" in job_log
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "steps_queued_inside_the_job")
    assert top.title == ("eval.sbatch starts 2 srun steps at once in a job of `--ntasks=1` (eval.sbatch:3): they "
                         "waited for each other and ran one at a time")
    assert top.fix.startswith("In eval.sbatch, ask for one task per step (`#SBATCH --ntasks=2`")


@pytest.mark.parametrize("lock_held", [True, False])
def test_a_job_waiting_for_a_lock_another_eval_holds_runs_out_of_time(tmp_path: Path, lock_held: bool) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    lock = tmp_path / "model-server.lock"
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=1\n"
        "# one eval at a time on the shared model server\n"
        f"flock {lock} {' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent "
        "string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    holder = subprocess.Popen(["flock", str(lock), "sleep", "300"]) if lock_held else None
    try:
        time.sleep(1)
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)
    finally:
        if holder is not None:
            holder.kill()
            holder.wait(10)

    report = diagnose(run)

    if not lock_held:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "job_spent_its_time_waiting_for_a_lock" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "job_spent_its_time_waiting_for_a_lock")
    assert top.title.startswith(f"eval.sbatch:5 waits for a lock (`flock {lock} ")
    assert top.fix.startswith("In eval.sbatch, bound the wait (`flock -w <seconds> ...`")


@pytest.mark.parametrize("parsable", [False, True])
def test_a_job_chained_on_sbatchs_sentence_instead_of_its_id_is_refused(tmp_path: Path, parsable: bool) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    materialize = (f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
                   "--output {output}\n")
    for name, output in (("first", "first_inputs.jsonl"), ("second", "second_inputs.jsonl")):
        (run / f"{name}.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/{name}_%j.log\n"
                                            f"#SBATCH --time=2\n" + materialize.format(output=output))
    (run / "submit.sh").write_text(f"#!/bin/bash\nJOB=$(sbatch {'--parsable ' if parsable else ''}first.sbatch)\n"
                                   'echo "first: $JOB"\nsbatch --wait --dependency=afterok:$JOB second.sbatch\n'
                                   "sleep 5\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    wait_for(lambda: (run / "first_inputs.jsonl").is_file(), 60)

    report = diagnose(run)

    if parsable:
        assert (run / "second_inputs.jsonl").is_file()
        assert all(f.id != "dependency_on_sbatchs_sentence" for f in report.findings)
        return
    assert not (run / "second_inputs.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "dependency_on_sbatchs_sentence")
    assert top.title == ("submit.sh:2 keeps sbatch's whole sentence in JOB (no --parsable), so the dependency at line 4 "
                         "is not a job id and sbatch refused that job")


@pytest.mark.parametrize("limit", ["exported", "minutes_seconds", "hours"])
def test_a_time_limit_exported_in_the_submitting_shell_or_written_as_minutes_ends_the_job(tmp_path: Path,
                                                                                         limit: str) -> None:
    """`SBATCH_TIMELIMIT=1` exported in the submitting shell overrides the script's `--time=10`; `--time=1:00`, meant
    as an hour, is one minute to Slurm. Either way the job is cancelled after a minute. `--time=1:00:00` runs."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    directive = {"exported": "10", "minutes_seconds": "1:00", "hours": "1:00:00"}[limit]
    environment_of_shell = {**os.environ, **({"SBATCH_TIMELIMIT": "1"} if limit == "exported" else {})}
    with _policy_served(run, checkpoint, "--latency-ms", "20" if limit == "hours" else "3000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time={directive}\n"
            f"cd {run}\n" + _collect_line(port, 1))
        (run / "submit.sh").write_text("#!/bin/bash\nJOB=$(sbatch --parsable eval.sbatch)\n"
                                       "scontrol show job $JOB | grep -E -o 'TimeLimit=[^ ]+'\n"
                                       "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=400,
                           env=environment_of_shell)

    report = diagnose(run)

    if limit == "hours":
        assert "TimeLimit=01:00:00" in (run / "logs" / "submit.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "TimeLimit=00:01:00" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    if limit == "minutes_seconds":
        assert (top.category, top.id) == ("config", "time_given_as_minutes_and_seconds"), [f.title for f in report.causes]
        assert top.title.startswith("eval.sbatch:3 asks for `--time=1:00`, which Slurm reads as 1 minute")
        assert "`#SBATCH --time=1:00:00`" in top.fix
        return
    assert (top.category, top.id) == ("config", "time_limit_other_than_the_directive")
    assert top.title.startswith("The job ran with a time limit of 00:01:00, not the `--time=10` of eval.sbatch:3")
    assert "`unset SBATCH_TIMELIMIT`" in top.fix


@pytest.mark.parametrize("requeued", [True, False])
def test_a_fixed_batch_script_requeued_instead_of_submitted_reruns_the_stored_copy(tmp_path: Path,
                                                                                    requeued: bool) -> None:
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    (run / "dev.jsonl").write_text("".join(rows[:2]))
    (run / "test.jsonl").write_text("".join(rows[2:]))
    script = run / "eval.sbatch"
    script.write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\ncd {run}\n"
                      "DATA=dev.jsonl\n"
                      'echo "== materializing $DATA, restart ${SLURM_RESTART_COUNT:-0}"\n'
                      f"{' '.join(CLI)} materialize --input $DATA --num-repeats 1 --agent string_match_simple_agent "
                      "--output rollouts_materialized_inputs.jsonl\n")
    job = subprocess.run(["sbatch", "--parsable", "--wait", "eval.sbatch"], cwd=run, capture_output=True, text=True,
                         timeout=300).stdout.strip()
    script.write_text(script.read_text().replace("DATA=dev.jsonl", "DATA=test.jsonl"))  # the user's fix
    if requeued:
        subprocess.run(["scontrol", "requeue", job], check=True, timeout=30)
        wait_for(lambda: _job_state(job) == "", JOB_START_WAIT_S)
        wait_for(lambda: "restart 1" in (run / "logs" / f"eval_{job}.log").read_text(), 30)
    else:
        subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, capture_output=True, timeout=300, check=True)

    report = diagnose(run)

    if not requeued:
        assert all(f.id != "inputs_of_another_file_than_the_script_names" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "inputs_of_another_file_than_the_script_names")
    assert top.title.startswith("The run's inputs were materialized from dev.jsonl, but eval.sbatch:5 names test.jsonl")
    assert any("restart 1" in line.text for line in top.evidence)
    assert top.fix.startswith("Submit the fixed script as a new job (`sbatch eval.sbatch`")


@pytest.mark.parametrize("fixed_before_submitting", [False, True])
def test_labels_fixed_while_the_job_waits_never_reach_the_copy_staged_at_submission(tmp_path: Path,
                                                                                    fixed_before_submitting: bool):
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)[:6]
    wrong = "".join(rows).replace('"expected_answer": "', '"expected_answer": "old ', 2)
    data = run / "data.jsonl"
    data.write_text("".join(rows) if fixed_before_submitting else wrong)
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\ncd {run}\n"
        f"{' '.join(CLI)} materialize --input $DATA --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    (run / "submit.sh").write_text(
        "#!/bin/bash\n# stage the data: a running job must not see the shared file change\n"
        "STAGE=staged/$(date +%Y%m%d-%H%M%S)\nmkdir -p $STAGE && cp data.jsonl $STAGE/\n"
        "sbatch --parsable --hold --export=ALL,DATA=$STAGE/data.jsonl eval.sbatch\n")
    job = subprocess.run(["bash", "submit.sh"], cwd=run, capture_output=True, text=True, timeout=60,
                         check=True).stdout.strip()
    data.write_text("".join(rows))  # the labels fixed while the job waits
    subprocess.run(["scontrol", "release", job], check=True, timeout=30)
    wait_for(lambda: _job_state(job) == "", JOB_START_WAIT_S)
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    report = diagnose(run)

    if fixed_before_submitting:
        assert all(f.id != "inputs_from_a_copy_staged_before_a_fix" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "inputs_from_a_copy_staged_before_a_fix")
    assert top.title.endswith("a copy submit.sh:4 staged, and data.jsonl has changed since (2 of its 6 rows differ): "
                              "the run is of the old rows")
    assert top.fix.startswith("Stage the fixed data and submit again (run submit.sh anew")


@pytest.mark.parametrize("other_job_of_that_name", [True, False])
def test_a_singleton_job_waits_for_the_users_other_job_of_the_same_name(tmp_path: Path,
                                                                        other_job_of_that_name: bool) -> None:
    """The template's `--dependency=singleton`: the eval waits while the user's debugging job of the same name runs,
    until the CI step gives up; scontrol's fields say why. With no other job of that name, the eval runs."""
    run = _ci_eval_job(tmp_path, "#SBATCH --dependency=singleton")
    (run / "submit.sh").write_text(
        "#!/bin/bash\nJOB=$(sbatch --parsable ci_eval.sbatch)\necho \"submitted job $JOB\"\n"
        "for i in $(seq 30); do squeue -h -j $JOB | grep -q . || exit 0; sleep 1; done\n"
        "echo \"job $JOB has not finished after 30 s:\"\n"
        "scontrol show job $JOB | grep -E -o '(JobName|JobState|Reason|Dependency)=[^ ]+'\nscancel $JOB\n")
    debugging = subprocess.run(["sbatch", "--parsable", "--job-name=ci-eval", "--output=/dev/null", "--time=2",
                                "--wrap", "sleep 60"], capture_output=True, text=True, check=True,
                               timeout=30).stdout.strip() if other_job_of_that_name else None
    try:
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        if debugging:
            subprocess.run(["scancel", debugging], timeout=30)

    report = diagnose(run)

    if not other_job_of_that_name:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "job_never_started" for f in report.findings)
        return
    assert "Dependency=singleton" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "job_never_started")
    assert top.fix.startswith("In ci_eval.sbatch, remove `#SBATCH --dependency=singleton` (kept from another job's "
                              "template), or give the job a --job-name of its own (`squeue -u $USER -n ci-eval`")


@pytest.mark.parametrize("suspended", [True, False])
def test_a_job_suspended_while_it_collects_is_named_from_its_state(tmp_path: Path, suspended: bool) -> None:
    """The cluster suspends the eval job for a job of higher priority (here `scontrol suspend`, as preemption by
    suspension does): its processes stop, and the submit script gives up after its budget with the run incomplete,
    printing the job's state. Not suspended, the job finishes and the run is healthy."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "150") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=10\n"
            f"cd {run}\n" + _collect_line(port, 1))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nJOB=$(sbatch --parsable eval.sbatch)\necho \"submitted job $JOB\"\necho $JOB > job_id.txt\n"
            "for i in $(seq 60); do squeue -h -j $JOB 2>/dev/null | grep -q . || exit 0; sleep 1; done\n"
            "echo \"job $JOB has not finished after 60 s:\"\nscontrol show job $JOB | grep -E -o 'JobState=[^ ]+'\n"
            "scancel $JOB\n")
        with (run / "logs" / "submit.log").open("w") as log:
            submit = subprocess.Popen(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT)
            if suspended:  # a job of higher priority takes the node once the eval has collected a few rollouts
                wait_for(lambda: (run / "rollouts.jsonl").is_file() and (run / "rollouts.jsonl").stat().st_size > 0,
                         JOB_START_WAIT_S)
                subprocess.run(["scontrol", "suspend", (run / "job_id.txt").read_text().strip()], check=True)
            submit.wait(400)

    report = diagnose(run)

    if not suspended:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "JobState=SUSPENDED" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "job_suspended_while_it_ran"), [f.title for f in report.causes]
    assert top.title.startswith("Slurm suspended job ")
    assert "PreemptMode" in top.fix and "JobState=SUSPENDED" in top.fix


def _node_cpus() -> int:
    shown = subprocess.run(["scontrol", "show", "node"], capture_output=True, text=True, check=True, timeout=30).stdout
    return int(shown.split("CPUTot=", 1)[1].split()[0])


def _node_idle() -> bool:
    """No job of any test is queued, running or completing on the node: its CPUs are all free."""
    queued = subprocess.run(["squeue", "-h"], capture_output=True, text=True, timeout=30).stdout.strip()
    states = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=30).stdout.split()
    node = subprocess.run(["scontrol", "show", "node"], capture_output=True, text=True, timeout=30).stdout
    nothing_allocated = re.search(r"\bCPUAlloc=0\b", node) and re.search(r"\bAllocMem=0\b", node)
    return not queued and states == ["idle"] and bool(nothing_allocated)


def _scheduler_story(submitted: str) -> str:
    """What slurmctld logged about the jobs named in `submitted` (`submitted shard jobs: 1780 1781`), for a failure."""
    ids = re.findall(r"\b\d{2,}\b", submitted.split("\n", 1)[0])
    log = Path(os.environ["SLURM_CONF"]).parent / "slurmctld.log"
    lines = [line for line in log.read_text(errors="replace").splitlines()
             if any(re.search(rf"\b{job}\b", line) for job in ids)] if log.exists() else []
    node = subprocess.run(["scontrol", "show", "node"], capture_output=True, text=True, timeout=30).stdout
    return "\n".join(lines[-20:]) + "\n" + node


def _run_for_two_shard_jobs(tmp_path: Path) -> tuple[Path, Path]:
    """(run folder, checkpoint) of 16 materialized rollouts, on an idle node: the jobs' budget is for them alone (an
    earlier test's job still on the node would hold them back, Priority)."""
    slurm_cluster()
    assert wait_for(_node_idle, JOB_START_WAIT_S), subprocess.run(["sinfo"], capture_output=True, text=True).stdout
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    materialize_file(run / "data.jsonl", run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(2, environment.agent_name))
    return run, checkpoint


@pytest.mark.parametrize("each_takes_the_node", [True, False])
def test_shard_jobs_each_asking_for_every_cpu_of_the_node_queue_behind_each_other(tmp_path: Path,
                                                                                  each_takes_the_node: bool) -> None:
    """A submit script sends one job per shard, meant to run side by side, and gives them a budget. Each job asks
    for every CPU of the node (`--cpus-per-task` kept from a bigger node's template): the second waits PENDING
    (Resources) for the first, and the budget runs out. Asking for half the node, both run at once and finish."""
    run, checkpoint = _run_for_two_shard_jobs(tmp_path)
    cpus = _node_cpus()
    assert cpus >= 2, "the test needs a node of two CPUs or more"
    with _policy_served(run, checkpoint, "--latency-ms", "4000") as port:  # a shard of 8 rows takes about 32 s
        (run / "shard.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=eval-shard\n#SBATCH --output={run}/logs/shard_%j.log\n#SBATCH --time=5\n"
            f"#SBATCH --cpus-per-task={cpus if each_takes_the_node else cpus // 2}\n"
            f"cd {run}\n{' '.join(CLI)} collect --inputs shards/$1 --output collected/$1/rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 1\n")
        (run / "submit.sh").write_text(
            "#!/bin/bash\n# one job per shard, side by side; the CI step gives them a minute\n"
            "mkdir -p shards && split -n l/2 -d rollouts_materialized_inputs.jsonl shards/part_\n"
            "JOBS=\"\"\nfor shard in $(ls shards); do JOBS=\"$JOBS $(sbatch --parsable shard.sbatch $shard)\"; done\n"
            "echo \"submitted shard jobs:$JOBS\"\nIDS=$(echo $JOBS | tr ' ' ',')\n"
            "sleep 3; squeue -h -o '%i %t %r' -j $IDS\n"
            "for i in $(seq 30); do\n  if [ -z \"$(squeue -h -j $IDS)\" ]; then\n"
            "    cat collected/*/rollouts.jsonl > rollouts.jsonl; exit 0\n  fi\n  sleep 2\ndone\n"
            "echo 'shard jobs not finished within the budget:'; squeue -h -o '%i %t %r %M' -j $IDS\n"
            "scancel $JOBS\nexit 1\n")
        with (run / "logs" / "submit.log").open("w") as log:
            finished = subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                                      timeout=300).returncode == 0
    submitted = (run / "logs" / "submit.log").read_text()

    report = diagnose(run)

    if not each_takes_the_node:
        assert finished, submitted + _scheduler_story(submitted)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not finished and " PD " in submitted, submitted
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "job_never_started"), [f.title for f in report.causes]
    assert f"shard.sbatch:5 asks for {cpus} CPUs for each of the jobs a loop submits" in top.cause
    assert f"in shard.sbatch line 5 (`#SBATCH --cpus-per-task={cpus}`), ask for fewer" in top.fix


def _node_memory_mb() -> int:
    shown = subprocess.run(["scontrol", "show", "node"], capture_output=True, text=True, check=True, timeout=30).stdout
    return int(shown.split("RealMemory=", 1)[1].split()[0])


@pytest.mark.parametrize("share_of_the_node", [0.6, 0.3])
def test_shard_jobs_each_asking_for_most_of_the_nodes_memory_run_one_after_another(tmp_path: Path,
                                                                                   share_of_the_node: float) -> None:
    """Two shard jobs, submitted on two lines and meant to run side by side, each ask `--mem` for 60% of the node's
    memory (sized on a bigger cluster's nodes): the second waits PENDING (Resources), printed by an squeue whose
    format adds the memory column, and the budget runs out. The diagnosis names the `--mem` line, not the job's end.
    Asking for 30% each, both run at once and finish."""
    run, checkpoint = _run_for_two_shard_jobs(tmp_path)
    megabytes = int(_node_memory_mb() * share_of_the_node)
    with _policy_served(run, checkpoint, "--latency-ms", "4000") as port:  # a shard of 8 rows takes about 32 s
        (run / "shard.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=eval-shard\n#SBATCH --output={run}/logs/shard_%j.log\n#SBATCH --time=5\n"
            f"#SBATCH --mem={megabytes}M\n"
            f"cd {run}\n{' '.join(CLI)} collect --inputs shard_$SHARD --output collected/$SHARD/rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 1\n")
        (run / "submit.sh").write_text(
            "#!/bin/bash\n# the two shards side by side; the CI step gives them a minute\n"
            "split -n l/2 -d rollouts_materialized_inputs.jsonl shard_\n"
            "A=$(sbatch --parsable --export=ALL,SHARD=00 shard.sbatch)\n"
            "B=$(sbatch --parsable --export=ALL,SHARD=01 shard.sbatch)\n"
            "echo \"submitted shard jobs: $A $B\"\nsleep 3; squeue -h -o '%i %j %T %r %m' -j $A,$B\n"
            "if timeout 63 bash -c \"while squeue -h -j $A,$B | grep -q .; do sleep 2; done\"; then\n"
            "  cat collected/*/rollouts.jsonl > rollouts.jsonl; exit 0\nfi\n"
            "echo 'shard jobs not finished within the budget:'; squeue -h -o '%i %j %T %r %m' -j $A,$B\n"
            "scancel $A $B\nexit 1\n")
        with (run / "logs" / "submit.log").open("w") as log:
            finished = subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                                      timeout=300).returncode == 0
    submitted = (run / "logs" / "submit.log").read_text()

    report = diagnose(run)

    if share_of_the_node < 0.5:
        assert finished, submitted + _scheduler_story(submitted)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not finished and "PENDING Resources" in submitted, submitted
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "job_never_started"), [f.title for f in report.causes]
    assert f"shard.sbatch:5 asks for {megabytes}M of memory for each of the jobs it is submitted as" in top.cause
    assert f"in shard.sbatch line 5 (`#SBATCH --mem={megabytes}M`), ask for the memory one shard needs" in top.fix


@pytest.mark.parametrize("cancel_first", [False, True])
def test_a_submit_script_cancelling_leftover_jobs_by_name_after_its_sbatch_cancels_its_own(tmp_path: Path,
                                                                                           cancel_first: bool) -> None:
    """submit.sh cancels last week's leftover eval with `scancel --name=weekly-eval`, but after the sbatch of this
    week's job of that name: the new job is cancelled before it runs a line, and the script that waits for it exits 0
    with nothing collected. Cancelling before the sbatch, the job runs and the run is healthy."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "20") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\n"
            f"cd {run}\n" + _collect_line(port, 4))
        submit, cancel = "JOB=$(sbatch --parsable eval.sbatch)\necho \"submitted job $JOB\"\n", (
            "# last week's eval, if it still holds the node\nscancel --name=weekly-eval && echo 'cancelled leftovers'\n")
        (run / "submit.sh").write_text("#!/bin/bash\n" + (cancel + submit if cancel_first else submit + cancel)
                                       + "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done\n"
                                       "echo \"job $JOB finished\"\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if cancel_first:
        assert (run / "rollouts.jsonl").is_file()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "submit_script_cancels_its_own_job"), [f.title for f in report.causes]
    assert top.title == ("submit.sh:5 cancels every job named weekly-eval after line 2 submitted this run's job "
                         "(weekly-eval): it cancelled its own job")
    assert [line.where for line in top.evidence] == ["submit.sh:5", "submit.sh:2", "eval.sbatch:2"]
    assert "(move line 5, `scancel --name=weekly-eval && echo 'cancelled leftovers'`, above line 2)" in top.fix


@pytest.mark.parametrize("server_minutes", [1, 5])
def test_a_model_server_job_ended_at_its_own_time_limit_mid_eval_is_named(tmp_path: Path, server_minutes: int) -> None:
    """The model server runs as a job of its own with `--time=1` ("it only has to outlive the eval"); this week's
    generations are slow, and Slurm cancels the server while the eval still collects: the rest of the requests find
    no server (model serving, the server job's directive named). With `--time=5` the server outlives the eval."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(1, environment.agent_name, limit=12))
    port = free_loopback_port()
    (run / "serve.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --job-name=serve-policy\n#SBATCH --output={run}/logs/serve_%j.log\n"
        f"#SBATCH --time={server_minutes}\n# the eval's model server: it only has to outlive the eval\n"
        f"{' '.join(CLI)} serve-policy --port {port} --checkpoint {checkpoint} --latency-ms 8000\n")
    (run / "submit.sh").write_text(
        "#!/bin/bash\nSERVER=$(sbatch --parsable serve.sbatch)\necho \"submitted server job $SERVER\"\n"
        f"until curl -sf http://127.0.0.1:{port}/v1/models >/dev/null; do sleep 1; done\n"
        + _collect_line(port, 1) + "scancel $SERVER\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=600)
    if server_minutes == 1:  # slurmstepd may append its line after the job has left the queue
        assert wait_for(lambda: "DUE TO TIME LIMIT" in "".join(p.read_text() for p in run.glob("logs/serve_*.log")),
                        60)

    report = diagnose(run)

    if server_minutes == 5:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "model_server_job_ended_at_its_time_limit"), [
        f.title for f in report.causes]
    assert top.evidence[1].where == "serve.sbatch:4"
    assert top.fix.startswith("Give the server job a `--time` longer than the whole eval in serve.sbatch (line 4)")


@pytest.mark.parametrize("shortened", [True, False])
def test_a_time_limit_cut_by_the_admins_while_the_job_runs_is_infra(tmp_path: Path, shortened: bool) -> None:
    """The eval job asks for `--time=10`; while it collects, the admins cut its limit to a minute ahead of a
    maintenance window (`scontrol update JobId=... TimeLimit=1`), and Slurm cancels it then. A job of one minute that
    spends 40 s of it in a warm-up `sleep` (kept from a GPU template) before it materializes ran out of its own time:
    the sleep is named, not the admins."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    with _policy_served(run, checkpoint, "--latency-ms", "2000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/eval_%j.log\n"
            f"#SBATCH --time={10 if shortened else 1}\ncd {run}\n" + ("" if shortened else "sleep 40  # warm-up\n")
            + f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n" + _collect_line(port, 1))
        (run / "submit.sh").write_text("#!/bin/bash\nJOB=$(sbatch --parsable eval.sbatch)\necho \"submitted job $JOB\"\n"
                                       "echo $JOB > job_id.txt\n"
                                       "while squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done\n")
        with (run / "logs" / "submit.log").open("w") as log:
            submit = subprocess.Popen(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT)
            if shortened:  # the admins, once the job is collecting
                assert wait_for(lambda: (run / "rollouts.jsonl").is_file() and (run / "rollouts.jsonl").stat().st_size,
                                JOB_START_WAIT_S)
                subprocess.run(["scontrol", "update", f"JobId={(run / 'job_id.txt').read_text().strip()}",
                                "TimeLimit=1"], check=True, timeout=30)
            submit.wait(400)
    # slurmstepd may append its line after the job has left the queue the submit script polls
    assert wait_for(lambda: "DUE TO TIME LIMIT" in "".join(p.read_text() for p in run.glob("logs/eval_*.log")), 60)

    report = diagnose(run)

    if not shortened:
        assert all(f.id != "time_limit_shortened_while_it_ran" for f in report.findings), [f.title for f in report.causes]
        top = report.causes[0]
        assert (top.category, top.id) == ("throughput_resources", "sleep_takes_the_time_limit"), top.title
        assert top.title.startswith("eval.sbatch:6 `sleep 40 # warm-up` sleeps 40 s of the job's 1 min (`--time=1`)")
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "time_limit_shortened_while_it_ran"), [f.title for f in report.causes]
    assert "though eval.sbatch:4 gives it `--time=10`: the limit was cut while it ran" in top.title
    assert [line.where.split(":")[0] for line in top.evidence] == [next(run.glob("logs/eval_*.log")).relative_to(run)
                                                                   .as_posix(), "eval.sbatch", "manifest.json"]
    assert "`scontrol show reservation`" in top.fix


@pytest.mark.parametrize("array", ["0-1%1", "0-1"])
def test_an_array_throttled_to_one_task_runs_its_shards_one_after_another(tmp_path: Path, array: str) -> None:
    """Two shards collected by a job array whose range keeps `%1` from a license-bound template: Slurm holds the
    second task (JobArrayTaskLimit) until the first ends, and the CI step's budget runs out. Without the throttle,
    both run at once and finish."""
    slurm_cluster()
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    for shard in range(2):
        (run / "shards" / str(shard)).mkdir(parents=True)
        (run / "shards" / str(shard) / "tasks.jsonl").write_text("".join(rows[shard * 16:(shard + 1) * 16]))
        materialize_file(run / "shards" / str(shard) / "tasks.jsonl",
                         run / "shards" / str(shard) / "rollouts_materialized_inputs.jsonl",
                         MaterializationSettings(1, environment.agent_name))
    with _policy_served(run, checkpoint, "--latency-ms", "4000") as port:  # a shard of 16 rows takes about 32 s
        (run / "shards.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=eval-shards\n#SBATCH --output={run}/logs/shard_%A_%a.log\n"
            f"#SBATCH --time=5\n#SBATCH --array={array}\ncd {run}/shards/$SLURM_ARRAY_TASK_ID\n"
            + _collect_line(port, 2))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nJOB=$(sbatch --parsable shards.sbatch)\necho \"submitted shard array $JOB\"\n"
            "sleep 3; squeue -h -o '%i %t %r' -j $JOB\n"
            "for i in $(seq 30); do [ -z \"$(squeue -h -j $JOB)\" ] && exit 0; sleep 2; done\n"
            "echo 'shards not finished within the budget:'; squeue -h -o '%i %t %r %M' -j $JOB\nscancel $JOB\nexit 1\n")
        # both CPUs free first: an earlier test's job still ending would hold the second shard (Resources)
        assert wait_for(lambda: not subprocess.run(["squeue", "-h"], capture_output=True, text=True,
                                                   timeout=30).stdout.strip(), JOB_START_WAIT_S)
        with (run / "logs" / "submit.log").open("w") as log:
            finished = subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                                      timeout=300).returncode == 0
    submitted = (run / "logs" / "submit.log").read_text()

    report = diagnose(run)

    if "%" not in array:
        assert finished, submitted
        assert all(f.id != "job_never_started" for f in report.findings), [f.title for f in report.causes]
        return
    assert not finished and "JobArrayTaskLimit" in submitted, submitted
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "job_never_started"), [f.title for f in report.causes]
    assert top.title.startswith("shards.sbatch:5 `#SBATCH --array=0-1%1` lets 1 task of the array run at a time")
    assert top.fix.startswith("In shards.sbatch, raise or drop the throttle `%1`: `#SBATCH --array=0-1`")


@pytest.mark.parametrize("trapped", [False, True])
def test_a_signal_directive_kept_from_a_training_template_ends_a_job_that_does_not_trap_it(tmp_path: Path,
                                                                                           trapped: bool) -> None:
    """`#SBATCH --signal=B:USR1@50`, a training template's cue to save a checkpoint, in an eval job that does not trap
    USR1: the signal's default action ends the job well before its limit. Trapped, the job runs to its limit, and the
    directive is not blamed."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "2000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=1\n"
            "# from the training template: a warning before the limit, to save a checkpoint\n#SBATCH --signal=B:USR1@50\n"
            + ("trap 'echo \"warned: near the time limit\"' USR1\n" if trapped else "")
            + f"cd {run}\n" + _collect_line(port, 1))
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)

    report = diagnose(run)

    if trapped:
        assert all(f.id != "signal_before_the_limit_without_a_trap" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "signal_before_the_limit_without_a_trap"), [f.title for f in report.causes]
    assert top.title.startswith("eval.sbatch:5 `#SBATCH --signal=B:USR1@50` has Slurm send SIGUSR1 50 s before its time "
                                "limit, and nothing in eval.sbatch traps it")
    assert top.fix.startswith("In eval.sbatch, remove `#SBATCH --signal=B:USR1@50`")


@pytest.mark.parametrize("force", [False, True])
def test_a_job_staging_its_data_with_sbcast_reads_last_weeks_node_local_copy(tmp_path: Path, force: bool) -> None:
    """eval.sbatch stages tasks.jsonl on the node's local disk with `sbcast` and reads it there. Last week's job left
    its copy; this week a label is fixed, and sbcast without --force refuses to replace the copy (`File exists`): the
    run scores the model's right answer against last week's label. With --force, healthy."""
    run, checkpoint = _string_match_run(tmp_path, 2)
    (run / "rollouts_materialized_inputs.jsonl").unlink()  # the job materializes its own
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:8]
    local = tmp_path / "node_local"
    local.mkdir()
    (local / "tasks.jsonl").write_text(rows[0].replace('"expected_answer": "', '"expected_answer": "old ')
                                       + "".join(rows[1:]))  # last week's staged copy
    (run / "tasks.jsonl").write_text("".join(rows))
    with _policy_served(run, checkpoint, "--latency-ms", "30") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\ncd {run}\n"
            f"LOCAL={local}\nsbcast {'--force ' if force else ''}tasks.jsonl $LOCAL/tasks.jsonl\n"
            f"{' '.join(CLI)} materialize --input $LOCAL/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n" + _collect_line(port, 4)
            + f"{' '.join(CLI)} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=JOB_START_WAIT_S + 120)

    report = diagnose(run)

    if force:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "File exists" in "".join(log.read_text() for log in (run / "logs").glob("eval_*.log"))
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "stage_copy_not_replaced_by_sbcast"), [
        f.title for f in report.causes]
    assert top.title == ("eval.sbatch:6 stages the data with `sbcast` without --force: it refused to replace "
                         "$LOCAL/tasks.jsonl, which an earlier job left on the node, and the job read that copy")
    assert top.fix.startswith("In eval.sbatch, stage with `sbcast --force tasks.jsonl $LOCAL/tasks.jsonl`")


@pytest.mark.parametrize("test_only", ["directive", "", "checked first"])
def test_a_batch_script_keeping_test_only_submits_nothing(tmp_path: Path, test_only: str) -> None:
    """`#SBATCH --test-only`, added to see when the job would start, left in eval.sbatch: sbatch prints an estimate,
    submits nothing, and the submit script waits for no job. Without it, or with a start-time check on sbatch's
    command line before the real submission, the job runs."""
    run, _ = _string_match_run(tmp_path, 1)
    (run / "rollouts_materialized_inputs.jsonl").unlink()  # the job materializes them
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
        + ("# when would it start?\n#SBATCH --test-only\n" if test_only == "directive" else "")
        + f"cd {run}\n{' '.join(CLI)} materialize --input {get_environment('string_match').dataset_path} "
        "--num-repeats 1 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    (run / "submit.sh").write_text("#!/bin/bash\n" + ("sbatch --test-only eval.sbatch\n" if test_only == "checked first"
                                                       else "") + "JOB=$(sbatch --parsable eval.sbatch)\n"
                                   "echo \"submitted job $JOB\"\nwhile squeue -h -j $JOB 2>/dev/null | grep -q .; do sleep 2; done\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       timeout=JOB_START_WAIT_S + 60)

    report = diagnose(run)

    if test_only != "directive":
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert not any(f.id == "submission_only_tested" for f in report.findings), [f.title for f in report.causes]
        return
    assert "to start at" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "submission_only_tested"), [f.title for f in report.causes]
    assert top.title == ("eval.sbatch:5 asks sbatch for `--test-only`: it printed an estimated start time and "
                         "submitted nothing, so no job ran")
    assert top.fix.startswith("Remove `--test-only` from eval.sbatch:5")


def test_a_collect_step_kept_at_a_one_minute_srun_time_limit_is_cancelled_inside_a_longer_job(tmp_path: Path) -> None:
    """`srun --time=1` on the collect step, from a smoke-test template: Slurm cancels the step at one minute though
    the job may run for ten; the step's own limit is named (throughput), not a limit cut by the admins."""
    run, checkpoint = _string_match_run(tmp_path, 3)
    with _policy_served(run, checkpoint, "--latency-ms", "3000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=10\ncd {run}\n"
            "# each stage its own step, so sacct shows their times (step options from the smoke-test template)\n"
            "srun --ntasks=1 --time=1 " + _collect_line(port, 2))
        subprocess.run(["sbatch", "--wait", str(run / "eval.sbatch")], capture_output=True, timeout=300)
    assert "DUE TO TIME LIMIT" in "".join(p.read_text() for p in run.glob("logs/eval_*.log"))

    report = diagnose(run)

    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "step_ended_at_its_own_srun_time_limit"), [
        f.title for f in report.causes]
    assert top.title.startswith("eval.sbatch:6 gives its step `srun --time=1`: Slurm cancelled step ")
    assert "though the job's `--time=10` had time left" in top.title
    assert top.fix.startswith("In eval.sbatch:6, drop `--time=1` from srun")


@pytest.mark.parametrize("separator", [",", ":"])
def test_a_dataset_list_passed_in_export_with_commas_reaches_the_job_cut_at_the_first(tmp_path: Path,
                                                                                       separator: str) -> None:
    """`sbatch --export=ALL,DATASETS=general.jsonl,held_back.jsonl`: Slurm splits the list at every comma, so the job
    evaluates general.jsonl only (config, the line named). Joined with `:` and split on it, both are evaluated."""
    slurm_cluster()
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    (run / "general.jsonl").write_text("".join(rows[:4]))
    (run / "held_back.jsonl").write_text("".join(rows[4:8]))
    with _policy_served(run, checkpoint, "--latency-ms", "20") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\ncd {run}\n"
            f"IFS='{separator}' read -ra SETS <<< \"$DATASETS\"\necho \"evaluating ${{#SETS[@]}} dataset(s)\"\n"
            f"for set in \"${{SETS[@]}}\"; do\n  name=$(basename $set .jsonl) && mkdir -p results/$name\n"
            f"  {' '.join(CLI)} materialize --input $set --num-repeats 2 --agent string_match_simple_agent "
            "--output results/$name/rollouts_materialized_inputs.jsonl\n"
            f"  {' '.join(CLI)} collect --inputs results/$name/rollouts_materialized_inputs.jsonl --output "
            f"results/$name/rollouts.jsonl --model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
            "done\n")
        (run / "submit.sh").write_text(f"#!/bin/bash\nsbatch --wait --export=ALL,DATASETS=general.jsonl{separator}"
                                       "held_back.jsonl eval.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    evaluated = {path.parent.name for path in run.glob("results/*/rollouts.jsonl")}
    if separator == ":":
        assert evaluated == {"general", "held_back"}
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert evaluated == {"general"}
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "export_value_split_at_its_comma"), [f.title for f in report.causes]
    assert top.title.startswith("submit.sh:2 passes `DATASETS=general.jsonl,held_back.jsonl` in `--export`")


@pytest.mark.parametrize("request_line", ["#SBATCH --tmp=200G  # local NVMe to stage the checkpoint",
                                          "#SBATCH --mem=400G", "#SBATCH --cores-per-socket=64", "#SBATCH --mem=1G"])
def test_a_resource_request_beyond_every_node_is_refused_at_submission(tmp_path: Path, request_line: str) -> None:
    """A directive from a GPU cluster's template asks for more temporary disk (or memory) than the node has: sbatch
    refuses the job and nothing runs (config, the directive named). A request the node can give runs."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "20") as port:
        (run / "eval.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\n"
                                         f"{request_line}\ncd {run}\n" + _collect_line(port, 4))
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)

    report = diagnose(run)

    if request_line == "#SBATCH --mem=1G":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "can not be satisfied" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "request_beyond_every_node"), [f.title for f in report.causes]
    option = request_line.split()[1]
    resource = next(name for key, name in (("tmp", "temporary disk"), ("mem", "memory"),
                                           ("cores", "sockets, cores or threads per node")) if key in option)
    assert top.title == (f"sbatch refused the job: eval.sbatch:4 asks for {resource} ({option}) beyond what any node "
                         "of the partition has")
    assert len(report.causes) == 1, [f.title for f in report.causes]


@pytest.mark.parametrize("mpi_type", ["pmix", "none"])
def test_job_steps_asking_for_an_mpi_plugin_the_cluster_cannot_load_are_named_with_the_setting(tmp_path: Path,
                                                                                                mpi_type: str) -> None:
    """cluster_env.sh, kept from another cluster, exports SLURM_MPI_TYPE=pmix: every srun step of the job fails to
    load the plugin before its command runs (infra, the setting's line named). With `none`, the steps collect."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "cluster_env.sh").write_text(f"# settings for jobs (from the old cluster's wiki)\nexport SLURM_MPI_TYPE={mpi_type}\n")
    with _policy_served(run, checkpoint, "--latency-ms", "20") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\ncd {run}\n"
            "srun --ntasks=1 " + _collect_line(port, 4))
        (run / "submit.sh").write_text(f"#!/bin/bash\nsource {run}/cluster_env.sh\nsbatch --wait eval.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if mpi_type == "none":
        assert (run / "rollouts.jsonl").exists()
        assert all(f.id != "mpi_plugin_the_cluster_cannot_load" for f in report.findings), [
            f.title for f in report.findings]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "mpi_plugin_the_cluster_cannot_load"), [f.title for f in report.causes]
    assert "(cluster_env.sh:2 (`export SLURM_MPI_TYPE=pmix`) asks for it)" in top.title, top.title


@pytest.mark.parametrize("late", [True, False])
def test_an_array_option_given_after_the_batch_script_reaches_the_script_not_slurm(tmp_path: Path, late: bool) -> None:
    """`sbatch --wait shards.sbatch --array=0-2`: sbatch takes what follows the script as the script's arguments, so
    one plain job runs shard 0 and the other shards are never evaluated. Before the script, the array runs them all."""
    submit = "sbatch --wait shards.sbatch --array=0-2" if late else "sbatch --wait --array=0-2 shards.sbatch"
    run = _array_over_split_shards(tmp_path, "0-2", "SLURM_ARRAY_TASK_ID:-0", submit=submit)
    assert (run / "results" / "shard_2").exists() is not late

    report = diagnose(run)

    if not late:
        assert all(f.id != "sbatch_option_after_the_script" for f in report.findings), [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "sbatch_option_after_the_script"), top.title
    assert top.title.startswith("submit.sh:4 gives `--array=0-2` after the batch script shards.sbatch")
    assert "`sbatch --wait --array=0-2 shards.sbatch`" in top.fix


@pytest.mark.parametrize("mode", [0o644, 0o755], ids=["no_execute_bit", "executable"])
def test_a_job_step_slurm_cannot_execute_is_named_with_its_program(tmp_path: Path, mode: int) -> None:
    """The job's step runs a tool script copied without its execute bit (as onto a noexec scratch filesystem):
    slurmstepd's execve() is refused and the step never runs. Executable, the step materializes."""
    slurm_cluster()
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    step = run / "tools" / "eval_step.sh"
    step.parent.mkdir()
    step.write_text(f"#!/bin/bash\ncd {run}\n{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 "
                    "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n")
    step.chmod(mode)
    (run / "eval.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\n"
                                     f"srun {step}\necho \"eval step exit $?\"\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if mode & 0o111:
        assert (run / "rollouts_materialized_inputs.jsonl").is_file()
        assert all(f.id != "known_problems" or "could not execute" not in f.title for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.title) == ("infra", f"Slurm could not execute the job step's program {step}: Permission "
                                                  "denied"), top.title
    assert f"`srun bash {step}`" in top.fix


@pytest.mark.skipif(Path(shutil.which("sh") or "").resolve().name != "dash", reason="/bin/sh is not dash here")
@pytest.mark.parametrize("shebang", ["#!/bin/sh", "#!/bin/bash"])
def test_a_batch_script_saying_sh_but_written_in_bash_stops_at_its_array(tmp_path: Path, shebang: str) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint) as port:
        (run / "collect.sbatch").write_text(
            f"{shebang}\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\ncd {run}\n"
            "COLLECT_OPTS=(--env string_match --concurrency 4)\n"
            + _collect_line(port, 4).replace("--env string_match --concurrency 4", '"${COLLECT_OPTS[@]}"'))
        subprocess.run(["sbatch", "--wait", str(run / "collect.sbatch")], capture_output=True, text=True, timeout=300)

    report = diagnose(run)

    if shebang == "#!/bin/bash":
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "bash_script_run_by_sh")
    assert [line.where for line in top.evidence][1:] == ["collect.sbatch:1", "collect.sbatch:5"]
    assert "slurm_script: 5: Syntax error" in top.evidence[0].text
    assert "Make the first line of collect.sbatch `#!/bin/bash` (instead of `#!/bin/sh`)" in top.fix


@pytest.mark.parametrize("where", ["directive", "command_line"])
def test_a_dependency_directive_naming_a_shell_variable_is_refused_by_sbatch(tmp_path: Path, where: str) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint) as port:
        (run / "prep.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/prep_%j.log\n#SBATCH --time=1\n"
                                         "echo prep done\n")
        (run / "collect.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\n"
            + ("#SBATCH --dependency=afterok:$PREP_JOB\n" if where == "directive" else "")
            + f"cd {run}\n" + _collect_line(port, 4))
        dependency = "" if where == "directive" else "--dependency=afterok:$PREP_JOB "
        (run / "submit.sh").write_text("#!/bin/bash\nexport PREP_JOB=$(sbatch --parsable prep.sbatch)\n"
                                       f"sbatch --wait {dependency}collect.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if where == "command_line":
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Job dependency problem" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "directive_names_a_shell_variable")
    assert [line.where for line in top.evidence] == ["collect.sbatch:4", "logs/submit.log:1"]
    assert "`sbatch --dependency=afterok:$PREP_JOB collect.sbatch`" in top.fix


@pytest.mark.parametrize("answers", ["one_missing", "all_given"])
def test_an_eval_chained_afterok_on_a_prep_that_failed_on_its_data_names_the_preps_last_line(tmp_path: Path,
                                                                                             answers: str) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "answers.csv").write_text("question,answer\nfirst,1\n" + ("second,\n" if answers == "one_missing"
                                                                     else "second,2\n"))
    (run / "prep.py").write_text(
        "import csv, sys\n"
        "for number, row in enumerate(csv.DictReader(open('answers.csv')), 2):\n"
        "    if not row['answer']:\n"
        "        sys.exit(f\"prep: answers.csv line {number}: no answer for {row['question']!r}\")\n"
        "print('prep: every row answered')\n")
    with _policy_served(run, checkpoint) as port:
        (run / "prep.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/prep_%j.log\n#SBATCH --time=1\n"
                                         f"cd {run}\n{sys.executable} prep.py\n")
        (run / "collect.sbatch").write_text(f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n"
                                            f"#SBATCH --time=2\ncd {run}\n" + _collect_line(port, 4))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nPREP=$(sbatch --parsable prep.sbatch)\n"
            "JOB=$(sbatch --parsable --dependency=afterok:$PREP collect.sbatch)\n"
            'echo "prep job $PREP, eval job $JOB (--dependency=afterok:$PREP)"\n'
            "for i in $(seq 40); do\n"
            "  state=$(squeue -h -j $JOB -o '%i %j %T %r')\n"
            '  [ -z "$state" ] && break\n  echo "$state"\n'
            '  case "$state" in *DependencyNeverSatisfied*) scancel $JOB; break;; esac\n  sleep 2\ndone\n')
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if answers == "all_given":
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert "DependencyNeverSatisfied" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "job_never_started")
    assert top.evidence[1].text == "prep: answers.csv line 3: no answer for 'second'"
    assert top.fix.startswith("Fix what ended job ") and "complete or drop those rows in answers.csv" in top.fix


def test_a_job_with_export_none_that_sources_its_settings_itself_is_no_finding(tmp_path: Path) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint) as port:
        (run / "eval_settings.sh").write_text(f"# everything the job needs\nexport MODEL_URL=http://127.0.0.1:{port}/v1\n")
        (run / "collect.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\n#SBATCH --export=NONE\n"
            f"cd {run}\nsource ./eval_settings.sh\n{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl "
            "--output rollouts.jsonl --model-url $MODEL_URL --env string_match\n")
        (run / "submit.sh").write_text("#!/bin/bash\nsource ./eval_settings.sh\nsbatch --wait collect.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]


@pytest.mark.parametrize("job_id", ["SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID"])
def test_array_tasks_writing_under_their_own_job_ids_leave_the_merge_one_shard(tmp_path: Path, job_id: str) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "rollouts_materialized_inputs.jsonl").unlink()  # the merge makes it
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:6]
    (run / "data.jsonl").write_text("".join(rows))
    with _policy_served(run, checkpoint) as port:
        (run / "shards.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --array=0-2\n#SBATCH --output={run}/logs/shard_%A_%a.log\n#SBATCH --time=2\n"
            f"OUT={run}/results/${{{job_id}}}/shard_$SLURM_ARRAY_TASK_ID\nmkdir -p $OUT && cd $OUT\n"
            f"{' '.join(CLI)} materialize --input {run}/shards/shard_$SLURM_ARRAY_TASK_ID.jsonl --num-repeats 1 "
            "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n" + _collect_line(port, 2))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nmkdir -p shards\nsplit -l 2 -d -a 1 --additional-suffix=.jsonl data.jsonl shards/shard_\n"
            "JOB=$(sbatch --parsable --wait shards.sbatch)\n"
            "cat results/$JOB/shard_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl\n"
            "cat results/$JOB/shard_*/rollouts.jsonl > rollouts.jsonl\n"
            f"{' '.join(CLI)} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    merged = (run / "rollouts.jsonl").read_text().splitlines()

    report = diagnose(run)

    if job_id == "SLURM_ARRAY_JOB_ID":  # every shard merged (a `cat` of shards is a fault of its own, named apart)
        assert len(merged) == 6 and len(list((run / "results").iterdir())) == 1
        assert all(f.id != "array_tasks_write_under_their_own_job_ids" for f in report.findings)
        return
    assert len(merged) == 2 and len(list((run / "results").iterdir())) == 3
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "array_tasks_write_under_their_own_job_ids")
    assert top.evidence[0].where == "shards.sbatch:5"
    assert "`${SLURM_ARRAY_JOB_ID}` instead of `${SLURM_JOB_ID}`" in top.fix


@pytest.mark.parametrize("export", ["MODEL_URL=$URL", "ALL,MODEL_URL=$URL"])
def test_a_job_submitted_with_an_export_list_without_all_does_not_find_the_venvs_commands(tmp_path: Path,
                                                                                        export: str) -> None:
    """`sbatch --export=MODEL_URL=...` to pass the server on: the job gets only that variable, not the PATH with the
    activated venv, and `gym-pipeline` called by name is not found. With ALL in the list, the job runs."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint) as port:
        (run / "collect.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/collect_%j.log\n#SBATCH --time=2\ncd {run}\n"
            "gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
            "--model-url $MODEL_URL --env string_match\n")
        (run / "submit.sh").write_text(f"#!/bin/bash\nURL=http://127.0.0.1:{port}/v1\n"
                                       f"sbatch --wait --export={export} collect.sbatch\n")
        activated = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300,
                           env=activated)

    report = diagnose(run)

    if export.startswith("ALL"):
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert "gym-pipeline: command not found" in "".join(p.read_text() for p in run.glob("logs/collect_*.log"))
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "pipeline_command_not_on_path"), [f.title for f in report.causes]
    assert top.evidence[0].where == "submit.sh:3"
    assert "`--export=ALL,MODEL_URL=$URL`" in top.fix


@pytest.mark.parametrize("given", ["--array=0", ""])
def test_an_array_range_given_on_sbatchs_command_line_overrides_the_scripts_directive(tmp_path: Path, given: str) -> None:
    """`SBATCH_ARGS="--wait --array=0"`, kept from a trial of one shard, and `#SBATCH --array=0-2` in the script: the
    command line wins, so shards 1 and 2 are never evaluated (config: both lines named). Without it, all three run."""
    run = _array_over_split_shards(tmp_path, "0-2", submit=f'SBATCH_ARGS="--wait {given}"  # trying the array first\n'
                                   "sbatch $SBATCH_ARGS shards.sbatch", directive=True)
    assert (run / "results" / "shard_2").exists() is not bool(given)

    report = diagnose(run)

    if not given:
        assert all(f.id != "array_range_overridden_on_the_command_line" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "array_range_overridden_on_the_command_line"), [
        f.title for f in report.causes]
    assert top.title == ("submit.sh:4 gives sbatch `--array=0`, which overrides shards.sbatch's `#SBATCH --array=0-2`: "
                         "array tasks 1, 2 never ran")
    assert [line.where for line in top.evidence] == ["submit.sh:4", "shards.sbatch:2"]


@pytest.mark.parametrize("exported", [False, True])
def test_a_variable_the_submit_script_sets_without_export_is_not_the_jobs(tmp_path: Path, exported: bool) -> None:
    """`REPEATS=2` in submit.sh, read by the job as `${REPEATS:-1}`: without `export` it stays in the submitting
    shell, and the job materializes one repeat per task, silently (config: the three lines named). Exported, the job
    gets it."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "rollouts_materialized_inputs.jsonl").unlink()  # the job materializes them
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:4]
    (run / "data.jsonl").write_text("".join(rows))
    with _policy_served(run, checkpoint) as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=2\ncd {run}\n"
            f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats ${{REPEATS:-1}} "
            "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n" + _collect_line(port, 2))
        (run / "submit.sh").write_text("#!/bin/bash\n# the pass@2 study: two samples per task\n"
                                       + ("export " if exported else "") + "REPEATS=2\nsbatch --wait eval.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=JOB_START_WAIT_S + 60)
    materialized = (run / "rollouts_materialized_inputs.jsonl").read_text().splitlines()
    assert len(materialized) == (8 if exported else 4)

    report = diagnose(run)

    if exported:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "variable_set_without_export_for_a_child_process"), [
        f.title for f in report.causes]
    assert top.title == ("submit.sh:3 sets REPEATS=2 without `export`, and eval.sbatch, started at line 4, ran with its "
                         "default (1) instead")
    assert "`export REPEATS=2`" in top.fix


@pytest.mark.parametrize("ignore_pbs", [False, True])
def test_a_pbs_walltime_kept_in_a_ported_batch_script_becomes_the_jobs_time_limit(tmp_path: Path,
                                                                                 ignore_pbs: bool) -> None:
    """A batch script ported from a PBS cluster keeps `#PBS -l walltime=00:01:00` "for the record": sbatch honours
    it, and Slurm cancels the job after a minute, part way through the collection (config: the #PBS line named).
    Submitted with `--ignore-pbs`, the job runs to the end."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "1200") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#PBS -N weekly-eval\n#PBS -l walltime=00:01:00\n#SBATCH --output={run}/logs/eval_%j.log\n"
            f"# ported from the old PBS cluster, its #PBS lines kept for the record\ncd {run}\n" + _collect_line(port, 1))
        (run / "submit.sh").write_text("#!/bin/bash\nsbatch --wait " + ("--ignore-pbs " if ignore_pbs else "")
                                       + "eval.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=400)
    logs = "".join(path.read_text() for path in run.glob("logs/eval_*.log"))
    assert ("DUE TO TIME LIMIT" in logs) is not ignore_pbs, logs[-2000:]

    report = diagnose(run)

    if ignore_pbs:
        assert all(f.id != "pbs_walltime_kept_in_a_batch_script" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "pbs_walltime_kept_in_a_batch_script"), [f.title for f in report.causes]
    assert top.title.startswith("eval.sbatch:3 keeps `#PBS -l walltime=00:01:00` from a PBS cluster")
    assert "--ignore-pbs" in top.fix


@pytest.mark.parametrize("max_time", [1, 5])
def test_a_job_longer_than_its_partitions_max_time_stays_pending(tmp_path: Path, max_time: int) -> None:
    """A partition whose MaxTime the admins set below the job's `--time=2` (a partition of its own here, made for
    the test): Slurm keeps the job PENDING (PartitionTimeLimit) instead of refusing it, and the CI step's wait runs
    out (infra: the partition's limit, with the job's --time line). With a MaxTime the job fits, it runs."""
    partition = f"short{abs(hash(tmp_path)) % 10_000}"
    run = _ci_eval_job(tmp_path, f"#SBATCH --partition={partition}")
    node = subprocess.run(["sinfo", "-h", "-o", "%N"], capture_output=True, text=True, check=True).stdout.split()[0]
    subprocess.run(["scontrol", "create", f"PartitionName={partition}", f"Nodes={node}", f"MaxTime={max_time}",
                    "State=UP"], check=True)
    try:
        (run / "submit.sh").write_text(WAITING_SUBMIT.replace("START_HOLDER", ""))
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        subprocess.run(["scontrol", "delete", f"PartitionName={partition}"], check=False)

    report = diagnose(run)

    if max_time == 5:
        assert all(f.id != "job_never_started" for f in report.findings), [f.title for f in report.causes]
        return
    assert "PartitionTimeLimit" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "job_never_started"), [f.title for f in report.causes]
    assert "PENDING (PartitionTimeLimit)" in top.title and top.evidence[-1].where == "ci_eval.sbatch:4"


@pytest.mark.parametrize("commented_out", [False, True])
def test_a_licence_the_cluster_does_not_define_is_refused_at_submission(tmp_path: Path, commented_out: bool) -> None:
    """`#SBATCH --licenses=judge_slots:1` kept from the old cluster's template: this cluster defines no such licence,
    so sbatch refuses the job (config: the directive named, with the command that lists the cluster's licences).
    Commented out with a second `#`, it is a comment to sbatch and the job runs."""
    run = _ci_eval_job(tmp_path, ("##" if commented_out else "#") + "SBATCH --licenses=judge_slots:1")
    (run / "submit.sh").write_text("#!/bin/bash\nsbatch --wait ci_eval.sbatch\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    assert (run / "rollouts_materialized_inputs.jsonl").exists() is commented_out

    report = diagnose(run)

    if commented_out:
        assert all(f.id != "name_the_cluster_does_not_define" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "name_the_cluster_does_not_define"), [f.title for f in report.causes]
    assert top.title == ("sbatch refused the job (Invalid license specification): ci_eval.sbatch:5 asks for a license "
                         "this cluster does not define")
    assert "`scontrol show licenses`" in top.fix


@pytest.mark.parametrize("old_cluster", [True, False])
def test_a_node_the_cluster_does_not_have_is_refused_at_submission(tmp_path: Path, old_cluster: bool) -> None:
    """`#SBATCH --nodelist=gpu-a100-07` kept from the old cluster's template: sbatch refuses the job (config: the
    directive named, with the command that lists the nodes). Naming this cluster's node, the job runs."""
    node = subprocess.run(["sinfo", "-h", "-o", "%N"], capture_output=True, text=True, check=True).stdout.split()[0]
    run = _ci_eval_job(tmp_path, f"#SBATCH --nodelist={'gpu-a100-07' if old_cluster else node}")
    (run / "submit.sh").write_text("#!/bin/bash\nsbatch --wait ci_eval.sbatch\n")
    with (run / "logs" / "submit.log").open("w") as log:
        subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    assert (run / "rollouts_materialized_inputs.jsonl").exists() is not old_cluster

    report = diagnose(run)

    if not old_cluster:
        assert all(f.id != "name_the_cluster_does_not_define" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "name_the_cluster_does_not_define"), [f.title for f in report.causes]
    assert top.title == ("sbatch refused the job (Invalid node name specified): ci_eval.sbatch:5 asks for a node name "
                         "this cluster does not define")
    assert top.fix.startswith("In ci_eval.sbatch:5, drop `--nodelist=gpu-a100-07` (its #SBATCH line)"), top.fix


@pytest.mark.parametrize("alloc_nodes", ["login01", "ALL"])
def test_a_partition_closed_to_the_submitting_host_refuses_the_job(tmp_path: Path, alloc_nodes: str) -> None:
    """The admins let jobs into a partition from the login nodes only (`AllocNodes=login01`, on a partition the
    test makes): submitted from this node, sbatch answers Access/permission denied (infra: the partition's
    AllocNodes, not the job's options). Open to every host, the same submission runs."""
    partition = f"logins{abs(hash(tmp_path)) % 10_000}"
    run = _ci_eval_job(tmp_path, f"#SBATCH --partition={partition}")
    node = subprocess.run(["sinfo", "-h", "-o", "%N"], capture_output=True, text=True, check=True).stdout.split()[0]
    subprocess.run(["scontrol", "create", f"PartitionName={partition}", f"Nodes={node}", f"AllocNodes={alloc_nodes}",
                    "State=UP"], check=True)
    try:
        (run / "submit.sh").write_text("#!/bin/bash\nsbatch --wait ci_eval.sbatch\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        subprocess.run(["scontrol", "delete", f"PartitionName={partition}"], check=False)
    assert (run / "rollouts_materialized_inputs.jsonl").exists() is (alloc_nodes == "ALL")

    report = diagnose(run)

    if alloc_nodes == "ALL":
        assert all(f.id != "partition_closed_to_the_submitter" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "partition_closed_to_the_submitter"), [f.title for f in report.causes]
    assert f"partition `{partition}`" in top.title
    assert f"`scontrol show partition {partition}`" in top.fix


@pytest.mark.parametrize("cleared", [False, True])
def test_a_wait_for_a_completion_line_that_last_weeks_job_left_in_its_append_mode_log(tmp_path: Path,
                                                                                      cleared: bool) -> None:
    """The weekly job logs to one file in append mode; publish.sh submits it and waits until `grep` finds its
    completion line, then publishes: last week's line is already there, so it publishes before this week's job ran
    (cache/resume: the wait, the two lines and the append directive named). Removing the log before submitting, the
    wait ends on this week's line."""
    run = _ci_eval_job(tmp_path, "")
    (run / "eval.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/weekly_eval.log\n"
        f"#SBATCH --open-mode=append\n#SBATCH --time=2\ncd {run}\necho \"== weekly eval, job $SLURM_JOB_ID\"\nsleep 3\n"
        f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\necho \"EVAL COMPLETE job $SLURM_JOB_ID\"\n")
    subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, check=True, capture_output=True, timeout=120)
    (run / "publish.sh").write_text(
        "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n" + ("rm -f logs/weekly_eval.log\n" if cleared else "")
        + "JOB=$(sbatch --parsable eval.sbatch)\necho \"Submitted batch job $JOB\"\n"
        "until grep -q \"EVAL COMPLETE\" logs/weekly_eval.log 2>/dev/null; do sleep 1; done\n"
        "echo publishing; cp rollouts_materialized_inputs.jsonl published.jsonl\n")
    with (run / "logs" / "publish.log").open("w") as log:
        subprocess.run(["bash", "publish.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    job = (run / "logs" / "publish.log").read_text().split("Submitted batch job ")[1].split()[0]
    assert wait_for(lambda: not subprocess.run(["squeue", "-h", "-j", job], capture_output=True, text=True).stdout,
                    120)
    completions = [line for line in (run / "logs" / "weekly_eval.log").read_text().splitlines() if "EVAL COMPLETE" in line]
    assert completions[-1] == f"EVAL COMPLETE job {job}" and len(completions) == (1 if cleared else 2)

    report = diagnose(run)

    if cleared:
        assert all(f.id != "completion_line_of_an_earlier_run" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "completion_line_of_an_earlier_run"), [
        f.title for f in report.causes]
    assert top.title.startswith("publish.sh:5 waits for 'EVAL COMPLETE' in logs/weekly_eval.log, which an earlier run "
                                "already wrote there")
    assert "`#SBATCH --open-mode=append` (eval.sbatch:4)" in top.cause and "sbatch --wait" in top.fix


@pytest.mark.parametrize("dependency", ["afterok:${ARRAY}_0", "afterok:${ARRAY}"], ids=["one_task", "whole_array"])
def test_a_merge_job_chained_on_one_task_of_the_shard_array_merges_too_early(tmp_path: Path, dependency: str) -> None:
    """Three shard tasks collect (the later ones start later), and a merge job chained with `afterok:${ARRAY}_0`, the
    array as squeue shows it, concatenates their rollouts: it waits for task 0 only and merges before the others are
    done (config: the dependency line). Chained on the array's id, it waits for every task and the run is whole."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint, "--latency-ms", "300") as port:
        (run / "shard.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --array=0-2\n#SBATCH --output={run}/logs/shard_%A_%a.log\n#SBATCH --time=3\n"
            f"cd {run}\nID=$SLURM_ARRAY_TASK_ID\nsleep $((ID * 5))  # spread the shards' start over the server\n"
            f"mkdir -p out_$ID\n{' '.join(CLI)} collect --inputs shard_0$ID.jsonl --output out_$ID/rollouts.jsonl "
            f"--model-url http://127.0.0.1:{port}/v1 --env string_match --concurrency 2\n")
        (run / "merge.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=eval-merge\n#SBATCH --output={run}/logs/merge_%j.log\n#SBATCH --time=2\n"
            f"cd {run}\ncat out_*/rollouts.jsonl > rollouts.jsonl\nwc -l rollouts.jsonl\n")
        (run / "submit.sh").write_text(
            "#!/bin/bash\ncd \"$(dirname \"$0\")\"\n"
            "split -n l/3 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_\n"
            f"ARRAY=$(sbatch --parsable shard.sbatch)\nMERGE=$(sbatch --parsable --dependency={dependency} "
            "merge.sbatch)\necho \"merge job $MERGE\"\n"
            "while squeue -h -j $ARRAY,$MERGE 2>/dev/null | grep -q .; do sleep 1; done\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    merged = len((run / "rollouts.jsonl").read_text().splitlines())
    inputs = len((run / "rollouts_materialized_inputs.jsonl").read_text().splitlines())
    assert (merged < inputs) is dependency.endswith("_0"), (merged, inputs)

    report = diagnose(run)

    if not dependency.endswith("_0"):
        assert all(f.id != "dependency_on_one_array_task" for f in report.findings), [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "dependency_on_one_array_task"), [f.title for f in report.causes]
    assert top.title.startswith("submit.sh:5 chains the next job on task 0 of the array only (`afterok:${ARRAY}_0`)")
    assert "`--dependency=afterok:${ARRAY}`" in top.fix


@pytest.mark.parametrize("in_container", [True, False])
def test_a_step_run_in_a_pyxis_container_on_a_cluster_without_pyxis(tmp_path: Path, in_container: bool) -> None:
    """eval.sbatch, written for a cluster with pyxis, runs its collect step with `srun --container-image=...`: this
    cluster's srun has no such option, and the step never runs (infra: the plugin, not the job). Without the
    container options, the same step collects."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    container = "--container-image=/shared/images/gym-eval.sqsh --container-mounts=/work " if in_container else ""
    with _policy_served(run, checkpoint, "--latency-ms", "20") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\ncd {run}\n"
            f"srun --ntasks=1 {container}" + _collect_line(port, 4))
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)
    assert (run / "rollouts.jsonl").exists() is not in_container

    report = diagnose(run)

    if not in_container:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "container_option_without_pyxis"), [f.title for f in report.causes]
    assert top.title.startswith("srun does not know `--container-image`") and top.evidence[-1].where == "eval.sbatch:5"


@pytest.mark.parametrize("array_given", [False, True])
def test_a_shard_script_submitted_through_sbatch_wrap_loses_its_array_directive(tmp_path: Path,
                                                                                array_given: bool) -> None:
    """CI glue submits shards.sbatch as `sbatch --wrap "bash shards.sbatch"`: its `#SBATCH --array=0-2` is a comment
    to bash, so one plain job materializes the shard an unset SLURM_ARRAY_TASK_ID falls back to (config: the wrap
    line and the directive). Given `--array=0-2` beside the wrap, every shard is done."""
    run = _array_over_split_shards(
        tmp_path, "0-2", index="SLURM_ARRAY_TASK_ID:-0",
        submit=f"sbatch --wait {'--array=0-2 ' if array_given else ''}--output={tmp_path}/run/logs/shard_%a.log "
               "--wrap \"bash shards.sbatch\"", directive=True)
    shards_done = sorted(path.name for path in (run / "results").iterdir())
    assert shards_done == (["shard_0", "shard_1", "shard_2"] if array_given else ["shard_0"]), shards_done

    report = diagnose(run)

    if array_given:
        assert all(f.id != "array_directive_of_a_wrapped_script" for f in report.findings), [
            f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "array_directive_of_a_wrapped_script"), [f.title for f in report.causes]
    assert top.title.startswith("submit.sh:4 submits shards.sbatch with `sbatch --wrap`, so its `#SBATCH --array=0-2` "
                                "is never read")


@pytest.mark.parametrize("scratch_here", [False, True])
def test_a_job_output_folder_linked_into_scratch_this_node_lacks_fails_the_job_at_launch(tmp_path: Path,
                                                                                        scratch_here: bool) -> None:
    """The run's logs/ is a symlink into node-local scratch (made on the nodes that mount it), and the job writes its
    output there: on this node the link points nowhere, Slurm cannot open the output file and the job fails at
    launch (infra). With the scratch folder present, the job runs: healthy."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    scratch = tmp_path / "scratch-local" / "evals" / "logs"
    if scratch_here:
        scratch.mkdir(parents=True)
    server = tmp_path / "server"  # the model server's log is kept outside the run folder, whose logs/ is the link
    (server / "logs").mkdir(parents=True)
    (run / "logs").rmdir()
    (run / "logs").symlink_to(scratch)
    with _policy_served(server, checkpoint) as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output=logs/eval_%j.log\n#SBATCH --time=5\n"
            f"cd {run}\n" + _collect_line(port, 4))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nls -l logs\nJOB=$(sbatch --parsable eval.sbatch)\necho \"submitted eval job $JOB\"\n"
            "timeout 120 bash -c \"while squeue -h -j $JOB | grep -q .; do sleep 2; done\"\n"
            "scontrol show job $JOB | grep -E 'JobState'\n")
        with (run / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if scratch_here:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists(), (run / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "job_output_in_a_link_to_a_missing_folder"), [
        f.title for f in report.causes]
    assert top.title == (f"The job's output folder logs/ is a symlink to {scratch}, which this node does not have: the "
                         "job failed at launch, before running a line")


@pytest.mark.parametrize("propagate", ["", " --propagate=NONE"], ids=["default", "none"])
def test_a_cpu_time_cap_of_the_submitting_shell_is_inherited_by_the_job(tmp_path: Path, propagate: str) -> None:
    """A CI runner's hook caps every step's processes at 1 s of CPU (`ulimit -t 1`, against runaway lint steps), and
    the step submits the eval job: Slurm copies the submitting shell's limits into the job, whose collect dies of
    SIGXCPU though nothing of the run sets the limit (infra, the propagation named). Submitted with
    `--propagate=NONE`, the job runs with the node's limits: healthy."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    with _policy_served(run, checkpoint) as port:
        # the job's prep step digests the data before materializing it (a few seconds of CPU: past a 1 s cap
        # whatever the machine's speed), and the collection runs on what it made
        (run / "rollouts_materialized_inputs.jsonl").unlink()
        dataset = get_environment("string_match").dataset_path
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\n"
            f"cd {run}\n{sys.executable} -c \"import hashlib; [hashlib.sha256(bytes(4 << 20)).digest() "
            "for _ in range(1500)]\" && \\\n"
            f"  {' '.join(CLI)} materialize --input {dataset} --num-repeats 1 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl && \\\n  " + _collect_line(port, 4))
        (run / "submit.sh").write_text(
            f"#!/bin/bash\nJOB=$(sbatch --parsable{propagate} eval.sbatch)\necho \"submitted eval job $JOB\"\n"
            "timeout 240 bash -c \"while squeue -h -j $JOB | grep -q .; do sleep 2; done\"\n"
            "cat logs/eval_$JOB.log\n")
        with (run / "logs" / "submit.log").open("w") as log:  # the CI step: its hook's cap, then the step's script
            subprocess.run(["bash", "-c", "ulimit -t 1; bash submit.sh"], cwd=run, stdout=log,
                           stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if propagate:
        assert (run / "rollouts.jsonl").exists(), (run / "logs" / "submit.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "CPU time limit exceeded" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "process_limits"), [f.title for f in report.causes]
    assert "died of SIGXCPU (CPU time limit), which neither its script nor the run sets" in top.title
    assert "`sbatch --propagate=NONE`" in top.fix and "`ulimit -t unlimited` in the shell that runs submit.sh" in top.fix


@pytest.mark.parametrize("uid", ["nobody", ""])
def test_a_job_run_as_an_unprivileged_user_cannot_write_its_output_folder(tmp_path: Path, uid: str) -> None:
    """A CI policy submits batch jobs as `nobody` (`sbatch --uid=nobody`), and the run folder's logs/ is the
    submitter's, mode 755: slurmd cannot create the job's output file as nobody, and the job fails at launch (infra,
    the option and the folder named). Submitted as the folder's owner, the job runs: healthy."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "logs").chmod(0o755)
    with _policy_served(run, checkpoint) as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\n"
            f"cd {run}\n" + _collect_line(port, 4))
        options = f" --uid={uid} --gid=nogroup" if uid else ""
        (run / "submit.sh").write_text(
            f"#!/bin/bash\n# CI policy: batch jobs run unprivileged\nJOB=$(sbatch --parsable{options} eval.sbatch)\n"
            "echo \"submitted eval job $JOB\"\n"
            "timeout 240 bash -c \"while squeue -h -j $JOB | grep -q .; do sleep 2; done\"\n"
            "cat logs/eval_$JOB.log\nls -ld . logs\n")
        with (run / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)

    report = diagnose(run)

    if not uid:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists(), (run / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "job_run_as_a_user_who_cannot_write_its_output"), [
        f.title for f in report.causes]
    assert top.title.startswith("submit.sh:3 runs the job as `nobody` (`--uid=nobody`), who cannot write its output "
                                "folder logs/ (owned by root, `drwxr-xr-x`)"), top.title
    assert "(without `--uid=nobody`)" in top.fix and "chmod" in top.fix


@pytest.mark.parametrize("name_option", [" -J smoke-eval", ""], ids=["renamed", "directive"])
def test_a_job_renamed_on_sbatchs_command_line_runs_the_settings_of_that_name(tmp_path: Path, name_option: str) -> None:
    """One eval script for every pipeline picks its settings from eval_settings.json by $SLURM_JOB_NAME and names itself
    weekly-eval with `#SBATCH --job-name`; the submit script, copied from the smoke pipeline, keeps `sbatch -J
    smoke-eval`, which beats the directive: the job runs the smoke entry (config). Without `-J`, the weekly entry."""
    run, checkpoint = _string_match_run(tmp_path, 1)
    (run / "eval_settings.json").write_text('{"weekly-eval": {"repeats": 2}, "smoke-eval": {"repeats": 1}}\n')
    with _policy_served(run, checkpoint) as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --job-name=weekly-eval\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=5\n"
            f"cd {run}\n"
            f"REPEATS=$({sys.executable} -c \"import json, os; print(json.load(open('eval_settings.json'))"
            "[os.environ['SLURM_JOB_NAME']]['repeats'])\")\n"
            f"echo \"job $SLURM_JOB_NAME: $REPEATS repeats\"\n"
            f"{' '.join(CLI)} materialize --input data.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n" + _collect_line(port, 4))
        (run / "data.jsonl").write_text(get_environment("string_match").dataset_path.read_text())
        (run / "submit.sh").write_text(
            f"#!/bin/bash\n# (from the smoke-test pipeline)\nJOB=$(sbatch --parsable{name_option} eval.sbatch)\n"
            "timeout 240 bash -c \"while squeue -h -j $JOB | grep -q .; do sleep 2; done\"\ncat logs/eval_$JOB.log\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    log = (run / "logs" / "submit.log").read_text()

    report = diagnose(run)

    if not name_option:
        assert "job weekly-eval: 2 repeats" in log, log
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "job smoke-eval: 1 repeats" in log, log
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "job_renamed_on_the_command_line"), [f.title for f in report.causes]
    assert top.title.startswith("submit.sh:3 submits eval.sbatch with `-J smoke-eval`, which overrides its "
                                "`#SBATCH --job-name=weekly-eval`")


@pytest.mark.parametrize("lookup", ["squeue", "parsable"])
def test_a_server_job_found_by_name_is_last_weeks_still_running_one(tmp_path: Path, lookup: str) -> None:
    run, _ = _string_match_run(tmp_path, 2)
    checkpoints = tmp_path / "checkpoints"
    demo_checkpoints(checkpoints, 2, ["string_match"])  # step_0100, step_0200
    name = f"serve-{tmp_path.name[-12:]}"  # this test's jobs only
    (run / "serve.sbatch").write_text(
        f"#!/bin/bash\n#SBATCH --job-name={name}\n#SBATCH --output={run}/logs/serve_%j.log\n#SBATCH --time=5\n"
        "# the team's model-server job: serves the checkpoint given as its argument; its URL goes to server_<id>.url\n"
        f'echo "serving $1"\nexec {" ".join(CLI)} serve-policy --port 0 --ready-file {run}/server_$SLURM_JOB_ID.url '
        "--checkpoint $1 --latency-ms 20\n")
    find = (f"sbatch --parsable serve.sbatch {checkpoints}/step_0200 >> job_ids.txt\n"
            f"SERVER=$(squeue -h --me -n {name} -o %i -S i | head -1)\n" if lookup == "squeue" else
            f"SERVER=$(sbatch --parsable serve.sbatch {checkpoints}/step_0200)\n")
    (run / "submit.sh").write_text(
        "#!/bin/bash\n# submit.sh: this week's model server, then the eval against it\n" + find
        + 'echo "model server job: $SERVER"\n'
        "for i in $(seq 150); do [ -s server_$SERVER.url ] && break; sleep 1; done\n"
        f"MODEL_URL=$(cat server_$SERVER.url)\n{' '.join(CLI)} collect --inputs rollouts_materialized_inputs.jsonl "
        "--output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4\n")
    last_week = subprocess.run(["sbatch", "--parsable", "serve.sbatch", str(checkpoints / "step_0100")], cwd=run,
                               capture_output=True, text=True, check=True, timeout=30).stdout.strip()
    try:
        assert wait_for(lambda: (run / f"server_{last_week}.url").exists(), JOB_START_WAIT_S + SERVER_START_WAIT_S)
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=400)
        # this week's server up too (its log says what it serves) before both are cancelled
        assert wait_for(lambda: len(list(run.glob("server_*.url"))) == 2, JOB_START_WAIT_S + SERVER_START_WAIT_S)
    finally:
        subprocess.run(["scancel", "-n", name], check=False, timeout=30)
        wait_for(lambda: not subprocess.run(["squeue", "-h", "-n", name], capture_output=True, text=True,
                                            timeout=30).stdout.strip(), 60)
    served = {log.name: log.read_text() for log in (run / "logs").glob("serve_*.log")}
    assert len(served) == 2 and (run / "rollouts.jsonl").exists(), ((run / "logs" / "submit.log").read_text(), served)

    report = diagnose(run)

    if lookup == "parsable":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"model server job: {last_week}" in (run / "logs" / "submit.log").read_text()  # the older job was listed first
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "rollouts_from_a_server_the_run_did_not_start"), [
        f.title for f in report.causes]
    assert top.evidence[0].where == "submit.sh:3"
    assert "looking the job up by name with `squeue`" in top.fix and "with `scancel`" in top.fix


@pytest.mark.parametrize("locked", [True, False])
def test_shards_each_taking_the_same_lock_run_in_turn_past_the_time_limit(tmp_path: Path, locked: bool) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    lock = "flock logs/collect.lock " if locked else ""
    with _policy_served(run, checkpoint, "--latency-ms", "1000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=1\ncd {run}\n"
            "split -n l/3 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shard_\n"
            "for s in shard_0*.jsonl; do\n  # two evals must never collect on this node at once\n"
            f"  {lock}{' '.join(CLI)} collect --inputs $s --output ${{s%.jsonl}}/rollouts.jsonl --model-url "
            f"http://127.0.0.1:{port}/v1 --env string_match --concurrency 1 &\ndone\nwait\n"
            "cat shard_0*/rollouts.jsonl > rollouts.jsonl\n")
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)

    report = diagnose(run)

    if not locked:
        assert len((run / "rollouts.jsonl").read_text().splitlines()) == len(
            (run / "rollouts_materialized_inputs.jsonl").read_text().splitlines())
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "shards_wait_for_each_others_lock"), [
        f.title for f in report.causes]
    assert top.title.startswith("eval.sbatch:8 starts each shard's collect under the same lock")
    assert "take the lock once around the whole step" in top.fix


@pytest.mark.parametrize("concurrency", [4, 24])
def test_a_job_limit_that_a_slow_collection_outlasts_names_the_directive_and_the_concurrency(tmp_path: Path,
                                                                                              concurrency: int) -> None:
    run, checkpoint = _string_match_run(tmp_path, 2)
    with _policy_served(run, checkpoint, "--latency-ms", "3000") as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time=1\ncd {run}\n"
            + _collect_line(port, concurrency))
        with (run / "logs" / "submit.log").open("w") as log:
            subprocess.run(["sbatch", "--wait", "eval.sbatch"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                           timeout=300)

    report = diagnose(run)

    if concurrency == 24:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "throughput_resources", [f.title for f in report.causes]
    assert "(the budget: eval.sbatch:3 `#SBATCH --time=1`; the concurrency: eval.sbatch:5 `--concurrency 4`)" in top.fix


@pytest.mark.parametrize("time_limit", [30, 10])
def test_a_job_running_into_a_maintenance_reservation_stays_pending(tmp_path: Path, time_limit: int) -> None:
    run, checkpoint = _string_match_run(tmp_path, 1)
    reservation = f"gp-test-maint-{tmp_path.name[-12:]}"
    with _policy_served(run, checkpoint) as port:
        (run / "eval.sbatch").write_text(
            f"#!/bin/bash\n#SBATCH --output={run}/logs/eval_%j.log\n#SBATCH --time={time_limit}\ncd {run}\n"
            + _collect_line(port, 4))
        (run / "submit.sh").write_text(
            "#!/bin/bash\nJOB=$(sbatch --parsable eval.sbatch)\necho \"submitted eval job $JOB\"\n"
            "for i in $(seq 60); do squeue -h -j $JOB -o %T | grep -q PENDING || break; "
            "squeue -h -j $JOB -o %R | grep -q Reserved && break; sleep 1; done\n"
            "while squeue -h -j $JOB -o %T | grep -q RUNNING; do sleep 1; done\n"
            'squeue -j $JOB -o "%.10i %.12j %.9T %.10l %R"\n')
        # the admins' window: from 20 minutes on, for 10 (a 30-minute job would run into it; a 10-minute one not)
        subprocess.run(["scontrol", "create", "reservation", f"ReservationName={reservation}",
                        "StartTime=now+20minutes", "Duration=10", "Nodes=ALL", "Flags=MAINT", "Users=root"],
                       check=True, capture_output=True, timeout=30)
        try:
            with (run / "logs" / "submit.log").open("w") as log:
                subprocess.run(["bash", "submit.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=200)
        finally:
            subprocess.run(["scontrol", "delete", f"ReservationName={reservation}"], capture_output=True, timeout=30)
            if job := re.search(r"submitted eval job (\d+)", (run / "logs" / "submit.log").read_text()):
                subprocess.run(["scancel", job[1]], capture_output=True, timeout=30)  # this test's job only

    report = diagnose(run)

    if time_limit == 10:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Reserved for maintenance" in (run / "logs" / "submit.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "job_never_started"), [f.title for f in report.causes]
    assert top.title.endswith("held by a maintenance reservation on its node")
    assert "`scontrol show reservation`" in top.fix and "a shorter `--time=30`" in top.fix
