"""`gym-pipeline ui` starts the real Dagster webserver on loopback, even on an empty workspace."""

from ui_server import running_ui


def test_ui_serves_the_sweep_assets_of_an_empty_workspace(tmp_path):
    with running_ui(tmp_path / "home", tmp_path) as ui:
        nodes = ui.graphql("{ assetNodes { assetKey { path } } }")["assetNodes"]
    keys = {node["assetKey"]["path"][-1] for node in nodes}
    assert {"source_dataset", "materialized_inputs", "rollouts", "reward_profile", "diagnostic_report",
            "checkpoint_comparison"} <= keys
