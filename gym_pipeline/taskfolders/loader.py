"""Read task folders and tasksets; every refusal names the file, the line when there is one, and the field.

A taskset is a folder of task folders (hidden folders are not tasks), with an optional `dataset.toml`;
a folder that holds `task.toml` itself is a taskset of one task. A task folder that cannot be read is not
fatal here: it is listed in `Taskset.skipped` with its reason, as Gym lists it in `skipped.json`, and the
caller decides whether the rest may run (`skip_unloadable`).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from gym_pipeline.core.fingerprint import folder_digest, value_digest
from gym_pipeline.taskfolders.models import DatasetSettings, TaskConfig

TASK_FILE = "task.toml"
INSTRUCTION_FILE = "instruction.md"
ENVIRONMENT_DIR = "environment"
DOCKERFILE = "Dockerfile"
TESTS_DIR = "tests"
TEST_SCRIPT = "test.sh"
SOLUTION_DIR = "solution"
SOLUTION_SCRIPT = "solve.sh"
DATASET_FILE = "dataset.toml"

_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")
_DIFFICULTY_LEVELS = {"trivial": 1, "easy": 2, "medium": 3, "hard": 4, "expert": 5}


class TaskLoadError(ValueError):
    """A task or dataset file that cannot be used: `path[:line]: field 'x': message`."""

    def __init__(self, path: Path, message: str, field: str | None = None, line: int | None = None):
        self.path, self.field, self.line, self.message = Path(path), field, line, message
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: " + (f"field '{field}': {message}" if field else message))


@dataclass(frozen=True)
class Task:
    task_id: str  # the folder's name, as Harbor names a task
    path: Path
    config: TaskConfig
    instruction: str
    digest: str  # the folder's content and the dataset settings that apply to it
    environment_digest: str  # environment/ alone: the image is cached by it
    verifier_timeout_sec: float  # after dataset.toml's override and multiplier
    agent_timeout_sec: float
    warnings: tuple[str, ...] = ()

    @property
    def tests_dir(self) -> Path:
        return self.path / TESTS_DIR

    @property
    def environment_dir(self) -> Path:
        return self.path / ENVIRONMENT_DIR

    @property
    def solution_script(self) -> Path | None:
        script = self.path / SOLUTION_DIR / SOLUTION_SCRIPT
        return script if script.is_file() else None

    @property
    def difficulty(self) -> int:
        """Harbor's free-form `[metadata].difficulty` on a 1-5 scale (3 when unset or unknown)."""
        value = self.config.metadata.get("difficulty")
        if isinstance(value, int) and 1 <= value <= 5:
            return value
        return _DIFFICULTY_LEVELS.get(str(value).lower(), 3)


@dataclass
class Taskset:
    root: Path
    tasks: list[Task]
    skipped: dict[str, str]  # task id -> why it does not load
    settings: DatasetSettings
    warnings: list[str] = field(default_factory=list)

    def task(self, task_id: str) -> Task | None:
        return next((task for task in self.tasks if task.task_id == task_id), None)


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise TaskLoadError(path, f"not UTF-8 text (byte {error.start})") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as error:
        position = _TOML_POSITION.search(str(error))
        message = _TOML_POSITION.sub("", str(error)).strip()
        raise TaskLoadError(path, f"not valid TOML ({message})", line=int(position[1]) if position else None) from None


def line_of(text: str, location: tuple[str | int, ...]) -> int | None:
    """The line of a key in TOML text: under the deepest table header of its path that the file has."""
    keys = [str(part) for part in location if not isinstance(part, int)]
    if not keys:
        return None
    lines = text.splitlines()
    bare = [line.split("#", 1)[0].replace('"', "").replace(" ", "").strip() for line in lines]
    start = 0
    for depth in range(len(keys) - 1, 0, -1):
        header = "[" + ".".join(keys[:depth]) + "]"
        if header in bare:
            start = bare.index(header)
            break
    for number in range(start, len(lines)):
        if bare[number].startswith(keys[-1] + "="):
            return number + 1
    return start + 1 if start else None


def _validated(model: type[BaseModel], raw: dict[str, Any], path: Path, text: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        location = tuple(part for part in first["loc"] if part != "__root__")
        name = ".".join(str(part) for part in location) or "(file)"
        message = first["msg"].removeprefix("Value error, ")
        raise TaskLoadError(path, message, field=name, line=line_of(text, location)) from None


def load_dataset_settings(root: Path) -> DatasetSettings:
    path = root / DATASET_FILE
    if not path.is_file():
        return DatasetSettings()
    raw, text = _read_toml(path)
    return _validated(DatasetSettings, raw, path, text)


def load_task(folder: Path, settings: DatasetSettings | None = None) -> Task:
    """One task folder; raises `TaskLoadError` naming what is missing or wrong."""
    folder = Path(folder).resolve()
    settings = settings or DatasetSettings()
    config_path = folder / TASK_FILE
    if not config_path.is_file():
        raise TaskLoadError(config_path, "not found: a task folder holds task.toml")
    raw, text = _read_toml(config_path)
    config: TaskConfig = _validated(TaskConfig, raw, config_path, text)
    instruction_path = folder / INSTRUCTION_FILE
    if not instruction_path.is_file():
        raise TaskLoadError(instruction_path, "not found: the agent's instruction")
    instruction = instruction_path.read_text(encoding="utf-8", errors="replace").strip()
    if not instruction:
        raise TaskLoadError(instruction_path, "is empty")
    if config.environment.docker_image is None and not (folder / ENVIRONMENT_DIR / DOCKERFILE).is_file():
        raise TaskLoadError(folder / ENVIRONMENT_DIR / DOCKERFILE,
                            "not found (or set [environment].docker_image in task.toml)")
    if not (folder / TESTS_DIR / TEST_SCRIPT).is_file():
        raise TaskLoadError(folder / TESTS_DIR / TEST_SCRIPT, "not found: the verifier's entry point")

    applying = settings.applying_to(folder.name)
    multiplier = applying["timeout_multiplier"]
    verifier_timeout = (applying["verifier_timeout_sec"] or config.verifier.timeout_sec) * multiplier
    environment_dir = folder / ENVIRONMENT_DIR
    return Task(
        task_id=folder.name,
        path=folder,
        config=config,
        instruction=instruction,
        digest=value_digest({"folder": folder_digest(folder), "dataset_settings": applying}),
        environment_digest=folder_digest(environment_dir) if environment_dir.is_dir() else
        value_digest(config.environment.docker_image),
        verifier_timeout_sec=verifier_timeout,
        agent_timeout_sec=config.agent.timeout_sec * multiplier,
        warnings=tuple(f"{config_path}: key '{key}' is not a Harbor field: ignored" for key in config.unknown_keys()),
    )


def is_task_folder(path: Path) -> bool:
    return (Path(path) / TASK_FILE).is_file()


def task_folders(root: Path) -> list[Path]:
    """The task folders of a taskset (or the folder itself when it is one task)."""
    root = Path(root)
    if not root.is_dir():
        raise TaskLoadError(root, "taskset folder not found" if not root.exists() else "not a folder")
    if is_task_folder(root):
        return [root]
    return sorted(child for child in root.iterdir() if child.is_dir() and not child.name.startswith("."))


def load_taskset(root: Path) -> Taskset:
    """Every task under `root`; a task that does not load is in `skipped`. A bad `dataset.toml`, or a folder
    with no task folder at all, raises `TaskLoadError`."""
    root = Path(root).resolve()
    folders = task_folders(root)
    single = folders == [root]
    settings = DatasetSettings() if single else load_dataset_settings(root)
    if not folders:
        raise TaskLoadError(root, "no task folder in it (a task folder holds task.toml, instruction.md, "
                                  "environment/ and tests/)")
    tasks, skipped, warnings = [], {}, []
    for folder in folders:
        try:
            task = load_task(folder, settings)
        except TaskLoadError as error:
            if single:
                raise
            skipped[folder.name] = str(error)
            continue
        tasks.append(task)
        warnings.extend(task.warnings)
    warnings += _overrides_of_no_task(root, settings, [folder.name for folder in folders])
    warnings += [f"{root / copy}: looks like a backup copy of the task {original}, and runs as a task of its own (its "
                 "episodes count twice in the report): move it out of the taskset"
                 for copy, original in backup_copies([folder.name for folder in folders])]
    return Taskset(root=root, tasks=tasks, skipped=skipped, settings=settings, warnings=warnings)


_BACKUP_SUFFIX = re.compile(r"(?:[._-](?:bak|backup|old|orig|copy|save|tmp)\d*| copy(?: \d+)?|~)$", re.I)


def backup_copies(task_ids: list[str]) -> list[tuple[str, str]]:
    """(copy, original) for the task folders named like a backup of another one (`fix-bug.bak`, `fix-bug~`,
    `fix-bug copy`): Harbor runs them as tasks of their own."""
    names = set(task_ids)
    return [(name, original) for name in sorted(names)
            if (original := _BACKUP_SUFFIX.sub("", name)) != name and original in names]


def _overrides_of_no_task(root: Path, settings: DatasetSettings, task_ids: list[str]) -> list[str]:
    """`[gym.tasks."NAME"]` tables naming no task folder: their override applies to nothing (a misspelt name)."""
    warnings = []
    for name in settings.gym.tasks:
        if name not in task_ids:
            close = get_close_matches(name, task_ids, n=1)
            warnings.append(f"{root / DATASET_FILE}: [gym.tasks.\"{name}\"] names no task of the taskset: its override "
                            "applies to nothing" + (f"; did you mean \"{close[0]}\"?" if close else ""))
    return warnings


def taskset_digest(root: Path) -> str:
    """The taskset's data version: every file under it, `dataset.toml` included."""
    return folder_digest(root)
