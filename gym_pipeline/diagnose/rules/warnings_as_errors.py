"""A Python warning raised as an exception: the environment turns warnings into errors.

`PYTHONWARNINGS=error` (often exported by a settings file shared with CI jobs, "to catch deprecations early"),
`python -W error` or `warnings.simplefilter("error")` make every warning an exception. A harmless warning of a
library or of the profile (a confidence interval that collapses when every repeat has the same mean) then ends the
command with a traceback whose last line is the warning: the run's code is fine, its environment is not.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_WARNING_RAISED = re.compile(r"^(?P<kind>[A-Z]\w*Warning): (?P<message>.+)")
_WARNINGS_ARE_ERRORS = re.compile(r"\bPYTHONWARNINGS\s*=\s*[\"']?error\b|\s-W\s*[\"']?error\b"
                                  r"|(?:simplefilter|filterwarnings)\(\s*[\"']error[\"']")


def rule_warning_raised_as_an_error(ev: Evidence) -> list[Finding]:
    incident = next((i for i in ev.logs.incidents if i.kind == "traceback" and not i.after_shutdown
                     and _WARNING_RAISED.match(i.text.strip())), None)
    if incident is None:
        return []
    raised = _WARNING_RAISED.match(incident.text.strip())
    setting = next(iter(lines_matching(ev.user_files, _WARNINGS_ARE_ERRORS)), None)
    where = f"{setting[0].name}:{setting[1]} `{setting[2].strip()}`" if setting else "the environment"
    return [Finding(
        category=INFRA,
        title=f"A Python warning was raised as an error ({raised['kind']}) in {incident.file}: warnings are errors "
              f"in this environment" + (f" ({setting[0].name})" if setting else ""),
        evidence=[EvidenceLine(file=incident.file, line=incident.line, text=incident.text.strip()),
                  *([EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2].strip())] if setting else [])],
        cause=f"The command ended on a {raised['kind']} ({excerpt(raised['message'], 120)}), which Python prints and goes on "
              f"from unless warnings are made errors: {where} turns every warning into an exception. The warning "
              "itself is harmless; the setting made it fatal.",
        fix=("Do not make warnings errors for the run's commands: "
             + (f"remove or scope `{setting[2].strip()}` in {setting[0].name} (keep it for the CI's test job, e.g. "
                "`PYTHONWARNINGS=error pytest`)" if setting else
                "`unset PYTHONWARNINGS` (check `echo $PYTHONWARNINGS`, and `-W error` on the command line)")
             + ", or ignore this one warning (`PYTHONWARNINGS=error,ignore::" + raised["kind"] + "`); then run the "
             "command again (the collection's outputs are kept)."),
    )]
