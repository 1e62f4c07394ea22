"""Step 1: traffic shaping left on the node (`tc`) that throttles the run's own requests.

A bandwidth or latency test leaves a queueing discipline on an interface, the loopback too: an htb (or tbf) class of
a few kbit/s with a filter on the model server's port, or a netem delay or loss. Nothing errs: each request of a few
kilobytes of prompt takes seconds to send though the server answers in milliseconds, and the run crawls until a
budget or a time limit ends it. Named when a log holds `tc -s class show` (or `tc qdisc show`) output of such a class
that traffic went through (packets sent, over its limit or backlogged); the rest of the run follows from it.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import INFRA

# `class htb 1:10 root prio 0 rate 1Kbit ceil 1Kbit ...` or `qdisc tbf 8001: root refcnt 2 rate 1Mbit ...`
_SHAPED = re.compile(r"^(?P<kind>class htb|qdisc tbf|class hfsc)\s+(?P<handle>\S+)[^\n]*?\brate (?P<rate>\d+(?:\.\d+)?)"
                     r"(?P<unit>[KMGT]?)bit\b[^\n]*$", re.M | re.I)
# `qdisc netem 8001: root refcnt 2 limit 1000 delay 200ms loss 30%`
_NETEM = re.compile(r"^qdisc netem\s+(?P<handle>\S+)[^\n]*?(?P<what>\b(?:delay \S+|loss \S+)[^\n]*)$", re.M)
# the statistics `tc -s` prints under a class: traffic went through it, held back
_STATISTICS = re.compile(r"\s*Sent (?P<bytes>\d+) bytes (?P<packets>\d+) pkt \(dropped (?P<dropped>\d+), overlimits "
                         r"(?P<overlimits>\d+)")
_LOOPBACK_URL = re.compile(r"https?://(?:127\.0\.0\.1|localhost)\b")
_UNIT = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
SLOW_BITS_PER_S = 10e6  # below this, a class throttles an eval's requests of a few kilobytes each


def _shaping_line(ev: Evidence) -> tuple[EvidenceLine, str] | None:
    """(the log line of a class or qdisc that throttled traffic, what it does) from `tc` output in a log."""
    for log, head in ev.log_heads:
        for shaped in _SHAPED.finditer(head):
            rate = float(shaped["rate"]) * _UNIT[shaped["unit"].upper()]
            stats = _STATISTICS.match(head, shaped.end() + 1)
            if rate < SLOW_BITS_PER_S and stats and int(stats["packets"]) \
                    and (int(stats["overlimits"]) or int(stats["dropped"])):
                return (line_of_match(ev.rel(log), head, shaped),
                        f"{shaped['kind'].split()[1]} rate {shaped['rate']}{shaped['unit']}bit")
        for netem in _NETEM.finditer(head):
            return line_of_match(ev.rel(log), head, netem), f"netem {netem['what'].strip()}"
    return None


def rule_traffic_shaping_throttles_the_run(ev: Evidence) -> list[Finding]:
    found = _shaping_line(ev)
    if found is None:
        return []
    line, shaping = found
    loopback = any(_LOOPBACK_URL.search(url) for url, _ in ev.manifest.model_urls) \
        or any(_LOOPBACK_URL.search(text) for text in [*(file.text for file in ev.user_files),
                                                       *(head for _, head in ev.log_heads)])
    device = "lo" if loopback else "<device>"
    return [Finding(
        category=INFRA,
        title=f"Traffic shaping on the node ({shaping}) throttled the run's requests: {line.text[:80]}",
        evidence=[line],
        cause=f"`tc` shows a queueing discipline ({shaping}) that the run's traffic went through and was held back "
              "by (its counters show packets over the limit): left from a bandwidth or latency test, it slows every "
              "request of a few kilobytes of prompt to seconds, though the server answers at once. The run crawled, "
              "and what it lacks (rollouts, a profile) followed from it; nothing in the run itself is wrong.",
        fix=f"Remove it: `tc qdisc del dev {device} root` (see it with `tc qdisc show dev {device}` and `tc -s class "
            f"show dev {device}`; an htb class's `tc filter` goes with it); then run again (a collection that had "
            "started continues with --resume).",
    )]
