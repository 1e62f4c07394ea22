"""Copies that keep the file already in place: a folder or a run's inputs left as an earlier run had them.

Teams copy a run's results to a shared place for the dashboards and the people who read them, and a careful
script copies "without overwriting anybody's files": `cp -n`, `cp --no-clobber`, `cp --update=none`, `rsync
--ignore-existing`. Once an earlier run was published there, every later copy skips the files that already exist,
exits 0, and the shared rollouts and profile stay the earlier run's. The folder shows it: the source and the
published copy hold files of one name with different contents.

`cp -u` (`--update`, `rsync -u`) copies only when the source is newer than the file in place. A new file that keeps
an old modification time (unpacked from an archive, which restores the times it recorded; copied with `cp -p`) is
skipped, and the run reads last week's data. The folder shows it too: the copy's source and its target differ.

When the source is gone (a scratch folder the script removed), the run's own log still tells: it printed the pass@1
of the results it copied, and the results in the folder give another.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.logs import find_log_files
from gym_pipeline.diagnose.rules.profiled_run import rewards_of_tasks
from gym_pipeline.diagnose.user_scripts import UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# a copy that skips files the destination has: cp's -n (alone or among other short options), --no-clobber,
# --update=none; rsync's --ignore-existing
NO_CLOBBER = re.compile(r"^\s*(?:(?P<cp>cp)\b(?=[^\n#]*\s(?:-[a-zA-Z]*n[a-zA-Z]*|--no-clobber|--update=none)\b)"
                         r"|(?P<rsync>rsync)\b(?=[^\n#]*\s--ignore-existing\b))")
# a copy that skips files the destination has in a newer (or the same) version: cp's and rsync's -u, --update
_ONLY_NEWER = re.compile(r"^\s*(?:cp|rsync)\b(?=[^\n#]*\s(?:-[a-zA-Z]*u[a-zA-Z]*|--update(?:=older)?)(?:\s|$))")
# a line that writes files keeping the times they had (an archive unpacked, a copy that preserves them)
_KEEPS_OLD_TIMES = re.compile(r"^\s*(?:tar\s+-?[a-zA-Z]*x|unzip\b|cp\s+(?:[^\n#]*\s)?-[a-zA-Z]*[pa]|rsync\s+(?:[^\n#]*\s)?-"
                              r"[a-zA-Z]*[at])")
# what our profile (and `gym eval profile`) prints of the rollouts it read
_PRINTED_PASS_AT_1 = re.compile(r"over (?P<tasks>\d+) tasks: pass@1 (?P<value>\d+(?:\.\d+)?)")
MAX_LOG_TAIL = 64 << 10  # of each log, read for the profile it printed last
# the run's files whose contents say which run they are
_RUN_FILES = ("rollouts.jsonl", "rollouts_materialized_inputs.jsonl", "rollouts_reward_profiling.jsonl")
MAX_COMPARED_BYTES = 64 << 20  # of one file: past it, only sizes are compared


def rule_results_published_without_overwriting(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, _ in lines_matching(ev.user_files, NO_CLOBBER):
        source, destination = copy_operands(line)
        if source is None or destination is None:
            continue
        source_dir = locate_named_file(source.rstrip("/").removesuffix("/."), ev.run_dir, folder=True)
        published = locate_named_file(destination.rstrip("/"), ev.run_dir, folder=True)
        differing = [name for name in _RUN_FILES
                     if (source_dir / name).is_file() and (published / name).is_file()
                     and not same_content(source_dir / name, published / name)]
        if not differing:
            continue
        shown_source, shown_published = ev.rel(source_dir), ev.rel(published)
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name} publishes with a copy that never overwrites: {shown_published} keeps an earlier run's "
                  f"{', '.join(differing)}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=f"{shown_published}/{differing[0]}", text=f"differs from "
                                   f"{shown_source}/{differing[0]}, the run's own")],
            cause=f"{file.name} copies the results without overwriting files that exist (`cp -n`, `--no-clobber`, "
                  "`rsync --ignore-existing`). An earlier run was published there first, so this run's files were "
                  f"skipped without a word and the copy exited 0: what is read from {shown_published} (its rollouts "
                  "and profile) is the earlier run's.",
            fix=f"Publish each run into a folder of its own (named by checkpoint and date), or let the copy replace "
                f"the files (`cp -r`, `rsync` without --ignore-existing) in {file.name}; copy {shown_source} again, "
                "then profile the published copy and check its mean reward against the run's own.",
        )]
    return []


def rule_copy_kept_the_existing_file(ev: Evidence) -> list[Finding]:
    """A script's `cp -u` or `cp -n` of one file (or of a scratch folder's results) that left the file in place: the
    run read, or the folder holds, an earlier version."""
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for pattern, never in ((_ONLY_NEWER, False), (NO_CLOBBER, True)):
        for file, number, line, _ in lines_matching(ev.user_files, pattern):
            source, destination = copy_operands(line)
            if source is None or destination is None:
                continue
            copy = EvidenceLine(file=file.name, line=number, text=line.strip())
            flag = "`cp -n`" if never else "`cp -u`"
            kept = _kept_file(source, destination, ev.run_dir)
            if kept is not None:
                return [_kept_file_finding(ev, file, copy, kept, flag, never)]
            if "$" in source or not locate_named_file(source, ev.run_dir).exists():
                printed = _printed_pass_at_1_not_the_folders(ev)
                if printed is not None:
                    return [_kept_results_finding(file, copy, printed, flag, never)]
    return []


def _kept_file(source: str, destination: str, run_dir: Path) -> tuple[Path, Path] | None:
    """(source, target) when both are files found from the run folder and their contents differ."""
    if "$" in source or "*" in source:
        return None
    located = locate_named_file(source, run_dir)
    target = locate_named_file(destination.rstrip("/"), run_dir, folder=destination.endswith("/"))
    if target.is_dir():
        target = target / Path(source).name
    if not located.is_file() or not target.is_file() or located.resolve() == target.resolve():
        return None
    return None if same_content(located, target) else (located, target)


def _kept_file_finding(ev: Evidence, file: UserFile, copy: EvidenceLine, kept: tuple[Path, Path], flag: str,
                       never: bool) -> Finding:
    source, target = (ev.rel(path) for path in kept)
    times = next(((number, line.strip()) for _, number, line, _ in lines_matching([file], _KEEPS_OLD_TIMES)
                  if number < copy.line), None)
    why = ("never overwrites a file that exists" if never else
           f"copies only when the source is newer than the file in place, and {source} is not"
           + (f": line {times[0]} (`{times[1]}`) wrote it with the old modification time it recorded" if times
              else " by its modification time (an archive unpacked, a `cp -p`, a download keep old times)"))
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name} copies {source} onto {target} with {flag}, which kept the earlier file: {target} is not "
              f"{source}",
        evidence=[copy, *([EvidenceLine(file=file.name, line=times[0], text=times[1])] if times else []),
                  EvidenceLine(file=target, text=f"differs from {source}, the file the copy was meant to bring")],
        cause=f"{flag} {why}. The copy skipped it without a word and exited 0, so what the run read (or what "
              f"{target} shows) is the earlier version, and everything after it is about that version.",
        fix=f"In {file.name} line {copy.line} (`{copy.text}`), let the copy replace the file: drop {flag}'s option "
            "(or copy into a fresh folder per run)"
            + (f"; line {times[0]} (`{times[1]}`) writes it with old times, so an update copy would skip it again" if times
               else "") + "; copy again, check that the two files are the same (`cmp`), then run again from that stage.",
    )


def _kept_results_finding(file: UserFile, copy: EvidenceLine, printed: tuple[EvidenceLine, float, float], flag: str,
                          never: bool) -> Finding:
    log_line, in_log, in_folder = printed
    return Finding(
        category=CACHE_RESUME,
        title=f"{file.name} copies the results back with {flag}: the folder's rollouts (pass@1 {in_folder:.3f}) are "
              f"not the ones {log_line.file} profiled (pass@1 {in_log:.3f})",
        evidence=[copy, log_line],
        cause=f"{flag} {'never overwrites a file that exists' if never else 'keeps a file in place that is newer'}: "
              "the results an earlier run copied back stayed, and this run's were skipped without a word (the copy "
              f"exits 0). {log_line.file} printed the profile of the run's own rollouts; the folder's give another, so "
              "what is read from the folder is the earlier run's.",
        fix=f"In {file.name} line {copy.line} (`{copy.text}`), let the copy replace the results: drop {flag}'s option, "
            "or copy them into a folder of their own per run (named by checkpoint and date); run again (the scratch "
            "copy is gone), then check the folder's pass@1 against the log's.",
    )


def _printed_pass_at_1_not_the_folders(ev: Evidence) -> tuple[EvidenceLine, float, float] | None:
    """(the log line, its pass@1, the folder's) of the last profile a log printed over as many tasks as the folder's
    rollouts hold, where their pass@1 is not the folder's."""
    rollouts = ev.artifacts.files.rollouts
    folder = _pass_at_1(rollouts) if rollouts.is_file() else None
    if folder is None:
        return None
    tasks, value = folder
    for log in find_log_files(ev.run_dir):
        printed = _last_printed_pass_at_1(log)
        if printed is not None and printed[2] == tasks and abs(printed[3] - value) > 5e-4:
            return EvidenceLine(file=ev.rel(log), line=printed[0], text=printed[1]), printed[3], value
    return None


def _last_printed_pass_at_1(log: Path) -> tuple[int, str, int, float] | None:
    """(line number, line, tasks, pass@1) of the last pass@1 in the log's last MAX_LOG_TAIL bytes; the number counts
    lines from the start of what was read when the log is longer."""
    try:
        with log.open("rb") as file:
            file.seek(max(0, file.seek(0, 2) - MAX_LOG_TAIL))
            text = file.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    found = None
    for number, line in enumerate(text.splitlines(), start=1):
        if match := _PRINTED_PASS_AT_1.search(line):
            found = (number, line.strip(), int(match["tasks"]), float(match["value"]))
    return found


def _pass_at_1(rollouts: Path) -> tuple[int, float] | None:
    """(tasks, pass@1) of a rollouts file: the mean over tasks of the share of their rollouts with reward >= 1."""
    rewards = rewards_of_tasks(rollouts)
    if not rewards:
        return None
    return len(rewards), sum(sum(r >= 1 for r in values) / len(values) for values in rewards.values()) / len(rewards)


_SHELL_OPERATORS = {"||", "&&", ";", "|", "&"}


def copy_operands(line: str) -> tuple[str | None, str | None]:
    """The last two non-option words of a copy command (up to a `||`, `&&`, `;`): its (last) source and its
    destination."""
    try:
        words = shlex.split(line.split("#", 1)[0])
    except ValueError:
        return None, None
    command = []
    for word in words[1:]:
        if word in _SHELL_OPERATORS:
            break
        command.append(word.removesuffix(";"))
        if word.endswith(";"):
            break
    paths = [word for word in command if not word.startswith("-")]
    return (paths[-2], paths[-1]) if len(paths) >= 2 else (None, None)


def same_content(first: Path, second: Path) -> bool:
    if first.stat().st_size != second.stat().st_size:
        return False
    if first.stat().st_size > MAX_COMPARED_BYTES:
        return True
    return first.read_bytes() == second.read_bytes()
