"""Which checkpoints a sweep evaluates: folders under `checkpoints_dir`, and names in a registry file.

A folder counts once it holds a `config.json` (simulated-policy and Hugging Face checkpoints both
have one), so a checkpoint still being copied into place is not picked up half-written.
A registry (one checkpoint name a line, `#` comments) names checkpoints served by endpoints.
"""

import logging
import re
from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.config import SweepConfig, check_safe_name

READY_MARKER = "config.json"
log = logging.getLogger(__name__)


def natural_key(name: str) -> list:
    """`step_900` before `step_1000`: digit runs compare as numbers."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def _registry_names(path: Path) -> list[str]:
    names = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text (byte {error.start})") from None
    for line_number, line in enumerate(text.splitlines(), start=1):
        name = line.split("#", 1)[0].strip()
        if name:
            try:
                names.append(check_safe_name(name, "checkpoint name"))
            except ValueError as error:
                raise ValueError(f"{path}:{line_number}: {error}") from None
    return names


def _folder_names(checkpoints_dir: Path) -> set[str]:
    """Ready checkpoint folders whose name is safe as a partition key and a path component; a folder named
    otherwise (`my ckpt`, `ckpt:1`) is left out with a warning rather than breaking every sweep."""
    names = set()
    for folder in checkpoints_dir.iterdir():
        if folder.name.startswith(".") or not folder.is_dir() or not (folder / READY_MARKER).is_file():
            continue
        try:
            names.add(check_safe_name(folder.name, "checkpoint folder name"))
        except ValueError as error:
            log.warning("%s: skipped: %s", folder, error)
    return names


def discover_checkpoints(config: SweepConfig) -> list[str]:
    """Every checkpoint ready to evaluate, in natural order (the last one is the latest)."""
    names = set()
    if config.checkpoints_dir.is_dir():
        names |= _folder_names(config.checkpoints_dir)
    if config.checkpoint_registry is not None and config.checkpoint_registry.exists():
        names |= set(_registry_names(config.checkpoint_registry))
    return sorted(names, key=natural_key)


def closest_checkpoint(name: str, known: list[str]) -> str:
    """"; did you mean ...?" for a checkpoint name typed with other zero padding, case or a slip of the keys."""
    def unpadded(text: str) -> str:
        return re.sub(r"\d+", lambda number: str(int(number.group())), text.lower())

    same = [checkpoint for checkpoint in known if unpadded(checkpoint) == unpadded(name)]
    close = same or get_close_matches(name, known, n=1)
    return f"; did you mean {close[0]!r}?" if close else ""
