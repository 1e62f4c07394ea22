"""A Python driver that evaluates two checkpoints in turn (`step=URL` pairs), run for real against two simulated
policies: its collect function is cached by the inputs path alone (`@functools.cache`, the URL a global), so the
second checkpoint gets the first one's rollouts without a request and every command exits 0. The diagnosis names
the checkpoint no collect ran for and the cache (cache/resume), not replicas of two checkpoints. Keyed by the URL
too, both are collected."""

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
