"""Step 2: the checkpoint the run's own logs say was deployed or meant is not the one its model server loaded.

A deploy script says `deployed step_0200 to serving/current`, a submit script `model server job 277 for
.../step_0200`; the server that answered the run says, in its own log, that it serves step 100. Every command exits
0 and the whole eval measures the old model. How the copy or the choice went wrong is named where the scripts show it:
- `cp -r SRC serving/current` onto a folder that exists copies SRC *into* it (serving/current/step_0200), and the
  server loads the folder's old files;
- `cp -n` (no-clobber) keeps every file that exists under the same name: nothing of the new checkpoint is copied;
- a serving script taking its checkpoint from its first argument with a default (`CKPT=${1:-baseline}`), given the
  checkpoint as an exported variable instead: the assignment overwrites it with the default;
- the other way round: a serving script taking it from a variable with a default (`CKPT=${CKPT:-released}`) and
  reading no argument, given the checkpoint as its argument (`sbatch serve.sbatch .../step_0200`): the default wins.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import recorded_model_url, started_model_servers
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# a line of the run's own logs naming the checkpoint it deploys or is for: `deployed step_0200 to ...`,
# `model server job 277 for .../step_0200`
_MEANT = re.compile(r"\b(?:deploy(?:ed|ing)?|promot(?:ed|ing)|for|serving|checkpoint)\b[^\n]*?\b(?P<name>step_?0*(?P<step>\d+))\b",
                    re.I)
_RECURSIVE_COPY = re.compile(r"^\s*cp\s+(?P<flags>-\w+\s+)*(?P<source>\S+)\s+(?P<target>[^\s;&|#]+)\s*(?:#.*)?$")
_DEFAULTED_ARGUMENT = re.compile(r"^\s*(?P<var>[A-Za-z_]\w*)=\"?\$\{1:-")
_DEFAULTED_VARIABLE = re.compile(r"^\s*(?:export\s+)?(?P<var>[A-Za-z_]\w*)=\"?\$\{(?P=var):?-(?P<default>[^}]*)\}")
# what reads a script's arguments: $1, ${1...}, $@, $*, getopts, shift
_READS_ARGUMENTS = re.compile(r"\$\{?[1-9@*#]|\bgetopts\b|\bshift\b")


def rule_deployed_checkpoint_not_the_one_served(ev: Evidence) -> list[Finding]:
    servers = started_model_servers(ev)
    if not servers:
        return []
    used = recorded_model_url(ev).rstrip("/").removesuffix("/v1")
    answered = next(((step, line) for address, step, line in servers if address == used), None)
    if answered is None and len({step for _, step, _ in servers}) == 1:
        answered = (servers[0][1], servers[0][2])
    if answered is None:
        return []
    served_step, served_line = answered
    server_logs = {line.file for _, _, line in servers}
    meant = next(((line, match) for log, head in ev.log_heads if ev.rel(log) not in server_logs
                  for number, text in enumerate(head.splitlines()[:200], 1)
                  if (match := _MEANT.search(text)) and int(match["step"]) > served_step
                  for line in [EvidenceLine(file=ev.rel(log), line=number, text=text.strip())]), None)
    if meant is None:
        return []
    said, match = meant
    how, fix = _how_the_server_got_the_old_one(ev, match["name"])
    return [Finding(
        category=MODEL_SERVING,
        title=f"{said.where} says the run is of {match['name']}, and the model server that answered it serves step "
              f"{served_step}",
        evidence=[said, served_line, *how[:1]],
        cause=f"{said.where} names {match['name']} as the checkpoint deployed (or the server started for), while the "
              f"server the run's requests went to says it loaded step {served_step} ({served_line.where}). Every "
              f"command exits 0, and every rollout is step {served_step}'s answer, credited to {match['name']}."
              + (f" {how[1]}" if len(how) > 1 else ""),
        fix=fix + " Check what the server loaded (its log's checkpoint line, or `curl -s <model URL>/models`) "
                  "before collecting, then collect again on a clean output path and profile.",
        about_the_outputs=True,
    )]


def _how_the_server_got_the_old_one(ev: Evidence, name: str) -> tuple[list, str]:
    """([the script line, a sentence of why] when the scripts show how the old checkpoint stayed, the fix)."""
    for file, number, line, copy in lines_matching(ev.user_files, _RECURSIVE_COPY, SCRIPT_SUFFIXES):
        flags = "".join(re.findall(r"-(\w+)", copy["flags"] or ""))
        target = copy["target"].rstrip("/")
        where = EvidenceLine(file=file.name, line=number, text=line.strip())
        if "n" in flags or "--no-clobber" in line:
            return ([where, f"{where.where} copies with `cp -n` (no-clobber): every file of the new checkpoint that "
                             "exists under the same name in the target is left as it was, so nothing of it was copied."],
                    f"In {file.name} (line {number}), drop `-n` (`cp -n`, no-clobber): copy the new checkpoint into a "
                    "fresh folder "
                    "and switch to it (`cp -r SRC serving/new && mv -T serving/new serving/current`), so a half-done "
                    "copy is never served either.")
        if "r" in flags.lower() and not copy["source"].rstrip("/").endswith("/.") and ev.first_in_log_heads(
                re.compile(rf"^{re.escape(name)}$", re.M)):
            return ([where, f"{where.where} runs `cp -r SRC {target}` onto a folder that already exists: cp then copies "
                             f"SRC *into* it ({target}/{name}), and {target} keeps the old checkpoint's files."],
                    f"In {file.name} (line {number}), replace the folder rather than copy into it: `rm -rf {target} && "
                    f"cp -r {copy['source']} {target}` (or `cp -rT`); then restart the server on {target}.")
    if ignored := _argument_the_script_ignores(ev, name):
        return ignored
    for file, number, line, default in lines_matching(ev.user_files, _DEFAULTED_ARGUMENT, SCRIPT_SUFFIXES):
        var = default["var"]
        if any(re.search(rf"\b{var}=", other.text) for other in ev.user_files if other is not file):
            where = EvidenceLine(file=file.name, line=number, text=line.strip())
            return ([where, f"{where.where} takes {var} from the script's first argument (`$1`), with a default: a "
                             f"{var} given in the environment (`--export` or `export`) is overwritten by that line."],
                    f"Give {file.name} the checkpoint as its first argument, `$1` (`sbatch {file.name} <checkpoint>`: a value "
                    f"passed with `--export` or `export` is overwritten there), or make the line keep an exported value "
                    f"(`{var}=${{1:-${{{var}:-<default>}}}}`).")
    return [], "Serve the checkpoint the run is of: start the server on it (or deploy it again) and restart the server."


def _argument_the_script_ignores(ev: Evidence, name: str) -> tuple[list, str] | None:
    """([the script's defaulted line, why], fix) when a script that takes the checkpoint from a variable with a default
    and reads no argument was given `name` as its argument by another script; None otherwise."""
    for file, number, line, default in lines_matching(ev.user_files, _DEFAULTED_VARIABLE, SCRIPT_SUFFIXES):
        if _READS_ARGUMENTS.search(file.text):
            continue
        call = re.compile(rf"(?:^|[\s/]){re.escape(file.name)}\s+(?P<argument>[^\s;&|>#]*{re.escape(name)}[^\s;&|>#]*)")
        caller = next(((other, n, text) for other, n, text, _ in lines_matching(ev.user_files, call, SCRIPT_SUFFIXES)
                       if other is not file), None)
        if caller is None:
            continue
        var, fallback = default["var"], default["default"].strip("\"'")
        where = EvidenceLine(file=file.name, line=number, text=line.strip())
        return ([where, f"{where.where} takes the checkpoint from {var} with a default ({fallback}) and reads no "
                        f"argument; {caller[0].name}:{caller[1]} gives {name} as an argument, which is ignored."],
                f"{file.name} ignores its arguments: give it the checkpoint as {var} (`{var}=<checkpoint> sbatch "
                f"{file.name}`, or `sbatch --export=ALL,{var}=...`) instead of as an argument in {caller[0].name} "
                f"(line {caller[1]}), or make {file.name} read it (`{var}=${{1:-${{{var}:-{fallback}}}}}`); it served "
                f"the default {fallback} instead of {name}.")
    return None
