"""Simulated policy checkpoints: a folder the simulated policy serves as `vllm serve` would serve weights.

A checkpoint folder holds `config.json` (`model_id`, `step`, `skill`, `seed`) and
`knowledge.jsonl` (one `Environment.knowledge_entry` per line plus the row's
`difficulty`). Its identity is `checkpoint_digest`, a hash of every file in it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from gym_pipeline.core.fingerprint import folder_digest
from gym_pipeline.core.formats import (
    JsonlFormatError,
    iter_jsonl_dicts,
    validate_row,
    write_json_atomic,
    write_jsonl_atomic,
)
from gym_pipeline.environments import Environment, get_environment

CONFIG_FILE = "config.json"
KNOWLEDGE_FILE = "knowledge.jsonl"
DEFAULT_MODEL_ID = "sim-policy"
DEFAULT_DIFFICULTY = 3  # for dataset rows without a `difficulty`
DEMO_SKILL_RANGE = (0.3, 0.85)
DEMO_SKILL_STEP = 0.275  # three demo checkpoints span the whole range


class CheckpointError(ValueError):
    """A checkpoint folder that cannot be served; names the file (and line) and the field."""

    def __init__(self, path: Path, field: str | None, message: str, line: int | None = None):
        self.path = path
        self.field = field
        self.line = line
        where = f"{path}:{line}" if line else str(path)
        what = f"field '{field}': {message}" if field else message
        super().__init__(f"{where}: {what}")


class CheckpointConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model_id: str = Field(default=DEFAULT_MODEL_ID, min_length=1)
    step: int = Field(ge=0)
    skill: float = Field(ge=0.0, le=1.0)
    seed: int = 0


class KnowledgeEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    prompt: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    distractors: list[str] = Field(min_length=1)
    difficulty: int = Field(ge=1, le=5)


class Checkpoint(BaseModel):
    """A loaded checkpoint; `entry_for` finds the knowledge for a prompt."""

    path: Path
    config: CheckpointConfig
    knowledge: list[KnowledgeEntry]
    digest: str
    _by_prompt: dict[str, KnowledgeEntry] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any) -> None:
        self._by_prompt = {entry.prompt: entry for entry in self.knowledge}

    def entry_for(self, prompt: str) -> KnowledgeEntry | None:
        return self._by_prompt.get(prompt)


def _first_error(error: ValidationError) -> tuple[str, str]:
    first = error.errors()[0]
    return ".".join(str(part) for part in first["loc"]) or "(row)", first["msg"]


def _check_unique_prompts(entries: Iterable[KnowledgeEntry], path: Path) -> None:
    seen: set[str] = set()
    for number, entry in enumerate(entries, start=1):
        if entry.prompt in seen:
            raise CheckpointError(path, "prompt", f"duplicate prompt {entry.prompt[:60]!r}", line=number)
        seen.add(entry.prompt)


def create_checkpoint(
    dest: Path,
    step: int,
    skill: float,
    knowledge: list[dict[str, Any]],
    seed: int = 0,
    model_id: str = DEFAULT_MODEL_ID,
) -> Path:
    """Write a checkpoint folder (created if needed); returns `dest`."""
    dest = Path(dest)
    try:
        config = CheckpointConfig(model_id=model_id, step=step, skill=skill, seed=seed)
    except ValidationError as error:
        raise CheckpointError(dest / CONFIG_FILE, *_first_error(error)) from None
    entries = []
    for number, raw in enumerate(knowledge, start=1):
        try:
            entries.append(KnowledgeEntry.model_validate(raw))
        except ValidationError as error:
            raise CheckpointError(dest / KNOWLEDGE_FILE, *_first_error(error), line=number) from None
    _check_unique_prompts(entries, dest / KNOWLEDGE_FILE)
    dest.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomic(dest / KNOWLEDGE_FILE, (entry.model_dump() for entry in entries))
    # config.json last: it is what makes the folder a checkpoint to discovery, so a crash leaves none half made.
    write_json_atomic(dest / CONFIG_FILE, config.model_dump(), indent=True)
    return dest


def knowledge_from(environments: Iterable[Environment | str]) -> list[dict[str, Any]]:
    """A knowledge entry (with difficulty) for every dataset row of the given environments. A prompt is known
    once: environments sharing a dataset (one data set, two verifiers) share its entries, the first one's."""
    knowledge, prompts = [], set()
    for environment in environments:
        if isinstance(environment, str):
            environment = get_environment(environment)
        for row in environment.rows():
            entry = environment.knowledge_entry(row)
            if entry is not None and entry["prompt"] not in prompts:
                prompts.add(entry["prompt"])
                knowledge.append(entry | {"difficulty": row.get("difficulty", DEFAULT_DIFFICULTY)})
    return knowledge


def demo_checkpoints(
    dest_root: Path, count: int, environments: Iterable[Environment | str], seed: int = 1234,
    extra_knowledge: Iterable[dict[str, Any]] = (),
) -> list[Path]:
    """`count` checkpoints `step_0100`, `step_0200`, ... whose skill rises by `DEMO_SKILL_STEP` each.

    They share one seed, so for a given request a later checkpoint answers correctly
    whenever an earlier one did, like a training run that only improves. Folders that
    already exist are kept as they are: a checkpoint never changes under its runs.
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    knowledge = knowledge_from(environments) + list(extra_knowledge)  # e.g. task folders' solutions
    low, high = DEMO_SKILL_RANGE
    paths = []
    for index in range(count):
        step = 100 * (index + 1)
        path = Path(dest_root) / f"step_{step:04d}"
        if not path.exists():
            create_checkpoint(path, step, round(min(low + DEMO_SKILL_STEP * index, high), 4), knowledge, seed=seed)
        paths.append(path)
    return paths


def load_checkpoint(path: Path) -> Checkpoint:
    path = Path(path)
    if not path.is_dir():
        raise CheckpointError(path, None, "checkpoint folder not found")
    config_path = path / CONFIG_FILE
    if not config_path.is_file():
        raise CheckpointError(config_path, None, "missing")
    try:
        config = CheckpointConfig.model_validate(orjson.loads(config_path.read_bytes()))
    except orjson.JSONDecodeError as error:
        raise CheckpointError(config_path, None, f"not valid JSON ({error})") from None
    except ValidationError as error:
        raise CheckpointError(config_path, *_first_error(error)) from None

    knowledge_path = path / KNOWLEDGE_FILE
    if not knowledge_path.is_file():
        raise CheckpointError(knowledge_path, None, "missing")
    try:
        knowledge = [
            validate_row(knowledge_path, line, value, KnowledgeEntry)
            for line, value in iter_jsonl_dicts(knowledge_path)
        ]
    except JsonlFormatError as error:
        raise CheckpointError(knowledge_path, error.field, error.message, line=error.line) from None
    _check_unique_prompts(knowledge, knowledge_path)
    return Checkpoint(path=path.resolve(), config=config, knowledge=knowledge, digest=checkpoint_digest(path))


def checkpoint_digest(path: Path) -> str:
    """The checkpoint's identity: a digest of every file in its folder (streamed, so weights of any size work)."""
    return folder_digest(path)
