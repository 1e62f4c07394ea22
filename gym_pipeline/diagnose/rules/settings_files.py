"""Settings files of the run that YAML reads otherwise than they are written: a number with a leading 0 (`num_repeats:
010` is 8), a key given twice (the last wins).

The run then used other settings than the user meant, and nothing failed: its rollouts, repeats or limits are not
the ones planned. Old runs keep such files (our sweep config loader now refuses them).
"""

from __future__ import annotations

from pathlib import Path

from gym_pipeline.core.yaml_pitfalls import duplicate_keys, octal_numbers
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA

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
    if (prep := _writes_the_data_from(ev, name)) is not None:
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{name}: {first.describe()}, and {prep} writes it into the data as a label",
            evidence=lines,
            cause=f"{name} is a sheet of answers that {prep} turns into the data's rows, and YAML (PyYAML's "
                  f"`safe_load`) reads an integer written with a leading 0 as an octal number: the answer "
                  f"{first.written} became the label {first.read}, which the right answer never equals. Nothing "
                  "fails; those tasks score 0.",
            fix=f"Quote the answer in {name} (`{first.key}: \"{first.written}\"`: a quoted YAML value stays the string "
                f"as written; the same holds for yes/no and clock times), or load it with a YAML 1.2 loader; then run "
                f"{prep} again, materialize again and collect on a clean output path.",
        )]
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


def _writes_the_data_from(ev: Evidence, name: str) -> str | None:
    """The user's script that reads the YAML file `name` and writes rows with labels from it (a prep of an answer
    sheet): the file is data, not settings."""
    sheet = Path(name).name
    return next((file.name for file in ev.user_files if file.suffix in {".py", ".sh"} and sheet in file.text
                 and "expected_answer" in file.text), None)


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
