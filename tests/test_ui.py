"""`gym-pipeline ui` starts the real Dagster webserver on loopback, even on an empty workspace."""

import pytest
from ui_server import running_ui

pytestmark = pytest.mark.integration  # the real webserver and daemon: tens of seconds to start

REPOSITORIES = "{ repositoriesOrError { ... on RepositoryConnection { nodes { name location { name } } } } }"
RESOURCES = """query ($selector: RepositorySelector!) {
  allTopLevelResourceDetailsOrError(repositorySelector: $selector) {
    ... on ResourceDetailsList { results { name resourceType configFields { name } } }
  }
}"""


def test_ui_serves_the_sweep_assets_of_an_empty_workspace(tmp_path):
    with running_ui(tmp_path / "home", tmp_path) as ui:
        nodes = ui.graphql("{ assetNodes { assetKey { path } } }")["assetNodes"]
        (repository,) = ui.graphql(REPOSITORIES)["repositoriesOrError"]["nodes"]
        selector = {"repositoryName": repository["name"], "repositoryLocationName": repository["location"]["name"]}
        resources = ui.graphql(RESOURCES, {"selector": selector})["allTopLevelResourceDetailsOrError"]["results"]
    keys = {node["assetKey"]["path"][-1] for node in nodes}
    assert {"source_dataset", "materialized_inputs", "rollouts", "reward_profile", "diagnostic_report",
            "checkpoint_comparison"} <= keys
    # The Resources tab: the model server and, per stage, the launcher the example sweep names.
    listed = {resource["name"]: resource for resource in resources}
    assert {"model_server", "materialize_launcher", "collect_launcher", "profile_launcher",
            "model_server_launcher"} <= set(listed)
    assert listed["model_server_launcher"]["resourceType"].endswith("LocalLauncherResource")
    assert "grace_period_s" in {field["name"] for field in listed["model_server_launcher"]["configFields"]}
