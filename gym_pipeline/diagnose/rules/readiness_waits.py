"""Step 2: a wait for the model server that counts any HTTP answer as ready (`curl` without `-f`).

`until curl -s http://.../v1/models; do sleep 1; done` ends as soon as the server answers at all: curl exits 0 on an
HTTP error unless given `-f` (`--fail`), so a server still loading its weights, which answers `503 Service
Unavailable`, counts as up. The collection then starts against it and its requests fail or hang until the server has
loaded. Named when a script of the run waits on such a curl and a log shows the 503.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, unique
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# `until curl ...`, `while ! curl ...`, `curl ... && break` in a loop: curl without -f / --fail
_WAIT_ON_CURL = re.compile(r"(?:\buntil\s+|\bwhile\s+!\s*)curl\b(?P<options>[^;\n]*)|\bcurl\b(?P<options2>[^;\n|]*)"
                           r"&&\s*break\b")
_FAIL_OPTION = re.compile(r"\s-[a-zA-Z]*f[a-zA-Z]*\b|--fail\b")
_STILL_LOADING = re.compile(r"\b503\b[^\n]*(?:Service Unavailable|unavailable|loading)|Service Unavailable[^\n]*\b503\b",
                            re.I)


def rule_readiness_wait_counts_an_error_as_ready(ev: Evidence) -> list[Finding]:
    loading = ev.first_in_log_heads(_STILL_LOADING)
    if loading is None:
        return []
    for file, number, line, wait in lines_matching(ev.user_files, _WAIT_ON_CURL, SCRIPT_SUFFIXES):
        if _FAIL_OPTION.search(wait["options"] or wait["options2"] or ""):
            continue
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} waits for the model server with `curl` without `-f`: a 503 of a server still "
                  "loading counted as ready, and the collection started before it could answer",
            evidence=unique([EvidenceLine(file=file.name, line=number, text=line.strip()),
                             loading[0],
                             *(hit.evidence() for name in ("model_endpoint_silent", "model_endpoint_down")
                               for hit in ev.hits(name)[:1])]),
            cause="curl exits 0 whenever the server answers, whatever the HTTP status, unless given `-f` (`--fail`): "
                  "a model server still loading its weights answers `503 Service Unavailable`, so the wait ended at "
                  "once and the run's requests met a server that was not ready (refused with 503, or held until it "
                  "loaded).",
            fix=f"In {file.name}:{number}, wait with `curl -f` (`until curl -sf <url>/v1/models > /dev/null; do sleep "
                "2; done`): it fails on a 503 and the loop waits until the server is ready; give the loop a limit "
                "(`timeout 900 bash -c '...'`) so a server that never loads stops the run, then collect again "
                "(`--resume`).",
            explains=frozenset({"model_endpoint_down", "model_endpoint_silent"}),
        )]
    return []
