"""The sweep config (YAML): which environments, checkpoints and settings a sweep evaluates.

Relative paths in the file are resolved against the folder that holds it, so a
workspace folder can be moved or copied whole.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from gym_pipeline.environments import get_environment
from gym_pipeline.gym.materialize import MaterializationSettings

SWEEP_CONFIG_FILE = "sweep.yaml"
HOME_ENV_VAR = "GYM_PIPELINE_HOME"
DEFAULT_HOME = "gym-pipeline-home"

# Names become folder names and partition keys: no separators, no `..`, nothing hidden.
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


class ConfigError(ValueError):
    pass


def check_safe_name(value: str, what: str = "name") -> str:
    if not _SAFE_NAME.match(value) or ".." in value:
        raise ValueError(
            f"{what} {value!r} must start with a letter or digit and hold only letters, digits, '.', '_', '-'"
        )
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EnvironmentConfig(_Strict):
    name: str = Field(description="An environment gym_pipeline knows (string_match, mcqa...)")
    dataset: Path = Field(description="The source JSONL of tasks")
    agent: str | None = Field(default=None, description="agent_ref name; defaults to the environment's agent")

    _check_name = field_validator("name")(lambda cls, value: check_safe_name(value, "environment name"))


class ModelServerConfig(_Strict):
    kind: Literal["simulated", "endpoint"] = "simulated"
    url_template: str | None = Field(
        default=None, description="endpoint kind: base URL per checkpoint, e.g. http://127.0.0.1:8000/v1 or ...{checkpoint}..."
    )
    model_name: str | None = None
    api_key_env: str | None = Field(default=None, description="name of the environment variable holding the API key")
    latency_ms: int = Field(default=0, ge=0, description="simulated kind: added latency per request")
    startup_timeout_s: float = Field(default=60.0, gt=0)


class FreshnessConfig(_Strict):
    """A time-window freshness policy, sized for nightly sweeps by default."""

    warn_hours: float | None = Field(default=24.0, gt=0)
    fail_hours: float = Field(default=26.0, gt=0)


class SweepConfig(_Strict):
    name: str = "sweep"
    environments: list[EnvironmentConfig] = Field(min_length=1)
    checkpoints_dir: Path = Field(default=Path("checkpoints"), description="one folder per checkpoint")
    checkpoint_registry: Path | None = Field(
        default=None, description="optional file naming checkpoints (one a line), e.g. those served by endpoints"
    )
    nightly_cron: str | None = Field(
        default="0 2 * * *", description="when the nightly sweep of the latest checkpoint runs; null: no schedule"
    )
    runs_dir: Path = Field(default=Path("runs"), description="one run directory per (checkpoint, environment)")
    comparisons_dir: Path = Field(default=Path("comparisons"), description="one checkpoint comparison per environment")
    regression_alpha: float = Field(default=0.05, gt=0, lt=1, description="significance level of a regression")
    num_repeats: int = Field(default=4, ge=1)
    interleave_repeats: bool = False
    responses_create_params: dict[str, Any] = Field(
        default_factory=dict, description="prompt/sampling overrides merged into every row, as Gym's config does"
    )
    concurrency: int = Field(default=16, ge=1, le=4096)
    request_timeout_s: float = Field(default=120.0, gt=0)
    backfill_batch_size: int = Field(
        default=20, ge=1, le=1000, description="partitions a backfill run materializes together (one start-up)"
    )
    allow_partial_profiles: bool = Field(
        default=True, description="profile what completed when some rollouts failed (the diagnosis reports them)"
    )
    model_server: ModelServerConfig = ModelServerConfig()
    reward_profile_freshness: FreshnessConfig | None = Field(
        default_factory=lambda: FreshnessConfig(), description="how old a reward profile may get; null: no policy"
    )
    auto_rebuild_inputs: bool = Field(
        default=False, description="opt-in: observe sources on `observe_cron` and rebuild inputs whose source changed"
    )
    observe_cron: str = "*/10 * * * *"

    _check_name = field_validator("name")(lambda cls, value: check_safe_name(value, "sweep name"))

    @field_validator("environments")
    @classmethod
    def _unique_environments(cls, environments: list[EnvironmentConfig]) -> list[EnvironmentConfig]:
        names = [environment.name for environment in environments]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"environment names must be unique, repeated: {duplicates}")
        return environments

    def resolved(self, base_dir: Path) -> SweepConfig:
        """A copy whose relative paths are made absolute against `base_dir`."""
        def absolute(path: Path) -> Path:
            return path if path.is_absolute() else (base_dir / path).resolve()

        return self.model_copy(
            update={
                "checkpoints_dir": absolute(self.checkpoints_dir),
                "checkpoint_registry": absolute(self.checkpoint_registry) if self.checkpoint_registry else None,
                "runs_dir": absolute(self.runs_dir),
                "comparisons_dir": absolute(self.comparisons_dir),
                "environments": [
                    environment.model_copy(update={"dataset": absolute(environment.dataset)})
                    for environment in self.environments
                ],
            }
        )

    def environment(self, name: str) -> EnvironmentConfig:
        for environment in self.environments:
            if environment.name == name:
                return environment
        raise ConfigError(f"environment {name!r} is not in the sweep (known: {[e.name for e in self.environments]})")

    def materialization_settings(self, env: str) -> MaterializationSettings:
        """Everything materialization reads besides the data: part of the inputs' fingerprint."""
        environment = self.environment(env)
        return MaterializationSettings(
            num_repeats=self.num_repeats,
            agent=environment.agent or get_environment(env).agent_name,
            interleave_repeats=self.interleave_repeats,
            responses_create_params=self.responses_create_params,
        )

    def run_dir(self, checkpoint: str, env: str) -> Path:
        return self.runs_dir / check_safe_name(checkpoint, "checkpoint name") / check_safe_name(env, "environment name")

    def checkpoint_dir(self, checkpoint: str) -> Path:
        return self.checkpoints_dir / check_safe_name(checkpoint, "checkpoint name")


def load_sweep_config(path: Path) -> SweepConfig:
    """Read and validate a sweep config; errors name the file and the field."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"{path}: sweep config not found")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: not valid YAML ({error})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        problems = "; ".join(
            f"field '{'.'.join(str(part) for part in item['loc'])}': {item['msg']}" for item in error.errors()
        )
        raise ConfigError(f"{path}: {problems}") from None
    return config.resolved(path.parent.resolve())


def home_dir(explicit: Path | str | None = None) -> Path:
    """The workspace folder: the argument, else $GYM_PIPELINE_HOME, else ./gym-pipeline-home."""
    return Path(explicit or os.environ.get(HOME_ENV_VAR) or DEFAULT_HOME).resolve()
