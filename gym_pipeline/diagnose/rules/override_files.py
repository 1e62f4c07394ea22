"""Step 3: a personal override file, read after the team's settings, that still cuts the eval down.

A driver reads its settings from two files in turn, the shared one and a git-ignored local one for personal overrides
(`configparser.read(["eval.ini", "eval.local.ini"])`): what the later file sets wins. An override left from debugging
(`repeats = 1`) makes every later eval smaller than the settings say, and every command exits 0. Named when the run
recorded the override's smaller repeats or row limit (and its concurrency, beside them) where the shared file sets
more.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.settings_tables import flat_settings, line_setting
from gym_pipeline.diagnose.vocabulary import CONFIG

_SETTINGS_NAME = r"[\w./-]+\.(?:ini|cfg|toml|ya?ml|json)"
# one line of a program naming two settings files, the first read first: `cfg.read(["eval.ini", "eval.local.ini"])`
_READ_IN_TURN = re.compile(rf"[\"'](?P<shared>{_SETTINGS_NAME})[\"'][^\n]*?[\"'](?P<override>{_SETTINGS_NAME})[\"']")
_REPEATS, _LIMIT, _CONCURRENCY = "repeats", "limit", "concurrency"


def _kind_of(key: str) -> str | None:
    """What the run records of a settings key: its repeats, its row limit or its concurrency."""
    key = key.lower()
    return next((kind for kind in (_REPEATS, _LIMIT, _CONCURRENCY) if kind in key), None)


def _recorded(ev: Evidence, kind: str) -> str | None:
    """The value of `kind` the run's records show."""
    settings = ev.manifest.settings
    if kind == _REPEATS and settings is not None:
        return str(settings.num_repeats)
    if kind == _LIMIT and settings is not None and settings.limit is not None:
        return str(settings.limit)
    if kind == _CONCURRENCY and ev.manifest.concurrency:
        return str(ev.manifest.concurrency[-1][0])
    return None


def rule_override_file_still_cuts_the_eval_down(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file in ev.user_files:
        if file.suffix != ".py":
            continue
        for number, line in enumerate(file.text.splitlines(), 1):
            if not (read := _READ_IN_TURN.search(line)):
                continue
            shared_path, override_path = (ev.run_dir / read["shared"], ev.run_dir / read["override"])
            shared, override = (flat_settings(shared_path) if shared_path.is_file() else None,
                                flat_settings(override_path) if override_path.is_file() else None)
            if not shared or not override:
                continue
            cut = [(key, value) for key, value in override.items()
                   if (kind := _kind_of(key)) and key in shared and shared[key] != value
                   and _recorded(ev, kind) == value and value.isdigit() and shared[key].isdigit()
                   and int(value) < int(shared[key])]
            # fewer requests at once leave the results as they are: only named beside fewer repeats or rows
            if not any(_kind_of(key) != _CONCURRENCY for key, _ in cut):
                continue
            cut.sort(key=lambda setting: _kind_of(setting[0]) == _CONCURRENCY)
            return [_finding(ev, file.name, number, line, read["shared"], read["override"], cut, shared)]
    return []


def _finding(ev: Evidence, driver: str, number: int, line: str, shared_name: str, override_name: str,
             cut: list[tuple[str, str]], shared: dict[str, str]) -> Finding:
    key, value = cut[0]
    override_line, shared_line = (line_setting(ev.run_dir / name, key) or (1, key) for name in (override_name, shared_name))
    others = ", ".join(f"`{k.rsplit('.', 1)[-1]}` {v} (not {shared[k]})" for k, v in cut[1:])
    return Finding(
        category=CONFIG,
        title=f"{override_name}:{override_line[0]} (`{override_line[1]}`), read after {shared_name} by {driver}:{number}, "
              f"overrides its `{shared_line[1]}`: the run used {value}",
        evidence=[EvidenceLine(file=driver, line=number, text=line.strip()),
                  EvidenceLine(file=override_name, line=override_line[0], text=override_line[1]),
                  EvidenceLine(file=shared_name, line=shared_line[0], text=shared_line[1])],
        cause=f"{driver} reads {shared_name} and then {override_name}; what the later file sets wins. {override_name} "
              f"still sets `{key.rsplit('.', 1)[-1]}` to {value} (a personal override, left from debugging), so the run "
              f"used {value} where {shared_name} says {shared[key]}"
              + (f"; also {others}" if others else "") + ". Every command exits 0: the eval is smaller than the "
              "settings say, and its figures are not comparable with the runs made with them.",
        fix=f"Remove `{override_line[1]}` from {override_name} (or the whole override file, when it only held the "
            f"debugging values), so that {shared_name}'s `{shared_line[1]}` applies; then materialize, collect on a "
            "clean output path, and profile again.",
    )
