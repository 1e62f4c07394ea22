"""The known problems of `signatures.KNOWN_PROBLEMS`: one finding per problem its hits prove, per debug step."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import excerpt
from gym_pipeline.diagnose.findings import Finding, affected, keys_of, resume_command, unique
from gym_pipeline.diagnose.launcher import served_and_stopped
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.signatures import KNOWN_PROBLEMS
from gym_pipeline.diagnose.user_scripts import variable_pointing_at


def known_problems(step: int) -> Callable[[Evidence], list[Finding]]:
    """The rule for the known problems of one debug step: one finding per problem its hits prove."""
    problems = [p for p in KNOWN_PROBLEMS if p.step == step]

    def rule(ev: Evidence) -> list[Finding]:
        served, _ = served_and_stopped(ev.launchers)
        findings = []
        for problem in problems:
            hits = [h for name in problem.signatures for h in ev.hits(name) if not _stopped_on_purpose(h, served)]
            if not hits:
                continue
            fields = _Fields(hits)
            groups = [g for g in ev.artifacts.failure_groups if problem.key in g.problems]
            cause = _fill(problem.cause, fields)
            lines = sum(ev.hit_count(name) for name in problem.signatures)
            if lines > 3:
                cause += f" {lines} lines show it."
            fix = _fill(problem.fix, fields) + _path_from_a_variable(ev, hits)
            if groups:
                cause += f" Affected: {affected(ev, groups)}."
                if ev.artifacts.missing_keys:
                    fix += f" Then collect the missing rollouts: {resume_command(ev)}."
            findings.append(Finding(
                category=problem.category,
                failed_keys=keys_of(groups),
                title=_fill(problem.title, fields),
                evidence=unique(h.evidence() for h in sorted(hits, key=lambda h: (h.file, h.line))),
                cause=cause,
                fix=fix,
                explains=frozenset(problem.signatures),
                subsumable=True,
                effect=problem.effect,
            ))
        return findings

    return rule


_PATH = re.compile(r"(?<![\w.])/[\w.+-]+(?:/[\w.+-]+)+")


def _path_from_a_variable(ev: Evidence, hits: list[LogHit]) -> str:
    """Where the path an error names came from, when the user's scripts set a variable to it (or a folder above)."""
    for hit in hits[:3]:
        for path in _PATH.findall(hit.text):
            if found := variable_pointing_at(ev.user_files, path):
                file, number, line, name = found
                return (f" The path {path} is under {name}, set in {file.name}:{number} (`{line}`): check what {name} "
                        "points at (`df -h`, `ls -ld`) and point it elsewhere (or unset it) where the job's environment "
                        "is set, then run again.")
    return ""


def _stopped_on_purpose(hit: LogHit, served_jobs: set[str]) -> bool:
    """A model server's job that the launcher cancelled once the collection was done logs its cancellation."""
    job = hit.groups.get("job")
    return bool(job) and job.split(".")[0] in served_jobs


class _Fields(Mapping[str, str]):
    """A template's `{name}`: the first hit that captured it, else `<name>`."""

    def __init__(self, hits: list[LogHit]):
        self.values: dict[str, str] = {}
        for hit in hits:
            for name, value in hit.groups.items():
                if value and name not in self.values:
                    self.values[name] = excerpt(value, 120)

    def __getitem__(self, name: str) -> str:
        # a signature's alternatives capture one value under several names: `url`, `url2`, `url3`
        found = (self.values.get(key) for key in (name, f"{name}2", f"{name}3"))
        return next((value for value in found if value), f"<{name}>")

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)


def _fill(template: str, fields: _Fields) -> str:
    return string.Formatter().vformat(template, (), fields)


