"""Step 5: a package the run imports from a deployed copy that is not the code the user fixed.

Teams deploy their eval libraries with a script that copies the package into a folder on PYTHONPATH (`cp -r
mymatch/mymatch site/`). A fix made in the package's source reaches the run only once the script runs again: until
then every eval imports last month's copy, and scores with its rules. Every command exits 0. Named when a script of
the run copies a Python package folder into another folder of the run, the two copies now differ, the run's own
Python code imports that package, and the run puts the deployed folder on its path (PYTHONPATH, sys.path).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import UserFile, joined_commands
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_RECURSIVE_COPY = re.compile(r"\b(?:cp\s+(?:-\w*[rRa]\w*\s+)+|rsync\s+(?:-\w*a\w*\s+)+)(?P<args>[^;&|#\n]+)")
MAX_FILES_COMPARED = 200


def _copies(file: UserFile) -> list[tuple[int, str, str, str]]:
    """(line, command, source, target) of each recursive copy of `file` with plain relative names."""
    found = []
    for number, command in joined_commands(file):
        for match in _RECURSIVE_COPY.finditer(command):
            try:
                words = shlex.split(match["args"])
            except ValueError:
                continue
            if len(words) == 2 and not any("$" in word or word.startswith("/") for word in words):
                found.append((number, command.strip(), words[0].rstrip("/"), words[1]))
    return found


def _first_difference(source: Path, copy: Path, run_dir: Path) -> tuple[EvidenceLine, EvidenceLine] | None:
    """The first line where a Python file of `source` and its copy in `copy` differ (a file of one missing from
    the other counts)."""
    for path in sorted(source.rglob("*.py"))[:MAX_FILES_COMPARED]:
        other = copy / path.relative_to(source)
        try:
            ours = path.read_text(encoding="utf-8", errors="replace").splitlines()
            theirs = other.read_text(encoding="utf-8", errors="replace").splitlines() if other.is_file() else None
        except OSError:
            continue
        if theirs is None:
            return (EvidenceLine(file=path.relative_to(run_dir).as_posix(), line=1, text=(ours or [""])[0]),
                    EvidenceLine(file=other.relative_to(run_dir).as_posix(), text="not in the deployed copy"))
        number = next((n for n, (a, b) in enumerate(zip(ours, theirs, strict=False), 1) if a != b),
                      min(len(ours), len(theirs)) + 1 if len(ours) != len(theirs) else None)
        if number is not None:
            return (EvidenceLine(file=path.relative_to(run_dir).as_posix(), line=number,
                                 text=ours[number - 1].strip() if number <= len(ours) else "(end of file)"),
                    EvidenceLine(file=other.relative_to(run_dir).as_posix(), line=number,
                                 text=theirs[number - 1].strip() if number <= len(theirs) else "(end of file)"))
    return None


def rule_package_imported_from_a_stale_deployed_copy(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.artifacts.rollouts.valid_rows:
        return []
    for file in shell_files(ev):
        folder = ev.run_dir / Path(file.name).parent
        for number, command, source_name, target_name in _copies(file):
            source, target = folder / source_name, folder / target_name
            copy = target / source.name if target_name.endswith("/") or target.is_dir() else target
            package = source.name
            if not (source / "__init__.py").is_file() or not copy.is_dir() or copy.resolve() == source.resolve():
                continue
            importing = re.compile(rf"^\s*(?:from\s+{re.escape(package)}(?:\.\w+)*\s+import|import\s+{re.escape(package)}\b)",
                                   re.M)
            importer = next((user for user in ev.user_files if user.suffix == ".py" and importing.search(user.text)
                             and not Path(user.name).is_relative_to(source_name)), None)
            on_path = re.compile(rf"PYTHONPATH=[^\s;]*\b{re.escape(target_name.rstrip('/'))}\b|sys\.path\.\w+\([^)]*"
                                 rf"{re.escape(target_name.rstrip('/'))}")
            searched = [user.text for user in ev.user_files] + [head for _, head in ev.log_heads]
            if importer is None or not any(on_path.search(text) for text in searched):
                continue  # where the run's Python looks first is not told: the deployed copy may be unused
            difference = _first_difference(source, copy, ev.run_dir)
            if difference is None:
                continue
            ours, theirs = difference
            deployed = copy.relative_to(ev.run_dir).as_posix()
            return [Finding(
                category=CACHE_RESUME,
                title=f"The run imports {package} from the copy {file.name}:{number} deployed to {deployed}, which "
                      f"differs from its source {source.relative_to(ev.run_dir).as_posix()} ({theirs.where}): a fix "
                      "of the source never reached the run",
                evidence=[ours, theirs, EvidenceLine(file=file.name, line=number, text=command)],
                cause=f"{importer.name} imports {package}, and the copy it finds first (on PYTHONPATH) is the one "
                      f"{file.name} deployed to {deployed}; the package's source has changed since "
                      f"(`{ours.text}` where the copy has `{theirs.text}`), so the run scored with the deployed "
                      "code, not the code that was fixed. Nothing fails.",
                fix=f"Deploy again: run {file.name} (line {number}: `{command}`), or put the source first on "
                    f"PYTHONPATH for the eval; check which file Python loads (`python -c 'import {package}; "
                    f"print({package}.__file__)'` with the eval's PYTHONPATH), then score again from the collection.",
            )]
    return []
