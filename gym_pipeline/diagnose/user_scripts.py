"""Faults of the user's own scripts and settings files in a run folder, which the errors they cause never name.

- Windows (CRLF) line endings: a shell that sources such a file (`source eval.env`, a job script) keeps the carriage
  return at the end of every value: an agent name, a path or a number then ends in `\\r`, and whatever reads it
  refuses it in words that never mention the `\\r` (Hydra's `LexerNoViableAltException`, a file not found).
- A line continuation broken by a space after its backslash: the backslash escapes the space, not the newline, so
  the command ends there without the options on the next lines (which then run as a command of their own:
  `--output: command not found`), and Gym's config loader is handed a lone space it cannot parse.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

_INPUT_SUFFIXES = {".sh", ".env", ".bash", ".yaml", ".yml", ".toml", ".cfg", ".ini", ".conf", ".sbatch", ".py", ".service", ".mk",
                  ""}
SCRIPT_SUFFIXES = {".sh", ".bash", ".sbatch", ""}
_MAX_BYTES = 1 << 20  # a script or settings file, not data or logs
MAKEFILE_NAMES = ("Makefile", "makefile", "GNUmakefile")
_BROKEN_CONTINUATION = re.compile(rb"\\[ \t]+\r?$")


@dataclass
class UserFile:
    """One of the user's small scripts or settings files in a run folder."""

    name: str  # relative to the run folder
    content: bytes

    @property
    def suffix(self) -> str:
        return Path(self.name).suffix

    @cached_property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


def read_user_files(run_dir: Path | None, enclosing: Path | None = None) -> list[UserFile]:
    """The small scripts and settings files in the run folder, or one folder down, then those directly in
    `enclosing` (the folder of shards a run folder is one of: its scripts ran the shard), named from the run folder
    (`../collect.sbatch`). Read once per diagnosis: `Evidence.user_files`."""
    if run_dir is None or not run_dir.is_dir():
        return []
    paths = sorted([*run_dir.iterdir(), *(p for d in run_dir.iterdir() if d.is_dir() for p in d.iterdir())])
    if enclosing is not None and enclosing.is_dir():
        paths += sorted(enclosing.iterdir())
    found = []
    for path in paths:
        if path.suffix not in _INPUT_SUFFIXES or not path.is_file() or path.stat().st_size > _MAX_BYTES:
            continue
        try:
            found.append(UserFile(os.path.relpath(path, run_dir), path.read_bytes()))
        except OSError:
            continue
    return found


def lines_matching(files: list[UserFile], pattern: re.Pattern[str],
                   suffixes: set[str] | None = None) -> Iterator[tuple[UserFile, int, str, re.Match[str]]]:
    """(file, line number, line, match) of every line of `files` (of those `suffixes`) where `pattern` matches."""
    for file in files:
        if suffixes is not None and file.suffix not in suffixes:
            continue
        for number, line in enumerate(file.text.splitlines(), start=1):
            if match := pattern.search(line):
                yield file, number, line, match


# Slurm's `--export` list, as a `#SBATCH` directive or an option of sbatch, srun or salloc on a command line
EXPORT_OPTION = re.compile(r"(?:^\s*(?P<directive>#SBATCH)\s+|^[^#\n]*?\b(?:sbatch|srun|salloc)\b[^\n|;&#]*?\s)"
                           r"--export[= ](?P<list>[^\s'\"]+)", re.M)


def exported_names(export_list: str) -> set[str] | None:
    """The names an `--export` list passes on to the job; None when it passes the whole environment (ALL)."""
    names = {part.split("=", 1)[0] for part in export_list.split(",")}
    return None if "ALL" in names else names - {"NONE", "NIL"}


# a command starting a model server (`gym-pipeline serve-policy`, `vllm serve`, `python -m sglang.launch_server`)
MODEL_SERVER_COMMAND = re.compile(r"\b(?:serve-policy|vllm\s+serve|vllm\.entrypoints|sglang\.launch_server)\b")
# a model server started in the background (`serve-policy ... &`, `vllm serve ... &`)
SERVER_IN_BACKGROUND = re.compile(MODEL_SERVER_COMMAND.pattern + r"[^#\n]*&\s*(?:#.*)?$")


# `docker run`, `podman container create`...: the start of a line that makes a container
CONTAINER_RUN = re.compile(r"\b(?:docker|podman)\s+(?:container\s+)?(?:run|create)\b")


def container_run_option(option: str, value: str) -> re.Pattern[str]:
    """A container-making line that gives `option` (`--cpus`, `--name`...) a value matching `value`, captured as
    `value`: `docker run --cpus 0.01 ...`, `docker create --cpus=.25 ...`."""
    return re.compile(rf"{CONTAINER_RUN.pattern}[^\n]*?\s{option}[= ](?P<value>{value})")


PRINTS = re.compile(r"^\s*(?:echo|printf)\b")  # a line that only prints (what a script says, not what it does)
SHELL_VARIABLE = re.compile(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?")  # `$NAME` or `${NAME}`


def argument_given(files: list[UserFile], script: str, index: int) -> str | None:
    """The `index`-th argument a user's script passes to `script` (`bash serve.sh train.log 8000` -> train.log)."""
    call = re.compile(rf"(?:^|[\s/]){re.escape(Path(script).name)}\s+(?P<arguments>[^|&;>#\n]+)")
    for _, _, _, match in lines_matching(files, call, SCRIPT_SUFFIXES):
        arguments = match["arguments"].split()
        if len(arguments) >= index:
            return arguments[index - 1]
    return None


def assignment_of(files: list[UserFile], name: str) -> tuple[UserFile, int, str] | None:
    """(file, line number, line) of the first shell assignment of `name` in `files` (`NAME=...`, `export NAME=...`)."""
    assigned = re.compile(rf"^\s*(?:export\s+)?{re.escape(name)}=")
    return next(((file, number, line.strip()) for file, number, line, _ in lines_matching(files, assigned)), None)


# the environment variables an infra error's fix may name: where the job's environment is set, they are assigned
_ENVIRONMENT_VARIABLE = re.compile(r"\b(?:LD_[A-Z_]+|PYTHON[A-Z_]*|DOCKER_[A-Z_]+|PATH|LANG|LC_[A-Z]+|TMPDIR)\b")


def environment_assignments(files: list[UserFile], text: str) -> list[tuple[UserFile, int, str]]:
    """(file, line number, line) of the user's assignments of the environment variables `text` names (a fix that
    says `LD_LIBRARY_PATH`); any PYTHON* variable when it names one, since they all steer where Python looks."""
    names = set(_ENVIRONMENT_VARIABLE.findall(text))
    if not names:
        return []
    alternatives = "|".join(sorted(re.escape(name) for name in names if not name.startswith("PYTHON")))
    if any(name.startswith("PYTHON") for name in names):
        alternatives = "|".join(filter(None, (alternatives, "PYTHON[A-Z_]*")))
    assigned = re.compile(rf"^\s*(?:export\s+)?(?:{alternatives})=")
    return [(file, number, line.strip()) for file, number, line, _ in lines_matching(files, assigned)]


# a word of a script line built from a variable: its literal start, and the variable (`rollouts_$TAG.jsonl`)
_BUILT_WORD = re.compile(r"(?P<start>[\w./-]*?)\$\{?(?P<name>[A-Za-z_]\w*)\}?")
MIN_LITERAL_START = 3


def variable_building(files: list[UserFile], name: str) -> tuple[UserFile, int, str, str] | None:
    """(file, line number, line, variable) of the script line whose word, a literal start and a variable
    (`rollouts_$TAG.jsonl`), built the file name `name` that an error quotes (`rollouts__lustre_projects...`)."""
    base = name.rsplit("/", 1)[-1]
    for file, number, line, _ in lines_matching(files, re.compile(r"\$\{?[A-Za-z_]"), SCRIPT_SUFFIXES):
        for match in _BUILT_WORD.finditer(line):
            start = match["start"].rsplit("/", 1)[-1]
            if len(start) >= MIN_LITERAL_START and base.startswith(start) and len(base) > len(start):
                return file, number, line.strip(), match["name"]
    return None


_DASH_DEFAULT = re.compile(r"\$\{(?P<name>[A-Za-z_]\w*)(?P<default>-[^}\s]*)\}")  # `${VAR-3}`: no colon
_LOADS_WITH_EXPORT = re.compile(r"\bexport\s+\$\((?:grep|cat|sed|xargs)\b[^)]*\)")


def option_value_source(files: list[UserFile], option: str) -> str | None:
    """A sentence naming where a script's value for `option` came from, when a shell variable gave it
    (`--concurrency ${CONCURRENCY-4}`) and a settings file sets it: empty under a default that keeps an empty value
    (`${VAR-4}`, not `${VAR:-4}`), or quoted in a file loaded with `export $(grep ...)`, which keeps the quotes."""
    given = re.compile(rf"{re.escape(option)}[= ]+[\"']?\$\{{?(?P<name>[A-Za-z_]\w*)(?P<default>:?-[^}}\s]*)?\}}?")
    used = next(lines_matching(files, given, SCRIPT_SUFFIXES), None)
    if used is None:
        return None
    file, number, line, match = used
    assigned = assignment_of([f for f in files if f is not file] + [file], match["name"])
    if assigned is None:
        return None
    value = assigned[2].split("=", 1)[1].split("#", 1)[0].strip()
    given_as = match[0].split(None, 1)[-1].split("=", 1)[-1].strip("\"'")
    where = (f"{file.name}:{number} gives {option} `{given_as}`, which {assigned[0].name}:{assigned[1]} sets "
             f"(`{assigned[2]}`)")
    name, default = match["name"], match["default"] or ""
    # one level further: `REPEATS=${EVAL_REPEATS-3}`, where EVAL_REPEATS is set empty (a CI form's blank field)
    if (inner := _DASH_DEFAULT.fullmatch(value.strip("\"'"))) is not None \
            and (outer := assignment_of(files, inner["name"])) is not None \
            and not outer[2].split("=", 1)[1].split("#", 1)[0].strip().strip("\"'"):
        where += f", from {inner['name']}, which {outer[0].name}:{outer[1]} sets empty (`{outer[2]}`)"
        name, default, value = inner["name"], inner["default"], ""
    if not value and default.startswith("-"):
        return (f"{where}: empty, and `${{{name}{default}}}` keeps an empty value (its default is used only "
                f"when the variable is unset); write `${{{name}:{default}}}` (with the colon) to use the default for "
                "an empty value too.")
    if value[:1] in "\"'" and (loader := next(lines_matching([file], _LOADS_WITH_EXPORT), None)) is not None:
        return (f"{where}: {file.name}:{loader[1]} loads it with `{loader[2].strip()}`, which keeps the quotes as part "
                f"of the value; load {assigned[0].name} with `set -a; source {assigned[0].name}; set +a` instead.")
    return f"{where}."


def copied_onto(files: list[UserFile], target: str) -> tuple[UserFile, int, str, list[str]] | None:
    """The first line of the user's scripts that copies or links a file onto `target` (a file name), with the
    assignments of the shell variables it uses, followed one level down (`CACHE=$CACHE_DIR/...`, `CACHE_DIR=...`)."""
    copy = re.compile(rf"\b(?:cp|rsync|ln|mv|install)\b[^#\n]*\s\S*{re.escape(target)}\b")
    for file, number, line, _ in lines_matching(files, copy, SCRIPT_SUFFIXES):
        assignments, names = [], [m["name"] for m in SHELL_VARIABLE.finditer(line)]
        for name in names:  # grows with the variables the assignments use, each once
            if found := assignment_of([file], name):
                assignment = found[2]
                assignments.append(assignment)
                names += [m["name"] for m in SHELL_VARIABLE.finditer(assignment) if m["name"] not in names]
        return file, number, line.strip(), assignments
    return None


_ASSIGNED_PATH = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=[\"']?(?P<path>/[^\s\"'$:]{4,}?)/?[\"']?\s*(?:#.*)?$")


def variable_pointing_at(files: list[UserFile], path: str) -> tuple[UserFile, int, str, str] | None:
    """(file, line number, line, name) of the assignment in the user's scripts of a variable whose value is `path`
    or a folder above it (`export TMPDIR=/local/tmp` for `/local/tmp/sortX1`): where the path came from."""
    best = None
    for file, number, line, match in lines_matching(files, _ASSIGNED_PATH):
        value = match["path"]
        if (path == value or path.startswith(value + "/")) and (best is None or len(value) > len(best[4])):
            best = (file, number, line.strip(), match["name"], value)
    return best[:4] if best else None


# a model server's capacity on its command line: ours, vLLM's, SGLang's
_CAPACITY_FLAG = re.compile(r"--(?:max-running|max-waiting|max-num-seqs|max-running-requests|max-num-batched-tokens)"
                            r"[ =](?P<value>\S+)")


def server_capacity_settings(files: list[UserFile]) -> list[str]:
    """`file:line: text` of the user's lines that set a model server's capacity: the flag itself, and the assignment of
    each variable it takes its value from (`--max-running ${MAX_NUM_SEQS:-64}` and `MAX_NUM_SEQS=1` in a sourced file), and the assignments those values are
    computed from in turn."""
    found, names = [], []
    for file, number, line, _ in lines_matching(files, _CAPACITY_FLAG):
        found.append(f"{file.name}:{number}: {line.strip()}")
        names += [m["name"] for m in SHELL_VARIABLE.finditer(" ".join(m.group(0) for m in _CAPACITY_FLAG.finditer(line)))]
    seen: set[str] = set()
    while names:  # followed through the variables each value is computed from (`MAX_SEQS=$((GPUS * 8))`, `GPUS=...`)
        name = names.pop(0)
        if name in seen or not (assigned := assignment_of(files, name)):
            continue
        seen.add(name)
        file, number, line = assigned
        found.append(f"{file.name}:{number}: {line}")
        value = line.split("=", 1)[1]
        names += [m["name"] for m in SHELL_VARIABLE.finditer(value)] + _ARITHMETIC_NAMES.findall(
            " ".join(m["expression"] for m in _ARITHMETIC.finditer(value)))
    return found


_ARITHMETIC_NAMES = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\b")  # names inside `$(( ... ))`, written without `$`


# a script that sends requests to a model server in a loop (a load test, a warm-up, a health poll)
_CONCURRENCY_FROM = re.compile(r"--concurrency[= ]\"?\$\{?(?P<name>[A-Za-z_]\w*)")
_ARITHMETIC = re.compile(r"\$\(\((?P<expression>[^)]*)\)\)")
_CPUS_PER_TASK = re.compile(r"^\s*#SBATCH\s+(?:--cpus-per-task[= ]|-c\s*)(?P<cpus>\d+)")


def concurrency_source(files: list[UserFile]) -> str | None:
    """Where a script's `--concurrency $VAR` gets its value, followed through the variables it is computed from
    (`CONCURRENCY=$((REPLICAS * PER_REPLICA))`, each set in a sourced `serving.env`) or Slurm's SLURM_CPUS_PER_TASK
    (the job's `--cpus-per-task`): `file:line `text``, joined; None when the concurrency is a plain number."""
    found = next(iter(lines_matching(files, _CONCURRENCY_FROM, SCRIPT_SUFFIXES)), None)
    if found is None:
        return None
    file, number, line, match = found
    parts, names = [f"{file.name}:{number} passes `--concurrency ${match['name']}`"], [match["name"]]
    for name in names:  # grows with the variables each assignment uses, each once
        if name == "SLURM_CPUS_PER_TASK":
            cpus = next(iter(lines_matching(files, _CPUS_PER_TASK)), None)
            if cpus is not None:
                parts.append(f"{cpus[0].name}:{cpus[1]} `{cpus[2].strip()}` sets SLURM_CPUS_PER_TASK={cpus[3]['cpus']}")
            continue
        assigned = assignment_of([file], name) or assignment_of(files, name)
        if assigned is None:
            continue
        source, at, text = assigned
        parts.append(f"{source.name}:{at} `{text}`")
        value = text.split("=", 1)[1]
        used = [m["name"] for m in SHELL_VARIABLE.finditer(value)]
        used += re.findall(r"[A-Za-z_]\w*", arithmetic["expression"]) if (arithmetic := _ARITHMETIC.search(value)) else []
        names += [used_name for used_name in dict.fromkeys(used) if used_name not in names]
    return "; ".join(parts)


# `#SBATCH --array=0-7`, or `sbatch --array=0-7 job.sbatch` on a command line: no `%` after the range
_UNTHROTTLED_ARRAY = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s*)(?P<range>[\d,-]+)\s*(?:#.*)?$"
                                r"|\bsbatch\b[^\n#]*\s(?:--array[= ]|-a\s*)(?P<range2>[\d,-]+)(?=\s)")


def unthrottled_arrays(files: list[UserFile]) -> list[tuple[UserFile, int, str, int]]:
    """(file, line number, range, tasks) of each Slurm job array with no `%` limit on how many of its tasks run at
    once: Slurm starts as many as the cluster has room for, all at the same time."""
    found = []
    for file, number, _, match in lines_matching(files, _UNTHROTTLED_ARRAY):
        tasks, span = 0, match["range"] or match["range2"]
        for part in span.split(","):
            first, _, last = part.partition("-")
            if first.isdigit() and (last.isdigit() or not last):
                tasks += int(last or first) - int(first) + 1
        found.append((file, number, span, tasks))
    return found


_CHAT_REQUEST = re.compile(r"chat/completions|/v1/completions|\b(?:hey|wrk|locust|ab)\s+-")
SHELL_LOOP = re.compile(r"^\s*(?:while|for|until)\b")
SHELL_LOOP_END = re.compile(r"^\s*done\b")
# a loop written on one line, `for i in $(seq 60); do ... && break; sleep 1; done`: its body is between do and done
ONE_LINE_LOOP = re.compile(r"\bdo\b(?P<body>.*?)[;&]?\s*\bdone\b")


def loop_body(lines: list[str], number: int) -> list[tuple[int, str]]:
    """(line number, text) of the body of the shell loop opened at line `number` (from 1), up to its `done`; of a
    loop written on one line, the commands between its `do` and `done` (nothing after the loop is in it)."""
    if one_line := ONE_LINE_LOOP.search(lines[number - 1]):
        return [(number, one_line["body"].strip())]
    body = []
    for at, text in enumerate(lines[number:], number + 1):
        if SHELL_LOOP_END.match(text):
            break
        body.append((at, text))
    return body
# `for NAME in ITEMS; do` (or `do` on the next line): the loop variable and what it goes over
FOR_ITEMS = re.compile(r"^\s*for\s+(?P<name>[A-Za-z_]\w*)\s+in\s+(?P<items>[^;\n]+?)\s*(?:;\s*do\b|$)")


def joined_commands(file: UserFile) -> Iterator[tuple[int, str]]:
    """(first line number, the command joined from its continued lines) of each command of a script."""
    lines = file.text.splitlines()
    number = 0
    while number < len(lines):
        start, text = number + 1, lines[number]
        while text.rstrip().endswith("\\") and number + 1 < len(lines):
            number += 1
            text = text.rstrip()[:-1] + " " + lines[number]
        number += 1
        yield start, text


# a Python file that serves HTTP itself (a gateway, a mock): what it sends on is what it was sent, not load of its own
SERVES_HTTP = re.compile(r"BaseHTTPRequestHandler|aiohttp import web|aiohttp\.web|web\.Application\(|FastAPI\(|Flask\(")


def request_loops(files: list[UserFile]) -> list[str]:
    """The user's scripts that send model requests from a loop: other load on the server than the run's own."""
    return [file.name for file in files if file.suffix in SCRIPT_SUFFIXES | {".py"}
            and _CHAT_REQUEST.search(file.text) and not SERVES_HTTP.search(file.text)
            and any(SHELL_LOOP.match(line) for line in file.text.splitlines())]


_COLLECTION = re.compile(r"\bgym[-_]pipeline(?:\.cli)?\s+collect\b|\bgym\s+eval\s+run\b")
_SPLIT = re.compile(r"^\s*split\b")


@dataclass
class SerialCollections:
    """A shell loop that runs one collection per pass, one after another."""

    file: UserFile
    line: int  # the loop's first line
    text: str
    splits: bool  # the file `split`s its inputs into the chunks the loop runs
    pause: tuple[int, str] | None  # (line, text) of a `sleep` between the passes
    waited: tuple[int, str] | None = None  # (line, text) of a `wait` in the loop for the pass's `... &` collection


_SLEEP = re.compile(r"^\s*sleep\s+\S+")
_WAIT = re.compile(r"^\s*wait\s*(?:$|[;#])")


def serial_collections(files: list[UserFile]) -> SerialCollections | None:
    """A shell loop of `files` that runs one collection per pass: each has only its own rows in flight."""
    for file in files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        lines = file.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if not SHELL_LOOP.match(line):
                continue
            body = [text for _, text in loop_body(lines, number)]
            collections = [text for text in body if _COLLECTION.search(text)]
            # a collection in the foreground, or one sent to the background and waited for in the same pass
            waited = next(((number + 1 + index, text.strip()) for index, text in enumerate(body) if _WAIT.match(text)),
                          None) if collections and all(text.rstrip().endswith("&") for text in collections) else None
            if any(not text.rstrip().endswith("&") for text in collections) or waited:
                pause = next(((number + 1 + index, text.strip()) for index, text in enumerate(body)
                              if _SLEEP.match(text)), None)
                return SerialCollections(file, number, line.strip(), any(_SPLIT.match(text) for text in lines), pause,
                                         waited)
    return None


_KEEPS_TIMES = re.compile(r"^\s*(?:cp\s+(?:[^\n#]*\s)?-[a-zA-Z]*[pa][a-zA-Z]*\b|cp\b[^\n#]*--preserve|rsync\s+(?:[^\n#]*\s)?-"
                         r"[a-zA-Z]*[at][a-zA-Z]*\b)")


def copies_keeping_times(files: list[UserFile]) -> tuple[str, int, str] | None:
    """(file, line, text) of a copy that keeps the source's modification time (`cp -p`, `cp -a`, `rsync -a`): a
    build tool comparing times then sees the new data as older than what was built from the old."""
    return next(((file.name, number, line.strip()) for file, number, line, _ in
                 lines_matching(files, _KEEPS_TIMES, SCRIPT_SUFFIXES)), None)


_COMPARES_TIMES = re.compile(r"\s-(?:nt|ot)\s|\bfind\b[^\n#]*\s-newer\b")


def time_comparisons(files: list[UserFile]) -> tuple[str, int, str] | None:
    """(file, line, text) of a script's test of files' modification times (`[ tasks.jsonl -nt rollouts.jsonl ]`,
    `find -newer`): a rerun decided by times, which a copy keeping old times fools."""
    return next(((file.name, number, line.strip()) for file, number, line, _ in
                 lines_matching(files, _COMPARES_TIMES, SCRIPT_SUFFIXES)), None)


def crlf_inputs(files: list[UserFile]) -> list[str]:
    """The user's scripts and settings files that have CRLF line endings."""
    return [file.name for file in files if b"\r\n" in file.content]


def broken_continuations(files: list[UserFile]) -> list[tuple[str, int]]:
    """(script, line) of the lines of the user's shell scripts that end in a backslash followed by blanks."""
    return [(file.name, number) for file in files if file.suffix in SCRIPT_SUFFIXES
            for number, line in enumerate(file.content.splitlines(), start=1) if _BROKEN_CONTINUATION.search(line)]


def script_hints(files: list[UserFile]) -> str:
    """Sentences naming the user's files with CRLF line endings, broken line continuations or a job array indexed by
    its job id, or ""."""
    hints = []
    if crlf := crlf_inputs(files):
        named = ", ".join(f"`{name}`" for name in crlf[:3])
        hints.append(f"{named} {'has' if len(crlf) == 1 else 'have'} Windows (CRLF) line endings: every value a "
                     "shell reads from it ends in a carriage return (`\\r`), which breaks names, paths and numbers. "
                     f"Convert it: `sed -i 's/\\r$//' {crlf[0]}` (or `dos2unix`), then run again.")
    if broken := broken_continuations(files):
        named = ", ".join(f"{name}:{line}" for name, line in broken[:3])
        hints.append(f"A backslash followed by a space ends a line of a script ({named}): it escapes the space, not "
                     "the newline, so the command ends there and the options on the next lines never reach it (the "
                     f"shell runs them as a command of their own). Delete what follows the backslash (`sed -i "
                     f"'s/\\\\[[:blank:]]*$/\\\\/' {broken[0][0]}`), then run again.")
    if job_id := array_job_id_as_index(files):
        name, number, line = job_id
        hints.append(f"{name}:{number} (`{line}`) takes SLURM_ARRAY_JOB_ID, the id of the whole array (the same number "
                     "in every task, and the job id that names its files), where the task's own index is "
                     "SLURM_ARRAY_TASK_ID (0, 1, ... as `--array` lists them): write `${SLURM_ARRAY_TASK_ID}` there, "
                     "then submit again.")
    return " ".join(hints)


_ARRAY_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+(?:--array[= ]|-a\s)", re.M)
_ARRAY_JOB_ID_USED = re.compile(r"^\s*(?:export\s+)?\w+=[\"']?\$\{?SLURM_ARRAY_JOB_ID\}?|shard\w*[_./-]\$\{?SLURM_ARRAY_JOB_ID")


def array_job_id_as_index(files: list[UserFile]) -> tuple[str, int, str] | None:
    """(file, line number, line) of a job array script that picks its shard with SLURM_ARRAY_JOB_ID."""
    arrays = [file for file in files if _ARRAY_DIRECTIVE.search(file.text)]
    return next(((file.name, number, line.strip()) for file, number, line, _ in lines_matching(arrays,
                                                                                             _ARRAY_JOB_ID_USED)), None)
