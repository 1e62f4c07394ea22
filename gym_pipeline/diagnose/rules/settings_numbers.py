"""Settings files of the run whose numbers YAML reads otherwise than they are written (`num_repeats: 010` is 8).

The run then used another number than the user wrote, and nothing failed: its rollouts, repeats or limits are
not the ones planned. Old runs keep such files (our sweep config loader now refuses them).
"""

from __future__ import annotations

from gym_pipeline.core.yaml_numbers import octal_numbers
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import user_text_files
from gym_pipeline.diagnose.vocabulary import CONFIG

_YAML = {".yaml", ".yml"}


def rule_octal_numbers_in_settings(ev: Evidence) -> list[Finding]:
    found = [(name, number) for name, content in user_text_files(ev.run_dir, _YAML)
             for number in octal_numbers(content.decode("utf-8", errors="replace"))]
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
