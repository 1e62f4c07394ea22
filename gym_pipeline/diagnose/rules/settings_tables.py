"""Step 3: a Python driver that reads its settings table at the top of a settings file that keeps it nested.

`tomllib.load(f).get("eval", {})` on a pyproject.toml whose settings sit under `[tool.eval]` (moved there in a repo
clean-up) finds no `eval` and gets `{}`: the driver runs on its defaults (a smoke set, one repeat) and every command
exits 0. Named when the file the driver opens holds the key one or two levels down and not at its top.
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

OPENED_SETTINGS = re.compile(r"open\(\s*[\"'](?P<file>[^\"']+\.(?:toml|ya?ml|json))[\"']")
# the top-level key read with a fallback: `tomllib.load(f).get("eval", {})`, `yaml.safe_load(f).get("eval") or {}`
_TOP_LEVEL_GET = re.compile(r"\b(?:tomllib|toml|yaml|json)\.(?:safe_)?loads?\([^)]*\)\.get\(\s*[\"'](?P<key>[\w-]+)[\"']")


def settings_opened_before(text: str, number: int) -> re.Match[str] | None:
    """The last settings file (TOML, YAML, JSON) a program's `open(...)` names on line `number` or above it."""
    return next((found for line in reversed(text.splitlines()[:number]) if (found := OPENED_SETTINGS.search(line))),
                None)


def parsed_settings(path: Path) -> dict[str, Any] | None:
    """The settings file's top-level table (TOML, JSON or YAML), or None when it cannot be read as one."""
    try:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".toml":
            return tomllib.loads(text)
        loaded = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
        return loaded if isinstance(loaded, dict) else None
    except (OSError, ValueError, tomllib.TOMLDecodeError, yaml.YAMLError):
        return None


def flat_settings(path: Path) -> dict[str, str] | None:
    """`section.key` -> value of an INI, TOML, YAML or JSON settings file (two levels deep), or None."""
    if path.suffix in (".ini", ".cfg"):
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, configparser.Error):
            return None
        return {f"{section}.{key}": value for section in parser.sections() for key, value in parser[section].items()}
    settings = parsed_settings(path)
    if settings is None:
        return None
    flat = {}
    for key, value in settings.items():
        for inner, inner_value in (value.items() if isinstance(value, dict) else [("", value)]):
            if not isinstance(inner_value, dict | list):
                flat[f"{key}.{inner}" if inner else key] = str(inner_value)
    return flat


def line_setting(path: Path, key: str) -> tuple[int, str] | None:
    """(number, text) of the line of a settings file that sets `key` (its last part: `weekly.repeats` is `repeats`),
    or None."""
    name = re.escape(key.rsplit(".", 1)[-1])
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return next(((number, line.strip()) for number, line in enumerate(lines, 1)
                 if re.match(rf"\s*[\"']?{name}[\"']?\s*[:=]", line, re.I)), None)


def _nested_path(settings: dict[str, Any], key: str) -> str | None:
    """`tool.eval` when `key` is one or two tables down and not at the top."""
    for outer, value in settings.items():
        if isinstance(value, dict):
            if key in value:
                return f"{outer}.{key}"
            for middle, inner in value.items():
                if isinstance(inner, dict) and key in inner:
                    return f"{outer}.{middle}.{key}"
    return None


def rule_settings_table_read_at_the_wrong_level(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _TOP_LEVEL_GET, {".py"}):
        opened = settings_opened_before(file.text, number)
        if opened is None:
            continue
        settings_file = ev.run_dir / Path(file.name).parent / opened["file"]
        settings, key = parsed_settings(settings_file), match["key"]
        if settings is None or key in settings or (nested := _nested_path(settings, key)) is None:
            continue
        table = "[" + nested + "]" if settings_file.suffix == ".toml" else f"`{nested}`"
        path_code = "".join(f'["{part}"]' for part in nested.split("."))
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} reads `{key}` at the top of {opened['file']}, which keeps it under {table}: "
                  "the driver ran on its defaults",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"`{line.strip()}` looks for `{key}` at the top level of {opened['file']}; the file has no such key "
                  f"there, only {table}, so the lookup gave its fallback (empty settings) and every setting took the "
                  "driver's default (its dataset, repeats, concurrency). Nothing failed: the run is of the defaults.",
            fix=f"In {file.name}:{number}, read the table where {opened['file']} keeps it (`...load(f){path_code}`, or "
                f"`.get(\"{nested.split('.')[0]}\", {{}})` down to `{key}`), or move the table back to the top of "
                f"{opened['file']}; make a missing table an error rather than the defaults; then run again.",
        )]
    return []
