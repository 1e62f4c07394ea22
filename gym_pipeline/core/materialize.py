"""Materialization exactly as `gym eval run` does it (NeMo Gym 0.7.0, `RolloutCollectionHelper._preprocess_raw_rows`).

The first `limit` raw lines are read (all when unset) and a `prompt_config` builds each row's
`responses_create_params.input`. Routing: `agent_map[<the row's agent_ref.name or task_source>]`, else
`agent_map._default` (which `agent`, Gym's `+agent_name`, is shorthand for) replaces the row's
`agent_ref` with `{"name": ...}`; `fan_out[<that name>]` runs the row once per listed agent. Identical raw
lines share one `_ng_task_index` (first-seen order), an `_ng_task_index` already in the row is kept, and
each (row, target agent) is repeated `num_repeats` times (an int, or per agent name with a `_default`),
the rollout index counting on per task index. `num_repeats_add_seed` writes the rollout index as the seed
of `responses_create_params.metadata.extra_body`. Repeats come out `aabbcc`, or, interleaved, sorted
stably by rollout index.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson
import yaml

from gym_pipeline.core.fingerprint import file_digest, value_digest
from gym_pipeline.core.formats import (
    AGENT_REF,
    RESPONSES_CREATE_PARAMS,
    ROLLOUT_INDEX,
    TASK_INDEX,
    JsonlFormatError,
    require_file,
    write_jsonl_atomic,
)
from gym_pipeline.core.manifest import record_stage
from gym_pipeline.core.run_lock import run_directory_lock

MATERIALIZED_INPUTS_STAGE = "materialized_inputs"
DEFAULT_KEY = "_default"  # Gym's fallback key of agent_map and of a num_repeats mapping
TASK_SOURCE = "task_source"

log = logging.getLogger(__name__)


class MaterializationError(ValueError):
    pass


@dataclass
class MaterializationSettings:
    """Gym 0.7.0's materialization settings (`gym eval run +num_repeats=... +agent_name=...`)."""

    num_repeats: int | dict[str, int]
    agent: str | None
    interleave_repeats: bool = False
    responses_create_params: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None
    num_repeats_add_seed: bool = False
    prompt_config: str | None = None  # path of a prompt YAML (`user`, optional `system`)
    agent_map: dict[str, str] | None = None
    fan_out: dict[str, list[str]] | None = None

    def __post_init__(self) -> None:
        check_settings(self)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def digest(self) -> str:
        """The settings' data version: the settings and the content of the prompt config they name."""
        prompt = file_digest(self.prompt_config) if self.prompt_config and Path(self.prompt_config).is_file() else None
        return value_digest({**self.as_dict(), "prompt_config_digest": prompt})

    def routing(self) -> dict[str, str]:
        """agent_map with `agent` folded in as its `_default`, as Gym folds `+agent_name`."""
        return {**(self.agent_map or {}), **({DEFAULT_KEY: self.agent} if self.agent else {})}


def check_settings(settings: MaterializationSettings) -> None:
    """Gym's own checks of these settings (`RolloutCollectionConfig` validators)."""
    repeats = settings.num_repeats
    if isinstance(repeats, bool) or not isinstance(repeats, (int, dict)):
        raise MaterializationError(f"num_repeats must be an integer or a mapping of agent name to integer, "
                                   f"got {repeats!r}")
    counts = repeats.values() if isinstance(repeats, dict) else [repeats]
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in counts):
        raise MaterializationError(f"num_repeats must be >= 1, got {repeats}")
    if settings.limit is not None and (isinstance(settings.limit, bool) or not isinstance(settings.limit, int)
                                       or settings.limit < 0):
        raise MaterializationError(f"limit must be a non-negative integer, got {settings.limit!r}")
    if settings.agent_map is not None and not (
            isinstance(settings.agent_map, dict) and all(isinstance(v, str) for v in settings.agent_map.values())):
        raise MaterializationError(f"agent_map must map names to agent names, got {settings.agent_map!r}")
    if settings.fan_out is not None and not (isinstance(settings.fan_out, dict) and all(
            isinstance(v, list) and all(isinstance(a, str) for a in v) for v in settings.fan_out.values())):
        raise MaterializationError(f"fan_out must map names to lists of agent names, got {settings.fan_out!r}")
    default = (settings.agent_map or {}).get(DEFAULT_KEY)
    if settings.agent and default is not None and default != settings.agent:
        raise MaterializationError(f"agent={settings.agent!r} conflicts with agent_map._default={default!r}. "
                                   "Set only one of them.")
    for key, agents in (settings.fan_out or {}).items():
        if not agents:
            raise MaterializationError(f"fan_out[{key!r}] is an empty list, which would drop every matching row")
        if len(set(agents)) != len(agents):
            raise MaterializationError(f"fan_out[{key!r}] lists the same agent more than once: use num_repeats")


# --------------------------------------------------------------------------------------------------
# Reading the dataset: what Gym requires of a row, and the row values Gym keeps that we cannot use


def _gym_keeps_task_index(value: Any) -> str:
    """What Gym 0.7.0 writes for an `_ng_task_index` we refuse."""
    shared = ""
    if isinstance(value, (int, float)) and value == int(value):
        shared = f", counting rollout indices together with the rows of task {int(value)}"
    return f"Gym 0.7.0 would write `\"_ng_task_index\": {orjson.dumps(value).decode()}` in every repeat{shared}"


def _taskset_of(row: dict[str, Any]) -> str | None:
    """The taskset a materialized task row (`task_id.taskset` and `task_input`) routes by; None for a flat row."""
    task_id = row.get("task_id")
    taskset = task_id.get("taskset") if isinstance(task_id, dict) and "task_input" in row else None
    return taskset if isinstance(taskset, str) and taskset else None


def _check_row(path: Path, line_number: int, row: Any) -> None:
    """What Gym requires of a dataset row (it fails on anything else), and task indices our stages can use."""
    if not isinstance(row, dict):
        raise JsonlFormatError(path, line_number, None, "expected a JSON object")
    if _taskset_of(row):
        raise JsonlFormatError(path, line_number, "task_id", "a taskset row: Gym routes it by its taskset to an "
                               "environment server (environment_server_routes), which gym_pipeline does not "
                               "configure; materialize it with `gym eval run`")
    if TASK_INDEX in row:
        index = row[TASK_INDEX]
        if type(index) is not int or index < 0:
            raise JsonlFormatError(path, line_number, TASK_INDEX,
                                   f"must be a non-negative integer, got {orjson.dumps(index).decode()} "
                                   f"({_gym_keeps_task_index(index)})")
    agent_ref = row.get(AGENT_REF)
    if agent_ref is not None and not (isinstance(agent_ref, dict) and isinstance(agent_ref.get("name") or "", str)):
        raise JsonlFormatError(path, line_number, f"{AGENT_REF}.name",
                               "must be an object with a string name, or null (Gym then routes the row by --agent)")


def _check_request(path: Path, line_number: int, row: dict[str, Any]) -> None:
    if not isinstance(row.get(RESPONSES_CREATE_PARAMS), dict):
        what = "missing" if RESPONSES_CREATE_PARAMS not in row else "must be an object"
        spelled = _spelled_otherwise(RESPONSES_CREATE_PARAMS, row)
        also = (f"; the row has `{spelled}`: its keys are spelled another way (camelCase, dashes), and Gym reads "
                "snake_case names (responses_create_params, expected_answer...)") if spelled else ""
        raise JsonlFormatError(path, line_number, RESPONSES_CREATE_PARAMS, f"{what} (Gym sends it to the model){also}")
    given = row[RESPONSES_CREATE_PARAMS].get("input")
    field = f"{RESPONSES_CREATE_PARAMS}.input"
    if isinstance(given, dict):
        raise JsonlFormatError(path, line_number, field, "a single message object, where the Responses API takes a "
                               "string or a list of messages: wrap it in a list ([{...}])")
    if isinstance(given, list) and (item := next((i for i, m in enumerate(given) if not isinstance(m, dict)), None)) \
            is not None:
        raise JsonlFormatError(path, line_number, f"{field}[{item}]", "must be a message object ({\"role\": ..., "
                               "\"content\": ...})")


def _spelled_otherwise(field: str, row: dict[str, Any]) -> str | None:
    """A key of the row that is `field` in another naming convention (`responsesCreateParams`, `Responses-Create-Params`)."""
    wanted = field.replace("_", "").lower()
    return next((key for key in row if key != field and key.replace("_", "").replace("-", "").lower() == wanted), None)


def first_row_fault(input_path: Path, max_rows: int) -> JsonlFormatError | None:
    """The first of a data file's first `max_rows` rows that Gym refuses or cannot use, checked as `read_raw_rows`
    and `materialize_rows` check them (a row without `responses_create_params` passes, a prompt config may build
    it, unless it has the field spelled another way); None when they are all fine."""
    with input_path.open(encoding="utf-8", errors="surrogateescape") as handle:
        for line_number, line in enumerate(handle, start=1):
            if line_number > max_rows:
                break
            try:
                row = orjson.loads(line)
                _check_row(input_path, line_number, row)
                if RESPONSES_CREATE_PARAMS in row or _spelled_otherwise(RESPONSES_CREATE_PARAMS, row):
                    _check_request(input_path, line_number, row)
            except orjson.JSONDecodeError:
                continue  # a line that is not JSON at all: the readers name that themselves
            except JsonlFormatError as error:
                return error
    return None


def read_raw_rows(input_path: Path, limit: int | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(raw line text, parsed row) for the first `limit` lines (all when None or 0, as Gym); the raw text is what
    Gym de-duplicates tasks on."""
    input_path = require_file(input_path, "input file")
    rows = []
    # Text lines as Gym reads them; bytes that are not UTF-8 are kept as surrogates, which orjson
    # then refuses, so the error names their line instead of a position in a decoding buffer.
    with input_path.open(encoding="utf-8", errors="surrogateescape") as handle:
        for line_number, line in enumerate(handle, start=1):
            if limit and line_number > limit:
                break
            if not line.strip():
                raise JsonlFormatError(input_path, line_number, None, "blank line")
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError as error:
                raise JsonlFormatError(input_path, line_number, None, f"not valid JSON ({error})") from None
            _check_row(input_path, line_number, row)
            rows.append((line, row))
    return rows


# --------------------------------------------------------------------------------------------------
# Prompt configs (Gym's nemo_gym/prompt.py)


def load_prompt_config(path: Path | str) -> dict[str, str | None]:
    """A prompt YAML: `user` (required) and `system` templates with `{field}` placeholders."""
    path = require_file(path, "prompt config")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as error:
        raise MaterializationError(f"{path}: not a valid YAML prompt config ({error})") from None
    if not isinstance(data, dict) or not isinstance(data.get("user"), str):
        raise MaterializationError(f"{path}: field 'user': a prompt config needs a `user` template (text)")
    if not isinstance(data.get("system", ""), str | None) or data.keys() - {"user", "system"}:
        raise MaterializationError(f"{path}: a prompt config holds `user` and an optional `system` template (text)")
    return {"user": data["user"], "system": data.get("system")}


def _apply_prompt(path: Path, line_number: int, row: dict[str, Any], prompt: dict[str, str | None]) -> dict[str, Any]:
    """Gym's `apply_prompt_to_row`: the templates, filled from the row's top-level fields, become the input."""
    request = row.get(RESPONSES_CREATE_PARAMS, {})
    if isinstance(request, dict) and request.get("input"):
        raise JsonlFormatError(path, line_number, f"{RESPONSES_CREATE_PARAMS}.input",
                               "already set, and a prompt_config builds it: use one or the other")
    try:
        messages = [{"role": "system", "content": prompt["system"].format_map(row)}] if prompt["system"] is not None else []
        messages.append({"role": "user", "content": prompt["user"].format_map(row)})
    except KeyError as error:
        raise JsonlFormatError(path, line_number, str(error).strip("'"),
                               "the prompt template uses this field and the row lacks it") from None
    except (ValueError, IndexError, AttributeError) as error:
        raise MaterializationError(f"prompt template cannot be filled from {path}:{line_number}: {error}") from None
    row = row.copy()
    request = request.copy() if isinstance(request, dict) else {}
    request["input"] = messages
    row[RESPONSES_CREATE_PARAMS] = request
    return row


# --------------------------------------------------------------------------------------------------
# Routing and repeating (Gym's `_preprocess_raw_rows`, without tasksets, skills and server lookups)


def _repeats_for(keys: list[str], num_repeats: int | dict[str, int]) -> int | None:
    """How often a (row, target) runs: the first key with an entry (the target agent, then the row's own
    routing name), else `_default`; None when the mapping has neither."""
    if isinstance(num_repeats, int):
        return num_repeats
    for key in keys:
        if key != DEFAULT_KEY and key in num_repeats:
            return num_repeats[key]
    return num_repeats.get(DEFAULT_KEY)


def _add_seed(row: dict[str, Any], seed: int) -> None:
    """Gym's per-repeat seed: a JSON string `extra_body` in `responses_create_params.metadata` (Python's
    json, as Gym writes it)."""
    request = row[RESPONSES_CREATE_PARAMS] = row[RESPONSES_CREATE_PARAMS].copy()
    metadata = request["metadata"] = (request.get("metadata") or {}).copy()
    try:
        extra_body = json.loads(metadata.get("extra_body", "{}"))
    except (TypeError, ValueError) as error:
        raise MaterializationError(f"responses_create_params.metadata.extra_body must be a JSON object in a string "
                                   f"to add a seed to ({error})") from None
    if not isinstance(extra_body, dict):
        raise MaterializationError("responses_create_params.metadata.extra_body must hold a JSON object")
    extra_body["seed"] = seed
    metadata["extra_body"] = json.dumps(extra_body)


def materialize_rows(raw_rows: list[tuple[str, dict[str, Any]]], settings: MaterializationSettings,
                     source: Path | str = "<rows>") -> list[dict[str, Any]]:
    """Gym's materialized rows for `raw_rows` (from `read_raw_rows`); `source` names the file in errors."""
    source = Path(source)
    routing = settings.routing()
    fan_out = settings.fan_out or {}
    overrides = settings.responses_create_params or {}
    prompt = load_prompt_config(settings.prompt_config) if settings.prompt_config else None
    task_index_of_line: dict[str, int] = {}
    next_rollout_index: Counter[int] = Counter()
    names_seen: set[str] = set()
    overridden: set[tuple[str, str]] = set()
    unrepeated: set[str] = set()
    rows: list[dict[str, Any]] = []
    for line_number, (line_text, raw_row) in enumerate(raw_rows, start=1):
        row = _apply_prompt(source, line_number, raw_row, prompt) if prompt else raw_row.copy()
        task_source = row.get(TASK_SOURCE)
        agent_name = (row.get(AGENT_REF) or {}).get("name")
        basis = agent_name if agent_name is not None else task_source
        mapped = next((routing[key] for key in (agent_name, task_source) if key is not None and key in routing),
                      routing.get(DEFAULT_KEY))
        if mapped is not None:
            if agent_name is not None and agent_name != mapped:
                overridden.add((agent_name, mapped))
            agent_name = mapped
            row[AGENT_REF] = {"name": mapped}  # replaced whole, as Gym does: extra fields of the ref go
        if basis is not None and basis in fan_out:
            targets = list(fan_out[basis])
        elif agent_name is not None:
            targets = [agent_name]
        elif task_source is not None:
            raise JsonlFormatError(source, line_number, TASK_SOURCE,
                                   f"a row routed by its task_source ({task_source!r}) needs Gym's server config to "
                                   "find its agent; give an agent (--agent) or an agent_map entry for it")
        else:
            raise JsonlFormatError(source, line_number, AGENT_REF, "missing (or null), and no agent was given: pass "
                                   "--agent (or an agent_map with a _default entry)")
        _check_request(source, line_number, row)
        row[RESPONSES_CREATE_PARAMS] = row[RESPONSES_CREATE_PARAMS] | overrides
        if TASK_INDEX not in row:
            row[TASK_INDEX] = task_index_of_line.setdefault(line_text, len(task_index_of_line))
        for target in targets:
            keys = list(dict.fromkeys(key for key in (target, basis) if key is not None))
            names_seen.update(keys)
            repeats = _repeats_for(keys, settings.num_repeats)
            if repeats is None:
                unrepeated.add(" / ".join(keys))
                continue
            for _ in range(repeats):
                copy_ = row.copy()
                if (copy_.get(AGENT_REF) or {}).get("name") != target:
                    copy_[AGENT_REF] = {"name": target}
                copy_[ROLLOUT_INDEX] = next_rollout_index[row[TASK_INDEX]]
                next_rollout_index[row[TASK_INDEX]] += 1
                if settings.num_repeats_add_seed:
                    _add_seed(copy_, copy_[ROLLOUT_INDEX])
                rows.append(copy_)
    if overridden:
        log.warning("the agent (agent_map) replaced agent_ref values of the data: %s. Before NeMo Gym 0.7.0, "
                    "--agent only filled rows without an agent_ref; it now re-routes every row.", sorted(overridden))
    if unrepeated:
        raise MaterializationError(f"num_repeats has no entry for {sorted(unrepeated)} and no '_default' fallback")
    if isinstance(settings.num_repeats, dict):
        unknown = set(settings.num_repeats) - names_seen - {DEFAULT_KEY}
        if unknown:
            log.warning("num_repeats names agents that no row routes to (a typo?): %s", sorted(unknown))
    if settings.interleave_repeats:
        rows.sort(key=lambda row: row[ROLLOUT_INDEX])
    return rows


def materialize_source(source: Path, settings: MaterializationSettings) -> list[dict[str, Any]]:
    """The rows Gym 0.7.0 materializes from a dataset file with these settings."""
    return materialize_rows(read_raw_rows(source, settings.limit), settings, source)


def materialize_and_record(source: Path, output: Path, settings: MaterializationSettings,
                           code_version: str | None = None) -> dict[str, Any]:
    """Materialize and record in the output folder's manifest what was read: the source's digest and the settings.

    `gym-pipeline collect --resume` and the stale-inputs check compare against this record. The output
    folder is locked meanwhile: inputs must not change under a collection.
    """
    source_digest = file_digest(require_file(source, "input file"))  # before locking: a missing source leaves no folder behind
    run_dir = Path(output).parent
    with run_directory_lock(run_dir, MATERIALIZED_INPUTS_STAGE):
        rows = materialize_file(source, output, settings)
        return record_stage(
            run_dir,
            MATERIALIZED_INPUTS_STAGE,
            {
                "source": {"path": str(Path(source).resolve()), "digest": source_digest},
                "settings": settings.as_dict(),
                "settings_digest": settings.digest(),
                "code_version": code_version,
                "output": {"path": str(Path(output).resolve()), "digest": file_digest(output), "rows": rows},
            },
        )


def materialize_file(input_path: Path, output_path: Path, settings: MaterializationSettings) -> int:
    """Write Gym-compatible materialized inputs atomically; returns the row count."""
    return write_jsonl_atomic(output_path, materialize_source(input_path, settings))
