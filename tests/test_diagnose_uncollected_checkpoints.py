"""A Python driver that evaluates two checkpoints in turn (`step=URL` pairs), run for real against two simulated
policies: its collect function is cached by the inputs path alone (`@functools.cache`, the URL a global), so the
second checkpoint gets the first one's rollouts without a request and every command exits 0. The diagnosis names
the checkpoint no collect ran for and the cache (cache/resume), not replicas of two checkpoints. Keyed by the URL
too, both are collected. The same reuse by a results folder keyed by the ISO week alone, told by a log named after its
checkpoint."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

DRIVER = f'''"""drive_eval.py STEP=URL ...: evaluate several checkpoints in one go, into results/<step>/."""
import functools
import shutil
import subprocess
import sys
from pathlib import Path

CLI = {CLI.split()!r}
URL = None  # the endpoint of the checkpoint being evaluated


@functools.cache  # collect is the slow part: never collect the same inputs twice in one session
def collect(KEY):
    out = Path("results") / f"collect_{{len(list(Path('results').glob('collect_*')))}}.jsonl"
    subprocess.run(CLI + ["collect", "--inputs", inputs, "--output", str(out), "--model-url", URL, "--env",
                          "string_match", "--concurrency", "4"], check=True)
    return str(out)


Path("results").mkdir(exist_ok=True)
for arg in sys.argv[1:]:
    step, URL = arg.split("=", 1)
    print(f"== {{step}} at {{URL}}", flush=True)
    (Path("results") / step).mkdir(exist_ok=True)
    shutil.copy(collect(ARGUMENTS), Path("results") / step / "rollouts.jsonl")
'''


@pytest.mark.parametrize("keyed_by_url", [False, True])
def test_a_collect_cached_by_its_inputs_alone_gives_the_second_checkpoint_the_first_ones_rollouts(
        tmp_path: Path, keyed_by_url: bool) -> None:
    driver = DRIVER.replace("KEY", "inputs, url" if keyed_by_url else "inputs").replace(
        "ARGUMENTS", '"rollouts_materialized_inputs.jsonl", URL' if keyed_by_url else '"rollouts_materialized_inputs.jsonl"')
    if keyed_by_url:
        driver = driver.replace('"--model-url", URL,', '"--model-url", url,')
    python = CLI.split()[0]
    run = run_scripts(tmp_path, ["echo CKPT=URL > first_endpoint.txt\n",  # the older checkpoint's server
                                 MATERIALIZE + f"{python} drive_eval.py $(cat first_endpoint.txt) CKPT=URL\n"],
                      checkpoint_of_script=[0, 1], files={"drive_eval.py": driver})
    log = (run / "logs" / "run_eval_1.log").read_text()
    assert log.count(" collected, ") == (2 if keyed_by_url else 1), log

    report = diagnose(run)

    assert all("model servers of 2 checkpoints" not in f.title for f in report.findings), [
        f.title for f in report.findings]
    if keyed_by_url:
        assert all(f.id != "checkpoint_left_uncollected" for f in report.findings), [f.title for f in report.findings]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "checkpoint_left_uncollected"), [f.title for f in report.causes]
    assert top.title == ("logs/run_eval_1.log names the step 200 server and no collect ran against it: step 200's "
                         "results are step 100's")
    assert "`@functools.cache  # collect is the slow part" in top.fix and "give the URL (or the step)" in top.fix


CACHING_DRIVER = f'''"""drive_eval.py STEP MODEL_URL: the weekly eval, with a cache so that a re-run after preemption is free."""
import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

CLI = {CLI.split()!r}
step, url = sys.argv[1], sys.argv[2]
print(f"== evaluating {{step}} at {{url}}", flush=True)
subprocess.run(CLI + ["materialize", "--input", "data.jsonl", "--num-repeats", "3", "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
key = hashlib.sha256(KEY).hexdigest()[:16]
cached = Path(".eval_cache") / f"{{key}}.jsonl"
if cached.exists():
    print(f"cache hit {{cached}}: reusing rollouts", flush=True)
    shutil.copy(cached, "rollouts.jsonl")
else:
    subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output", "rollouts.jsonl",
                          "--model-url", url, "--env", "string_match", "--concurrency", "4"], check=True)
    cached.parent.mkdir(exist_ok=True)
    shutil.copy("rollouts.jsonl", cached)
subprocess.run(CLI + ["profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
'''


@pytest.mark.parametrize("key", ['Path("rollouts_materialized_inputs.jsonl").read_bytes()',
                                 'Path("rollouts_materialized_inputs.jsonl").read_bytes() + url.encode()'],
                         ids=["inputs", "inputs_and_url"])
def test_a_rollout_cache_keyed_by_the_inputs_alone_serves_last_weeks_checkpoint(tmp_path: Path, key: str) -> None:
    """The same driver, run once per checkpoint with a log of its own, caches collect's output under a digest of the
    materialized inputs: this week's step 200 run finds last week's step 100 entry and profiles it (cache/resume,
    told across the two logs). Keyed by the URL too, step 200 is collected: healthy."""
    python = CLI.split()[0]
    run = run_scripts(tmp_path, [f"{python} drive_eval.py CKPT URL > logs/drive_CKPT.log 2>&1\n"] * 2,
                      checkpoint_of_script=[0, 1], files={"drive_eval.py": CACHING_DRIVER.replace("KEY", key)})

    report = diagnose(run)

    if "url" in key:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "cache hit" in (run / "logs" / "drive_step_0200.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "checkpoint_left_uncollected"), [f.title for f in report.causes]
    assert top.title == ("logs/drive_step_0200.log names the step 200 server and no collect ran against it: step "
                         "200's results are step 100's")
    assert "the folder or cache key it checks must name the checkpoint" in top.fix


WEEKLY_DRIVER = f'''"""drive_eval.py STEP MODEL_URL: the weekly eval; results kept per ISO week (CI retries reuse them)."""
import datetime
import shutil
import subprocess
import sys
from pathlib import Path

CLI = {CLI.split()!r}
step, url = sys.argv[1], sys.argv[2]
week = datetime.date.today().strftime("%G-W%V")
out = Path("results") / KEY
out.mkdir(parents=True, exist_ok=True)
subprocess.run(CLI + ["materialize", "--input", "data.jsonl", "--num-repeats", "2", "--agent",
                      "string_match_simple_agent", "--output", "rollouts_materialized_inputs.jsonl"], check=True)
if (out / "rollouts.jsonl").exists():
    print(f"== results for {{week}} already collected, reusing {{out / 'rollouts.jsonl'}}", flush=True)
else:
    print(f"== collecting {{week}} from {{url}}", flush=True)
    subprocess.run(CLI + ["collect", "--inputs", "rollouts_materialized_inputs.jsonl", "--output",
                          str(out / "rollouts.jsonl"), "--model-url", url, "--env", "string_match", "--concurrency",
                          "4"], check=True)
shutil.copy(out / "rollouts.jsonl", "rollouts.jsonl")
subprocess.run(CLI + ["profile", "--inputs", "rollouts_materialized_inputs.jsonl", "--rollouts", "rollouts.jsonl"],
               check=True)
'''


@pytest.mark.parametrize("key", ["week", "week / step"])
def test_results_kept_per_week_give_the_same_weeks_second_checkpoint_the_first_ones_rollouts(tmp_path: Path,
                                                                                             key: str) -> None:
    """The driver, run once per checkpoint with a log named after it, keeps results under results/<ISO week>/ and
    reuses them when they exist: the afternoon's step 200 run finds the morning's step 100 rollouts, and its log names
    no server, only the reuse (cache/resume, the date key named). Keyed by week and step, both are collected."""
    python = CLI.split()[0]
    run = run_scripts(tmp_path, [f"{python} drive_eval.py CKPT URL > logs/drive_eval_CKPT.log 2>&1\n"] * 2,
                      checkpoint_of_script=[0, 1], files={"drive_eval.py": WEEKLY_DRIVER.replace("KEY", key)})

    report = diagnose(run)

    if key == "week / step":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "already collected, reusing" in (run / "logs" / "drive_eval_step_0200.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "checkpoint_left_uncollected"), [f.title for f in report.causes]
    assert top.evidence[0].where == "logs/drive_eval_step_0200.log:2"
    assert 'the date: drive_eval.py:10 `week = datetime.date.today().strftime("%G-W%V")`' in top.fix
