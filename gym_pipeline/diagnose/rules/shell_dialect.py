"""Step 1: a user's script run by a shell, or calling a tool, of another dialect than it was written for.

- A bash script started as `sh run_eval.sh`: the `#!/bin/bash` line only counts when the script is run as a
  program, so sh runs it, and where /bin/sh is dash, dash stops at the first bash-only line (an array, `[[`,
  `source`) with its own words (`run_eval.sh: 6: Syntax error: "(" unexpected`): nothing after that line runs.
- `sed -i '' 's/.../.../' settings.env`, macOS (BSD) sed's in-place syntax, on GNU sed: GNU's -i takes no separate
  argument, so '' becomes the script and the expression a file to read (`sed: can't read s/...: No such file or
  directory`). The file is left as it was, and a script without `set -e` goes on with its old settings.

Both are the script's settings not reaching the run (config).
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG

# dash's error lines ("<script>: <line>: <message>"; bash says "<script>: line <n>: ..."), for what bash alone knows
_DASH_STOPPED = re.compile(r"^(?P<script>\S+?): (?P<line>\d+): (?P<message>Syntax error: .+|Bad substitution"
                           r"|(?:\[\[|source|declare|local -n|pushd|popd|shopt|function|mapfile|readarray): not found)$",
                           re.M)
_BASH_SHEBANG = re.compile(r"\A#!\s*(?:/usr)?/bin/(?:env\s+)?bash\b")


def _script_named(ev: Evidence, path: str) -> UserFile | None:
    return next((file for file in ev.user_files if Path(file.name).name == Path(path).name), None)


def rule_bash_script_run_by_sh(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for match in _DASH_STOPPED.finditer(text):
            script = _script_named(ev, match["script"])
            if script is None or not _BASH_SHEBANG.match(script.text):
                continue
            number = int(match["line"])
            lines = script.text.splitlines()
            stopped_at = lines[number - 1].strip() if 0 < number <= len(lines) else ""
            log_line = text.count("\n", 0, match.start()) + 1
            return [Finding(
                category=CONFIG,
                title=f"{script.name} was run by sh, not bash: dash stopped at its line {number}, and nothing after "
                      "it ran",
                evidence=[EvidenceLine(file=ev.rel(log), line=log_line, text=match[0].strip()),
                          EvidenceLine(file=script.name, line=1, text=lines[0].strip()),
                          *([EvidenceLine(file=script.name, line=number, text=stopped_at)] if stopped_at else [])],
                cause=f"{script.name} is a bash script (`{lines[0].strip()}`), but it was started as `sh "
                      f"{script.name}`: its `#!` line counts only when the script runs as a program, and /bin/sh is "
                      f"dash here, which does not know line {number}'s bash syntax ({match['message']}). Dash ended "
                      "the script there; the steps after it never ran, and what the run lacks follows from that.",
                fix=f"Run it with bash: `bash {script.name}` (or `chmod +x {script.name}` and `./{script.name}`, so "
                    "its `#!/bin/bash` line picks the shell), in the CI step or wrapper that starts it now with `sh`; "
                    f"or write line {number} in POSIX sh. Then run it again (a collection that had started resumes "
                    "with --resume).",
            )]
    return []


_BSD_IN_PLACE = re.compile(r"\bsed\s+(?:-[a-hj-zA-Z]+\s+)*-i\s*(?:''|\"\")\s+(?:-e\s+)?(?P<quote>['\"])(?P<expr>.+?)"
                           r"(?P=quote)\s+(?P<files>[^;&|#\n]+)")
_CANNOT_READ = re.compile(r"^sed: can't read (?P<name>.+): No such file or directory$", re.M)


def rule_bsd_sed_in_place_on_gnu_sed(ev: Evidence) -> list[Finding]:
    complaints = [(log, text, match) for log, text in ev.log_heads for match in _CANNOT_READ.finditer(text)]
    if not complaints:
        return []
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            call = _BSD_IN_PLACE.search(line)
            said = call and next(((log, text, match) for log, text, match in complaints
                                  if match["name"] == call["expr"]), None)
            if not said:
                continue
            log, text, match = said
            files = call["files"].strip()
            return [Finding(
                category=CONFIG,
                title=f"{script.name}:{number} edits {files} with `sed -i ''`, macOS sed's syntax: GNU sed read the "
                      f"expression as a file name, and {files} was never changed",
                evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, match.start()) + 1,
                                       text=match[0].strip())],
                cause=f"BSD sed (macOS) takes the in-place suffix as a separate argument (`-i ''`); GNU sed's -i takes "
                      f"none, so here '' became the script and `{call['expr']}` a file to read, which does not exist. "
                      f"{files} kept what it had, and the script went on with those settings: the run used the old "
                      "ones.",
                fix=f"In {script.name}:{number} write GNU sed's form, `sed -i '{call['expr']}' {files}` (no '' after "
                    f"-i); one form both seds accept is `sed -i.bak '...' {files} && rm {files}.bak`. Add `set -e` so "
                    "a failed step stops the script, then run it again on the corrected settings.",
            )]
    return []
