"""Step 1: a script that computes a dated folder name (`results/$(date +%Y%m%d-%H%M)`) again on each line.

Each `$(date ...)` is evaluated when its line runs: a run that crosses the minute (or the day) writes into one
folder and looks for its files in the next one, which does not exist ("not found"). Named when a log shows a path
the script built that way was not found.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CONFIG

_DATE = re.compile(r"\$\(\s*date\b[^)]*\)")
_NOT_FOUND = re.compile(r"(?:not found|No such file or directory|does not exist)", re.I)


def _in_a_name(line: str, match: re.Match[str]) -> bool:
    """Whether the date is part of a file or folder name (`results/$(date +%F)`, `$(date +%H%M).log`), not a time
    a message prints (`echo "done ($(date +%T))"`)."""
    before, after = line[match.start() - 1:match.start()], line[match.end():match.end() + 1]
    return bool(re.match(r"[\w./-]", before) or re.match(r"[\w./-]", after))


def rule_dated_path_computed_again(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        lines = file.text.splitlines()
        uses: dict[str, list[int]] = {}
        for number, line in enumerate(lines, 1):
            if line.lstrip().startswith("#") or re.match(r"^\s*(?:export\s+)?\w+=", line):
                continue  # an assignment computes it once: the usual fix
            for match in _DATE.finditer(line):
                if _in_a_name(line, match):
                    uses.setdefault(match.group(0), []).append(number)
        repeated = next(((expression, numbers) for expression, numbers in uses.items()
                         if len(set(numbers)) >= 2), None)
        if repeated is None:
            continue
        expression, numbers = repeated
        complaint = next(((log, n, text.strip()) for log, head in ev.log_heads
                          for n, text in enumerate(head.splitlines(), 1) if _NOT_FOUND.search(text)), None)
        if complaint is None:
            continue
        first, later = numbers[0], sorted(set(numbers))[-1]
        return [Finding(
            category=CONFIG,
            title=f"{file.name} computes `{expression}` again on each line ({', '.join(map(str, sorted(set(numbers))))}): "
                  "a run that crossed the minute looked for its files in another folder",
            evidence=[EvidenceLine(file=ev.rel(complaint[0]), line=complaint[1], text=complaint[2]),
                      EvidenceLine(file=file.name, line=first, text=lines[first - 1].strip()[:300]),
                      EvidenceLine(file=file.name, line=later, text=lines[later - 1].strip()[:300])],
            cause=f"`{expression}` is evaluated when its line runs, so {file.name}:{first} and {file.name}:{later} get "
                  "the same name only if the clock did not move on between them; the run took longer, the later "
                  "line built a folder name that does not exist, and its command found nothing there.",
            fix=f"In {file.name}, compute the name once at the top (`OUT=results/{expression}`) and use `$OUT` on "
                "every line; then run the failed step again on the folder the run wrote.",
        )]
    return []
