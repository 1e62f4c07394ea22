"""Step 7: Gym's HTTP connection pool held to fewer connections per host than the collection's concurrency.

`++global_aiohttp_connector_limit_per_host=1` (copied from a hosted API's setup, whose provider allows one connection
per key) makes every Gym process open at most one connection to each server: the eval's `--concurrency 8` then sends
its model calls one after another, and a run sized for eight at a time overruns its budget. Gym prints the pool it
made at start (`aiohttp connection pool capacity ...: effective_per_host=1`); the setting is in the user's files.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, resume_command
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

_POOL = re.compile(r"aiohttp connection pool capacity\b.*?\beffective_per_host=(?P<limit>\d+)")
_SETTING = re.compile(r"\bglobal_aiohttp_connector_limit(?:_per_host)?\s*[=:]\s*\d+")
_SETTINGS_BYTES = 1 << 16


def _setting_line(ev: Evidence) -> EvidenceLine | None:
    """Where the run's own files set the connector limit (a settings file, the run script)."""
    for path in sorted(ev.run_dir.iterdir()) if ev.run_dir.is_dir() else []:
        if not path.is_file() or path.stat().st_size > _SETTINGS_BYTES or path.suffix in (".jsonl", ".json", ".log"):
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            if _SETTING.search(line) and not line.lstrip().startswith("#"):
                return EvidenceLine(file=ev.rel(path), line=number, text=line.strip())
    return None


def rule_connection_pool_below_the_concurrency(ev: Evidence) -> list[Finding]:
    concurrency = max((int(hit.groups["concurrency"]) for hit in ev.hits("gym_concurrency")
                       if hit.groups.get("concurrency")), default=None)
    if concurrency is None or not ev.artifacts.missing_without_failure:
        return []
    pool = next(((log, text, match) for log, text in ev.log_heads if (match := _POOL.search(text))
                 and int(match["limit"]) < concurrency), None)
    if pool is None:
        return []
    log, text, match = pool
    limit = int(match["limit"])
    setting = _setting_line(ev)
    line = text.count("\n", 0, match.start()) + 1
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Gym's connection pool allows {limit} connection(s) per server, below the run's concurrency of "
              f"{concurrency}: the requests went {'one' if limit == 1 else limit} at a time, and the run stopped "
              "before the end",
        evidence=[EvidenceLine(file=ev.rel(log), line=line, text=text.splitlines()[line - 1].strip()[:200]),
                  *([setting] if setting else [])],
        cause=f"Every Gym process opens at most {limit} connection(s) to each server "
              f"(`effective_per_host={limit}`){f', set by {setting.file}:{setting.line} (`{setting.text}`)' if setting else ''}: "
              f"the {concurrency} requests the eval keeps in flight wait for a free connection, so the model and "
              "the verifier serve them in turn, and the collection ran out of time with "
              f"{len(ev.artifacts.missing_without_failure)} rollouts undone. Nothing failed.",
        fix=(f"Remove `{setting.text}` from {setting.file} (or raise it to at least the concurrency) for servers that "
             "allow many connections; keep it only for the hosted API that needs it. " if setting else
             "Drop `++global_aiohttp_connector_limit_per_host` from the run's overrides (or raise it to at least the "
             "concurrency). ")
            + f"Then resume: {resume_command(ev)}.",
        explains=frozenset({"missing_rollout_keys"}),
    )]
