"""Step 1: a NAT rule left from a migration that redirects the run's model port to another server.

`iptables -t nat -A OUTPUT -p tcp --dport NEW -j REDIRECT --to-ports OLD`, to send clients of a new server to the
old one while it loads, outlives the migration: every request to the new port is answered by the old server (another
checkpoint), the new server gets nothing, and everything exits 0. Named when a script of the run adds such a rule
(nothing of the run deletes it) for the port the run's model URL names, read from the rule itself or from the line
the script printed (`forwarding 127.0.0.1:NEW -> 127.0.0.1:OLD`).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding, model_url_of
from gym_pipeline.diagnose.origin import address_of
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_ADDS_REDIRECT = re.compile(r"\biptables\s+-t\s+nat\b[^#\n]*\s-[AI]\s[^#\n]*--dport\s+(?P<port>\S+)[^#\n]*"
                            r"-j\s+(?:REDIRECT\s+--to-ports?|DNAT\s+--to-destination\s+\S*?:?)\s*(?P<to>\S+)")
_DELETES_REDIRECT = re.compile(r"\biptables\s+-t\s+nat\b[^#\n]*\s(?:-D|-F)\b")
# a line a script printed about the forward: `forwarding 127.0.0.1:44107 -> 127.0.0.1:34453`
_FORWARD_PRINTED = re.compile(r"(?:[\w.-]+:)?(?P<port>\d{2,5})\s*(?:->|=>|to)\s*(?:[\w.-]+:)?(?P<to>\d{2,5})\b")


def rule_model_port_redirected_elsewhere(ev: Evidence) -> list[Finding]:
    if (address := address_of(model_url_of(ev))) is None:
        return []
    model_port = address[1]
    if next(lines_matching(ev.user_files, _DELETES_REDIRECT, SCRIPT_SUFFIXES), None) is not None:
        return []
    for file, number, line, rule in lines_matching(ev.user_files, _ADDS_REDIRECT, SCRIPT_SUFFIXES):
        shown, target = None, rule["to"]
        if rule["port"] != str(model_port):
            if not rule["port"].startswith("$"):
                continue
            printed = [(log, head, match) for log, head in ev.log_heads for match in _FORWARD_PRINTED.finditer(head)
                       if match["port"] == str(model_port) and match["to"] != str(model_port)]
            if not printed:
                continue
            log, head, match = printed[0]
            shown, target = line_of_match(ev.rel(log), head, match), match["to"]
        return [Finding(
            category=INFRA,
            title=f"A NAT rule {file.name}:{number} added redirects the run's model port {model_port} to {target}: the "
                  "requests were answered by the server there, not by the one at the run's URL",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *([shown] if shown else [])],
            cause=f"{file.name} adds an iptables NAT rule (`-j REDIRECT`/`DNAT`) that sends connections to port "
                  f"{model_port} on to port {target}, and nothing removes it: a forward meant for a migration stayed, "
                  f"so every request of this run to {model_url_of(ev)} reached the server on {target} (another "
                  "checkpoint, or another model) while the server at the run's URL got none. Nothing fails.",
            fix=f"Delete the rule: the same command as {file.name}:{number} with `-D` for `-A` (`iptables -t nat -D "
                f"OUTPUT -p tcp -d 127.0.0.1 --dport {model_port} -j REDIRECT --to-ports {target}`; `iptables -t nat "
                "-S` lists what is left), check which server answers (`curl -s <url>/models`, its log), then "
                "collect again on a clean output path and profile.",
        )]
    return []
