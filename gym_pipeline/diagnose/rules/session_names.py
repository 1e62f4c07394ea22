"""Step 2: a model server started in a tmux session whose name an older session still holds.

Serving scripts start the server detached, `tmux new-session -d -s policy "vllm serve ..."`, so it outlives the
login. When last week's session of that name was never closed, tmux refuses the new one (`duplicate session:
policy`) and starts nothing; the script goes on, and the server that answers on the port is last week's, on its
checkpoint. Every command exits 0. Named from tmux's line and the script line that starts the session.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

_DUPLICATE = re.compile(r"^duplicate session: (?P<name>\S+)", re.M)
# `tmux [-L socket] new-session -d -s NAME "command"` (`new`, `-sNAME`), running a model server
_NEW_SESSION = re.compile(r"\btmux\b(?:[^\n#]*\s-L\s*(?P<socket>\S+))?[^\n#]*\bnew(?:-session)?\b[^\n#]*\s-s\s*"
                          r"(?P<name>[\w.-]+)[^\n]*\b(?:serve|vllm|sglang|server)\b")


def rule_server_session_name_taken(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_DUPLICATE)
    if refused is None:
        return []
    said, match = refused
    start = next((hit for hit in lines_matching(ev.user_files, _NEW_SESSION) if hit[3]["name"] == match["name"]), None)
    if start is None:
        return []
    file, number, line, session = start
    tmux = f"tmux -L {session['socket']}" if session["socket"] else "tmux"
    name = match["name"]
    return [Finding(
        category=MODEL_SERVING,
        title=f"tmux refused to start the model server: a session named `{name}` already exists ({file.name}:{number}), "
              "so the server that answered is the one that older session runs",
        evidence=[said, EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause=f"{file.name}:{number} starts the model server in a detached tmux session `{name}`; a session of that "
              f"name, left from an earlier run, was still open, so tmux started nothing ({said.file}:{said.line}) and "
              "the script went on. The requests went to the server of the old session, on the checkpoint it was "
              "started with, not the one this script names.",
        fix=f"In {file.name}, close the old session before starting the new one: `{tmux} kill-session -t {name} "
            f"2>/dev/null` on the line before {number} (or give each run's session a name of its own), and check "
            "that `/v1/models` reports the checkpoint meant before collecting; then collect again against the new "
            "server and profile.",
    )]
