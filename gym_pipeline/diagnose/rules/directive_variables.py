"""Step 1: an `#SBATCH` directive naming a shell variable, which sbatch never expands.

`#SBATCH --dependency=afterok:$PREP_JOB` reads like a line of the script, but sbatch parses `#SBATCH` lines as text
before any shell runs: the value it gets is `afterok:$PREP_JOB` word for word, whatever the submitting script
exported. For a dependency sbatch refuses the job (`Job dependency problem`) and nothing runs. The user's directive
is to change (config): pass the value on sbatch's command line, where the submitting shell expands it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_DIRECTIVE_WITH_VARIABLE = re.compile(r"^#SBATCH\s+(?P<option>--?[\w-]+)[= ]\s*(?P<value>\S*\$\{?(?P<name>[A-Za-z_]\w*)"
                                      r"\}?\S*)")
_REFUSED = re.compile(r"sbatch: error: (?P<why>.+)")


def rule_directive_names_a_shell_variable(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_REFUSED)
    if refused is None:
        return []
    log, match = refused
    why = match["why"].strip()
    for file, number, line, directive in lines_matching(ev.user_files, _DIRECTIVE_WITH_VARIABLE):
        option, value, name = directive["option"], directive["value"], directive["name"]
        if option.lstrip("-").split("-")[0].lower() not in why.lower() and f"${name}" not in why:
            continue  # the refusal is of another option
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} `#SBATCH {option}={value}` names ${name}, which sbatch never expands: "
                  f"sbatch refused the job ({why})",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), log],
            cause=f"sbatch reads `#SBATCH` lines as plain text before any shell runs, so {option} got "
                  f"`{value}` word for word, not the value of ${name} the submitting script set; it refused the "
                  "job, and nothing of it ran.",
            fix=f"Take the `#SBATCH {option}=...` line out of {file.name} and give the option on sbatch's command "
                f"line, where the submitting shell expands the variable: `sbatch {option}={value} {file.name}` (with "
                f"{name} set before it, `{name}=$(sbatch --parsable ...)` for a job id); then submit again.",
        )]
    return []
