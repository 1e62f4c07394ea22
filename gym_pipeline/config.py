"""The sweep config (YAML): which environments, checkpoints and settings a sweep evaluates.

Relative paths in the file are resolved against the folder that holds it, so a
workspace folder can be moved or copied whole.
"""

from __future__ import annotations

import os
import re
import string
from difflib import get_close_matches
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import orjson
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from gym_pipeline.core.materialize import MaterializationError, MaterializationSettings
from gym_pipeline.core.yaml_pitfalls import duplicate_keys, octal_numbers
from gym_pipeline.environments import (
    Environment,
    VerifierNotFoundError,
    VerifierReference,
    environment_for,
    get_environment,
)
from gym_pipeline.launchers.settings import LauncherSettings
from gym_pipeline.taskfolders.episode import DEFAULT_GRACE_S
from gym_pipeline.taskfolders.materialize import TASK_AGENT

SWEEP_CONFIG_FILE = "sweep.yaml"
EXAMPLES_DIR = Path(__file__).parent / "examples"
HOME_ENV_VAR = "GYM_PIPELINE_HOME"
TASK_ONLY_FIELDS = frozenset({"skip_unloadable", "allow_internet", "sandbox_concurrency", "episode_grace_sec"})
TASKFOLDER_REWARDS_MODULE = "gym_pipeline.taskfolders.rewards"  # reads the reward files tests/test.sh writes
DEFAULT_HOME = "gym-pipeline-home"

# Names become folder names and partition keys: no separators, no `..`, nothing hidden.
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_ENV_VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_CONCURRENCY = 4096
_MAX_HOURS = 24 * 366 * 10  # a freshness window beyond ten years is a typo (and overflows a timedelta)


class ConfigError(ValueError):
    pass


def api_key_from_env(variable: str | None, setting: str) -> str | None:
    """The API key held by the environment variable a setting names; None when none is named. A variable named
    but unset is an error: requests would go without the key and fail later, far from the cause."""
    if not variable:
        return None
    api_key = os.environ.get(variable)
    if not api_key:
        raise ConfigError(f"{setting} names the environment variable {variable}, which is not set (or empty): "
                          f"export {variable}=<key> first")
    return api_key


def check_safe_name(value: str, what: str = "name") -> str:
    """`value` when it is safe as one path component and a partition key, else a ValueError naming `what`."""
    if not isinstance(value, str) or not _SAFE_NAME.fullmatch(value) or ".." in value:
        raise ValueError(
            f"{what} {value!r} must start with a letter or digit and hold only letters, digits, '.', '_', '-'"
        )
    return value


def _check_path(value: Path) -> Path:
    # The OS refuses a NUL byte only when the path is used, with an error naming neither file nor field.
    if "\0" in str(value):
        raise ValueError("a path must not contain a NUL character")
    return value


def _check_cron(value: str | None) -> str | None:
    from dagster._utils.schedules import is_valid_cron_string  # Dagster's own rule (5 fields); a heavy import

    if value is not None and not is_valid_cron_string(value):
        raise ValueError(f"{value!r} is not a cron schedule of 5 fields, e.g. '0 2 * * *'")
    return value


_VALIDATED_BY_STEP = "validated_by_step"


class _Strict(BaseModel):
    # inf/nan would pass the bounds of a timeout or a window and break things far from the config.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class EnvironmentConfig(_Strict):
    name: str = Field(description="A bundled environment (string_match, mcqa), or any name with `verifier` or "
                                  "`tasks`")
    dataset: Path | None = Field(default=None, description="The source JSONL of tasks")
    verifier: str | None = Field(
        default=None, description="MODULE:FUNCTION scoring this environment's answers: FUNCTION(row, response_text) "
                                  "returns a float reward or a dict of Gym's verifier fields; MODULE is looked up in "
                                  "the workspace's verifiers folder, then among installed packages")
    tasks: Path | None = Field(default=None, description="a task folder in Harbor's format, or a folder of them "
                                                         "(instead of a dataset: see gym_pipeline/taskfolders)")
    skip_unloadable: bool = Field(default=False, description="tasks: run the loadable tasks when some do not load "
                                                             "(Gym's --skip-unloadable); they are in skipped.json")
    allow_internet: bool = Field(default=False, description="tasks: the host lets a task that asks for the internet "
                                                            "have the host's network (default: no network at all)")
    sandbox_concurrency: int | None = Field(
        default=None, ge=1, le=MAX_CONCURRENCY,
        description="tasks: episodes run at once, each in its own Docker container; default: this machine's cores, "
                    "at most the sweep's concurrency (starting and running containers is CPU work: more at once "
                    "only makes each episode slower, see benchmarks/README.md)")
    episode_grace_sec: float = Field(
        default=DEFAULT_GRACE_S, ge=0,
        description="tasks: seconds an episode may run beyond [agent].timeout_sec + [verifier].timeout_sec before "
                    "it fails with harbor:task_deadline (and is retried)")
    agent: str | None = Field(
        default=None,
        description="the agent every row runs on (Gym's +agent_name: replaces each row's agent_ref); defaults to "
                    "the environment's agent unless agent_map has a _default")
    # Gym 0.7.0's other materialization settings, with its meaning (`gym eval run +limit=... ...`).
    num_repeats: int | dict[str, int] | None = Field(
        default=None, description="repeats per task, or per agent name (with an optional _default); "
                                  "defaults to the sweep's num_repeats")
    limit: int | None = Field(default=None, ge=0, description="materialize only the first N rows (Gym's +limit)")
    num_repeats_add_seed: bool = Field(
        default=False, description="give each repeat a seed in responses_create_params.metadata.extra_body")
    prompt_config: Path | None = Field(
        default=None, description="prompt YAML (user, optional system) that builds responses_create_params.input")
    agent_map: dict[str, str] | None = Field(
        default=None, description="re-route rows by their agent_ref.name or task_source ({old: new, _default: ...})")
    fan_out: dict[str, list[str]] | None = Field(
        default=None, description="run rows of an agent_ref.name or task_source once per listed agent")

    _check_name = field_validator("name")(lambda cls, value: check_safe_name(value, "environment name"))
    _check_verifier = field_validator("verifier")(
        lambda cls, value: value if value is None else str(VerifierReference.parse(value)))
    _check_dataset = field_validator("dataset", "tasks", "prompt_config")(
        lambda cls, value: value if value is None else _check_path(value))

    @model_validator(mode="after")
    def _one_source(self) -> EnvironmentConfig:
        if (self.dataset is None) == (self.tasks is None):
            raise ValueError("give either dataset (a JSONL of tasks) or tasks (a folder of task folders), not "
                             + ("both" if self.dataset else "neither"))
        if self.tasks is not None and self.verifier is not None:
            raise ValueError("a task folder is scored by its own tests/test.sh: `verifier` applies to a dataset only")
        # by value, not by the fields given: a config a sweep step wrote back holds every field with its default
        set_for_tasks = sorted(name for name in TASK_ONLY_FIELDS
                               if getattr(self, name) != type(self).model_fields[name].default)
        if self.tasks is None and set_for_tasks:
            raise ValueError(f"{', '.join(set_for_tasks)} applies to task folders (`tasks`) only")
        return self

    @property
    def source(self) -> Path:
        """What the environment's tasks are read from: the dataset file or the taskset folder."""
        return self.tasks or self.dataset  # type: ignore[return-value]

    @model_validator(mode="after")
    def _gym_checks(self) -> EnvironmentConfig:
        """Gym's checks of these settings, where the config names them."""
        try:
            MaterializationSettings(num_repeats=self.num_repeats or 1, agent=self.agent, agent_map=self.agent_map,
                                    fan_out=self.fan_out)
        except MaterializationError as error:
            raise ValueError(str(error)) from None
        return self


class ModelServerConfig(_Strict):
    kind: Literal["simulated", "endpoint", "vllm"] = "simulated"
    url_template: str | None = Field(
        default=None, description="endpoint kind: base URL per checkpoint, e.g. http://127.0.0.1:8000/v1 or ...{checkpoint}..."
    )
    model_name: str | None = None
    api_key_env: str | None = Field(default=None, description="name of the environment variable holding the API key")
    latency_ms: int = Field(default=0, ge=0, le=600_000,
                            description="simulated kind: added latency per request (at most 10 minutes)")
    startup_timeout_s: float = Field(default=60.0, gt=0,
                                     description="seconds a started server has to answer /v1/models (vLLM: minutes)")
    command: list[str] = Field(
        default=["vllm", "serve", "{checkpoint_dir}", "--host", "127.0.0.1", "--port", "{port}",
                 "--served-model-name", "{checkpoint}"],
        min_length=1,
        description="vllm kind: the server's command, one argument an item; {checkpoint_dir}, {checkpoint} and "
                    "{port} (required: a free port picked per start) are filled in",
    )
    extra_args: list[str] = Field(default=[], description="vllm kind: arguments appended to the command as they are")

    @field_validator("command")
    @classmethod
    def _check_command(cls, value: list[str]) -> list[str]:
        placeholders = {"checkpoint_dir": "/checkpoints/step_1", "checkpoint": "step_1", "port": "8000"}
        fields = set()
        for argument in value:
            if "\0" in argument:
                raise ValueError("an argument must not contain a NUL character")
            try:
                found = {name for _, name, _, _ in string.Formatter().parse(argument) if name is not None}
                if found - placeholders.keys():
                    raise ValueError(f"only {{checkpoint_dir}}, {{checkpoint}} and {{port}} may be filled in, "
                                     f"found {sorted(found - placeholders.keys())}")
                argument.format(**placeholders)  # a bad format spec shows only here
            except ValueError as error:
                raise ValueError(f"argument {argument!r}: {error} (write {{{{ and }}}} for literal braces)") from None
            fields |= found
        if "port" not in fields:
            raise ValueError("must pass {port} to the server: it listens on a port picked when it starts")
        if not value[0].strip():
            raise ValueError("the first argument must name the program")
        return value

    @field_validator("extra_args")
    @classmethod
    def _check_extra_args(cls, value: list[str]) -> list[str]:
        if any("\0" in argument for argument in value):
            raise ValueError("an argument must not contain a NUL character")
        return value

    @field_validator("url_template")
    @classmethod
    def _check_url_template(cls, value: str | None) -> str | None:
        if value is None:
            return value
        fields = {name for _, name, _, _ in string.Formatter().parse(value) if name is not None}
        if fields - {"checkpoint"}:
            raise ValueError(f"only {{checkpoint}} may be filled in, found {sorted(fields - {'checkpoint'})}")
        try:
            parts = urlsplit(value.format(checkpoint="checkpoint"))
            parts.port  # noqa: B018 (raises ValueError on a bad port)
        except ValueError as error:
            raise ValueError(f"not a valid URL template ({error})") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8000/v1")
        return value

    @field_validator("api_key_env")
    @classmethod
    def _check_api_key_env(cls, value: str | None) -> str | None:
        if value is not None and not _ENV_VAR_NAME.fullmatch(value):
            raise ValueError("must be the name of an environment variable (letters, digits, '_'), not the key")
        return value

    @model_validator(mode="after")
    def _one_kind_of_credentials(self) -> ModelServerConfig:
        # Both would become an Authorization header: the HTTP client refuses the pair on every request.
        if self.api_key_env and self.url_template and urlsplit(self.url_template).username is not None:
            raise ValueError("url_template carries credentials and api_key_env is set: use one of them")
        return self


class FreshnessConfig(_Strict):
    """A time-window freshness policy, sized for nightly sweeps by default."""

    warn_hours: float | None = Field(default=24.0, gt=0, le=_MAX_HOURS)
    fail_hours: float = Field(default=26.0, ge=1 / 60, le=_MAX_HOURS, description="at least a minute (Dagster's floor)")

    @model_validator(mode="after")
    def _warn_before_fail(self) -> FreshnessConfig:
        if self.warn_hours is not None and self.warn_hours >= self.fail_hours:
            raise ValueError(f"warn_hours ({self.warn_hours}) must be less than fail_hours ({self.fail_hours})")
        return self


class NemoGymConfig(_Strict):
    """The `nemo_gym` engine: the real `gym env start` + `gym eval run` (see scripts/install-nemo-gym.sh)."""

    executable: Path | None = Field(default=None, description="the `gym` program; default: $GYM_PIPELINE_NEMO_GYM")
    startup_timeout_s: float = Field(default=900.0, gt=0, description="seconds `gym env start` has to be ready")
    link_venvs: bool = Field(default=True, description="start Gym's servers from its own venv instead of letting it "
                                                       "build one per server (needs Python >= 3.13.14 and network)")
    extra_overrides: list[str] = Field(default_factory=list, description="Hydra overrides (++key=value) for both "
                                                                         "commands")
    search_dirs: list[Path] = Field(default_factory=list, description="folders holding your own resources servers "
                                                                      "(Gym's --search-dir), searched before Gym's")


class StageLaunchersConfig(_Strict):
    """Where each stage of a partition runs. Unset: inside the Dagster step's own process (the fastest)."""

    materialize: LauncherSettings | None = Field(default=None, description="materialized inputs")
    collect: LauncherSettings | None = Field(default=None, description="rollout collection (the built-in engine)")
    profile: LauncherSettings | None = Field(default=None, description="reward profiling")
    model_server: LauncherSettings | None = Field(
        default=None, description="the per-checkpoint model server (simulated policy or vLLM); unset: a local process")

    @classmethod
    def everywhere(cls, settings: LauncherSettings) -> StageLaunchersConfig:
        return cls(materialize=settings, collect=settings, profile=settings, model_server=settings)


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
    verifiers_dir: Path = Field(default=Path("verifiers"),
                                description="the workspace's own verifier modules, searched before installed packages")
    comparisons_dir: Path = Field(default=Path("comparisons"), description="one checkpoint comparison per environment")
    regression_alpha: float = Field(default=0.05, gt=0, lt=1, description="significance level of a regression")
    num_repeats: int = Field(default=4, ge=1)
    interleave_repeats: bool = False
    responses_create_params: dict[str, Any] = Field(
        default_factory=dict, description="prompt/sampling overrides merged into every row, as Gym's config does"
    )
    concurrency: int = Field(default=16, ge=1, le=MAX_CONCURRENCY)
    request_timeout_s: float = Field(default=120.0, gt=0)
    backfill_batch_size: int = Field(
        default=20, ge=1, le=1000, description="partitions a backfill run materializes together (one start-up)"
    )
    allow_partial_profiles: bool = Field(
        default=True, description="profile what completed when some rollouts failed (the diagnosis reports them)"
    )
    engine: Literal["builtin", "nemo_gym"] = Field(
        default="builtin", description="who collects the rollouts: our async collector, or the real NeMo Gym")
    nemo_gym: NemoGymConfig = NemoGymConfig()
    model_server: ModelServerConfig = ModelServerConfig()
    launchers: StageLaunchersConfig = StageLaunchersConfig()
    reward_profile_freshness: FreshnessConfig | None = Field(
        default_factory=lambda: FreshnessConfig(), description="how old a reward profile may get; null: no policy"
    )
    auto_rebuild_inputs: bool = Field(default=False, description="opt-in: rebuild inputs whose source changed")
    observe_sources: bool = Field(
        default=True, description="observe datasets, settings and checkpoints on their own (the observe_sources "
                                  "sensor); false: it starts stopped")
    observe_interval_s: int = Field(default=60, ge=10, description="seconds between two observations of the sources")
    digest_cache: Path = Field(
        default=Path(".gym-pipeline/digests.sqlite"),
        description="where source files' digests are kept by (device, inode, size, mtime) so unchanged files are "
                    "not hashed again")
    rehash_sources: bool = Field(
        default=False, description="hash every source file on each observation instead of reusing kept digests")

    _check_name = field_validator("name")(lambda cls, value: check_safe_name(value, "sweep name"))
    _check_paths = field_validator("checkpoints_dir", "checkpoint_registry", "runs_dir", "comparisons_dir",
                                   "digest_cache", "verifiers_dir")(
        lambda cls, value: value if value is None else _check_path(value))
    # A launched stage reads the config its Dagster step validated and wrote (`validate_from_step`): the cron
    # check, which needs Dagster, is not done again there, so that a stage process never loads Dagster.
    _check_crons = field_validator("nightly_cron")(
        lambda cls, value, info: value if (info.context or {}).get(_VALIDATED_BY_STEP) else _check_cron(value))

    @field_validator("responses_create_params")
    @classmethod
    def _json_params(cls, params: dict[str, Any]) -> dict[str, Any]:
        """They are merged into JSON rows: anything YAML has and JSON has not (dates, binary, inf, non-text
        keys) would change or fail far from here, so the round trip must give them back unchanged."""
        try:
            unchanged = orjson.loads(orjson.dumps(params)) == params
        except orjson.JSONEncodeError as error:
            raise ValueError(f"must be plain JSON values ({error})") from None
        if not unchanged:
            raise ValueError("must be plain JSON values (no dates, binary, sets, inf or nan)")
        return params

    @model_validator(mode="after")
    def _own_verifiers_run_on_the_builtin_engine(self) -> SweepConfig:
        named = [environment.name for environment in self.environments if environment.verifier is not None]
        if self.engine == "nemo_gym" and named:
            raise ValueError(f"environments {named} name their own verifier: the nemo_gym engine runs Gym's own "
                             "resources servers only; use engine: builtin for them")
        return self

    @field_validator("environments")
    @classmethod
    def _unique_environments(cls, environments: list[EnvironmentConfig]) -> list[EnvironmentConfig]:
        names = [environment.name for environment in environments]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"environment names must be unique, repeated: {duplicates}")
        return environments

    @classmethod
    def validate_from_step(cls, data: bytes | str) -> SweepConfig:
        """The JSON a Dagster step wrote for a stage it launches (`logs/<stage>.sweep.json`), already checked
        there: its cron strings are not checked again, a check that would load Dagster into the stage."""
        return cls.model_validate_json(data, context={_VALIDATED_BY_STEP: True})

    def resolved(self, base_dir: Path) -> SweepConfig:
        """A copy whose relative paths are made absolute against `base_dir`."""
        def absolute(path: Path) -> Path:
            return path if path.is_absolute() else (base_dir / path).resolve()

        return self.model_copy(
            update={
                "checkpoints_dir": absolute(self.checkpoints_dir),
                "checkpoint_registry": absolute(self.checkpoint_registry) if self.checkpoint_registry else None,
                "runs_dir": absolute(self.runs_dir),
                "verifiers_dir": absolute(self.verifiers_dir),
                "comparisons_dir": absolute(self.comparisons_dir),
                "digest_cache": absolute(self.digest_cache),
                "nemo_gym": self.nemo_gym.model_copy(
                    update={"search_dirs": [absolute(folder) for folder in self.nemo_gym.search_dirs]}),
                "environments": [
                    environment.model_copy(update={
                        "dataset": absolute(environment.dataset) if environment.dataset else None,
                        "tasks": absolute(environment.tasks) if environment.tasks else None,
                        "prompt_config": absolute(environment.prompt_config) if environment.prompt_config else None,
                    })
                    for environment in self.environments
                ],
            }
        )

    def environment(self, name: str) -> EnvironmentConfig:
        for environment in self.environments:
            if environment.name == name:
                return environment
        known = [e.name for e in self.environments]
        close = get_close_matches(name.lower().replace("-", "_"), known, n=1)
        suggestion = f"; did you mean {close[0]!r}?" if close else ""
        raise ConfigError(f"environment {name!r} is not in the sweep (known: {known}){suggestion}")

    def runnable_environment(self, env: str) -> Environment:
        """The environment that scores `env`'s answers: bundled, or the verifier its config names (loaded afresh)."""
        environment = self.environment(env)
        return environment_for(env, environment.dataset, environment.verifier, self.verifiers_dir)

    def verifier_module(self, env: str) -> tuple[str, Path | None]:
        """The module holding `env`'s verifier, and the workspace folder searched first (None: bundled)."""
        environment = self.environment(env)
        if environment.tasks is not None:  # each task's own tests score it; this module reads their reward files
            return TASKFOLDER_REWARDS_MODULE, None
        if environment.verifier is None:
            return type(get_environment(env)).__module__, None
        return VerifierReference.parse(environment.verifier).module, self.verifiers_dir

    def materialization_settings(self, env: str) -> MaterializationSettings:
        """Everything materialization reads besides the data: part of the inputs' fingerprint."""
        environment = self.environment(env)
        routed_by_map = environment.agent_map and "_default" in environment.agent_map
        return MaterializationSettings(
            num_repeats=self.num_repeats if environment.num_repeats is None else environment.num_repeats,
            agent=environment.agent or (None if routed_by_map else self._default_agent(environment)),
            interleave_repeats=self.interleave_repeats,
            responses_create_params=self.responses_create_params,
            limit=environment.limit,
            num_repeats_add_seed=environment.num_repeats_add_seed,
            prompt_config=str(environment.prompt_config) if environment.prompt_config else None,
            agent_map=environment.agent_map,
            fan_out=environment.fan_out,
        )

    @staticmethod
    def _default_agent(environment: EnvironmentConfig) -> str:
        if environment.tasks is not None:
            return TASK_AGENT
        if environment.verifier is None:
            return get_environment(environment.name).agent_name
        return Environment.agent_name_for(environment.name)

    def run_dir(self, checkpoint: str, env: str) -> Path:
        return self.runs_dir / check_safe_name(checkpoint, "checkpoint name") / check_safe_name(env, "environment name")

    def checkpoint_dir(self, checkpoint: str) -> Path:
        return self.checkpoints_dir / check_safe_name(checkpoint, "checkpoint name")

    def comparison_dir(self, env: str) -> Path:
        return self.comparisons_dir / check_safe_name(env, "environment name")


def load_sweep_config(path: Path, load_verifiers: bool = True) -> SweepConfig:
    """Read and validate a sweep config; every error is a one-line `ConfigError` naming the file (and the
    line or the field). `load_verifiers=False` leaves the named verifiers unimported (reading a config, as the
    diagnosis does, must not run a user's code)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"{path}: sweep config not found" if not path.exists() else f"{path}: not a file")
    try:
        text = path.read_text(encoding="utf-8")
        raw = yaml.safe_load(text)
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else str(path)
        raise ConfigError(f"{where}: not valid YAML ({error.problem or error.context})") from None
    except (yaml.YAMLError, ValueError, RecursionError) as error:  # e.g. a date like 2024-13-45, or deep nesting
        raise ConfigError(f"{path}: not valid YAML ({_one_line(error)})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    if padded := octal_numbers(text):  # `num_repeats: 010` would silently be 8
        raise ConfigError(f"{path}:{padded[0].line}: field '{padded[0].key}': {padded[0].describe()}; write "
                          f"{padded[0].meant} (or quote it, if it is text)")
    if twice := duplicate_keys(text):  # a forgotten `num_repeats: 1` below `num_repeats: 8` would silently win
        raise ConfigError(f"{path}:{twice[0].lines[-1]}: field '{twice[0].key}': {twice[0].describe()}; keep one")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as error:
        raise ConfigError(f"{path}: {validation_problems(error)}") from None
    config = config.resolved(path.parent.resolve())
    if not load_verifiers:
        return config
    # Every named verifier is loaded now: a missing module or function is an error before anything runs.
    for number, environment in enumerate(config.environments):
        if environment.verifier is not None:
            try:
                config.runnable_environment(environment.name)
            except VerifierNotFoundError as error:
                line = _line_of(path, ("environments", number, "verifier"))
                raise ConfigError(f"{path}:{line}: field 'environments.{number}.verifier': {error}") from None
    return config


def validation_problems(error: ValidationError) -> str:
    """A settings model's refusal on one line: each field's path, what it wants, and the value given."""
    def given(item: dict[str, Any]) -> str:
        value = item.get("input")
        return f" (got {value!r})" if isinstance(value, str | int | float) and not isinstance(value, bool) else ""

    return "; ".join(f"field '{_field_path(item['loc'])}': {_one_line(item['msg'])}{given(item)}" if item["loc"]
                     else _one_line(item["msg"]) for item in error.errors())


def _line_of(path: Path, field_path: tuple[str | int, ...]) -> int | str:
    """The 1-based line of a field's value in the YAML file ('?' when it cannot be placed)."""
    node = yaml.compose(path.read_text(encoding="utf-8"))
    for part in field_path:
        if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        elif isinstance(node, yaml.MappingNode):
            node = next((value for key, value in node.value if key.value == part), None)
        else:
            node = None
        if node is None:
            return "?"
    return node.start_mark.line + 1


def _one_line(message: object) -> str:
    return " ".join(str(message).split())


def _field_path(loc: tuple[str | int, ...]) -> str:
    """`environments.0.name`; a key that is not plain text (YAML keys may hold newlines) is quoted."""
    return ".".join(str(part) if _plain(part) else repr(part) for part in loc)


def _plain(part: str | int) -> bool:
    return isinstance(part, int) or (part != "" and part.isprintable() and part.strip() == part)


def home_dir(explicit: Path | str | None = None) -> Path:
    """The workspace folder: the argument, else $GYM_PIPELINE_HOME, else ./gym-pipeline-home."""
    return Path(explicit or os.environ.get(HOME_ENV_VAR) or DEFAULT_HOME).resolve()


def workspace_config(home: Path) -> SweepConfig:
    """The workspace's `sweep.yaml`, or the bundled example sweep with its runs kept in the workspace."""
    path = home / SWEEP_CONFIG_FILE
    if path.exists():
        return load_sweep_config(path)
    example = load_sweep_config(EXAMPLES_DIR / SWEEP_CONFIG_FILE)
    return example.model_copy(update={"checkpoints_dir": home / "checkpoints", "runs_dir": home / "runs",
                                      "comparisons_dir": home / "comparisons", "verifiers_dir": home / "verifiers",
                                      "digest_cache": home / SweepConfig.model_fields["digest_cache"].default})
