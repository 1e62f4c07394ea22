"""Why a task folder did not load, by what its reason says: the host, the folder's format, or its settings.

skipped.json maps each task to the loader's reason. A base image the Docker host lacks is the machine's
(infra); a folder missing what Harbor's format requires (`tests/test.sh`, `instruction.md`) is the task's
data (data/schema), and so is a file its Dockerfile copies that is not in environment/ (renamed, kept out by
.dockerignore, or a symlink out of the build context), or a `task.toml` that does not parse or validate (the
task's own definition, kept with it); a `dataset.toml` that does not is the run's settings (config). An image build that ran past its
`build_timeout_sec` is the task's budget (throughput/resources); a Docker client config naming a credential
helper this host lacks is the host's (infra)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from difflib import get_close_matches
from fnmatch import fnmatch
from pathlib import Path

from gym_pipeline.diagnose.signatures import CREDENTIAL_HELPER_FIX, SIGNATURES_BY_NAME
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA, INFRA, THROUGHPUT_RESOURCES


@dataclass(frozen=True)
class SkipKind:
    category: str
    what: str  # for a title: "the base image is missing on this host"
    fix: str


_TASK_FILE_BYTES = 1 << 16  # read of a Dockerfile or .dockerignore: they are a few lines

# the legacy builder's and BuildKit's words for a COPY whose source is not in the build context
_COPY_SOURCE_MISSING = re.compile(r"COPY failed: .*?stat (?P<file>\S+): file does not exist"
                                  r"|failed to (?:compute cache key|calculate checksum)\b.*?\"/?(?P<kit>[^\"]+)\": not found")

_KINDS: tuple[tuple[re.Pattern[str], SkipKind], ...] = (
    # the image's build took longer than the task allows: the task's budget, not a broken build
    (re.compile(r"ran past \[environment\]\.build_timeout_sec=(?P<limit>[\d.]+)"),
     SkipKind(THROUGHPUT_RESOURCES, "a task's image build ran past its build_timeout_sec",
              "Give the build the time it needs: raise `build_timeout_sec` under [environment] in the task's "
              "task.toml (time one build: `docker build <task>/environment`), or make the slow step faster (prepare "
              "its output once and COPY it in); then validate the tasks again (`gym-pipeline tasks validate "
              "<taskset>`).")),
    # the host's client config, before any build step ran
    (SIGNATURES_BY_NAME["credential_helper_missing"].regex,
     SkipKind(INFRA, "the Docker client config names a credential helper this host lacks", CREDENTIAL_HELPER_FIX)),
    # before the image kinds below: "image build failed: COPY failed: file not found" is the folder's, not the host's
    (_COPY_SOURCE_MISSING,
     SkipKind(DATA_SCHEMA, "a file a task's Dockerfile copies is not in its environment/ folder",
              "Put the file the Dockerfile's COPY names back into the task's environment/ folder, or make the COPY "
              "name the file as it is now called; a pattern in environment/.dockerignore that matches the file keeps "
              "it out of the build too (remove the pattern, or add `!<file>` after it); then validate the tasks again "
              "(`gym-pipeline tasks validate <taskset>`).")),
    (re.compile(r"FROM names \S+, which the engine does not have|image .* not found|pull access denied|no such image"
                r"|Cannot connect to the Docker daemon", re.I),
     SkipKind(INFRA, "the Docker host lacks the image a Dockerfile starts FROM",
              "Put the base image on this Docker host (`docker pull <image>` where a registry is reachable, or `docker "
              "load -i <image>.tar`), or start the Dockerfiles FROM an image the host has (`docker images`); then "
              "validate the tasks again (`gym-pipeline tasks validate <taskset>`).")),
    (re.compile(r"(?:tests/test\.sh|instruction\.md|environment/Dockerfile|Dockerfile)\b.*not found|not found: the "
                r"(?:verifier's entry point|instruction)|missing (?:tests/test\.sh|instruction\.md)", re.I),
     SkipKind(DATA_SCHEMA, "task folders lack a file Harbor's task format requires",
              "Give each task folder what the format requires: `instruction.md`, `environment/Dockerfile`, and "
              "`tests/test.sh`, the verifier's entry point, which writes /logs/verifier/reward.txt or reward.json "
              "(checks kept in another harness's file, such as tests/test_outputs.py, are run from test.sh); then "
              "validate the tasks again (`gym-pipeline tasks validate <taskset>`).")),
    # no task.toml at all: most often a task unpacked from an archive with its own top folder (<task>/<task>/...)
    (re.compile(r"task\.toml: not found|no task\.toml|missing task\.toml", re.I),
     SkipKind(DATA_SCHEMA, "task folders hold no task.toml (the task is not at the folder's top level)",
              "Put each task's files at the top of its folder: `task.toml`, `instruction.md`, `environment/` and "
              "`tests/` right in `<taskset>/<task>/`; a task unpacked from an archive with its own top folder sits one "
              "level deeper (`ls <taskset>/<task>/*/task.toml` finds it: move its contents up); then validate the tasks "
              "again (`gym-pipeline tasks validate <taskset>`).")),
    (re.compile(r"task\.toml(?::\d+)?: (?:not valid TOML|field '|not UTF-8)", re.I),
     SkipKind(DATA_SCHEMA, "a task's task.toml does not parse or validate",
              "Fix the task.toml the reason names, at its line (a string value needs quotes: `category = "
              "\"text-processing\"`; check it with `python -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], "
              "\"rb\"))' <task>/task.toml`); then validate the tasks again (`gym-pipeline tasks validate <taskset>`).")),
)


# a task.toml field the loader refused, and what it wants: `field 'verifier.timeout_sec': Input should be a number`
_FIELD_REFUSED = re.compile(r"field '(?P<field>[\w.]+)': (?P<wants>Input should be [^,;]+)")


def kind_of_skips(reasons: Iterable[str]) -> SkipKind | None:
    """The kind most of the reasons share, when it is one of the known kinds (None: the settings, or unknown); its
    fix names the first field a reason says was refused, and what that field takes."""
    reasons = list(reasons)
    kinds = Counter(next((kind for pattern, kind in _KINDS if pattern.search(reason)), None) for reason in reasons)
    kind, _ = kinds.most_common(1)[0] if kinds else (None, 0)
    refused = next((match for reason in reasons if (match := _FIELD_REFUSED.search(reason))), None)
    if kind is None or refused is None:
        return kind
    wants = refused["wants"].lower()
    bare = ("; a number is written bare, without quotes or a unit: `timeout_sec = 30`"
            if "number" in wants or "integer" in wants else "")
    return replace(kind, fix=f"Give `{refused['field']}` what it takes ({wants}{bare}). {kind.fix}")


def missing_copy_source(reason: str, task_dir: Path) -> str | None:
    """For a build that failed on a COPY whose file is not in the task's environment/ folder: the Dockerfile line
    that copies it, the .dockerignore line that excludes it or the file it was renamed to, as a fix; else None."""
    match = _COPY_SOURCE_MISSING.search(reason)
    if match is None:
        return None
    name = (match["file"] or match["kit"]).strip("/")
    environment = task_dir / "environment"
    copies = _first_line(environment / "Dockerfile", lambda line: re.match(r"\s*(?:COPY|ADD)\b", line, re.I)
                         and re.search(rf"(?:^|[\s/]){re.escape(name)}(?:\s|$)", line))
    excluded = _first_line(environment / ".dockerignore",
                           lambda line: bool(line.strip()) and not line.startswith(("#", "!"))
                           and (fnmatch(name, line.strip().lstrip("/")) or fnmatch(Path(name).name, line.strip())))
    where = f"{task_dir.name}/environment/Dockerfile:{copies[0]} (`{copies[1]}`)" if copies else "the Dockerfile"
    if excluded is not None:
        return (f"{where} copies {name}, and {task_dir.name}/environment/.dockerignore:{excluded[0]} (`{excluded[1]}`) "
                f"excludes it from the build context: narrow that pattern in .dockerignore (or add `!{name}` after it), "
                "then validate the tasks again (`gym-pipeline tasks validate <taskset>`).")
    linked = environment / name
    if linked.is_symlink() and not linked.resolve().is_relative_to(environment.resolve()):
        return (f"{where} copies {name}, and {task_dir.name}/environment/{name} is a symlink to {os.readlink(linked)}, "
                "outside the build context: a build sends only the environment/ folder, and a link out of it leads "
                f"nowhere there. Put the file itself in environment/ (`cp --remove-destination \"$(readlink -f "
                f"{name})\" {name}` in it, or make the script that refreshes it copy instead of `ln -s`); then validate "
                "the tasks again (`gym-pipeline tasks validate <taskset>`).")
    present = sorted(path.name for path in environment.iterdir()) if environment.is_dir() else []
    if name in present:
        return None
    like = get_close_matches(Path(name).name, present, n=1, cutoff=0.5) or [
        other for other in present if Path(other).suffix == Path(name).suffix][:1]
    renamed = f"; the folder has {like[0]} instead: make the COPY in the Dockerfile name it, or put {name} back" \
        if like else f": put {name} back into {task_dir.name}/environment/"
    return f"{where} copies {name}, which is not in the task's environment/ folder{renamed}; then validate the tasks " \
           "again (`gym-pipeline tasks validate <taskset>`)."


def _first_line(path: Path, test: Callable[[str], object]) -> tuple[int, str] | None:
    """(number, text) of the first line of a task's small file (a Dockerfile, a .dockerignore) that passes `test`."""
    try:
        with path.open("rb") as file:
            lines = file.read(_TASK_FILE_BYTES).decode("utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next(((number, line.strip()) for number, line in enumerate(lines, start=1) if test(line)), None)
