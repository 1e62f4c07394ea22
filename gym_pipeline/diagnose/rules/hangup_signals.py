"""Step 1 (beside the hangup it explains): a model server ended by a SIGHUP a script of the user's sent it (a log rotation's "reopen your log").

A logrotate `postrotate` block copied from nginx's config sends `kill -HUP` to each service so it reopens its log;
our model server (like vLLM) does not treat HUP so, and ends. The collection's requests then meet nothing and are
retried or refused until the run gives up; it looks like a crash. Named when a model server's log ends by SIGHUP and
a script of the run sends HUP (`kill -HUP`, `kill -1`, `kill -s HUP`, `pkill -HUP`), or the log that ends so is a
rotation's copy (`model_server.log.1`).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_SENDS_HANGUP = re.compile(r"\b(?:kill|pkill|killall)\s+(?:-HUP|-SIGHUP|-1|-s\s+(?:SIG)?HUP)\b")


def rule_model_server_ended_by_a_scripts_hangup(ev: Evidence) -> list[Finding]:
    hangup = next((hit for hit in ev.hits("ended_by_hangup") if "serve" in hit.text), None)
    if hangup is None:
        return []
    sender = next(lines_matching(ev.user_files, _SENDS_HANGUP, SCRIPT_SUFFIXES), None)
    rotated = re.search(r"\.log\.\d+$", hangup.file) is not None  # the hangup ends a log a rotation moved aside
    if sender is None and not rotated:
        return []  # a terminal that went away: the known problem's reading
    by = (f"{sender[0].name}:{sender[1]} sends SIGHUP (`{sender[3][0]}`)" if sender
          else f"A log rotation sent SIGHUP ({hangup.file} is the copy it moved aside)")
    where = sender[0].name if sender else "the log rotation's configuration (its `postrotate` block)"
    return [Finding(
        category=MODEL_SERVING,
        title=f"{by}, and the model server ended by it: it does not reopen its log on HUP, it stops",
        evidence=[hangup.evidence(),
                  *([EvidenceLine(file=sender[0].name, line=sender[1], text=sender[2].strip())] if sender else [])],
        cause="A log rotation told the services to reopen their logs with SIGHUP (a logrotate `postrotate` block, as "
              "nginx wants); the model server takes HUP as the end of its terminal and exits, so every request after "
              "it met nothing: the retries and refusals that followed are this, not a crash.",
        fix=f"In {where}, do not send HUP to the model server (take it out of the rotation's `kill -HUP`); rotate its "
            f"log, {hangup.file.rsplit('/', 1)[-1].split('.log')[0]}.log, with `copytruncate` (or let a supervisor "
            "reopen it), then restart the server and resume the collection.",
        explains=frozenset({"ended_by_hangup", "gym_request_retry", "model_endpoint_down"}),
    )]
