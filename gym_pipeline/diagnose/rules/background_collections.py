"""Step 3: a collection started in the background (`&`) by a script that goes on to profile without `wait`.

`gym eval run ... > logs/eval.log 2>&1 &`, to follow the servers' logs meanwhile, returns at once: the next line,
`gym eval profile`, reads rollouts that are still being written (or not there yet), and refuses a partial run or
profiles part of it. The collection then finishes on its own after the script ended, so the folder holds every
rollout and no profile of them. Named when a script of the run starts a collection with `&`, no `wait` follows it,
a later line profiles, and the folder shows the profile ran short: a refusal of missing keys, or no profile beside
the rollouts, or one older than them.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import UserFile, joined_commands
from gym_pipeline.diagnose.vocabulary import CONFIG

COLLECTION = re.compile(r"\bgym\s+eval\s+run\b|\bgym[-_]pipeline(?:\.cli)?\s+collect\b|\bng_collect_rollouts\b")
_PROFILE = re.compile(r"\bgym\s+eval\s+profile\b|\bgym[-_]pipeline(?:\.cli)?\s+profile\b|\bng_reward_profile\b")
_BACKGROUNDED = re.compile(r"(?<![&|])&\s*(?:#.*)?$")
_WAIT = re.compile(r"(?:^|[;&|]\s*)wait\b")


def _profiled_before_the_end(file: UserFile) -> tuple[tuple[int, str], tuple[int, str]] | None:
    """((line, command) of a backgrounded collection, (line, command) of the profile after it) when no `wait`
    comes between them."""
    collection = None
    for number, command in joined_commands(file):
        text = command.strip()
        if text.startswith("#"):
            continue
        if collection is None:
            if COLLECTION.search(text) and _BACKGROUNDED.search(text):
                collection = (number, text)
        elif _WAIT.search(text):
            return None
        elif _PROFILE.search(text):
            return collection, (number, text)
    return None


def _profile_ran_short(ev: Evidence) -> EvidenceLine | str | None:
    """What shows the profile ran before the collection ended: its refusal, or a profile missing or older than the
    rollouts."""
    if refused := ev.hits("missing_rollout_keys"):
        return refused[0].evidence()
    files = ev.artifacts.files
    if not files.rollouts.is_file():
        return None
    if not files.profile.is_file():
        return "no reward profile beside the rollouts"
    if files.profile.stat().st_mtime < files.rollouts.stat().st_mtime:
        return "the reward profile is older than the rollouts"
    return None


def rule_collection_backgrounded_before_its_profile(ev: Evidence) -> list[Finding]:
    for file in shell_files(ev):
        if (pair := _profiled_before_the_end(file)) is None or (short := _profile_ran_short(ev)) is None:
            continue
        (collect_line, collect), (profile_line, profile) = pair
        shown = short if isinstance(short, EvidenceLine) else EvidenceLine(file=ev.rel(ev.artifacts.files.rollouts),
                                                                           text=short)
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{collect_line} starts the collection in the background (`&`) and profiles at line "
                  f"{profile_line} without `wait`: the profile ran before the rollouts were written",
            evidence=[EvidenceLine(file=file.name, line=collect_line, text=collect),
                      EvidenceLine(file=file.name, line=profile_line, text=profile), shown],
            cause=f"A command ending in `&` returns at once: {file.name} went on to the profile while the collection "
                  "was still running, so the profile met a partial (or missing) rollouts file and refused it or "
                  "measured part of it; the collection then finished on its own after the script ended. Nothing is "
                  "wrong with the rollouts.",
            fix=f"In {file.name}, add `wait` before the profile (`... & EVAL=$!`, then `wait $EVAL` and check its "
                "exit status), or run the collection in the foreground and follow the logs from another terminal "
                "(`tail -f`); then profile the finished rollouts again.",
            explains=frozenset({"missing_rollout_keys"}),
        )]
    return []
