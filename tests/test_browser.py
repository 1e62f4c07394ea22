"""The Dagster UI as users see it: headless Chromium against `gym-pipeline ui` on loopback.

One workspace and one UI for the module: the asset graph loads, a partition whose source data
changed is shown unsynced (stale) while its neighbour is not, a backfill launched over GraphQL
re-evaluates two checkpoints, the sensor picks up a new checkpoint folder, and a row edited while
the UI runs shows as stale partitions with a failed inputs check within the default cadence. Screenshots are
saved under test-results/screenshots/.
"""

import shutil
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.storage.asset_check_execution_record import AssetCheckExecutionRecordStatus
from ui_server import UI, running_ui, wait_until

from gym_pipeline.backfill import RANGE_END_TAG, RANGE_START_TAG
from gym_pipeline.demo import run_demo
from gym_pipeline.serving.checkpoints import demo_checkpoints
from gym_pipeline.status import sweep_status

SCREENSHOTS = Path(__file__).resolve().parents[1] / "test-results" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def ui(tmp_path_factory):
    home = tmp_path_factory.mktemp("ui") / "home"
    run_demo(home, checkpoint_count=2, quiet=True)
    dataset = home / "data" / "mcqa.jsonl"
    dataset.write_text("".join(dataset.read_text().splitlines(keepends=True)[:-1]))  # mcqa's data changed
    sweep_status(home)  # observe the sources, as `gym-pipeline status` does

    with running_ui(home, home.parent) as ui:
        yield ui


@pytest.fixture(scope="module")
def page(ui):
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 900})
        page.goto(ui.url)
        skip = page.get_by_role("button", name="Skip")  # Dagster's first-visit newsletter dialog
        skip.wait_for(timeout=30_000)
        skip.click()
        yield page
        browser.close()


def _open(page, ui: UI, path: str, expect_text: str, screenshot: str):
    page.goto(ui.url + path)
    page.get_by_text(expect_text, exact=False).first.wait_for(timeout=60_000)
    page.wait_for_timeout(1500)  # let the live data settle before the picture
    page.screenshot(path=str(SCREENSHOTS / screenshot))
    return page.inner_text("body")


def test_asset_graph_loads(ui, page):
    body = _open(page, ui, "/assets/materialized_inputs?view=lineage&lineageScope=neighbors&lineageDepth=1",
                 "reward_profile", "asset_graph.png")
    for asset in ("source_dataset", "materialization_settings", "materialized_inputs", "rollouts"):
        assert asset in body


def test_partition_with_changed_source_is_shown_stale(ui, page):
    stale = _open(page, ui, "/assets/materialized_inputs?view=partitions&partition=step_0100%7Cmcqa",
                  "step_0100|mcqa", "stale_partition.png")
    assert "Unsynced" in stale
    fresh = _open(page, ui, "/assets/materialized_inputs?view=partitions&partition=step_0100%7Cstring_match",
                  "step_0100|string_match", "fresh_partition.png")
    assert "Unsynced" not in fresh


LAUNCH_BACKFILL = """mutation($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
    __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message } } }"""
BACKFILL_STATUS = """query($id: String!) { partitionBackfillOrError(backfillId: $id) {
  ... on PartitionBackfill { status numPartitions } } }"""


def test_graphql_backfill_over_two_checkpoints_completes(ui, page):
    partitions = ["step_0100|mcqa", "step_0200|mcqa"]
    assets = [{"path": [name]} for name in ("materialized_inputs", "rollouts", "reward_profile", "diagnostic_report")]
    launched = ui.graphql(LAUNCH_BACKFILL, {"params": {"partitionNames": partitions, "assetSelection": assets}})
    backfill_id = launched["launchPartitionBackfill"].get("backfillId")
    assert backfill_id, launched

    def finished():
        status = ui.graphql(BACKFILL_STATUS, {"id": backfill_id})["partitionBackfillOrError"]
        return status if status["status"] not in ("REQUESTED",) else None

    status = wait_until(finished, 420, "the backfill", interval_s=2)
    assert status == {"status": "COMPLETED_SUCCESS", "numPartitions": 2}
    body = _open(page, ui, "/assets/materialized_inputs?view=partitions&partition=step_0100%7Cmcqa",
                 "step_0100|mcqa", "after_backfill.png")
    assert "Unsynced" not in body  # rebuilt from the changed data


def test_sensor_picks_up_a_new_checkpoint_folder(ui, page):
    demo_checkpoints(ui.home / "checkpoints", 3, ["string_match", "mcqa"])  # adds step_0300
    with dg.DagsterInstance.from_config(str(ui.home / "dagster")) as instance:
        wait_until(lambda: "step_0300" in instance.get_dynamic_partitions("checkpoints"), 180,
                    "the new_checkpoints sensor to register step_0300", interval_s=2)
        runs = wait_until(
            lambda: [run for run in instance.get_runs(limit=50)
                     if run.tags.get(RANGE_START_TAG, "").startswith("step_0300|")], 60,
            "the ranged run the sensor requested")
    assert runs[0].tags[RANGE_END_TAG].startswith("step_0300|")  # one run over the new checkpoint's partitions
    _open(page, ui, "/assets/materialized_inputs?view=partitions", "step_0300", "new_checkpoint.png")


def test_an_edited_row_shows_as_stale_with_a_failed_check_within_the_default_cadence(ui, page):
    """Nothing run by hand: the observe_sources sensor (every 60 s by default) notices the edit."""
    from gym_pipeline.checks import INPUTS_MATCH_SOURCE

    dataset = ui.home / "data" / "string_match.jsonl"
    lines = dataset.read_text().splitlines(keepends=True)
    dataset.write_text("".join([lines[0].replace('"expected_answer": "', '"expected_answer": "not ', 1), *lines[1:]]))
    assert dataset.read_text() != "".join(lines)

    with dg.DagsterInstance.from_config(str(ui.home / "dagster")) as instance:
        def failed_checks():
            check = dg.AssetCheckKey(dg.AssetKey("materialized_inputs"), INPUTS_MATCH_SOURCE)
            history = instance.event_log_storage.get_asset_check_execution_history(check, limit=50)
            return {record.partition for record in history
                    if record.status == AssetCheckExecutionRecordStatus.FAILED and "string_match" in str(record.partition)}

        failed = wait_until(failed_checks, 150, "the inputs check of string_match to fail on its own", interval_s=3)
    assert failed >= {"step_0100|string_match", "step_0200|string_match"}
    body = _open(page, ui, "/assets/materialized_inputs?view=partitions&partition=step_0100%7Cstring_match",
                 "step_0100|string_match", "stale_after_edit.png")
    assert "Unsynced" in body
