"""A run folder whose top-level rollouts are its shard collections joined (`cat shards/*/rollouts.jsonl`): the
shards are diagnosed on their own, and what the joined files show follows from the join. A user's script whose glob
also joins a shard an earlier run (with more shards) left gets duplicate keys, and the fix names the glob's line."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE
from gym_pipeline.core.materialize import MaterializationSettings, materialize_and_record
from gym_pipeline.diagnose import diagnose, render_text
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment

ENV = "string_match"
SHARD_TASKS = 4


def collect_shards(root: Path, model_url: str, model_names: list[str | None], join: bool = True) -> Path:
    """The data split into one shard per model name, each materialized and collected in shards/part_NN, then
    (`join`) joined at the top level as a user's script does."""
    environment = get_environment(ENV)
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    run = root / "run"
    for number, model_name in enumerate(model_names):
        shard = run / "shards" / f"part_{number:02d}"
        shard.mkdir(parents=True)
        data = run / "shards" / f"part_{number:02d}.jsonl"
        data.write_text("".join(rows[number * SHARD_TASKS:(number + 1) * SHARD_TASKS]))
        inputs = shard / MATERIALIZED_INPUTS_FILE
        materialize_and_record(data, inputs, MaterializationSettings(2, environment.agent_name))
        settings = CollectorSettings(model_url=model_url, model_name=model_name, max_attempts=1)
        asyncio.run(collect(inputs, shard / ROLLOUTS_FILE, environment, settings))
    for name in (ROLLOUTS_FILE, MATERIALIZED_INPUTS_FILE) if join else ():
        parts = sorted((run / "shards").glob(f"part_*/{name}"))
        (run / name).write_bytes(b"".join(p.read_bytes() for p in parts))
    return run


def test_a_join_of_healthy_shards_is_named_for_the_keys_it_repeats(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None, None])

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "shards_joined"), [f.title for f in report.causes]
    assert "2 shard collections joined (shards/part_00, shards/part_01)" in top.title
    assert "repeats" in top.title and "Profile each shard in its own folder" in top.fix
    # the duplicates and repeated tasks of the joined files follow from the join: no other cause
    assert report.causes == [top]
    assert {f.id for f in report.consequences_of(top)} >= {"rollouts_without_inputs", "shared_task_index"}


def test_a_shards_own_failure_leads_the_report_of_the_join(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None, "no-such-model", None])

    report = diagnose(run)

    top = report.causes[0]
    assert report.category == "model_serving", render_text(report)
    assert top.title.startswith("In shards/part_01: ")
    assert top.id.startswith("shard:")
    assert top.evidence[0].file == "shards/part_01/rollouts_failures.jsonl"
    assert report.causes[1].id == "shards_joined"


def test_a_top_level_file_that_is_not_the_shards_byte_for_byte_is_read_as_it_is(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None, None])
    rollouts = run / ROLLOUTS_FILE
    rollouts.write_bytes(rollouts.read_bytes().replace(b"{", b" ", 1))  # as many bytes, not the same ones

    report = diagnose(run)

    assert all(not f.id.startswith(("shard", "shards_joined")) for f in report.findings)


def test_one_subfolder_is_no_join(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None])

    report = diagnose(run)

    assert report.category == "healthy", [f.title for f in report.causes]


def test_shards_not_joined_are_each_diagnosed_and_the_failing_one_leads(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None, "no-such-model", None], join=False)

    report = diagnose(run)

    top = report.causes[0]
    assert report.category == "model_serving", render_text(report)
    assert top.title.startswith("In shards/part_01: ") and top.id.startswith("shard:")
    assert top.evidence[0].file == "shards/part_01/rollouts_failures.jsonl"
    assert [f.id for f in report.findings if f.role == "note"][-1] == "shard_collections"


def test_runs_of_one_dataset_side_by_side_are_not_shards(policy_endpoint, tmp_path):
    run = collect_shards(tmp_path, policy_endpoint.url, [None], join=False)
    shutil.copytree(run / "shards" / "part_00", run / "shards" / "part_01")  # the same rows: another run, no shard

    report = diagnose(run)

    assert all(not f.id.startswith("shard") for f in report.findings)


SHARDED_SCRIPT = f"""#!/bin/bash
# collected in shards at once: bash run_eval.sh MODEL_URL SHARDS
cd "$(dirname "$0")"
CLEANUP
{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent \\
  --output rollouts_materialized_inputs.jsonl
mkdir -p shards
split -n l/$2 -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shards/in_
for i in $(seq -f %02g 0 $(($2 - 1))); do
  mkdir -p shards/$i
  rm -f shards/$i/rollouts.jsonl
  {sys.executable} -m gym_pipeline.cli collect --inputs shards/in_$i.jsonl --output shards/$i/rollouts.jsonl \\
    --model-url $1 --env string_match --concurrency 4 &
done
wait
cat shards/*/rollouts.jsonl > rollouts.jsonl
"""


def _sharded_twice(policy_endpoint, tmp_path: Path, cleanup: str) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    rows = get_environment(ENV).dataset_path.read_text().splitlines(keepends=True)
    (run / "data.jsonl").write_text("".join(rows[:12]))
    (run / "run_eval.sh").write_text(SHARDED_SCRIPT.replace("CLEANUP", cleanup))
    for week, shards in (("week48", "4"), ("week49", "3")):
        with (run / f"run_eval_{week}.log").open("w") as log:
            subprocess.run(["bash", "run_eval.sh", policy_endpoint.url, shards], cwd=run, stdout=log,
                           stderr=subprocess.STDOUT, check=True, timeout=300)
    return run


def test_a_join_glob_that_takes_a_shard_an_earlier_run_left_names_the_scripts_line(policy_endpoint, tmp_path):
    run = _sharded_twice(policy_endpoint, tmp_path, "")

    top = diagnose(run).causes[0]

    assert top.category == "cache_resume" and "duplicate (task, rollout) keys" in top.title, top.title
    line = next(n for n, text in enumerate(SHARDED_SCRIPT.splitlines(), start=1) if text.startswith("cat shards/"))
    assert top.evidence[-1].where == f"run_eval.sh:{line}"
    assert top.fix.startswith(f"In run_eval.sh line {line} (`cat shards/*/rollouts.jsonl > rollouts.jsonl`), merge "
                              "only this run's outputs")


def test_a_script_that_empties_the_shards_folder_first_joins_only_its_own(policy_endpoint, tmp_path):
    run = _sharded_twice(policy_endpoint, tmp_path, "rm -rf shards")

    assert all("duplicate (task, rollout) keys" not in f.title for f in diagnose(run).findings)


def split_script(size: str) -> str:
    """A user's script that splits data.jsonl's 10 rows over 4 shards of `size` rows each and evaluates each shard in
    shard_N/, as a job array's tasks do."""
    return ("N=$(wc -l < data.jsonl)\nCOUNT=4\n"
            f"SIZE={size}\n"
            "for i in 0 1 2 3; do\n"
            "  mkdir -p shard_$i && cd shard_$i\n"
            "  sed -n \"$(( i * SIZE + 1 )),$(( (i + 1) * SIZE ))p\" ../data.jsonl > tasks.jsonl\n"
            f"  {CLI} materialize --input tasks.jsonl --num-repeats 1 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"  {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            "--env string_match --concurrency 4\n"
            f"  {CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"
            "  cd ..\ndone\n")


@pytest.mark.parametrize("rounds_up", [False, True])
def test_rows_an_integer_division_split_leaves_in_no_shard_are_named(tmp_path, rounds_up):
    size = "$(( (N + COUNT - 1) / COUNT ))" if rounds_up else "$(( N / COUNT ))"
    run = run_scripts(tmp_path, [split_script(size)])
    held = sum(len((run / f"shard_{i}" / "tasks.jsonl").read_text().splitlines()) for i in range(4))
    assert held == (10 if rounds_up else 8)  # the split really left 2 rows out

    report = diagnose(run)

    if rounds_up:  # every row in a shard, every shard complete
        assert report.category == "healthy", render_text(report)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "rows_in_no_shard"), render_text(report)
    assert top.title.startswith("2 rows of data.jsonl's 10 are in no shard")
    assert [line.where for line in top.evidence] == ["data.jsonl:9", "run_eval.sh:4"]
    assert "rows 9-10 of data.jsonl" in top.fix and "(N + COUNT - 1) / COUNT" in top.fix


def weekly_shards(rows: int, clean: bool) -> str:
    """A week's eval: the first `rows` rows of data.jsonl split into shards of 2, each collected in shard_N/, then
    every shard folder joined by a glob; `clean` removes last week's shard folders first."""
    return (("rm -rf shard_*/\n" if clean else "") + f"head -n {rows} data.jsonl > tasks.jsonl\nrm -f part_*.jsonl\n"
            "split -l 2 -d -a 1 --additional-suffix=.jsonl tasks.jsonl part_\n"
            "for part in part_*.jsonl; do\n  i=${part#part_}; i=${i%.jsonl}\n  mkdir -p shard_$i && cd shard_$i\n"
            f"  {CLI} materialize --input ../$part --num-repeats 1 --agent string_match_simple_agent "
            "--output rollouts_materialized_inputs.jsonl\n"
            f"  {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
            "--env string_match --concurrency 4\n  cd ..\ndone\n"
            "cat shard_*/rollouts.jsonl > merged_rollouts.jsonl\n")


@pytest.mark.parametrize("clean", [False, True])
def test_a_stale_shard_of_last_weeks_larger_split_joined_by_a_glob_is_named(tmp_path, clean):
    run = run_scripts(tmp_path, [weekly_shards(10, clean), weekly_shards(8, clean)])
    assert (run / "shard_4").exists() != clean  # last week's fifth shard really stayed

    report = diagnose(run)

    if clean:
        assert report.category == "healthy", render_text(report)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "shard_of_other_data"), render_text(report)
    assert top.title.startswith("shard_4 holds none of the tasks of tasks.jsonl, which the other 4 shards were split "
                                "from")
    assert [line.where for line in top.evidence] == ["shard_4/rollouts_materialized_inputs.jsonl:1", "run_eval.sh:12"]
    assert "join only this run's shards in run_eval.sh" in top.fix
