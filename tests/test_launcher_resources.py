"""Launchers are Dagster resources: bound per stage from sweep.yaml, received by the assets, replaceable in a run."""

import os

import dagster as dg
import orjson

from gym_pipeline.assets.inputs import build_materialized_inputs
from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.config import ModelServerConfig, StageLaunchersConfig
from gym_pipeline.demo import create_workspace
from gym_pipeline.launchers.settings import DockerLauncherSettings, LocalLauncherSettings, SlurmLauncherSettings
from gym_pipeline.resources.digest_cache import DigestCacheResource
from gym_pipeline.resources.launchers import (
    DockerLauncherResource,
    InStepLauncherResource,
    LocalLauncherResource,
    SlurmLauncherResource,
    launcher_resource,
)
from gym_pipeline.resources.model_server import ModelServerResource
from gym_pipeline.sweep import build_definitions

LAUNCHERS = ("materialize_launcher", "collect_launcher", "profile_launcher", "model_server_launcher")


def test_the_definitions_bind_per_stage_the_launcher_sweep_yaml_names(tmp_path):
    config = create_workspace(tmp_path / "home", checkpoint_count=1)
    docker = DockerLauncherSettings(memory_mb=4096, mounts=[{"source": str(tmp_path)}])
    slurm = SlurmLauncherSettings(partition="eval", time_limit="02:00:00")
    config = config.model_copy(update={"launchers": StageLaunchersConfig(collect=docker, profile=slurm)})

    defs = build_definitions(config)
    resources = defs.resources

    # The UI's Resources tab lists the repository's top-level resources.
    assert set(LAUNCHERS) | {"model_server"} <= set(defs.get_repository_def().get_top_level_resources())
    assert isinstance(resources["materialize_launcher"], InStepLauncherResource)  # unset: in the step
    assert isinstance(resources["collect_launcher"], DockerLauncherResource)
    assert resources["collect_launcher"].settings() == docker
    assert isinstance(resources["profile_launcher"], SlurmLauncherResource)
    assert resources["profile_launcher"].settings() == slurm
    assert isinstance(resources["model_server_launcher"], LocalLauncherResource)  # unset: a local process
    # Every asset that launches says which launcher it uses, which is what the UI's asset pages show.
    required = {key.to_user_string(): assets.required_resource_keys
                for assets in defs.assets if isinstance(assets, dg.AssetsDefinition) for key in assets.keys}
    assert {"materialize_launcher"} <= required["materialized_inputs"]
    assert {"model_server", "model_server_launcher", "collect_launcher"} <= required["rollouts"]
    assert {"profile_launcher"} <= required["reward_profile"]


def test_each_launcher_resource_is_its_settings():
    for settings in (LocalLauncherSettings(grace_period_s=3), DockerLauncherSettings(network="none", cpus=1.5),
                     SlurmLauncherSettings(gres="gpu:1", extra_options=["--qos=high"])):
        resource = launcher_resource(settings)
        assert isinstance(resource, type(settings)) and resource.settings() == settings
        assert not resource.in_step
    assert launcher_resource(None).in_step


def test_the_model_server_resource_is_one_model_server_config():
    settings = ModelServerConfig(kind="vllm", startup_timeout_s=600, extra_args=["--max-model-len", "8192"])
    resource = ModelServerResource.from_config(settings)
    assert isinstance(resource, ModelServerConfig) and resource.settings() == settings
    assert set(ModelServerResource.model_fields) == set(ModelServerConfig.model_fields)


def test_a_stage_runs_through_a_launcher_passed_to_materialize(tmp_path):
    home = tmp_path / "home"
    config = create_workspace(home, checkpoint_count=1)  # no launcher in sweep.yaml: the step would run it
    with dg.DagsterInstance.ephemeral() as instance:
        instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0100"])
        result = dg.materialize([build_materialized_inputs(config)], instance=instance,
                                partition_key=sweep_partition_key("step_0100", "mcqa"),
                                resources={"materialize_launcher": LocalLauncherResource(grace_period_s=5)})
    assert result.success
    metadata = result.asset_materializations_for_node("materialized_inputs")[0].metadata
    assert metadata["launcher/launcher"].value == "local" and metadata["rows"].value > 0
    run_dir = home / "runs" / "step_0100" / "mcqa"
    ran_on = orjson.loads((run_dir / "manifest.json").read_bytes())["materialized_inputs"]["ran_on"]
    assert ran_on["launcher"] == "local" and ran_on["pid"] != os.getpid()
    assert (run_dir / "logs" / "materialized_inputs.log").exists()


def test_a_launched_stage_outcome_crosses_as_json_and_becomes_dagster_metadata(tmp_path):
    import numpy as np

    from gym_pipeline.assets.batching import dagster_metadata
    from gym_pipeline.stages import PartitionOutcome, deserialize_outcome, markdown_value, path_value, serialize_outcome

    sent = PartitionOutcome({"path": path_value(tmp_path), "summary": markdown_value("| a |"), "rows": np.int64(3),
                             "share": float("nan"), "mean": np.float64(0.5), "model": "m", "none": None}, "digest")
    received = deserialize_outcome(serialize_outcome(sent))
    assert received.digest == "digest"
    metadata = dagster_metadata(received.metadata)
    assert metadata["path"] == dg.MetadataValue.path(str(tmp_path))
    assert metadata["summary"] == dg.MetadataValue.md("| a |")
    assert (metadata["rows"], metadata["share"], metadata["mean"], metadata["model"]) == (3, None, 0.5, "m")


def test_checkpoints_are_observed_through_the_model_server_resource_a_run_uses(tmp_path, policy_endpoint):
    """sweep.yaml serves checkpoint folders; a run switched to an endpoint observes the endpoint's model instead."""
    from gym_pipeline.assets.sources import build_model_checkpoint
    from gym_pipeline.core.fingerprint import folder_digest

    config = create_workspace(tmp_path / "home", checkpoint_count=1)
    source = build_model_checkpoint(config)

    def observed(model_server: ModelServerResource) -> str:
        defs = dg.Definitions(assets=[source], jobs=[dg.define_asset_job("observe", [source.key])],
                              resources={"model_server": model_server,
                                         "digest_cache": DigestCacheResource(store=str(tmp_path / "digests.sqlite"))})
        with dg.DagsterInstance.ephemeral() as instance:
            instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0100"])
            assert defs.resolve_job_def("observe").execute_in_process(instance=instance).success
            record = instance.fetch_observations(source.key, limit=1).records[0]
            return record.asset_observation.tags["dagster/data_version"]

    folder = observed(ModelServerResource.from_config(config.model_server))
    assert folder == folder_digest(config.checkpoint_dir("step_0100"))
    endpoint = observed(ModelServerResource(kind="endpoint", url_template=policy_endpoint.url))
    assert endpoint != folder
