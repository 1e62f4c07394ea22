"""Step 2: model replies that came gzip-compressed without a `Content-Encoding` header.

A gateway that compresses what it forwards (to save bandwidth) but does not say so hands the client gzip bytes
where JSON is expected: every model call fails to parse (`JSONDecodeError`, `not valid UTF-8`) although the status
is 200. The failed attempts keep the body, which starts with gzip's magic bytes (1f 8b). The fix is the proxy's:
the user's file that compresses is named when the run folder holds it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, keys_of, plural
from gym_pipeline.diagnose.rules.routing import groups_routed
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_COMPRESSES = re.compile(r"\bgzip\.compress\(|\bzlib\.compress\(|\bGzipFile\(|\bcompresslevel\b")


def rule_compressed_replies(ev: Evidence) -> list[Finding]:
    groups = groups_routed(ev, "compressed")
    if not groups:
        return []
    count = sum(group.count for group in groups)
    compressing = next(lines_matching(ev.user_files, _COMPRESSES, {".py"}), None)
    named = (f"{compressing[0].name}:{compressing[1]} (`{compressing[2].strip()}`) compresses what it sends back, "
             "and sends no `Content-Encoding: gzip` with it: " if compressing else "")
    return [Finding(
        category=MODEL_SERVING,
        failed_keys=keys_of(groups),
        title=f"The model's replies came gzip-compressed without saying so: {plural(count, 'failed attempt')} could "
              "not read them (HTTP 200)",
        evidence=[groups[0].first,
                  *([EvidenceLine(file=compressing[0].name, line=compressing[1], text=compressing[2].strip())]
                    if compressing else [])],
        cause="The bodies the client got start with gzip's magic bytes (1f 8b) and came with status 200 and no "
              "`Content-Encoding` header, so the client read compressed bytes as JSON and failed every call. Something "
              "between the model server and the run compresses the replies (a gateway or proxy); the model is fine."
              + (f" {named.removesuffix(': ')}." if compressing else ""),
        fix=(f"{named}send the header with the compressed body (clients then decompress it), or forward the replies "
            "unchanged" if compressing else "Find what compresses the replies between the model server and the run "
            "(`curl -s -D - <model-url>/chat/completions ...` shows the headers and the bytes), and have it send "
            "`Content-Encoding: gzip` or forward unchanged")
            + "; then collect again on a clean output path.",
    )]
