"""The model server started on the wrong checkpoint by the user's own serving script: nothing fails, and every
rollout is another model's.

- A script meant to serve "the newest" checkpoint that takes the first name `ls` gives (`ls -d ckpts/step_* | head
  -1`): names sort ascending, so it serves the oldest. Or the first `find` lists (`find ckpts -name 'step_*' | head -n
  1`): find lists in the folder's own order (hash order on ext4), which is no order of steps. Or the last name of a
  text sort (`ls ckpts | sort | tail -1`) of names without zero padding: `step_900` sorts after `step_1000`.
- A script that serves a checkpoint folder other than the one the run records (`--checkpoint` copied from another
  project's script: the same step name under another run's folder).
- A build tool that kept the rollouts of an earlier checkpoint's server (`make: Nothing to be done`): the rollouts
  depend on their inputs only, so a new server changes nothing to make.
- A serving script whose checkpoint folder names another experiment than the one the eval script says it evaluates
  (`CKPT_DIR=.../exp-0311-baseline` left from last month, while the eval is of exp-0402-rl).
- A balancer or gateway of the user's that spreads the requests over replicas serving different checkpoints (one
  left on last week's): its log forwards to both, and the rollouts mix two models. Or a gateway script that sends a
  share of the requests (an A/B canary) to an address it names, which is the previous checkpoint's server. Or a
  gateway whose log forwards everything to an older checkpoint's server while the newer one started beside it gets
  nothing: an upstream taken from a variable left unset, which falls back to a default (staging).
- Two servers (the candidate, and the baseline beside it for a comparison) started with one `--ready-file`: the file
  names the server ready last, and the run that reads its model URL there asks that one.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from gym_pipeline.core.manifest import MANIFEST_FILE, ROLLOUTS_STAGE
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, model_url_of
from gym_pipeline.diagnose.user_scripts import (
    MAKEFILE_NAMES,
    SCRIPT_SUFFIXES,
    SERVES_HTTP,
    UserFile,
    argument_given,
    lines_matching,
)
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, MODEL_SERVING

# `ls` (not by time, not reversed) of checkpoint folders, the first name taken
FIRST_OF_LS = re.compile(r"\bls\b(?![^|\n]*\s-\w*[tr])[^|\n]*(?:step|ckpt|checkpoint|iter)[^|\n]*\|\s*head\s+-(?:n\s*)?1\b",
                          re.I)
# `find` of checkpoint folders piped straight to `head -1`: the first in directory order, no sort between
FIRST_OF_FIND = re.compile(r"\bfind\s+(?P<root>[^\s|;]+)[^|\n]*(?:step|ckpt|checkpoint|iter)[^|\n]*\|\s*head\s+-(?:n\s*)?1\b",
                           re.I)
# the checkpoint a serving command is given: ours, vLLM's positional model path, a `--model` path
_SERVED_PATH = re.compile(r"(?:serve-policy\b[^\n]*?--checkpoint|vllm serve|--model)[ =](?P<path>/[^\s\"']+)")
# what a serving log says it serves: our policy's step, a script's echo
_SERVED_STEP = re.compile(r"checkpoint step (?P<step>\d+)|^serving \S*?(?P<name>step_?\d+)", re.M)


def _served_lines(ev: Evidence) -> list[EvidenceLine]:
    """The lines of the run's logs that say which checkpoint the model server serves."""
    lines = []
    for log, text in ev.log_heads:
        for match in _SERVED_STEP.finditer(text):
            number = text.count("\n", 0, match.start()) + 1
            lines.append(EvidenceLine(file=ev.rel(log), line=number, text=text.splitlines()[number - 1].strip()))
            break
    return lines


def rule_oldest_checkpoint_served_as_newest(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, _ in lines_matching(ev.user_files, FIRST_OF_LS):
        served = _served_lines(ev)
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server serves the oldest checkpoint: {file.name} takes the first name `ls` gives",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *served[:1]],
            cause=f"{file.name} picks the checkpoint to serve with `ls ... | head -1`: `ls` sorts names ascending, so "
                  "the first is the oldest step, not the newest. Nothing fails; every rollout is the older "
                  "checkpoint's answer, and the report credits it to the one meant.",
            fix=f"In {file.name}, take the newest: `ls -d <checkpoints>/step_* | sort -V | tail -1` (or `ls -td ... | "
                "head -1`, by time); start the server again, check what it serves (`curl -s <url>/models`), then "
                "collect again on a clean output path and profile.",
        )]
    return []


def _served_step(ev: Evidence) -> tuple[int, EvidenceLine] | None:
    """(step, the log line) of the checkpoint the run's model server says it serves."""
    for line in _served_lines(ev):
        if digits := re.search(r"step_?0*(\d+)|checkpoint step (\d+)", line.text):
            return int(digits[1] or digits[2]), line
    return None


def steps_in(root: Path) -> list[int]:
    """The steps of the checkpoint folders (`step_0200`, `step_900`) an absolute `root` holds now, ascending; none when
    it is gone."""
    folders = root.iterdir() if root.is_absolute() and root.is_dir() else []
    return sorted(int(digits[1]) for path in folders if (digits := re.search(r"(\d+)$", path.name)))


def rule_checkpoint_taken_in_directory_order(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, FIRST_OF_FIND):
        served = _served_step(ev)
        if served is None:
            continue
        root = Path(match["root"])
        steps = steps_in(root)
        if steps and (len(steps) < 2 or served[0] == steps[-1]):
            continue  # one checkpoint, or the newest listed first: nothing picked wrong this time
        held = (f"; the folder holds steps {', '.join(map(str, steps))}" if steps
                else f"; its folder {root.name} is gone, so which other steps it held cannot be checked")
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} serves the first checkpoint `find` lists, in the folder's own order, not by "
                  f"step: the server loaded step {served[0]}{held}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), served[1]],
            cause=f"{file.name} takes `find ... | head -n 1` for the checkpoint to serve: find lists a folder in the "
                  "order its entries are stored (hash order on ext4), not by name or step, so with more than one "
                  "checkpoint the one served is any of them. Nothing fails; the rollouts are that checkpoint's, "
                  "credited to the one meant.",
            fix=f"In {file.name}, sort before taking one: `find <checkpoints> -maxdepth 1 -name 'step_*' | sort -V | "
                "tail -n 1` (the newest step); start the server again, check what it serves (its log, `curl -s "
                "<url>/models`), then collect again on a clean output path and profile.",
        )]
    return []


# `ls DIR | [sort |] tail -1` of checkpoint folders, by name as text (not by time, not `sort -V`/`-n`)
LAST_BY_TEXT = re.compile(r"\bls\s+(?![^|\n]*\s-\w*[tvU])(?:-\w+\s+)*(?P<root>[^\s|;)]+)[^|\n]*\|\s*"
                          r"(?:sort\b(?![^|\n]*\s-\w*[Vnhg])[^|\n]*\|\s*)?tail\s+-(?:n\s*)?1\b")


def _last_listed_is_no_checkpoint(ev: Evidence, file: UserFile, number: int, line: str, listed: str
                                  ) -> Finding | None:
    """The listing's last name is not a checkpoint's (an exporter's `tmp_export/` staging folder sorts after
    `step_0200`), and the server loaded an older step than the newest folder there."""
    root_text = re.split(r"[*?\[]", listed.replace('"', "").replace("'", ""), maxsplit=1)[0].rstrip("/")
    root = (ev.run_dir / Path(file.name).parent / root_text) if root_text and not Path(root_text).is_absolute() \
        else Path(root_text or "/")
    if not root.is_dir() or (served := _served_step(ev)) is None:
        return None
    names = sorted(path.name for path in root.iterdir() if path.is_dir())
    steps = sorted((int(digits[1]), name) for name in names if (digits := re.search(r"step_?0*(\d+)$", name)))
    if not names or not steps or re.search(r"step_?\d+$", names[-1]) or served[0] >= steps[-1][0]:
        return None
    return Finding(
        category=MODEL_SERVING,
        title=f"{file.name}:{number} takes the last name of its listing, {names[-1]}, which is no checkpoint of a "
              f"step: the server loaded step {served[0]}, not the newest, {steps[-1][1]}",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), served[1]],
        cause=f"`{line.strip()}` lists every folder of {root_text}, and `{names[-1]}` (a folder another tool keeps "
              f"there, such as an exporter's staging copy) sorts after the step folders: the script served it, and it "
              f"held step {served[0]}'s weights. Nothing fails; the rollouts are step {served[0]}'s, credited to "
              f"{steps[-1][1]}.",
        fix=f"In {file.name}:{number}, list only the checkpoints: `ls -d {root_text}/step_*/ | sort -V | tail -1` "
            f"(which gives {steps[-1][1]}), not every folder (the last of which is {names[-1]}); start the server again, "
            "check what it serves, then "
            "collect again on a clean output path and profile.",
    )


def rule_newest_checkpoint_by_text_sort(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, LAST_BY_TEXT, SCRIPT_SUFFIXES):
        if (other := _last_listed_is_no_checkpoint(ev, file, number, line, match["root"])) is not None:
            return [other]
        if (served := _served_step(ev)) is None or not re.search(r"step_?[1-9]\d*\b", served[1].text):
            continue  # zero-padded names sort right as text
        root = Path(match["root"])
        steps = steps_in(root)
        if steps and served[0] == steps[-1]:
            continue
        held = (f"; the folder holds steps up to {steps[-1]}" if steps
                else f"; its folder {root.name} is gone, so the steps it held cannot be checked")
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} takes the last checkpoint name of a text sort (`ls ... | sort | tail -1`), "
                  f"and the names have no zero padding: the server loaded step {served[0]}{held}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), served[1]],
            cause=f"`sort` (and `ls`) order names as text: without zero padding `step_900` comes after `step_1000`, "
                  f"so the last name is not the newest step once the steps gain a digit. Nothing fails; the rollouts "
                  f"are step {served[0]}'s, credited to the newest.",
            fix=f"In {file.name}, sort by number: `ls <checkpoints> | sort -V | tail -1` (or `sort -t_ -k2 -n`), not "
                "`sort | tail -1`; "
                "start the server again, check what it serves (its log, `curl -s <url>/models`), then collect again "
                "on a clean output path and profile.",
        )]
    return []


# `ls -t DIR/step_* | head -1` (`-td`, `-lt`...): the checkpoint folder changed last, not the newest step
NEWEST_BY_TIME = re.compile(r"\bls\s+(?:-\w+\s+)*-\w*t\w*\s+(?:-\w+\s+)*(?P<listed>[^\s|;)]+)(?:\s+[^|\n]*)?\|\s*"
                            r"head\s+(?:-n\s*)?-?1\b")
_STEP_NAMED = re.compile(r"\bstep_?0*(?P<step>\d+)\b")


def rule_newest_checkpoint_by_modification_time(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, NEWEST_BY_TIME, SCRIPT_SUFFIXES):
        if (served := _served_step(ev)) is None:
            continue
        # the steps there are: the folder's own, or those the run's logs name (a listing, a copy's progress)
        listed = match["listed"].replace('"', "").replace("'", "")
        if positional := re.match(r"\$\{?(?P<index>[1-9])\}?", listed):  # `ls -td $1/step_*`: what the caller passed
            given = argument_given(ev.user_files, file.name, int(positional["index"]))
            listed = listed.replace(positional.group(0), given, 1) if given else listed
        root = Path(listed).parent if any(c in Path(listed).name for c in "*?[") else Path(listed)
        named = {int(m["step"]): m.group(0) for _, head in ev.log_heads for m in _STEP_NAMED.finditer(head)}
        known = {**named, **{int(d[1]): path.name for path in (root.iterdir() if root.is_absolute() and root.is_dir()
                                                                else []) if (d := re.search(r"(\d+)$", path.name))}}
        if not known or max(known) <= served[0]:
            continue
        newest = known[max(known)]
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} serves the checkpoint folder changed last (`ls -t ... | head -1`), not the "
                  f"newest step: the server loaded step {served[0]}, and step {max(known)} exists",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), served[1]],
            cause="`ls -t` orders folders by modification time: a checkpoint copied again (a mirror's resync, a "
                  "teammate's `touch`, a restore) becomes the \"newest\" whatever its step, so the server loaded an "
                  f"older checkpoint (step {served[0]}) than the newest one (step {max(known)}). Nothing fails; the "
                  "rollouts are the older checkpoint's.",
            fix=f"In {file.name}:{number}, choose by step, not by time (`ls -t`): `ls -d <checkpoints>/step_* | sort -V | "
                f"tail -n 1`, which gives {newest} (or name the checkpoint explicitly); start the server again, check what it serves (`curl -s "
                "<url>/models`), then collect again on a clean output path and profile.",
        )]
    return []


# a script's variable with a default the caller's environment overrides: `CKPT=${CKPT:-step_0200}`
_DEFAULTED = re.compile(r"\$\{(?P<var>[A-Za-z_]\w*):?-(?P<default>[^}\s]+)\}")
_SERVES = re.compile(r"\bserve-policy\b|\bvllm\s+serve\b|--checkpoint\b|--model\b")


def _exported(file: UserFile, var: str) -> tuple[int, str, str] | None:
    """(line, text, value) where `file` exports `var` (`export CKPT=step_0100`, or `CKPT=...` then `export CKPT`)."""
    lines = file.text.splitlines()
    assigned = [(n, text, m["value"]) for n, text in enumerate(lines, 1)
                if (m := re.match(rf"\s*(?:export\s+)?{var}=[\"']?(?P<value>[^\s\"';]+)", text))]
    exports = any(re.match(rf"\s*export\s+(?:\w+=\S*\s+)*{var}\b", text) for text in lines)
    return assigned[0] if assigned and exports else None


def rule_checkpoint_variable_exported_to_the_serving_script(ev: Evidence) -> list[Finding]:
    """A serving script choosing its checkpoint from a variable with a default (`CKPT=${CKPT:-step_0200}`), started by
    a script that exports that variable with another value for its own use (the baseline of its report): the server
    loads the caller's value, and the eval is of another checkpoint than the one it records."""
    if (served := _served_step(ev)) is None:
        return []
    for server in ev.user_files:
        if not _SERVES.search(server.text):
            continue
        for default in _DEFAULTED.finditer(server.text):
            var = default["var"]
            for caller in ev.user_files:
                starts = re.search(rf"(?:^|[\s;&(])(?:bash|sh|source|\.|exec|nohup)?\s*\S*{re.escape(server.name)}\b",
                                   caller.text, re.M)
                if caller is server or starts is None or (exported := _exported(caller, var)) is None:
                    continue
                number, text, value = exported
                step = re.search(r"(\d+)$", value)
                # the caller means the default (it names it as what it evaluates), not the value it exported
                if value == default["default"] or step is None or int(step[1]) != served[0] \
                        or default["default"] not in caller.text:
                    continue
                at = server.text.count("\n", 0, default.start()) + 1
                return [Finding(
                    category=MODEL_SERVING,
                    title=f"{caller.name}:{number} exports {var}={value}, and {server.name} serves ${{{var}}}: the "
                          f"server loaded {value}, not its default {default['default']}",
                    evidence=[EvidenceLine(file=caller.name, line=number, text=text.strip()),
                              EvidenceLine(file=server.name, line=at, text=server.text.splitlines()[at - 1].strip()),
                              served[1]],
                    cause=f"{server.name} takes its checkpoint from ${var} when the environment has one "
                          f"(`{default.group(0)}`), and {caller.name} exports {var}={value} for its own use before "
                          f"it starts {server.name}: exported variables reach every program started after, so the "
                          f"server loaded {value} (its log says step {served[0]}), and the rollouts are that "
                          "checkpoint's, recorded as the one the eval is of. Nothing fails.",
                    fix=f"In {caller.name}:{number}, keep {var} out of the server's environment: give the report's "
                        f"value a name of its own (or do not `export` it), or start the server with the checkpoint "
                        f"it must serve (`{var}=<checkpoint> bash {server.name}`, or `env -u {var}`); start the "
                        "server again, check what it serves (`curl -s <url>/models`), then collect again on a clean "
                        "output path and profile.",
                )]
    return []


_SERVING_LINE = re.compile(r"^serving (?P<path>/\S+)", re.M)


def _shape(name: str) -> re.Pattern[str] | None:
    """A pattern for names made like `name` (its first word kept, then digits as digits, words as words:
    `exp-0311-baseline` -> `exp-\\d+-[a-z]+`); None for a name without both digits and a separator."""
    parts = re.findall(r"[A-Za-z]+|\d+|[-_.]", name)
    if len(parts) < 3 or not any(part.isdigit() for part in parts) or not parts[0].isalpha():
        return None
    body = "".join(re.escape(part) if part in "-_." else r"\d+" if part.isdigit() else "[A-Za-z]+"
                   for part in parts[1:])
    return re.compile(rf"(?<![\w/.-]){re.escape(parts[0])}{body}(?![\w.-])")


def rule_checkpoint_of_another_experiment_served(ev: Evidence) -> list[Finding]:
    """The server's log says it serves a checkpoint under an experiment folder; the run's own eval script says it
    evaluates another experiment named the same way."""
    served = next(((log, head, match) for log, head in ev.log_heads if (match := _SERVING_LINE.search(head))), None)
    if served is None:
        return []
    log, head, match = served
    for folder in reversed(Path(match["path"]).parts[:-1]):
        if (shape := _shape(folder)) is None:
            continue
        for file in ev.user_files:
            if file.suffix not in SCRIPT_SUFFIXES or folder in file.text:
                continue
            other = next((found.group(0) for found in shape.finditer(file.text) if found.group(0) != folder), None)
            if other is None:
                continue
            setting = next(((f, n, line.strip()) for f, n, line, _ in lines_matching(
                ev.user_files, re.compile(re.escape(folder)), SCRIPT_SUFFIXES)), None)
            said = head.count("\n", 0, match.start()) + 1
            return [Finding(
                category=MODEL_SERVING,
                title=f"The model server serves a checkpoint of {folder}, while {file.name} evaluates {other}",
                evidence=[EvidenceLine(file=ev.rel(log), line=said, text=match.group(0)),
                          *([EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2])] if setting else []),
                          next(EvidenceLine(file=file.name, line=n, text=line.strip())
                               for n, line in enumerate(file.text.splitlines(), 1) if other in line)],
                cause=f"The server's log says it loaded {match['path']}, a checkpoint of {folder}; {file.name} says "
                      f"the run is of {other}. The serving script still names the other experiment"
                      + (f" ({setting[0].name}:{setting[1]}: `{setting[2]}`)" if setting else "")
                      + f", so every rollout is {folder}'s model, and the report credits it to {other}. Nothing fails.",
                fix=(f"Point {setting[0].name} at {other} (`{setting[2]}` -> the {other} folder)" if setting else
                     f"Serve the checkpoint of {other}")
                    + ", start the server again and check what it loads (its log's `serving` line), then collect "
                      "again on a clean output path and profile.",
            )]
    return []


def rule_checkpoint_of_another_run_served(ev: Evidence) -> list[Finding]:
    wanted = ev.manifest.checkpoint_path
    if wanted is None or ev.manifest.checkpoint is None:
        return []
    name, _ = ev.manifest.checkpoint
    for file, number, line, served in lines_matching(ev.user_files, _SERVED_PATH):
        if Path(served["path"]) == Path(wanted) or Path(served["path"]).name != Path(wanted).name:
            continue
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server was started on {served['path']}, not on the run's checkpoint {wanted}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file="manifest.json", line=None, text=f"rollouts.checkpoint.path: {wanted}")],
            cause=f"{file.name} serves {Path(served['path']).name} of another folder ({Path(served['path']).parent}), "
                  f"a path copied from another run's or project's script, while the run records "
                  f"{name} at {wanted}. The step names match, so nothing looks wrong: every "
                  "rollout is the other model's answer, and the report credits it to this run's checkpoint.",
            fix=f"Give the server the run's checkpoint (`--checkpoint {wanted}` in {file.name}), start it again, "
                "then collect again on a clean output path and profile.",
        )]
    return []


READY_LINE = re.compile(r"SIMULATED_POLICY_READY (?P<url>\S+)|Uvicorn running on (?P<url2>\S+)")


def started_model_servers(ev: Evidence) -> list[tuple[str, int, EvidenceLine]]:
    """(address, checkpoint step, its line) of each model server whose log in the run folder says both."""
    found = []
    for log, head in ev.log_heads:
        lines = head.splitlines()[:50]
        ready = next(((n, m) for n, line in enumerate(lines, 1) if (m := READY_LINE.search(line))), None)
        step = next((int(re.sub(r"\D", "", m["step"] or m["name"])) for line in lines
                     if (m := _SERVED_STEP.search(line))), None)
        if ready and step is not None:
            number, match = ready
            address = (match["url"] or match["url2"]).rstrip("/").removesuffix("/v1")
            found.append((address, step, EvidenceLine(file=ev.rel(log), line=number, text=lines[number - 1].strip())))
    return found


def recorded_model_url(ev: Evidence) -> str:
    """The model URL the rollouts' manifest records: the run folder's, or the one beside the rollouts found in a folder
    under it (`results/<key>/`), else the one the logs name."""
    beside = ev.artifacts.files.rollouts.parent / MANIFEST_FILE
    if not ev.manifest.present and beside.is_file():
        try:
            recorded = orjson.loads(beside.read_bytes()).get(ROLLOUTS_STAGE, {}).get("model_url")
        except (orjson.JSONDecodeError, AttributeError, OSError):
            recorded = None
        if isinstance(recorded, str):
            return recorded
    return model_url_of(ev)


def rollouts_of_an_older_server(ev: Evidence) -> tuple[tuple[int, EvidenceLine], tuple[str, int, EvidenceLine]] | None:
    """((step, server line) of the server the rollouts record, the newest server started) when the run's logs show a
    server of a newer checkpoint than the one the rollouts came from."""
    used = recorded_model_url(ev).rstrip("/").removesuffix("/v1")
    servers = started_model_servers(ev)
    of_rollouts = next(((step, line) for address, step, line in servers if address == used), None)
    newest = max(servers, key=lambda server: server[1], default=None)
    if of_rollouts is None or newest is None or newest[1] <= of_rollouts[0]:
        return None
    return of_rollouts, newest


def rule_rollouts_kept_by_a_build_tool(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    hits = ev.hits("make_nothing_to_do")
    if not hits:
        return []
    up_to_date = hits[-1].evidence()
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    of_rollouts, newest = servers
    used = model_url_of(ev).rstrip("/").removesuffix("/v1")
    makefile = next((file.name for file in ev.user_files
                     if Path(file.name).name in MAKEFILE_NAMES), None)
    return [Finding(
        category=CACHE_RESUME,
        title=f"make kept the rollouts of checkpoint step {of_rollouts[0]}: the step {newest[1]} server was started, "
              "and make found nothing to do",
        evidence=[up_to_date, of_rollouts[1], newest[2]],
        cause=f"The rollouts were collected from the step {of_rollouts[0]} server ({used}); when the step "
              f"{newest[1]} server was started, make saw rollouts.jsonl newer than its inputs and did nothing: "
              "its rule for the rollouts depends on the materialized inputs only, not on the model. The report is "
              f"step {of_rollouts[0]}'s, credited to step {newest[1]}.",
        fix=f"Make the rollouts depend on the model in {makefile or 'the Makefile'} (a stamp file holding "
            "MODEL_URL and the checkpoint, written when they change, as a prerequisite), or force it this time "
            "(`make -B`, or delete rollouts.jsonl and the profile); then collect again and profile.",
    )]


# a literal server address in a user's program, and a setting of the share of traffic it gets (`CANARY_SHARE = 0.5`)
_ADDRESS_LITERAL = re.compile(r"""(?P<name>\w+)\s*=\s*["'](?P<address>https?://[^"'\s/]+)""")
_SHARE_SETTING = re.compile(r"^\s*\w*(?:SHARE|WEIGHT|FRACTION|PERCENT|RATIO|SPLIT|PROB)\w*\s*=\s*(?P<value>\d*\.?\d+)\s*(?:#|$)", re.I)


def rule_share_sent_to_a_server_of_another_checkpoint(ev: Evidence) -> list[Finding]:
    """The run's requests went through a gateway of the user's whose log forwards them to the server of one
    checkpoint, and whose own code sends a share of them to an address it names: a server of another checkpoint."""
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    servers = started_model_servers(ev)
    used = model_url_of(ev).rstrip("/").removesuffix("/v1")
    if len({step for _, step, _ in servers}) < 2 or any(address == used for address, _, _ in servers):
        return []
    step_of = {address: step for address, step, _ in servers}
    forwarded = {step for log, head in ev.log_heads if ev.rel(log) not in {line.file for _, _, line in servers}
                 for address, step in step_of.items() if re.search(rf"{re.escape(address)}(?!\d)", head)}
    if len(forwarded) != 1:
        return []
    [meant] = forwarded
    for file, number, line, match in lines_matching(ev.user_files, _ADDRESS_LITERAL, {".py"}):
        other = step_of.get(match["address"].rstrip("/"))
        share = next((found for found in lines_matching([file], _SHARE_SETTING)), None)
        if other is None or other == meant or share is None or float(share[3]["value"]) == 0:
            continue
        servers_of = {step: line for _, step, line in servers}
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name} sends a share of the requests ({share[2].strip()}) to {match['name']}, the step "
                  f"{other} server, while the run is of step {meant}",
            evidence=[servers_of[meant], servers_of[other],
                      EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=file.name, line=share[1], text=share[2].strip())],
            cause=f"The run's requests went through {file.name} ({used}), which forwards them to the step {meant} "
                  f"server but sends the share `{share[2].strip()}` to {match['address']}: the server of step "
                  f"{other}, by its own log. The rollouts mix the two checkpoints' answers and the profile averages "
                  f"them as step {meant}. Nothing fails.",
            fix=f"Turn the split off in {file.name} for evals ({share[2].strip().split('=')[0].strip()} = 0, or "
                f"point the run at the step {meant} server directly), then collect again on a clean output path and "
                "profile.",
        )]
    return []


# an address a program takes from the environment, with a default when the variable is unset
_ADDRESS_DEFAULT = re.compile(r"""environ\.get\(\s*["'](?P<python>\w+)["']\s*,\s*["'](?P<address>https?://[^"'/\s]+)"""
                              r"""|\$\{(?P<shell>\w+):?-(?P<fallback>https?://[^}/\s]+)""")


def _program_writing(ev: Evidence, log: Path, head: str) -> str | None:
    """The user's Python program in the run folder that serves HTTP (a gateway) and writes `log`: named like it
    (gateway.py, gateway.log), or named in its first lines."""
    opening = "\n".join(head.splitlines()[:3])
    return next((file.name for file in ev.user_files if file.suffix == ".py" and SERVES_HTTP.search(file.text)
                 and (Path(file.name).stem == log.stem or Path(file.name).name in opening)), None)


def rule_gateway_forwards_to_an_older_checkpoint(ev: Evidence) -> list[Finding]:
    """A log of the user's gateway forwards to the server of one checkpoint, older than a server started beside it
    that no log forwards to: the run's answers are the older model's."""
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    servers = started_model_servers(ev)
    if len({step for _, step, _ in servers}) < 2:
        return []
    own_logs = {line.file for _, _, line in servers}
    forwarded: dict[str, tuple[str, Path, EvidenceLine]] = {}
    for log, head in ev.log_heads:
        if ev.rel(log) in own_logs or (program := _program_writing(ev, log, head)) is None:
            continue
        for address, _, _ in servers:
            if (at := re.search(rf"{re.escape(address)}(?!\d)", head)) and address not in forwarded:
                number = head.count("\n", 0, at.start()) + 1
                forwarded[address] = (program, log, EvidenceLine(file=ev.rel(log), line=number,
                                                                 text=head.splitlines()[number - 1].strip()))
    newest = max(servers, key=lambda server: server[1])
    if len(forwarded) != 1 or newest[0] in forwarded:
        return []
    [(address, (program, log, line))] = forwarded.items()
    step, server_line = next((step, at) for known, step, at in servers if known == address)
    default = next(((file, number, text.strip(), match["python"] or match["shell"]) for file, number, text, match in
                    lines_matching(ev.user_files, _ADDRESS_DEFAULT)
                    if (match["address"] or match["fallback"]).rstrip("/") == address), None)
    by = (f" {default[0].name}:{default[1]} takes its upstream from {default[3]} and falls back to {address} when "
          f"{default[3]} is unset (`{default[2]}`): the gateway was started without it." if default else "")
    return [Finding(
        category=MODEL_SERVING,
        title=f"{program} ({ev.rel(log)}) forwards the requests to {address}, the step "
              f"{step} server, while the step "
              f"{newest[1]} server started for this run gets none"
              + (f": {default[3]} unset, {default[0].name} fell back to its default" if default else ""),
        evidence=[line, server_line, newest[2],
                  *([EvidenceLine(file=default[0].name, line=default[1], text=default[2])] if default else [])],
        cause=f"The run's requests go through {program}, and its log sends them to {address}: "
              f"the server of step {step}, by its own log. The step {newest[1]} server started beside it is named by "
              f"no log that forwards. Every answer is step {step}'s, and the report credits it to step "
              f"{newest[1]}." + by + " Nothing fails.",
        fix=(f"Start {default[0].name} with {default[3]} set to the step {newest[1]} server "
             f"(`{default[3]}={newest[0]} python3 {default[0].name} ...`), and make it refuse to start without "
             f"{default[3]} rather than fall back to another deployment"
             if default else f"Point the gateway's upstream at the step {newest[1]} server ({newest[0]})")
            + "; check it with `curl -s <model URL>/v1/models` and the server's log, then collect again on a clean "
              "output path and profile.",
    )]


_READY_FILE = re.compile(r"--ready-file[ =](?P<path>[^\s;|&]+)")


def rule_servers_given_one_ready_file(ev: Evidence) -> list[Finding]:
    """Two model servers started with one `--ready-file`: each writes its address there when it is ready, so the
    file names the one ready last, and the run that reads its model URL from the file asks that one. Its rollouts come
    from an older checkpoint's server than the newest started."""
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (used_step, used_line), newest = servers
    by_path: dict[str, list[EvidenceLine]] = {}
    for file, number, line, match in lines_matching(ev.user_files, _READY_FILE, SCRIPT_SUFFIXES):
        by_path.setdefault(match["path"], []).append(EvidenceLine(file=file.name, line=number, text=line.strip()))
    shared = next(((path, starts) for path, starts in by_path.items() if len(starts) >= 2), None)
    if shared is None:
        return []
    path, starts = shared
    reader = next((EvidenceLine(file=file.name, line=number, text=line.strip())
                   for file, number, line, _ in lines_matching(ev.user_files, re.compile(re.escape(path)),
                                                                SCRIPT_SUFFIXES)
                   if "--ready-file" not in line), None)
    read_where = f"{reader.where} (`{reader.text}`)" if reader else "the run"
    return [Finding(
        category=MODEL_SERVING,
        title=f"The rollouts came from the step {used_step} server: it and the step {newest[1]} server were started "
              f"with one --ready-file ({path}), and the run took its model URL from the one ready last",
        evidence=[*starts[:2], *([reader] if reader else []), used_line, newest[2]],
        cause=f"{starts[0].where} and {starts[1].where} give their servers the same --ready-file, {path}: each server "
              f"writes its address there once it is ready, so the file holds the address of whichever was ready last. "
              f"{read_where} reads the model URL from it, and the run asked the step {used_step} server "
              f"({used_line.where}) rather than the step {newest[1]} one started beside it ({newest[2].where}): every "
              "rollout is the other model's. Nothing fails.",
        fix=f"Give each server a --ready-file of its own (for example {path}.step_{newest[1]} and "
            f"{path}.step_{used_step}) and read the URL of the server meant"
            + (f" in {reader.file} (line {reader.line})" if reader else "")
            + "; then collect again on a clean output path and profile.",
    )]
