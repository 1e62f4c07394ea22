"""An option given twice on a command line of the user's scripts: the command kept the last value without a word.

`gym eval run` (and `gym-pipeline` before it refused) read `--input a.jsonl --input b.jsonl` as `--input b.jsonl`: a
dataset kept as two files, passed as two `--input`s, is evaluated on its last file only, and everything exits 0.

A wrapper that passes its caller's options (`"$@"`) and then adds one of its own as a default (`"$@" --checkpoint
$BASELINE`): given that option, the command gets it twice, and a command that refuses it (ours) never starts.
"""

from __future__ import annotations

import itertools
import re
import shlex

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile, joined_commands
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

# a command of NeMo Gym or of ours, and the words of its subcommand
_COMMAND = re.compile(r"(?:^|[\s;&|(])(?P<program>\S*\b(?:gym|gym-pipeline|gym_pipeline\.cli|ng_\w+))\s+(?P<rest>.*)$")
_CONTROL_OPERATORS = frozenset({"&&", "||", ";", "|", "&"})
# the options that may be given more than once (each adds a value)
REPEATABLE = frozenset({"--checkpoint", "--env", "--search-dir", "--config-paths"})


def rule_option_given_twice(ev: Evidence) -> list[Finding]:
    for file, number, line in gym_commands(ev.user_files):
        match = _COMMAND.search(line)
        try:
            words = shlex.split(match["rest"], comments=True)
        except ValueError:
            continue
        # the command ends at the shell's next operator: `materialize ... --output a && collect ... --output b`
        words = list(itertools.takewhile(lambda word: word not in _CONTROL_OPERATORS, words))
        values: dict[str, list[str]] = {}
        for option, value in zip(words, [*words[1:], ""], strict=True):
            name, _, inline = option.partition("=")
            if name.startswith("--") and name not in REPEATABLE:
                values.setdefault(name, []).append(inline or value)
        twice = next(((name, given) for name, given in values.items() if len(given) > 1), None)
        if twice is None:
            continue
        name, given = twice
        program = " ".join([match["program"].rsplit("/", 1)[-1], *_subcommands(words)])
        refused = [hit for hit in ev.hits("option_given_twice_refused") if hit.groups["option"] == name]
        return [Finding(
            category=CONFIG,
            title=f"{file.name} gives `{name}` {len(given)} times to `{program}`: "
                  + ("the command refused it" if refused else f"only the last ({given[-1]}) was used"),
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *(h.evidence() for h in refused[:1])],
            cause=f"`{name}` takes one value. "
                  + ("gym-pipeline refuses it given twice, so the command did nothing." if refused else
                     f"Given again, the command keeps the last without a word, so {', '.join(given[:-1])} "
                     f"{'was' if len(given) == 2 else 'were'} not read. Everything exits 0 and the run covers less (or "
                     "other) than the script says."),
            fix=f"Give `{name}` once in {file.name}: join the files first (`cat {' '.join(given)} > all.jsonl`, then "
                f"`{name} all.jsonl`), or run the command once per value into separate output folders; then run "
                "again on a clean output path.",
            explains=frozenset({"option_given_twice_refused"}),
        )]
    return []


# a command line passing its caller's arguments, then an option of its own
_ARGUMENTS_THEN_OPTION = re.compile(r'"\$(?:@|\{@\})"\s+(?:[^#\n]*\s)?(?P<option>--[\w-]+)(?:[ =](?P<value>\S+))?')
_SERVER_COMMAND = re.compile(r"\bserve-policy\b|\bvllm\b|\bsglang\b|\bserve\b")


def rule_wrapper_adds_an_option_its_caller_gave(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("option_given_twice_refused"):
        name = hit.groups["option"]
        for file in ev.user_files:
            for number, text in joined_commands(file):
                added = next((m for m in _ARGUMENTS_THEN_OPTION.finditer(text) if m["option"] == name), None)
                if added is None or text.lstrip().startswith("#"):
                    continue
                own = f"{name} {added['value']}" if added["value"] else name
                server = bool(_SERVER_COMMAND.search(text))
                return [Finding(
                    category=MODEL_SERVING if server else CONFIG,
                    title=f"{file.name}:{number} passes its caller's options (`\"$@\"`) and then `{own}` of its own: "
                          f"given `{name}`, the command got it twice and refused to start",
                    evidence=[hit.evidence(), EvidenceLine(file=file.name, line=number, text=text.strip())],
                    cause=f"{file.name} adds `{own}` after the options it is given, meant as a default; a caller that "
                          f"gives `{name}` itself (as this run's did) makes the command see it twice, which it "
                          "refuses: " + ("the model server never started, and everything after it found nothing "
                                         "listening." if server else "the command did nothing."),
                    fix=f"In {file.name}, add `{own}` only when the caller gives none (`[[ \" $* \" == *\" {name} \"* "
                        f"|| \" $* \" == *\" {name}=\"* ]] || set -- \"$@\" {own}`, before the command), or call it "
                        f"without `{name}`; then start " + ("the server, check it answers (`curl <url>/v1/models`), and "
                                                             "collect again." if server else "the command again."),
                    explains=frozenset({"option_given_twice_refused"}),
                )]
    return []


def _subcommands(words: list[str]) -> list[str]:
    return [word for word in words[:3] if re.fullmatch(r"[a-z][\w-]*", word)][:2]


def gym_commands(files: list[UserFile]):
    """(file, first line number, the command joined from its continued lines) of each line of a script that runs a
    Gym or gym-pipeline command."""
    for file in files:
        for start, text in joined_commands(file):
            if _COMMAND.search(text) and not text.lstrip().startswith("#"):
                yield file, start, text
