"""Step 3: a driver that reads a setting with a fallback under a key its settings file spells otherwise.

`cfg.get("num_repeats", 1)` on an eval.toml that says `num-repeats = 5` (TOML keys may hold dashes; a reviewer wrote
the key as the CLI option is written) never finds the key: the driver runs its fallback, one repeat, and every
command exits 0. Named when the settings file the driver opens holds a key that differs from the one read only by
dashes for underscores, case, or a letter or two, with another value than the fallback.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.settings_tables import flat_settings, line_setting, settings_opened_before
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
        setting_line = line_setting(path, written) or (None, written)
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
