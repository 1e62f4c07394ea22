"""Harbor's `task.toml` and Gym's `dataset.toml`, as pydantic models with their field names and defaults.

Harbor (laude-institute/harbor, `harbor.models.task.config`) defaults: `[verifier].timeout_sec` 600 s,
`[agent].timeout_sec` 600 s, `[environment]` `build_timeout_sec` 600 s, `cpus` 1, `memory_mb` 2048,
`storage_mb` 10240, `allow_internet` true. The older spellings `memory = "2G"` and `storage = "10G"` are read
and turned into megabytes, as Harbor and Gym read them. Keys neither knows are ignored (Harbor ignores them);
`unknown_keys` lists them so the loader can say so. Gym's dataset settings (`[gym.defaults]
timeout_multiplier`, `[gym.tasks."<task>".verifier] timeout_sec`) scale and override a task's timeouts:
the override first, then the multiplier.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

DEFAULT_VERIFIER_TIMEOUT_SEC = 600.0
DEFAULT_AGENT_TIMEOUT_SEC = 600.0
DEFAULT_BUILD_TIMEOUT_SEC = 600.0

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*$", re.IGNORECASE)
_MEGABYTES_PER_UNIT = {"": 1 / 1024 / 1024, "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}


def megabytes(size: str) -> int:
    """`"2G"` -> 2048: Harbor's older size strings (`memory`, `storage`)."""
    match = _SIZE.match(size)
    if not match:
        raise ValueError(f"{size!r} is not a size such as '2G' or '512M'")
    return max(1, round(float(match[1]) * _MEGABYTES_PER_UNIT[match[2].upper()]))


class _Section(BaseModel):
    # Unknown keys are kept aside (see `unknown_keys`); numbers must be finite.
    model_config = ConfigDict(extra="allow", allow_inf_nan=False)

    def unknown(self, prefix: str) -> list[str]:
        return [f"{prefix}.{key}" for key in (self.model_extra or {})]


class VerifierSettings(_Section):
    timeout_sec: float = Field(default=DEFAULT_VERIFIER_TIMEOUT_SEC, gt=0)
    env: dict[str, str] = Field(default_factory=dict)


class AgentSettings(_Section):
    timeout_sec: float = Field(default=DEFAULT_AGENT_TIMEOUT_SEC, gt=0)


class EnvironmentSettings(_Section):
    build_timeout_sec: float = Field(default=DEFAULT_BUILD_TIMEOUT_SEC, gt=0)
    docker_image: str | None = Field(default=None, description="a prebuilt image instead of environment/Dockerfile")
    cpus: float = Field(default=1, gt=0)
    memory_mb: int = Field(default=2048, ge=6, description="Docker's floor is 6 MB")
    storage_mb: int = Field(default=10240, gt=0)
    gpus: int = Field(default=0, ge=0)
    allow_internet: bool = True

    @model_validator(mode="before")
    @classmethod
    def _older_size_spellings(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            for old, new in (("memory", "memory_mb"), ("storage", "storage_mb")):
                if old in data:
                    value = data.pop(old)
                    if not isinstance(value, str):
                        raise ValueError(f"{old}: expected a size string such as '2G', got {value!r}")
                    data.setdefault(new, megabytes(value))
        return data


class SolutionSettings(_Section):
    env: dict[str, str] = Field(default_factory=dict)


class TaskConfig(_Section):
    """One `task.toml`."""

    version: str = "1.0"
    schema_version: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    task: dict[str, Any] = Field(default_factory=dict, description="schema 1.1: name, description, authors...")
    verifier: VerifierSettings = Field(default_factory=VerifierSettings)
    agent: AgentSettings = Field(default_factory=AgentSettings)
    environment: EnvironmentSettings = Field(default_factory=EnvironmentSettings)
    solution: SolutionSettings = Field(default_factory=SolutionSettings)

    def unknown_keys(self) -> list[str]:
        return [*self.unknown("task.toml"), *self.verifier.unknown("verifier"), *self.agent.unknown("agent"),
                *self.environment.unknown("environment"), *self.solution.unknown("solution")]


class TaskOverrideVerifier(BaseModel):
    model_config = ConfigDict(extra="allow", allow_inf_nan=False)
    timeout_sec: float | None = Field(default=None, gt=0)


class TaskOverride(BaseModel):
    model_config = ConfigDict(extra="allow")
    verifier: TaskOverrideVerifier = Field(default_factory=TaskOverrideVerifier)


class DatasetDefaults(BaseModel):
    model_config = ConfigDict(extra="allow", allow_inf_nan=False)
    timeout_multiplier: float = Field(default=1.0, gt=0)


class GymDatasetSettings(BaseModel):
    model_config = ConfigDict(extra="allow")
    defaults: DatasetDefaults = Field(default_factory=DatasetDefaults)
    tasks: dict[str, TaskOverride] = Field(default_factory=dict)


class DatasetSettings(BaseModel):
    """A taskset's `dataset.toml` (only its `[gym]` table is read)."""

    model_config = ConfigDict(extra="allow")
    gym: GymDatasetSettings = Field(default_factory=GymDatasetSettings)

    def applying_to(self, task_id: str) -> dict[str, Any]:
        """The settings that change this task's episodes: part of its digest."""
        override = self.gym.tasks.get(task_id)
        return {"timeout_multiplier": self.gym.defaults.timeout_multiplier,
                "verifier_timeout_sec": override.verifier.timeout_sec if override else None}
