"""A Makefile that collects under `timeout`, run for real by make against a slow simulated policy.

The first make stops the collection half way; without `.DELETE_ON_ERROR:` make keeps the partial rollouts.jsonl and
the next make takes it as built and goes straight to the profile. With it, make deletes the partial file and the next
make collects again: no kept target to blame.

A task target (`eval`) left out of `.PHONY` beside a folder of that name: make takes the folder for the target and
runs nothing. Declared phony, the same target runs its recipe.

The materialized inputs listed as an order-only prerequisite of the rollouts (`rollouts.jsonl: | inputs`): a corrected
label rebuilds the inputs and keeps the rollouts of the old ones. As a normal prerequisite, make collects again.

`--num-repeats $REPEATS` in a recipe, written as in a shell script: make expands `$R` and passes `EPEATS`. As
`$(REPEATS)`, the run is whole.

`MODEL_URL = <staging server>` in the Makefile and `MODEL_URL=<new server> make eval`: the Makefile's assignment wins,
and the eval asks the staging server (last week's checkpoint). With `?=`, the new server is asked.

The reverse: `MODEL_URL ?= <new server>` in the Makefile, and a CI env file still exporting last week's MODEL_URL: `?=`
yields to the environment. With `:=`, the new server is asked.

`MODEL_URL := <new server>` and then `include eval_defaults.mk`, whose `MODEL_URL = <staging server>` is read later
and wins. With the include first, the Makefile's own value wins.

A hidden stamp target (`.collect.stamp`) that `clean`'s `rm -f *.stamp` never matches: this week's `make clean && make
eval` profiles last week's rollouts. Named `collect.stamp`, the clean removes it and the new server is asked.
"""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from script_support import CLI as SCRIPT_CLI
from script_support import run_scripts

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")

CLI = [sys.executable, "-m", "gym_pipeline.cli"]
RULE = "partial_target_kept_by_make"


def _made_twice(tmp_path: Path, first_line: str) -> Path:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(3, environment.agent_name))
    port = free_loopback_port()
    gp = " ".join(CLI)
    (run / "Makefile").write_text(
        f"{first_line}all: profile\n\nrollouts.jsonl: rollouts_materialized_inputs.jsonl\n"
        f"\ttimeout 4 {gp} collect --inputs $< --output $@ --model-url http://127.0.0.1:{port}/v1 --env string_match "
        "--concurrency 1\n\nprofile: rollouts.jsonl\n"
        f"\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n\n.PHONY: all profile\n")
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "400"], stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(2.5)
        for name in ("make_first.log", "make.log"):
            with (run / "logs" / name).open("w") as log:
                subprocess.run(["make"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        server.terminate()
        server.wait(10)
    return run


def test_a_partial_rollouts_file_make_kept_is_taken_as_built_by_the_next_make(tmp_path: Path) -> None:
    run = _made_twice(tmp_path, "")
    assert "rollouts.jsonl] Error 124" in (run / "logs" / "make_first.log").read_text()
    assert "cli collect" not in (run / "logs" / "make.log").read_text()  # make really skipped the collection

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", RULE)
    assert [line.where for line in top.evidence] == ["logs/make_first.log:4", "logs/make.log:5"]
    assert "Add `.DELETE_ON_ERROR:` to Makefile" in top.fix and "--resume" in top.fix


def test_a_makefile_that_deletes_failed_targets_collects_again_and_is_not_blamed(tmp_path: Path) -> None:
    run = _made_twice(tmp_path, ".DELETE_ON_ERROR:\n")
    assert "cli collect" in (run / "logs" / "make.log").read_text()

    assert all(finding.id != RULE for finding in diagnose(run).findings)


def _make_eval(tmp_path: Path, phony: str) -> Path:
    environment = get_environment("string_match")
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "eval").mkdir()  # the team's helper scripts
    (run / "eval" / "summarize.py").write_text("print('summary')\n")
    (run / "data.jsonl").write_text(environment.dataset_path.read_text())
    gp = " ".join(CLI)
    (run / "Makefile").write_text(
        f".PHONY: {phony}\nall: eval\n\neval:\n"
        f"\t{gp} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n")
    with (run / "logs" / "make.log").open("w") as log:
        subprocess.run(["make", "eval"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120, check=True)
    return run


def test_a_task_target_beside_a_folder_of_its_name_runs_nothing(tmp_path: Path) -> None:
    run = _make_eval(tmp_path, "all")
    assert (run / "logs" / "make.log").read_text() == "make: 'eval' is up to date.\n"

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "task_target_taken_for_a_file")
    assert [line.where for line in top.evidence] == ["logs/make.log:1", "Makefile:4"]
    assert "`.PHONY: all eval`" in top.fix


def test_the_same_target_declared_phony_runs_its_recipe(tmp_path: Path) -> None:
    run = _make_eval(tmp_path, "all eval")
    assert (run / "rollouts_materialized_inputs.jsonl").is_file()

    assert all(finding.id != "task_target_taken_for_a_file" for finding in diagnose(run).findings)


@pytest.mark.parametrize("separator", [" | ", " "])
def test_inputs_as_an_order_only_prerequisite_keep_rollouts_of_old_inputs(tmp_path: Path, separator: str) -> None:
    """A label corrected in the data: make re-materializes the inputs, but with the inputs order-only it keeps the
    rollouts collected on the old ones and profiles them. As a normal prerequisite, make collects again."""
    makefile = ("rollouts_materialized_inputs.jsonl: data.jsonl\n"
                f"\t{SCRIPT_CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
                "--output $@\n\n"
                f"rollouts.jsonl:{separator}rollouts_materialized_inputs.jsonl\n"
                f"\t{SCRIPT_CLI} collect --inputs rollouts_materialized_inputs.jsonl --output $@ --model-url URL "
                "--env string_match --concurrency 4\n\nprofile: rollouts.jsonl\n"
                f"\t{SCRIPT_CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
                ".PHONY: profile\n")
    first = f"cat > Makefile <<'MAKEFILE'\n{makefile}MAKEFILE\nmake profile\n"
    relabel = "sleep 1\nsed -i '1s/\"expected_answer\": \"[^\"]*\"/\"expected_answer\": \"corrected\"/' data.jsonl\n" \
              "make profile\n"
    run = run_scripts(tmp_path, [first, relabel])

    report = diagnose(run)

    if separator == " ":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "stale_inputs")
    assert top.title == ("Rollouts were collected on materialized inputs that changed since: Makefile:4 makes them an "
                         "order-only prerequisite")
    assert top.fix.startswith("In Makefile:4, make the inputs a normal prerequisite, not an order-only one (drop the "
                              "`|`: `rollouts.jsonl: rollouts_materialized_inputs.jsonl`)")


def _make_eval_beside_two_servers(run: Path, checkpoints: list[Path], staging: int, new: int,
                                  environment: dict[str, str]) -> None:
    """`make eval` in `run`, with the first checkpoint served on port `staging` (logs/staging_server.log) and the
    second on `new` (logs/model_server.log)."""
    servers = []
    for checkpoint, port, log_name in ((checkpoints[0], staging, "staging_server.log"),
                                       (checkpoints[1], new, "model_server.log")):
        with (run / "logs" / log_name).open("w") as log:
            servers.append(subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port",
                                             str(port), "--latency-ms", "20"], stdout=log, stderr=subprocess.STDOUT))
    try:
        time.sleep(2.5)
        with (run / "logs" / "make_eval.log").open("w") as log:
            subprocess.run(["make", "eval"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120,
                           env={**os.environ, **environment})
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)


@pytest.mark.parametrize("operator", ["=", "?="])
def test_a_makefile_assignment_the_environment_cannot_override(tmp_path: Path, operator: str) -> None:
    environment = get_environment("string_match")
    checkpoints = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    staging, new = free_loopback_port(), free_loopback_port()
    gp = " ".join(CLI)
    (run / "Makefile").write_text(
        f"# make eval   (give MODEL_URL to eval another server)\nMODEL_URL {operator} http://127.0.0.1:{staging}/v1\n\n"
        f"eval:\n\t{gp} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) "
        f"--env string_match --concurrency 4\n\t{gp} profile --inputs rollouts_materialized_inputs.jsonl "
        "--rollouts rollouts.jsonl\n\n.PHONY: eval\n")
    _make_eval_beside_two_servers(run, checkpoints, staging, new, {"MODEL_URL": f"http://127.0.0.1:{new}/v1"})

    report = diagnose(run)

    if operator == "?=":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "makefile_assignment_overrides_the_environment")
    assert top.title == ("Makefile:2 sets MODEL_URL with a plain `=`, which the environment cannot override: the run "
                         "asked the step 100 server, not the step 200 one started for it")
    assert [line.where for line in top.evidence] == ["Makefile:2", "logs/staging_server.log:1",
                                                     "logs/model_server.log:1"]
    assert f"`MODEL_URL ?= http://127.0.0.1:{staging}/v1` instead of `MODEL_URL = http://127.0.0.1:{staging}/v1`" \
        in top.fix


@pytest.mark.parametrize("include_first", [False, True])
def test_a_makefile_including_team_defaults_after_its_own_url_takes_the_defaults_url(tmp_path: Path,
                                                                                      include_first: bool) -> None:
    environment = get_environment("string_match")
    checkpoints = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    staging, new = free_loopback_port(), free_loopback_port()
    (run / "eval_defaults.mk").write_text(f"# the team's defaults for eval Makefiles\nREPEATS = 3\n"
                                          f"MODEL_URL = http://127.0.0.1:{staging}/v1\n")
    own, include = f"MODEL_URL := http://127.0.0.1:{new}/v1\n", "include eval_defaults.mk\n"
    gp = " ".join(CLI)
    (run / "Makefile").write_text(
        "# weekly eval of the candidate\n" + (include + own if include_first else own + include)
        + f"\neval:\n\t{gp} materialize --input data.jsonl --num-repeats $(REPEATS) --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(MODEL_URL) "
        f"--env string_match --concurrency 4\n\t{gp} profile --inputs rollouts_materialized_inputs.jsonl "
        "--rollouts rollouts.jsonl\n\n.PHONY: eval\n")

    _make_eval_beside_two_servers(run, checkpoints, staging, new, {})

    report = diagnose(run)

    if include_first:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert f"--model-url http://127.0.0.1:{staging}/v1" in (run / "logs" / "make_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "included_makefile_overrides_an_assignment"), [
        f.title for f in report.causes]
    assert [line.where for line in top.evidence[:3]] == ["Makefile:2", "Makefile:3", "eval_defaults.mk:3"]
    assert "put `include eval_defaults.mk` before your own settings" in top.fix


@pytest.mark.parametrize("written", ["$REPEATS", "$(REPEATS)"])
def test_a_shell_style_variable_in_a_make_recipe(tmp_path: Path, written: str) -> None:
    environment = get_environment("string_match")
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, ["string_match"])[0]
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    port, gp = free_loopback_port(), " ".join(CLI)
    (run / "Makefile").write_text(
        f"REPEATS := 3\n\nall:\n\t{gp} materialize --input data.jsonl --num-repeats {written} --agent "
        "string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
        f"\t{gp} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
        f"http://127.0.0.1:{port}/v1 --env string_match --concurrency 4\n"
        f"\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n\n.PHONY: all\n")
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port),
                                   "--latency-ms", "20"], stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(2.5)
        with (run / "logs" / "make.log").open("w") as log:
            subprocess.run(["make"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        server.terminate()
        server.wait(10)

    report = diagnose(run)

    if written == "$(REPEATS)":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_variable_in_a_make_recipe")
    assert top.title == ("Makefile:4 writes $REPEATS in a recipe as in a shell script: make read `$R` and passed "
                         "--num-repeats 'EPEATS'")
    assert "write make's variable as `$(REPEATS)`" in top.fix


@pytest.mark.parametrize("one_shell", [False, True])
def test_a_cd_on_a_recipe_line_of_its_own_is_lost_before_the_next_line(tmp_path: Path, one_shell: bool) -> None:
    """`cd $(WEEK)` alone on a recipe line: make runs the next line in a new shell, back in the Makefile's folder, and
    materialize finds no data there. With `.ONESHELL:`, the recipe is one shell and the run is whole."""
    makefile = ((".ONESHELL:\n" if one_shell else "") + "WEEK := week12\n\neval:\n\tcd $(WEEK)\n"
                f"\t{SCRIPT_CLI} materialize --input data.jsonl --num-repeats 3 --agent string_match_simple_agent "
                "--output rollouts_materialized_inputs.jsonl\n"
                f"\t{SCRIPT_CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                "--model-url $(POLICY) --env string_match --concurrency 4\n"
                f"\t{SCRIPT_CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
                "\n.PHONY: eval\n")
    run = run_scripts(tmp_path, ["mkdir -p week12 && mv data.jsonl week12/\nmake eval POLICY=URL\n"],
                      files={"Makefile": makefile})

    report = diagnose(run)

    if one_shell:
        assert (run / "week12" / "rollouts.jsonl").is_file()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "make_recipe_changes_folder_on_a_line_of_its_own"), [
        f.title for f in report.causes]
    number = 5 - 1  # the `cd` line of the Makefile
    assert top.title.startswith(f"Makefile:{number} changes folder with `cd $(WEEK)` on a recipe line of its own")
    assert top.fix.startswith(f"In Makefile:{number}, join the `cd` to the commands it is for")
    assert len(report.causes) == 1, [f.title for f in report.causes]  # materialize's error is what followed


@pytest.mark.parametrize("assignment", ["?=", ":="])
def test_a_makefiles_conditional_url_yields_to_a_stale_one_the_ci_env_exports(tmp_path: Path, assignment: str) -> None:
    """The Makefile names this week's candidate with `MODEL_ENDPOINT ?= <step 200 server>`, and the CI step exports
    ci.env, which still holds last week's MODEL_ENDPOINT (the step 100 server): `?=` yields to the environment, and the step 100 model is
    evaluated again (config, both lines named). With `:=`, the Makefile's value wins and the run is healthy."""
    collect = (f"\t{SCRIPT_CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
               "--output rollouts_materialized_inputs.jsonl\n"
               f"\t{SCRIPT_CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
               "--model-url $(MODEL_ENDPOINT) --env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [
        "echo '# CI variables of the eval job (last week)' > ci.env\necho MODEL_ENDPOINT=URL >> ci.env\n",
        f"cat > Makefile <<'EOF'\nMODEL_ENDPOINT {assignment} URL\n\neval:\n{collect}.PHONY: eval\nEOF\n"
        "set -a\n. ./ci.env\nset +a\nmake eval\n"], checkpoint_of_script=[0, 1])

    report = diagnose(run)

    if assignment == ":=":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "model_url_pinned_to_an_older_server"), [f.title for f in report.causes]
    assert top.title == ("Makefile:1 sets MODEL_ENDPOINT with `?=`, which yields to the environment: ci.env:2 exports the "
                         "step 100 server's address, and the rollouts are the older checkpoint's")
    assert "`MODEL_ENDPOINT := ...`" in top.fix


@pytest.mark.parametrize("stamp", [".collect.stamp", "collect.stamp"], ids=["hidden", "visible"])
def test_a_clean_glob_that_misses_the_hidden_stamp_keeps_last_weeks_collection(tmp_path: Path, stamp: str) -> None:
    environment = get_environment("string_match")
    checkpoints = demo_checkpoints(tmp_path / "checkpoints", 2, ["string_match"])
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "data.jsonl").write_text("".join(environment.dataset_path.read_text().splitlines(keepends=True)[:8]))
    staging, new = free_loopback_port(), free_loopback_port()
    gp = " ".join(CLI)
    (run / "Makefile").write_text(
        "# new checkpoint: make clean && make eval MODEL_URL=...\n"
        f"rollouts_materialized_inputs.jsonl: data.jsonl\n\t{gp} materialize --input data.jsonl --num-repeats 2 "
        "--agent string_match_simple_agent --output $@\n\n"
        f"{stamp}: rollouts_materialized_inputs.jsonl\n\t{gp} collect --inputs rollouts_materialized_inputs.jsonl "
        "--output rollouts.jsonl --model-url $(MODEL_URL) --env string_match --concurrency 4\n\ttouch $@\n\n"
        f"eval: {stamp}\n\t{gp} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n\n"
        "clean:\n\trm -f *.stamp rollouts_reward_profiling.jsonl\n.PHONY: eval clean\n")
    servers = []
    for checkpoint, port, log_name in ((checkpoints[0], staging, "model_server_last_week.log"),
                                       (checkpoints[1], new, "model_server.log")):
        with (run / "logs" / log_name).open("w") as log:
            servers.append(subprocess.Popen([*CLI, "serve-policy", "--checkpoint", str(checkpoint), "--port",
                                             str(port), "--latency-ms", "20"], stdout=log, stderr=subprocess.STDOUT))
    try:
        time.sleep(2.5)
        for week, port in (("last_week", staging), ("this_week", new)):
            with (run / "logs" / f"make_{week}.log").open("w") as log:
                subprocess.run(f"make clean && make eval MODEL_URL=http://127.0.0.1:{port}/v1", shell=True, cwd=run,
                               stdout=log, stderr=subprocess.STDOUT, timeout=120)
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)

    report = diagnose(run)

    if not stamp.startswith("."):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "clean_glob_misses_a_hidden_stamp"), [
        f.title for f in report.causes]
    assert top.title.startswith("Makefile:13 removes `*.stamp`, which the shell does not match against the hidden "
                                ".collect.stamp (Makefile:5)")
