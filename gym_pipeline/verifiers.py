"""Each environment's verifier as a versioned input of its rollouts: its name and the version of its code.

The version is a digest of the verifier's module and the project or workspace modules it imports, as parsed code
(`code_versions.verifier_version`): an edit to what the verifier does gives a new version, a comment does not.
The `verifier` source asset observes it; the rollouts' manifest record says which version scored the rows.
"""

from __future__ import annotations

from typing import Any

from gym_pipeline.code_versions import verifier_version
from gym_pipeline.config import SweepConfig

MISSING = "missing"


def verifier_name(config: SweepConfig, env: str) -> str:
    """`MODULE:FUNCTION` as the config names it, or the bundled environment's module."""
    environment = config.environment(env)
    if environment.tasks is not None:
        return f"each task's tests/test.sh, read by {config.verifier_module(env)[0]}"
    return environment.verifier or f"{config.verifier_module(env)[0]} (bundled)"


def verifier_record(config: SweepConfig, env: str) -> dict[str, Any]:
    """What the manifest keeps of the verifier that scored a partition's rows."""
    module, workspace = config.verifier_module(env)
    return {"name": verifier_name(config, env), "version": verifier_version(module, workspace)}


def verifier_versions(config: SweepConfig) -> dict[str, str]:
    """Each environment's verifier version (the `verifier` source's data versions); `missing` when its module is
    gone."""
    versions = {}
    for environment in config.environments:
        try:
            versions[environment.name] = verifier_version(*config.verifier_module(environment.name))
        except ModuleNotFoundError:
            versions[environment.name] = MISSING
    return versions
