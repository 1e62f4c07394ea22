"""Settings files of the run that YAML reads otherwise than they are written: a number with a leading 0 (`num_repeats:
010` is 8), a key given twice (the last wins).

The run then used other settings than the user meant, and nothing failed: its rollouts, repeats or limits are not
the ones planned. Old runs keep such files (our sweep config loader now refuses them).
"""

from __future__ import annotations

from gym_pipeline.core.yaml_pitfalls import duplicate_keys, octal_numbers
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

_YAML = {".yaml", ".yml"}


def _settings_texts(ev: Evidence) -> list[tuple[str, str]]:
    return [(file.name, file.text) for file in ev.user_files if file.suffix in _YAML]


def rule_octal_numbers_in_settings(ev: Evidence) -> list[Finding]:
    found = [(name, number) for name, text in _settings_texts(ev) for number in octal_numbers(text)]
    if not found:
        return []
    name, first = found[0]
    lines = [EvidenceLine(file=name, line=number.line, text=f"{number.key}: {number.written}")
                             for name, number in found[:3]]
    return [Finding(
        category=CONFIG,
        title=f"{name}: {first.describe()}",
        evidence=lines,
        cause=f"The run used {first.key} = {first.read} where {name} writes {first.written}: YAML (PyYAML, and "
              "OmegaConf under Hydra) reads an integer written with a leading 0 as an octal number, so a value "
              "zero-padded to line up with others silently becomes another. Nothing fails; the run's rollouts, "
              "repeats or limits are not the ones planned, and its statistics rest on them.",
        fix=f"Write `{first.key}: {first.meant}` in {name} (no leading zero; quote the value if it is text), then run "
            "the stages again on a clean output path.",
    )]


def rule_keys_given_twice_in_settings(ev: Evidence) -> list[Finding]:
    found = [(name, text.splitlines(), twice) for name, text in _settings_texts(ev) for twice in duplicate_keys(text)]
    if not found:
        return []
    name, _, first = found[0]
    return [Finding(
        category=CONFIG,
        title=f"{name}: {first.describe()}",
        evidence=[EvidenceLine(file=name, line=line, text=lines[line - 1].strip())
                  for name, lines, twice in found[:2] for line in twice.lines],
        cause=f"{name} sets `{first.key}` more than once in the same mapping, and YAML keeps the last value without a "
              f"word ({first.kept}, line {first.lines[-1]}): a line added for a test or copied from another file "
              "overrides the one the user reads at the top. Nothing fails; the run used that last value.",
        fix=f"Keep one `{first.key}` in {name} (delete line {first.lines[-1]} or the earlier ones, as meant), then "
            "run the stages again on a clean output path.",
    )]
