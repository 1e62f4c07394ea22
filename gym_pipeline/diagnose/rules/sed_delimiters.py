"""Step 1: settings rendered with `sed "s/@KEY@/$VALUE/"` where the value holds the delimiter.

A template filled in with sed (`sed "s/@MODEL_URL@/$URL/" eval.env.in > eval.env`) breaks when the value holds the
`s` command's delimiter: a URL or a path has slashes, and sed reads the first one inside it as the end of the
replacement (`unknown option to `s'`). sed writes nothing, the redirection has already emptied the output file,
and the script goes on with whatever defaults its variables fall back to.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_SED_REFUSED = re.compile(r"^sed: -e expression #\d+, char \d+: unknown option to `s'", re.M)
# `sed "s/@KEY@/$VALUE/"` (any delimiter): the variable in the replacement
_SUBSTITUTION = re.compile(r"\bsed\b[^#\n]*?\bs(?P<delimiter>[/|#,:@])(?P<pattern>[^\n]*?)(?P=delimiter)[^\n]*?"
                          r"\$\{?(?P<name>\w+)")


def rule_sed_replacement_holds_its_delimiter(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_SED_REFUSED)
    if refused is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _SUBSTITUTION, SCRIPT_SUFFIXES):
        delimiter, name = match["delimiter"], match["name"]
        assigned = assignment_of(ev.user_files, name)
        if assigned is None or delimiter not in assigned[2].split("=", 1)[1]:
            continue
        output = re.search(r">\s*(?P<file>\S+)", line)
        other = "|" if delimiter != "|" else "#"
        rendered = output["file"] if output else "the rendered file"
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} fills in ${name} with sed's `s{delimiter}...{delimiter}`, and its value holds "
                  f"`{delimiter}`: sed refused the command and wrote nothing into {rendered}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=assigned[0].name, line=assigned[1], text=assigned[2]), refused[0]],
            cause=f"${name} is `{assigned[2].split('=', 1)[1].split('#')[0].strip()}`, and `{delimiter}` is also the "
                  f"delimiter of the `s` command at {file.name}:{number}: sed took the first `{delimiter}` inside the "
                  f"value for the end of the replacement and refused the rest (`unknown option to `s'`). The "
                  f"redirection had already emptied {rendered}, so the settings it should hold were never set, and the "
                  "commands after it went on with their defaults.",
            fix=f"In {file.name}:{number}, give sed a delimiter the value cannot hold (`s{other}{match['pattern']}"
                f"{other}${name}{other}` instead of `s{delimiter}{match['pattern']}{delimiter}...`), or write the file "
                f"with `envsubst` or a heredoc; stop the script when a step fails (`set -e`), check {rendered} (`cat "
                f"{rendered}`), then run again.",
        )]
    return []
