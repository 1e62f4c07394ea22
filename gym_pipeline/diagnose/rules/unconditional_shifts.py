"""Step 1: `[ "$1" = "--smoke" ] && SMOKE=1; shift`: the shift runs without the flag too, dropping an argument.

`&&` binds the flag's assignment only; after the `;` the `shift` runs whatever `$1` was, so a script called with a
dataset and no flag (`bash run_eval.sh tasks_v2.jsonl`) drops the dataset, and `DATA=${1:-tasks.jsonl}` falls back to
its default: the run evaluates last week's file and every command exits 0. Named when a script of the run shifts so
after testing `$1` for a flag, a later line gives `$1` a default, the run read that default, and a newer version of
it lies beside it (`tasks_v2.jsonl` by `tasks.jsonl`): the file the run was most likely given.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CONFIG

_FLAG_THEN_SHIFT = re.compile(r"""^\s*\[\[?\s*"?\$1"?\s*==?\s*["']?(?P<flag>-[\w-]+)["']?\s*\]\]?\s*&&\s*[^;|&\n]+;\s*"""
                              r"shift\b")
_DEFAULT_OF_FIRST = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=\"?\$\{1:-(?P<default>[^}]+)\}")


def rule_shift_outside_the_flag_test(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if not (shifted := _FLAG_THEN_SHIFT.match(line)):
                continue
            default = next(((n, m) for n, text in enumerate(lines[number:], number + 1)
                            if (m := _DEFAULT_OF_FIRST.match(text))), None)
            if default is None or not _read_by_the_run(ev, default[1]["default"]):
                continue
            if (meant := _another_version(ev, default[1]["default"])) is None:
                continue  # called without arguments, the default is what was meant
            flag, (later, assigned) = shifted["flag"], default
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} shifts its arguments whether or not `{flag}` was given: the argument "
                      f"after it was dropped, and {assigned['name']} fell back to its default "
                      f"{assigned['default']} ({meant} lies beside it)",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=later, text=lines[later - 1].strip())],
                cause=f"In `{line.strip()}`, `&&` guards the assignment only; after the `;`, `shift` runs every time, "
                      f"so called without `{flag}` the script loses its first argument (the dataset it was given) and "
                      f"line {later} takes the default, {assigned['default']}: the run evaluated that file, and every "
                      "command exits 0.",
                fix=f"In {file.name}:{number}, shift only with the flag: `if [ \"$1\" = \"{flag}\" ]; then SMOKE=1; "
                    f"shift; fi` (or `[ \"$1\" = \"{flag}\" ] && {{ SMOKE=1; shift; }}`); then run again on the "
                    "dataset meant, from materialize.",
            )]
    return []


def _another_version(ev: Evidence, default: str) -> str | None:
    """A data file of the run folder named as another version of `default` (`tasks_v2.jsonl` for `tasks.jsonl`)."""
    name = default.strip("\"'").rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    if ev.run_dir is None or not dot:
        return None
    return next((path.name for path in sorted(ev.run_dir.glob(f"{stem}?*.{suffix}")) if path.name != name), None)


def _read_by_the_run(ev: Evidence, default: str) -> bool:
    """Whether the run's inputs came from `default`: our manifest's source, or a log line naming it as the input."""
    name = default.strip("\"'").rsplit("/", 1)[-1]
    if ev.manifest.source and ev.manifest.source.rsplit("/", 1)[-1] == name:
        return True
    return any(re.search(rf"(?:--input[ =]|\bof ){re.escape(name)}\b", head) for _, head in ev.log_heads)
