"""Step 1: settings rendered with `sed "s/@KEY@/$VALUE/"` where the value holds the delimiter.

A template filled in with sed (`sed "s/@MODEL_URL@/$URL/" eval.env.in > eval.env`) breaks when the value holds the
`s` command's delimiter: a URL or a path has slashes, and sed reads the first one inside it as the end of the
replacement (`unknown option to `s'`). sed writes nothing, the redirection has already emptied the output file,
and the script goes on with whatever defaults its variables fall back to. A value holding `&` is written with the
placeholder in its place (`&` stands for the matched text): labels filled in that way read `Simon __ANSWER__ Garfunkel`.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA

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


# every `s<d>PATTERN<d>$VALUE<d>` of a line: a placeholder replaced by a variable
_PLACEHOLDER_FILLED = re.compile(r"\bs(?P<delimiter>[/|#,:@])(?P<pattern>[^/|#,:@\n\\]+?)(?P=delimiter)"
                                 r"\$\{?(?P<name>\w+)\}?(?P=delimiter)")


def rule_sed_replacement_ampersand_pastes_the_placeholder(ev: Evidence) -> list[Finding]:
    """A label filled in with `sed "s|__ANSWER__|$answer|"` whose value holds `&`: in a replacement, `&` stands for
    the matched text, so `Simon & Garfunkel` becomes `Simon __ANSWER__ Garfunkel` and right answers score 0."""
    for file, number, line, _ in lines_matching(ev.user_files, _SUBSTITUTION, SCRIPT_SUFFIXES):
        for match in _PLACEHOLDER_FILLED.finditer(line):
            pattern = match["pattern"]
            pasted = [answer for answer in ev.graded_answers if pattern in answer.expected]
            if not pasted:
                continue
            first = pasted[0]
            return [Finding(
                category=DATA_SCHEMA,
                title=f"{file.name}:{number} fills labels in with sed's `s{match['delimiter']}{pattern}"
                      f"{match['delimiter']}${match['name']}{match['delimiter']}`, and values holding `&` got the "
                      f"placeholder pasted in: {len(pasted)} rollouts' labels read like {first.expected!r}",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts), line=first.line,
                                       text=f"expected_answer={first.expected!r} extracted_answer={first.extracted!r}")],
                cause=f"In a sed replacement an unescaped `&` stands for the whole matched text: a value of "
                      f"${match['name']} such as `Simon & Garfunkel` is written as `Simon {pattern} Garfunkel`. The "
                      "rows' labels hold the placeholder instead of the answer, so the model's right answers to "
                      "those questions score 0, with every command exiting 0.",
                fix=f"In {file.name}:{number}, escape `&` (which pastes `{pattern}`; and `\\`, and the delimiter) in the "
                    "value before sed "
                    f"(`{match['name']}=${{{match['name']}//&/\\\\&}}`), or render the rows with a JSON tool "
                    f"(`jq --arg a \"${match['name']}\" ...`) instead of sed; then build the rows again, materialize "
                    "and collect.",
            )]
    return []
