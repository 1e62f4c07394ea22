"""Step 7: a task's test that deletes the agent's answer before it checks it.

A cleanup step added to tests/test.sh to remove an agent's scratch files (`find /app -name '*.txt' ! -name
'text.txt' -delete`, `rm -f /app/*.tmp /app/*.txt`) whose pattern also matches the file the check reads next
(`/app/top.txt`): the check never finds an answer, and every episode scores 0 whatever the agent did.
"""

from __future__ import annotations

import re
import shlex
from fnmatch import fnmatch
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import (
    TEST_STDOUT,
    first_line_of_unscored_tasks,
    task_folder_run,
    tests_of_unscored_tasks,
)
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_DELETES = re.compile(r"^\s*(?:find\b.*\s-delete\b|rm\s)")
_READ_PATH = re.compile(r"(?<![\w/.-])(?P<path>/app/[\w./-]+\.\w+)")


def _deleted_by(line: str, path: str, cwd: str) -> bool:
    """Whether the `find ... -delete` or `rm ...` command of `line` removes `path` (run from `cwd`)."""
    try:
        words = shlex.split(line.split("#", 1)[0])
    except ValueError:
        return False
    if not words:
        return False
    if words[0] == "find":
        root = next((word for word in words[1:] if not word.startswith("-") and word != "!"), cwd)
        if not path.startswith(root.rstrip("/") + "/"):
            return False
        name = PurePosixPath(path).name
        included, excluded = [], []
        for index, word in enumerate(words[:-1]):
            if word in ("-name", "-iname"):
                (excluded if index and words[index - 1] in ("!", "-not") else included).append(words[index + 1])
        return any(fnmatch(name, pattern) for pattern in included) and not any(fnmatch(name, p) for p in excluded)
    targets = [word for word in words[1:] if not word.startswith("-")]
    return any(fnmatch(path, target if target.startswith("/") else f"{cwd.rstrip('/')}/{target}")
               for target in targets)


def rule_test_deletes_the_answer_it_checks(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    findings = []
    for task, test, lines in tests_of_unscored_tasks(ev, run):
        cwd = next((m["dir"] for line in lines if (m := re.match(r"^\s*cd\s+(?P<dir>/\S+)", line))), "/app")
        found = next(((number, line, later, read["path"])
                      for number, line in enumerate(lines, 1) if _DELETES.match(line)
                      for later, text in enumerate(lines[number:], number + 1) if not text.lstrip().startswith("#")
                      for read in _READ_PATH.finditer(text) if _deleted_by(line, read["path"], cwd)), None)
        if found is None:
            continue
        number, line, later, path = found
        said = first_line_of_unscored_tasks(ev, run, f"verifier/{TEST_STDOUT}",
                                            re.compile(re.escape(path) + r".*No such file")).get(task)
        findings.append(Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} deletes {path} (line {number}) before it checks it (line {later}); every "
                  "episode of it scored 0",
            evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line.strip()),
                      EvidenceLine(file=ev.rel(test), line=later, text=lines[later - 1].strip()),
                      *([said] if said else [])],
            cause=f"tests/test.sh line {number} (`{line.strip()}`) cleans up files whose pattern also matches "
                  f"{path}, the answer the check on line {later} reads: the check never finds it, so no agent can "
                  "pass. The model is not at fault: the verifier is.",
            fix=f"In {run.task_path(task)}/tests/test.sh line {number}, keep the answer out of the cleanup (add "
                f"`! -name '{PurePosixPath(path).name}'` to its `-delete`, or narrow its pattern to the scratch files), "
                f"or move the cleanup after the check; check it with the oracle (`gym-pipeline tasks validate "
                f"{run.task_path(task)}`, which must score 1), then {run.rerun()}.",
        ))
    return findings
