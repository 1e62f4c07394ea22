"""Step 1: a user's script run by a shell, or calling a tool, of another dialect than it was written for.

- A bash script started as `sh run_eval.sh`: the `#!/bin/bash` line only counts when the script is run as a
  program, so sh runs it, and where /bin/sh is dash, dash stops at the first bash-only line (an array, `[[`,
  `source`) with its own words (`run_eval.sh: 6: Syntax error: "(" unexpected`): nothing after that line runs.
- `sed -i '' 's/.../.../' settings.env`, macOS (BSD) sed's in-place syntax, on GNU sed: GNU's -i takes no separate
  argument, so '' becomes the script and the expression a file to read (`sed: can't read s/...: No such file or
  directory`). The file is left as it was, and a script without `set -e` goes on with its old settings.

- A script whose own `#!` line says `#!/bin/sh` (a cluster's minimal example) but is written in bash: Slurm runs
  a batch script with its `#!` line, so dash reads it (its copy is named `slurm_script` in the error) and stops at
  the first bash-only line the same way.

All are the script's settings not reaching the run (config).
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


_SH_SHEBANG = re.compile(r"\A#!\s*(?:/usr)?/bin/(?:env\s+)?sh\b")
_BASH_ONLY = re.compile(r"\w=\(|\[\[|\$\{\w+\[|\b(?:source|declare|local -n|pushd|popd|shopt|function|mapfile|readarray)\b")


def _sh_shebang_on_bash_line(script: UserFile, number: int) -> bool:
    lines = script.text.splitlines()
    return bool(_SH_SHEBANG.match(script.text) and 0 < number <= len(lines) and _BASH_ONLY.search(lines[number - 1]))


def _batch_script_at(ev: Evidence, number: int) -> UserFile | None:
    """The user's `#!/bin/sh` batch script whose line `number` is bash-only: the script Slurm spooled as
    `slurm_script`."""
    return next((file for file in ev.user_files
                 if "#SBATCH" in file.text and _sh_shebang_on_bash_line(file, number)), None)


def rule_bash_script_run_by_sh(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for match in _DASH_STOPPED.finditer(text):
            if Path(match["script"]).name == "slurm_script":
                script = _batch_script_at(ev, int(match["line"]))
            else:
                script = _script_named(ev, match["script"])
            if script is not None and _sh_shebang_on_bash_line(script, int(match["line"])):
                return [_sh_shebang_on_bash(ev, log, text, match, script)]
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


def _sh_shebang_on_bash(ev: Evidence, log: Path, text: str, match: re.Match[str], script: UserFile) -> Finding:
    number = int(match["line"])
    stopped_at = script.text.splitlines()[number - 1].strip()
    shebang = script.text.splitlines()[0].strip()
    what = "a bash array" if re.search(r"\w=\(", stopped_at) else "bash-only syntax"
    spooled = Path(match["script"]).name == "slurm_script"
    return Finding(
        category=CONFIG,
        title=f"{script.name} says `{shebang}` but is written in bash: dash stopped at its line {number} "
              f"(`{stopped_at}`), and nothing after it ran",
        evidence=[EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, match.start()) + 1, text=match[0].strip()),
                  EvidenceLine(file=script.name, line=1, text=shebang),
                  EvidenceLine(file=script.name, line=number, text=stopped_at)],
        cause=f"A script run as a program (and a Slurm batch script) runs with what its `#!` line names: "
              f"`{shebang}` is dash here, which does not know {what} at line {number} ({match['message']}"
              + ("; `slurm_script` is Slurm's copy of the script" if spooled else "") + "). It ended there, "
              "before the steps after that line ran, and what the run lacks follows.",
        fix=f"Make the first line of {script.name} `#!/bin/bash` (instead of `{shebang}`), or write line {number} "
            f"(`{stopped_at}`) in POSIX sh (a space-separated list for an array); then run it again.",
    )


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
