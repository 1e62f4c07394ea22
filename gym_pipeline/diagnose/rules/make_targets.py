"""Make skipping the recipes that run the eval, because it takes a file for the target's output, or running them
with other values than the ones the user gave.

- A partial rollouts file that make kept after its recipe failed, and counted as built the next time. When a recipe
  fails (a `timeout` around the collection, a Ctrl-C, a crash), make leaves the file it was writing
unless the Makefile says `.DELETE_ON_ERROR:`. The next `make` sees that file newer than its prerequisites and skips
the collection: the user fixed what stopped it, ran make again, and profiled the same half-written rollouts. The
first failure (a slow server, a short timeout) was fixed; what is wrong now is the kept file.
- A target that names a task (`eval`), not a file, left out of `.PHONY`, while a file or folder of that name exists
  (a folder of helper scripts called `eval/`): make finds it up to date and runs nothing, and exits 0.
- `$REPEATS` in a recipe, written as in a shell script: make reads `$R` (an unset one-letter variable, empty) and
  then `EPEATS`, so the command gets `--num-repeats EPEATS` and refuses it.
- `MODEL_URL = <staging server>` in the Makefile, meant as a default, and `MODEL_URL=<new server> make eval`: a
  Makefile's assignment wins over the environment (only `?=` yields), so the eval asked the staging server.
- `MODEL_URL := <this week's server>` and then `include eval_defaults.mk`, whose own `MODEL_URL = <last week's>` is
  read later and wins: the Makefile's value never reached the recipe.
- `cd $(WEEK)` on a recipe line of its own: make runs each recipe line in a shell of its own, so the next line
  starts in the Makefile's folder again, and the eval reads (or misses) the files there, not the week's.
- `clean: rm -f *.stamp` with a hidden stamp target (`.collect.stamp`): the shell's `*` skips names starting with a
  dot, the stamp survives, and make skips the collection of the new checkpoint.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, resume_command
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.rules.checkpoint_choice import recorded_model_url, rollouts_of_an_older_server
from gym_pipeline.diagnose.rules.script_values import REFUSED_VALUE
from gym_pipeline.diagnose.user_scripts import MAKEFILE_NAMES
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, CONFIG

_DELETE_ON_ERROR = ".DELETE_ON_ERROR"


def _later(hit: LogHit, failed: LogHit) -> bool:
    """Whether `hit` is of a later make than `failed`: in another log, or further down the same one."""
    return hit.file != failed.file or hit.line > failed.line


def rule_partial_target_kept_by_make(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    makefile = next((file for file in ev.user_files if Path(file.name).name in MAKEFILE_NAMES), None)
    if makefile is None or _DELETE_ON_ERROR in makefile.text or not a.missing_keys:
        return []
    rollouts = a.files.rollouts
    failed = next((hit for hit in ev.hits("make_recipe_failed")
                   if Path(hit.group("target") or "").name == rollouts.name and rollouts.is_file()), None)
    if failed is None:
        return []
    target = failed.group("target")
    again = [hit for hit in (*ev.hits("make_recipe_failed"), *ev.hits("make_nothing_to_do"))
             if _later(hit, failed) and hit is not failed]
    if not again or any(hit.group("target") == target for hit in again):  # the collection ran again, and failed
        return []
    later = again[-1]
    return [Finding(
        category=CACHE_RESUME,
        title=f"make kept the partial {target} its failed recipe left, and the next make took it as built: "
              f"{len(a.missing_keys)} materialized rollouts are missing",
        evidence=[failed.evidence(), later.evidence()],
        cause=f"The recipe for {target} failed ({failed.file}: {failed.text}) with the file half written, and "
              f"{makefile.name} has no `{_DELETE_ON_ERROR}:`, so make kept it. The next make ({later.file}) saw "
              f"{target} newer than its prerequisites and skipped the collection: what came after worked on the "
              f"same partial file, {len(a.missing_keys)} rollouts short, whatever had stopped the first collection "
              "was fixed.",
        fix=f"Add `{_DELETE_ON_ERROR}:` to {makefile.name} (make then deletes a target whose recipe failed), or have "
            f"the recipe write a temporary file and `mv` it onto {target} at the end; for this run, finish the "
            f"collection: {resume_command(ev)} (or delete {target} and run make again), then profile.",
        explains=frozenset({"make_recipe_failed"}),
    )]


_PHONY = re.compile(r"^\.PHONY\s*:(?P<targets>.*)$")


def rule_task_target_taken_for_a_file(ev: Evidence) -> list[Finding]:
    makefile = next((file for file in ev.user_files if Path(file.name).name in MAKEFILE_NAMES), None)
    if makefile is None or ev.run_dir is None:
        return []
    lines = makefile.text.splitlines()
    phony = {target for line in lines if (m := _PHONY.match(line)) for target in m["targets"].split()}
    for hit in ev.hits("make_nothing_to_do"):
        target = hit.group("target", "target2") or ""
        path = ev.run_dir / Path(makefile.name).parent / target
        rule = next((number for number, line in enumerate(lines, 1) if re.match(rf"{re.escape(target)}\s*:(?!=)", line)),
                    None)
        if target in phony or rule is None or not path.exists() or not _runs_the_eval(lines, rule):
            continue
        kind = "folder" if path.is_dir() else "file"
        return [Finding(
            category=CONFIG,
            title=f"make took the {kind} {target}{'/' if path.is_dir() else ''} for the target `{target}` and ran "
                  "nothing: the target is not .PHONY",
            evidence=[hit.evidence(), EvidenceLine(file=makefile.name, line=rule, text=lines[rule - 1].strip())],
            cause=f"`{target}` in {makefile.name}:{rule} names a task, not a file it makes, but it is not declared "
                  f"`.PHONY`; the run folder has a {kind} called {target}, which make takes for the target's output. "
                  "Nothing it depends on is newer, so make found it up to date and ran none of the "
                  "recipe's commands, and exited 0: nothing was materialized, collected or profiled.",
            fix=f"Declare the task targets phony in {makefile.name}: `.PHONY: {' '.join(sorted(phony | {target}))}` "
                f"(make then always runs their recipes), or rename the {kind}; then run `make {target}` again.",
            explains=frozenset({"make_nothing_to_do"}),
        )]
    return []


_EVAL_COMMAND = re.compile(r"\b(?:materialize|collect|profile)\b|\bgym\s+eval\b|\bng_")


def _runs_the_eval(lines: list[str], rule: int) -> bool:
    """Whether the recipe of the target at line `rule` runs a stage of the eval."""
    for line in lines[rule:]:
        if not line.startswith("\t"):
            return False
        if _EVAL_COMMAND.search(line):
            return True
    return False


# `NAME = value` or `NAME := value` (not `?=`, `+=`): set whatever the environment says
_MAKE_ASSIGNMENT = re.compile(r"^(?:override\s+)?(?P<name>[A-Za-z_]\w*)\s*:{0,2}=\s*(?P<value>\S[^#]*?)\s*(?:#.*)?$")


def rule_makefile_assignment_overrides_the_environment(ev: Evidence) -> list[Finding]:
    """The rollouts came from an older checkpoint's server than one started beside it, and the Makefile sets the URL
    they were collected from with a plain `=`: a variable given in the environment (`MODEL_URL=... make eval`) does
    not override a Makefile's assignment, so the server meant was never asked."""
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (step, used_line), (newest_address, newest_step, newest_line) = servers
    used = recorded_model_url(ev).rstrip("/").removesuffix("/v1")
    for file in ev.user_files:
        if Path(file.name).name not in MAKEFILE_NAMES:
            continue
        for number, line in enumerate(file.text.splitlines(), 1):
            assigned = _MAKE_ASSIGNMENT.match(line)
            if assigned is None or assigned["value"].rstrip("/").removesuffix("/v1") != used:
                continue
            name = assigned["name"]
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} sets {name} with a plain `=`, which the environment cannot override: "
                      f"the run asked the step {step} server, not the step {newest_step} one started for it",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), used_line, newest_line],
                cause=f"A Makefile's own assignment wins over a variable of the same name in the environment, so "
                      f"`{name}=<url> make ...` leaves {name} at {assigned['value']}: the collection went to that "
                      f"server (checkpoint step {step}), and the server of step {newest_step} ({newest_address}) "
                      "got nothing. Every command exits 0; the rewards are the other checkpoint's.",
                fix=f"In {file.name}:{number}, make the value a default: `{name} ?= {assigned['value']}` instead of "
                    f"`{line.strip()}` (or pass it "
                    f"on make's command line, `make eval {name}=<url>`, which does override); then collect again "
                    "against the server meant, on a clean output path, and profile.",
            )]
    return []




_INCLUDE = re.compile(r"^-?include\s+(?P<files>[^#]+?)\s*(?:#.*)?$")


def rule_included_makefile_overrides_an_assignment(ev: Evidence) -> list[Finding]:
    """The rollouts came from an older checkpoint's server than one started beside it, and the URL they were collected
    from is assigned by a file the Makefile includes after its own assignment of that variable: make reads the
    included file in place, and its later assignment wins."""
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (step, used_line), (_, newest_step, newest_line) = servers
    used = recorded_model_url(ev).rstrip("/").removesuffix("/v1")
    files = {Path(file.name).name: file for file in ev.user_files}
    for makefile in (file for file in ev.user_files if Path(file.name).name in MAKEFILE_NAMES):
        own: dict[str, tuple[int, str]] = {}
        for number, line in enumerate(makefile.text.splitlines(), 1):
            if assigned := _MAKE_ASSIGNMENT.match(line):
                own[assigned["name"]] = (number, line.strip())
            if not (include := _INCLUDE.match(line)):
                continue
            for included in (files[name] for name in include["files"].split() if name in files):
                for inner, text in enumerate(included.text.splitlines(), 1):
                    overriding = _MAKE_ASSIGNMENT.match(text)
                    if overriding is None or overriding["name"] not in own \
                            or overriding["value"].rstrip("/").removesuffix("/v1") != used:
                        continue
                    name, (first, first_text) = overriding["name"], own[overriding["name"]]
                    return [Finding(
                        category=CONFIG,
                        title=f"{makefile.name}:{number} includes {included.name} after setting {name} "
                              f"({makefile.name}:{first}); {included.name}:{inner} sets it again and wins: the run "
                              f"asked the step {step} server, not the step {newest_step} one",
                        evidence=[EvidenceLine(file=makefile.name, line=first, text=first_text),
                                  EvidenceLine(file=makefile.name, line=number, text=line.strip()),
                                  EvidenceLine(file=included.name, line=inner, text=text.strip()), used_line,
                                  newest_line],
                        cause=f"make reads an included file where the `include` line stands, so an assignment in it "
                              f"replaces one made above the `include`: {name} became {overriding['value']} "
                              f"({included.name}:{inner}), the step {step} server, and the step {newest_step} server "
                              "got no request. Every command exits 0; the rewards are the other checkpoint's.",
                        fix=f"In {makefile.name}, put `include {included.name}` before your own settings (line "
                            f"{first}, `{first_text}`), so that the defaults come first and yours win; or make "
                            f"{included.name}:{inner} a default (`{name} ?= ...`). Then collect again against the "
                            "server meant, on a clean output path, and profile.",
                    )]
    return []


def rule_shell_variable_in_a_make_recipe(ev: Evidence) -> list[Finding]:
    for log, text in ev.log_heads:
        for refused in REFUSED_VALUE.finditer(text):
            if not re.fullmatch(r"[A-Za-z_]\w*", refused["value"]):
                continue  # what is left of `$NAME` after make took `$N`: a name's tail
            for file in ev.user_files:
                if Path(file.name).name not in MAKEFILE_NAMES:
                    continue
                # `$REPEATS`: make takes `$R` and leaves `EPEATS`
                written = re.compile(rf"(?<!\$)\$(?P<name>[A-Za-z]{re.escape(refused['value'])})\b")
                found = next(((number, line, match) for number, line in enumerate(file.text.splitlines(), 1)
                              if line.startswith("\t") and (match := written.search(line))), None)
                if found is None:
                    continue
                number, line, match = found
                name = match["name"]
                return [Finding(
                    category=CONFIG,
                    title=f"{file.name}:{number} writes ${name} in a recipe as in a shell script: make read `${name[0]}` "
                          f"and passed {refused['option']} {refused['value']!r}",
                    evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                              EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, refused.start()) + 1,
                                           text=refused.group(0))],
                    cause=f"In a Makefile, `$` takes one character as a variable's name unless it is in parentheses: "
                          f"`${name}` is make's variable `{name[0]}` (unset, so empty) followed by the text "
                          f"`{name[1:]}`, and the command was given {refused['option']} {name[1:]}, which it refused.",
                    fix=f"In {file.name}:{number}, write make's variable as `$({name})` (or `$${name}` for a shell "
                        "variable of the recipe); then run make again.",
                )]
    return []


_FILE_NOT_FOUND = re.compile(r"(?i)\b(?:not found|no such file or directory)\b")
# a recipe line that only changes folder: `\tcd $(WEEK)` (`@cd`, `-cd`), not `cd x && ...` nor continued with `\`
_CD_ALONE = re.compile(r"^\t[@+-]*\s*cd\s+(?P<folder>[^\s;&|\\]+)\s*$")


def rule_make_recipe_changes_folder_on_a_line_of_its_own(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        if Path(file.name).name not in MAKEFILE_NAMES or re.search(r"^\.ONESHELL\s*:", file.text, re.M):
            continue
        lines = file.text.splitlines()
        for index, line in enumerate(lines):
            if (cd := _CD_ALONE.match(line)) is None or not _runs_the_eval(lines, index + 1):
                continue
            folder, number = cd["folder"], index + 1
            missing = ev.first_in_log_heads(_FILE_NOT_FOUND)  # what the commands missed in the Makefile's folder
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} changes folder with `cd {folder}` on a recipe line of its own: make runs "
                      "the next lines in the Makefile's folder, not in it",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=number + 1, text=lines[index + 1].strip()),
                          *([missing[0]] if missing else [])],
                cause="Make runs each line of a recipe in a shell of its own, so a `cd` ends with its line: the eval "
                      f"commands after it ran in the Makefile's folder and looked for their files there, not in "
                      f"{folder}.",
                fix=f"In {file.name}:{number}, join the `cd` to the commands it is for (`cd {folder} && gym-pipeline "
                    "materialize ...`, with `\\` at the ends of the lines to keep one shell), or give the commands "
                    f"paths inside {folder}, or add `.ONESHELL:` to the Makefile; then run make again.",
            )]
    return []



_TARGET = re.compile(r"^(?P<target>\.[\w.-]+)\s*:(?!=)")
_MAKE_SPECIAL = re.compile(r"^\.(?:PHONY|DELETE_ON_ERROR|SUFFIXES|DEFAULT|PRECIOUS|INTERMEDIATE|SECONDARY|NOTPARALLEL|"
                           r"ONESHELL|POSIX|EXPORT_ALL_VARIABLES|SILENT|IGNORE|LOW_RESOLUTION_TIME|SECONDEXPANSION|"
                           r"DEFAULT_GOAL|NOTINTERMEDIATE|WAIT)$")
_REMOVED_BY_GLOB = re.compile(r"^\t[@+-]*\s*rm\s+(?:-\w+\s+)*(?P<globs>[^;&|#\n]+)")


def rule_clean_glob_misses_a_hidden_stamp(ev: Evidence) -> list[Finding]:
    """A Makefile whose `clean` removes `*.stamp` while its stamp target is hidden (`.collect.stamp`): the shell's `*`
    does not match a leading dot, the stamp survives `make clean`, and `make eval` skips the collection for the new
    checkpoint and profiles the old rollouts."""
    if ev.run_dir is None or (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (step, used_line), (_, newest_step, newest_line) = servers
    for file in ev.user_files:
        if Path(file.name).name not in MAKEFILE_NAMES:
            continue
        lines = file.text.splitlines()
        hidden = [(number, match["target"]) for number, line in enumerate(lines, 1)
                  if (match := _TARGET.match(line)) and not _MAKE_SPECIAL.match(match["target"])
                  and (ev.run_dir / Path(file.name).parent / match["target"]).exists()]
        for number, line in enumerate(lines, 1):
            removed = _REMOVED_BY_GLOB.match(line)
            if removed is None:
                continue
            missed = next(((at, target, glob) for glob in removed["globs"].split() if glob.startswith("*")
                           for at, target in hidden if fnmatch(target, glob)), None)
            if missed is None:
                continue
            at, target, glob = missed
            return [Finding(
                category=CACHE_RESUME,
                title=f"{file.name}:{number} removes `{glob}`, which the shell does not match against the hidden "
                      f"{target} ({file.name}:{at}): the stamp survived the clean, and make skipped the collection",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=at, text=lines[at - 1].strip()), used_line, newest_line],
                cause=f"A shell glob's `*` never matches a name that starts with a dot, so `rm -f {glob}` in the clean "
                      f"recipe left {target}; the next `make` found that stamp newer than its prerequisites and did not "
                      f"run the collection again: the rollouts profiled are the step {step} server's, not the step "
                      f"{newest_step} one's. Every command exits 0.",
                fix=f"In {file.name}:{number}, remove the stamp by name (`rm -f {target}`, not only `rm -f {glob}`), or "
                    "name it without the dot "
                    f"(`collect.stamp`), so `make clean` forgets the collection; then `make clean && make eval` again.",
            )]
    return []
