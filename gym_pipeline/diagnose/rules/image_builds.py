"""Step 1: a task's sandbox image that took longer to build than its task allows (`build_timeout_sec`).

The loader reports it as the task's skip reason ("the image build ran past [environment].build_timeout_sec"), read
with the other skip reasons; a collection of an older version stopped instead with the Docker client's read timeout
(`ReadTimeoutError ... Read timed out`) raised inside `ensure_image`. Either way the build was not broken: it needed
more time than the task gives it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

_READ_TIMEOUT = re.compile(r"(?:ReadTimeoutError|ReadTimeout)\b[^\n]*Read timed out")
_BUILD_TIMEOUT = re.compile(r"^\s*build_timeout_sec\s*=\s*(?P<value>[\d.]+)", re.M)
MAX_TASKS_LOOKED_AT = 2000


def rule_image_build_past_its_timeout(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for log, head in ev.log_heads:
        if "in ensure_image" not in head or not (timeouts := list(_READ_TIMEOUT.finditer(head))):
            continue
        timed_out = timeouts[-1]  # the exception's own line, after the traceback's source lines
        budgets = []
        for count, path in enumerate(ev.run_dir.rglob("task.toml")):
            if count >= MAX_TASKS_LOOKED_AT:
                break
            text = path.read_text(encoding="utf-8", errors="replace")
            if match := _BUILD_TIMEOUT.search(text):
                budgets.append((path, text.count("\n", 0, match.start()) + 1, match.group(0).strip(),
                                float(match["value"])))
        shortest = min(budgets, key=lambda budget: budget[3], default=None)
        number = head.count("\n", 0, timed_out.start()) + 1
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title="A task's image build ran past its build_timeout_sec: the Docker client's read timed out in "
                  "ensure_image" + (f" ({ev.rel(shortest[0])}: `{shortest[2]}`)" if shortest else ""),
            evidence=[EvidenceLine(file=ev.rel(log), line=number, text=timed_out.group(0)),
                      *([EvidenceLine(file=ev.rel(shortest[0]), line=shortest[1], text=shortest[2])] if shortest
                        else [])],
            cause="The sandbox image is built with the task's `build_timeout_sec` as the limit of each read from "
                  "the engine; a build step that runs longer without output (a slow RUN: an index built, packages "
                  "compiled) outlasts it, and the build is given up. The build itself is not broken: it needs more "
                  "time than the task allows.",
            fix=(f"Raise `build_timeout_sec` under [environment] in {ev.rel(shortest[0])} (now {shortest[3]:g} s; "
                 if shortest else "Raise `build_timeout_sec` under [environment] in the task's task.toml (")
                + "time one build: `docker build <task>/environment`), or make the slow step faster (prepare its "
                  "output once and COPY it in); then run the collection again.",
        )]
    return []
