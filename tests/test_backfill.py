"""`gym-pipeline backfill`: ranged runs planned like the backfill policy, run in process or through the webserver."""

import dagster as dg
import pytest
from ui_server import running_ui

from gym_pipeline.backfill import BACKFILL_TAG, RANGE_END_TAG, RANGE_START_TAG, BackfillError, plan_ranges
from gym_pipeline.cli import main
from gym_pipeline.demo import run_demo

KEYS = [f"step_{step}|{env}" for step in ("0100", "0200", "0300") for env in ("string_match", "mcqa")]


def test_a_contiguous_selection_is_cut_only_by_the_batch_size():
    assert [r.keys for r in plan_ranges(KEYS, KEYS, 20)] == [tuple(KEYS)]
    assert [r.keys for r in plan_ranges(KEYS, KEYS, 4)] == [tuple(KEYS[:4]), tuple(KEYS[4:])]
    assert [len(r.keys) for r in plan_ranges(KEYS, KEYS, 1)] == [1] * 6


def test_a_range_never_spans_an_unchosen_partition():
    # mcqa alone: every other key is left out, so no two chosen keys are neighbours.
    mcqa = [key for key in KEYS if key.endswith("mcqa")]
    assert [r.keys for r in plan_ranges(KEYS, mcqa, 20)] == [(key,) for key in mcqa]
    # Two whole checkpoints with a gap between them.
    chosen = KEYS[:2] + KEYS[4:]
    assert [r.keys for r in plan_ranges(KEYS, chosen, 20)] == [tuple(KEYS[:2]), tuple(KEYS[4:])]


def test_range_tags_name_both_ends_and_the_backfill():
    (partition_range,) = plan_ranges(KEYS, KEYS[1:3], 20)
    assert partition_range.tags("gp-1") == {RANGE_START_TAG: KEYS[1], RANGE_END_TAG: KEYS[2], BACKFILL_TAG: "gp-1"}


def test_a_batch_size_below_one_is_refused():
    with pytest.raises(BackfillError, match="at least 1"):
        plan_ranges(KEYS, KEYS, 0)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    home = tmp_path_factory.mktemp("backfill_home")
    run_demo(home, checkpoint_count=2, quiet=True)
    return home


def _backfill_runs(home, backfill_id=None) -> list[dg.DagsterRun]:
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        runs = instance.get_runs(dg.RunsFilter(tags={BACKFILL_TAG: backfill_id} if backfill_id else {}))
    return [run for run in runs if BACKFILL_TAG in run.tags]


def _materialization_count(home, asset: str) -> int:
    with dg.DagsterInstance.from_config(str(home / "dagster")) as instance:
        return len(instance.fetch_materializations(dg.AssetKey(asset), limit=1000).records)


def test_unknown_checkpoint_or_environment_exits_2_naming_it(workspace, capsys):
    assert main(["backfill", "--home", str(workspace), "--checkpoint", "step_9999"]) == 2
    assert "unknown checkpoint step_9999; registered: step_0100, step_0200" in capsys.readouterr().err
    assert main(["backfill", "--home", str(workspace), "--env", "chess"]) == 2
    assert "unknown environment chess" in capsys.readouterr().err


def test_in_process_backfill_materializes_every_partition_in_one_run(workspace, capsys):
    before = _materialization_count(workspace, "reward_profile")
    assert main(["backfill", "--home", str(workspace)]) == 0
    assert "4 of 4 partitions materialized" in capsys.readouterr().err
    (run,) = _backfill_runs(workspace)
    assert run.status == dg.DagsterRunStatus.SUCCESS
    assert (run.tags[RANGE_START_TAG], run.tags[RANGE_END_TAG]) == ("step_0100|string_match", "step_0200|mcqa")
    assert _materialization_count(workspace, "reward_profile") == before + 4


@pytest.mark.integration  # the real webserver and daemon
def test_backfill_through_the_webserver_runs_the_batches_it_planned(workspace, tmp_path, capsys):
    before = _materialization_count(workspace, "rollouts")
    with running_ui(workspace, tmp_path) as ui:
        code = main(["backfill", "--home", str(workspace), "--ui-url", ui.url, "--batch-size", "2",
                     "--job", "recollect"])
    err = capsys.readouterr().err
    assert code == 0, err
    backfill_id = err.split("runs tagged gym_pipeline/backfill=")[1].split()[0]
    runs = _backfill_runs(workspace, backfill_id)
    # Two checkpoints x two environments in batches of two: one run per checkpoint, launched by the run queue.
    assert sorted((run.tags[RANGE_START_TAG], run.tags[RANGE_END_TAG]) for run in runs) == [
        ("step_0100|string_match", "step_0100|mcqa"), ("step_0200|string_match", "step_0200|mcqa")]
    assert {run.job_name for run in runs} == {"recollect"}
    assert all(run.status == dg.DagsterRunStatus.SUCCESS for run in runs)
    assert _materialization_count(workspace, "rollouts") == before + 4


def test_no_webserver_at_the_url_is_a_clear_error(workspace, capsys):
    assert main(["backfill", "--home", str(workspace), "--ui-url", "http://127.0.0.1:9"]) == 2
    assert "no Dagster webserver answers at http://127.0.0.1:9" in capsys.readouterr().err
