"""A variable the batch job reads but never gets: `#SBATCH --export=NONE` (or a list without it).

By default a Slurm job starts with the environment of the shell that ran sbatch. `--export=NONE` (for "clean,
reproducible jobs") or `--export=A,B` gives it none, or only those: a variable the submitting script exported
(`export MODEL_URL=...; sbatch collect.sbatch`) is empty inside the job, and a command given `--model-url $MODEL_URL`
gets no value at all.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import EXPORT_OPTION, PRINTS, UserFile, assignment_of, exported_names
from gym_pipeline.diagnose.vocabulary import CONFIG

_USED = re.compile(r"\$\{?(?P<name>[A-Z_][A-Z0-9_]*)\b")
# what every job has whatever --export says: Slurm's own variables and the login basics slurmd sets
_ALWAYS_SET = re.compile(r"^(?:SLURM_\w*|HOME|USER|LOGNAME|PATH|HOSTNAME|SHELL|PWD|TMPDIR|OPTARG|OPTIND|RANDOM)$")


def _sources(batch: UserFile, name: str) -> bool:
    """Whether the batch script reads `name` in with `source` (or `.`), in the job."""
    return bool(re.search(rf"^\s*(?:source|\.)\s+[\"']?(?:\S*/)?{re.escape(name)}\b", batch.text, re.M))


def rule_variable_not_exported_to_the_job(ev: Evidence) -> list[Finding]:
    for batch in ev.user_files:
        lines = batch.text.splitlines()
        option = next(((n, m) for n, line in enumerate(lines, 1)
                       if (m := EXPORT_OPTION.match(line)) and m["directive"]), None)
        if option is None or (passed := exported_names(option[1]["list"])) is None:
            continue
        export_line, export = option
        # a command's use of the variable before an `echo` of it
        for number, line in sorted(enumerate(lines, 1), key=lambda item: bool(PRINTS.match(item[1]))):
            if line.lstrip().startswith("#"):
                continue
            for used in _USED.finditer(line):
                name = used["name"]
                if name in passed or _ALWAYS_SET.match(name) or assignment_of([batch], name):
                    continue
                exported = assignment_of([file for file in ev.user_files if file is not batch], name)
                if exported is None:
                    continue
                setter, setter_line, setter_text = exported
                if _sources(batch, setter.name):
                    continue  # the job sets it itself, from the same file
                return [Finding(
                    category=CONFIG,
                    title=f"{batch.name} runs with `--export={export['list']}`, so {name}, which {setter.name} sets "
                          "before sbatch, is empty in the job",
                    evidence=[EvidenceLine(file=batch.name, line=export_line, text=lines[export_line - 1].strip()),
                              EvidenceLine(file=batch.name, line=number, text=line.strip()),
                              EvidenceLine(file=setter.name, line=setter_line, text=setter_text)],
                    cause=f"With `--export={export['list']}` the job does not inherit the environment sbatch was "
                          f"called from: {setter.name} sets {name} there, and inside the job `${name}` is empty, so "
                          f"`{line.strip()}` ran without it.",
                    fix=f"Pass {name} to the job: name it in the option, `#SBATCH --export="
                        f"{','.join(sorted(passed | {name}))}` (only the variables named, from sbatch's environment), "
                        f"or set {name} in {batch.name} itself, instead of `--export={export['list']}`; then submit "
                        "again.",
                )]
    return []


# Slurm's variables it sets only for a job that asks for what they describe: (the directive's pattern, its option)
_SET_ONLY_WITH = {
    "SLURM_CPUS_PER_TASK": (r"--cpus-per-task\b|-c\b", "--cpus-per-task"),
    "SLURM_ARRAY_TASK_ID": (r"--array\b|-a\b", "--array"),
    "SLURM_ARRAY_TASK_COUNT": (r"--array\b|-a\b", "--array"),
    "SLURM_GPUS_PER_NODE": (r"--gpus-per-node\b", "--gpus-per-node"),
    "SLURM_MEM_PER_NODE": (r"--mem\b", "--mem"),
}
_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+(?P<options>.+)$", re.M)


def rule_slurm_variable_the_job_never_gets(ev: Evidence) -> list[Finding]:
    for file in ev.user_files:
        directives = " ".join(match["options"] for match in _DIRECTIVE.finditer(file.text))
        if not directives:
            continue
        # the options the submitting scripts give sbatch for this job count as directives
        given = " ".join(line for other in ev.user_files for line in other.text.splitlines()
                         if "sbatch" in line and file.name in line)
        lines = file.text.splitlines()
        for name, (pattern, option) in _SET_ONLY_WITH.items():
            if re.search(pattern, directives) or re.search(pattern, given):
                continue
            read = next(((number, line.strip()) for number, line in enumerate(lines, 1)
                         if re.search(rf"\$\{{?{name}\b(?![:}}]?[-=?+])", line) and not line.lstrip().startswith("#")
                         and not PRINTS.match(line)), None)
            if read is None:
                continue
            number, line = read
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} reads ${name}, which Slurm sets only for a job given {option}; "
                      f"{file.name} asks for none, so it is empty",
                evidence=[EvidenceLine(file=file.name, line=number, text=line)],
                cause=f"Slurm exports {name} to a job only when the job is submitted with {option} (`#SBATCH "
                      f"{option}=...` or on sbatch's command line). {file.name} gives no such option, so ${name} "
                      f"expanded to nothing at line {number}, and the command there got an empty value (or none at "
                      "all: an option left without its argument).",
                fix=f"Add `#SBATCH {option}=<n>` to {file.name} (Slurm then sets {name} from it), or give the value "
                    f"a default where it is read (`${{{name}:-4}}`); then submit again.",
            )]
    return []


# a plain assignment (`REPEATS=8`): a shell variable, not an environment variable, unless exported
_PLAIN_ASSIGNMENT = re.compile(r"^\s*(?P<name>[A-Z_][A-Z0-9_]*)=(?P<value>[^\s;#]*)\s*(?:#.*)?$")
# the user's script starting another of the user's scripts as a new process (a job, a child shell or interpreter)
_STARTS = r"^\s*(?:\w+=\S*\s+)*(?:\S*=\$\()?\s*(?:sbatch|srun|bash|sh|python3?|\./)\b[^#\n]*?\b{script}\b"


_HEREDOC_START = re.compile(r"<<-?\s*[\"']?(?P<word>\w+)[\"']?")


def _shell_lines(lines: list[str]) -> list[tuple[int, str]]:
    """(number, line) of the lines the shell runs: not those of a here-document's text."""
    kept, terminator = [], None
    for number, line in enumerate(lines, 1):
        if terminator is not None:
            terminator = None if line.strip() == terminator else terminator
            continue
        kept.append((number, line))
        if start := _HEREDOC_START.search(line.split("#", 1)[0]):
            terminator = start["word"]
    return kept


_SOURCES_A_FILE = re.compile(r"^\s*(?:source|\.)\s+\S", re.M)


def _exported_later(lines: list[str], name: str) -> bool:
    """Whether the script exports `name` anyway: `export NAME`, `declare -x NAME`, `set -a` (every assignment
    exported), or names it in an `--export` list."""
    return any(re.search(rf"^\s*(?:export|declare\s+-\w*x\w*)\s+(?:\w+\s+)*{name}\b|^\s*set\s+-\w*a|--export[= ]\S*\b{name}\b",
                         line) for line in lines)


def rule_variable_set_without_export_for_a_child_process(ev: Evidence) -> list[Finding]:
    """`REPEATS=8`, then `sbatch eval.sbatch` whose script reads `${REPEATS:-1}`: without `export`, the variable stays
    in the submitting shell, and the job (any new process: a child shell, python) takes its default or nothing."""
    for parent in ev.user_files:
        lines = parent.text.splitlines()
        for child in ev.user_files:
            if child is parent:
                continue
            started = next(((n, line.strip()) for n, line in enumerate(lines, 1)
                            if re.search(_STARTS.format(script=re.escape(child.name.rsplit("/", 1)[-1])), line)), None)
            if started is None:
                continue
            for number, line in _shell_lines(lines[:started[0] - 1]):
                if not (assigned := _PLAIN_ASSIGNMENT.match(line)) or _exported_later(lines, assigned["name"]):
                    continue
                name = assigned["name"]
                read = next(((n, text.strip()) for n, text in enumerate(child.text.splitlines(), 1)
                             if re.search(rf"\$\{{?{name}\b", text) and not text.lstrip().startswith("#")
                             and not PRINTS.match(text)), None)
                # a child that sets it, or reads a settings file that may, is not left without it
                if read is None or assignment_of([child], name) or _SOURCES_A_FILE.search(child.text):
                    continue
                default = re.search(rf"\$\{{{name}:?-(?P<value>[^}}]*)\}}", read[1])
                got = f"its default ({default['value']})" if default else "an empty value"
                return [Finding(
                    category=CONFIG,
                    title=f"{parent.name}:{number} sets {name}={assigned['value']} without `export`, and "
                          f"{child.name}, started at line {started[0]}, ran with {got} instead",
                    evidence=[EvidenceLine(file=parent.name, line=number, text=line.strip()),
                              EvidenceLine(file=parent.name, line=started[0], text=started[1]),
                              EvidenceLine(file=child.name, line=read[0], text=read[1])],
                    cause=f"`{line.strip()}` makes {name} a variable of {parent.name}'s own shell; only exported "
                          f"variables reach a new process, so {child.name} (`{started[1]}`) did not get it, and "
                          f"`{excerpt(read[1], 120)}` ran with {got}. Nothing fails: the run did something else than planned.",
                    fix=f"In {parent.name}:{number}, write `export {name}={assigned['value']}` (or pass it on where "
                        f"the child starts: `sbatch --export=ALL,{name}=${name} ...`, `{name}=${name} bash ...`), so "
                        f"{child.name}:{read[0]} (`{excerpt(read[1], 120)}`) gets it; then run again on a clean output path.",
                )]
    return []
