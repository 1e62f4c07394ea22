"""Step 3: a driver that reads a setting with a fallback under a key its settings file spells otherwise.

`cfg.get("num_repeats", 1)` on an eval.toml that says `num-repeats = 5` (TOML keys may hold dashes; a reviewer wrote
the key as the CLI option is written) never finds the key: the driver runs its fallback, one repeat, and every
command exits 0. Named when the settings file the driver opens holds a key that differs from the one read only by
dashes for underscores, case, or a letter or two, with another value than the fallback.

The same fallback when the key is there, but in another table than the one read: `model_url = ...` appended at the end
of settings.toml lands under the last table header (`[smoke]`), and `tomllib.load(f)["eval"].get("model_url", BASELINE)`
serves the baseline.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.settings_tables import flat_settings, settings_opened_before
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

# `cfg.get("num_repeats", 1)`: a setting read with a fallback
_READ_WITH_FALLBACK = re.compile(r"\.get\(\s*[\"'](?P<key>[\w.-]+)[\"']\s*,\s*(?P<fallback>[^()\n]+?)\s*\)")
_SPELLING_CUTOFF = 0.85  # `num_repeats` and `num_repeat` are the same key misspelt; `concurrency` and `currency` not


def _spelt_otherwise(key: str, keys: dict[str, str]) -> str | None:
    """The settings key (its last part) that `key` means, spelt otherwise."""
    names = {name.rsplit(".", 1)[-1]: name for name in keys}
    if key in names:
        return None
    canonical = {re.sub(r"[-_\s]", "", name).lower(): name for name in names}
    if (same := canonical.get(re.sub(r"[-_\s]", "", key).lower())) is not None:
        return names[same]
    close = get_close_matches(key, list(names), n=1, cutoff=_SPELLING_CUTOFF)
    return names[close[0]] if close else None


# the table a driver reads its settings from: `tomllib.load(f)["eval"]`, `yaml.safe_load(f).get("eval", {})`
_TABLE_READ = re.compile(r"load\([^)]*\)\s*(?:\[\s*[\"'](?P<table>[\w-]+)[\"']\s*\]|\.get\(\s*[\"'](?P<table2>[\w-]+)[\"'])")


def _table_read(text: str, number: int) -> str | None:
    """The table the settings were read from, on line `number` or above it."""
    return next(((found["table"] or found["table2"]) for line in reversed(text.splitlines()[:number])
                 if (found := _TABLE_READ.search(line))), None)


def _header_above(path: Path, number: int) -> tuple[int, str] | None:
    """(line, text) of the table header (`[smoke]`) a TOML or INI line falls under."""
    lines = path.read_text(encoding="utf-8").splitlines()[:number]
    return next(((at, text.strip()) for at, text in reversed(list(enumerate(lines, 1)))
                 if re.match(r"\s*\[[^\]]+\]\s*(?:#.*)?$", text)), None)


def rule_setting_under_another_table(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, read in lines_matching(ev.user_files, _READ_WITH_FALLBACK, {".py"}):
        opened = settings_opened_before(file.text, number)
        path = ev.run_dir / Path(file.name).parent / opened["file"] if opened else None
        table = _table_read(file.text, number)
        settings = flat_settings(path) if table and path is not None and path.is_file() else None
        key = read["key"]
        if not settings or f"{table}.{key}" in settings:
            continue
        other = next((name for name in settings if name.endswith(f".{key}") and name != f"{table}.{key}"), None)
        if other is None or settings[other] == read["fallback"].strip().strip("\"'"):
            continue
        at = next((n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                   if re.match(rf"\s*{re.escape(key)}\s*=", text)), None)
        header = _header_above(path, at) if at else None
        settings_lines = [n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                          if text.strip() and not text.lstrip().startswith("#")]
        # appended at the end of the file: a table of its own may set a key [eval] leaves to its fallback on purpose
        if at is None or header is None or at != settings_lines[-1]:
            continue
        setting = path.read_text(encoding="utf-8").splitlines()[at - 1].strip()
        return [Finding(
            category=CONFIG,
            title=f"{opened['file']}:{at} sets `{key}` under {header[1]} ({opened['file']}:{header[0]}), and "
                  f"{file.name}:{number} reads it from [{table}]: the run used the fallback {read['fallback'].strip()}",
            evidence=[EvidenceLine(file=opened["file"], line=at, text=setting),
                      EvidenceLine(file=opened["file"], line=header[0], text=header[1]),
                      EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"A key belongs to the last table header above it: `{setting}`, added at the end of "
                  f"{opened['file']}, falls under {header[1]}, not [{table}]. {file.name} reads [{table}], finds no "
                  f"`{key}` there and takes its fallback ({read['fallback'].strip()}) without an error; every command "
                  "exits 0.",
            fix=f"In {opened['file']}, move `{setting}` into [{table}] (above {header[1]}, line {header[0]}), so "
                f"{file.name} reads it; and read a setting the run needs as `cfg[\"{key}\"]` so a missing one fails "
                "loudly. Then run the eval again.",
        )]
    return []


def rule_setting_read_under_another_spelling(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, read in lines_matching(ev.user_files, _READ_WITH_FALLBACK, {".py"}):
        if "environ" in line or "getenv" in line:
            continue  # a variable of the environment, not a setting of the file
        opened = settings_opened_before(file.text, number)
        path = ev.run_dir / Path(file.name).parent / opened["file"] if opened else None
        settings = flat_settings(path) if path is not None and path.is_file() else None
        if not settings or (meant := _spelt_otherwise(read["key"], settings)) is None:
            continue
        fallback, value = read["fallback"].strip().strip("\"'"), settings[meant]
        if value == fallback:
            continue
        written = meant.rsplit(".", 1)[-1]
        setting_line = next(((n, text.strip()) for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                             if re.match(rf"\s*[\"']?{re.escape(written)}[\"']?\s*[:=]", text)), (None, written))
        where = f"{opened['file']}:{setting_line[0]}" if setting_line[0] else opened["file"]
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} reads `{read['key']}` with the fallback {fallback}, and {opened['file']} "
                  f"spells it `{written}` ({value}): the run used {fallback}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=opened["file"], line=setting_line[0], text=setting_line[1])],
            cause=f"`{read[0]}` looks for `{read['key']}`, which {opened['file']} does not have: it writes the setting "
                  f"as `{written}` ({where}). A dict's `.get` with a fallback raises nothing for a missing key, so the "
                  f"run took {fallback} instead of {value}, and every command exits 0.",
            fix=f"Spell the key one way: `{read['key']} = {value}` in {opened['file']} (not `{written}`), or read "
                f"`{written}` in {file.name}:{number}; and read a setting the run needs as `cfg[\"{read['key']}\"]`, so "
                "a missing key fails loudly instead of running the fallback. Then run the eval again.",
        )]
    return []
