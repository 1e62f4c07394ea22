"""Step 5: verifier code byte-compiled into hash-based .pyc files that Python never checks against their source.

`python -m compileall --invalidation-mode unchecked-hash verifiers/` (a reproducible-build habit: an image build or
a deploy step) writes .pyc files that Python loads without comparing them with the .py beside them. A later fix of
the verifier's source is never run: every run keeps scoring with the code compiled then, and every command exits 0.
Named from the script line that compiles the folder holding the run's verifier, when the run has answers scored 0.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# `compileall ... --invalidation-mode unchecked-hash DIR` (or `py_compile`'s UNCHECKED_HASH), the folder it compiles
_UNCHECKED = re.compile(r"\b(?:compileall|py_compile)\b[^\n#]*(?:--invalidation-mode[ =]unchecked-hash|UNCHECKED_HASH)"
                        r"(?P<rest>[^\n#]*)")


def rule_verifier_run_from_unchecked_bytecode(ev: Evidence) -> list[Finding]:
    compiled = next(lines_matching(ev.user_files, _UNCHECKED), None)
    if compiled is None or not ev.verifier_sources or ev.artifacts.quality.zero_rewards == 0:
        return []  # nothing scored 0: whatever code ran, it did not take right answers for wrong
    file, number, line, match = compiled
    folders = [word.rstrip("/") for word in match["rest"].split() if not word.startswith("-")]
    verifiers = [ev.rel(source) for source in ev.verifier_sources]
    compiled_verifier = next((shown for shown in verifiers for folder in folders  # the verifier is in a folder compiled
                              if folder in (".", "") or PurePath(folder).name in PurePath(shown).parts[:-1]), None)
    if compiled_verifier is None:
        return []
    cache = f"{PurePath(compiled_verifier).parent}/__pycache__"
    return [Finding(
        category=CACHE_RESUME,
        title=f"{file.name}:{number} byte-compiles the verifier with `--invalidation-mode unchecked-hash`: Python runs "
              f"the .pyc in {cache} and never reads a later fix of {compiled_verifier}",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
        cause="A .pyc compiled with `unchecked-hash` is loaded without comparing it with its source, so an edit of the "
              f"verifier after that compile does not run: the run scored with the code compiled by {file.name}, not "
              f"with {compiled_verifier} as it reads now. Every command exits 0.",
        fix=f"Remove the stale bytecode (`rm -rf {cache}`) and, in {file.name}:{number}, compile with the default "
            "invalidation mode (timestamp) or `--invalidation-mode checked-hash` instead of `unchecked-hash`; then score the stored responses again "
            f"with the verifier as it is now (`gym-pipeline reverify {ev.run_dir} --env <env>`) and profile.",
    )]
