"""Step 2: the model URL written into a script as a fixed address, while the run meant another server.

A team's batch template that makes the URL explicit (`#SBATCH --export=ALL,MODEL_URL=http://host:8000/v1`, so the
job log shows which server it used), or a URL copied into a script from last week's run, keeps pointing at a
long-running server of an older checkpoint. The user starts this week's server and exports its URL, but the
script's value wins: an explicit `NAME=value` in `--export` replaces what the submitting shell exported. Every
command exits 0, and the rollouts are the older model's. Named when the rollouts came from an older checkpoint's
server than the newest the run's logs started, and a script of the run writes that server's address. The same when a
CI env file exports the older address and the Makefile gives the newest with `?=`, which yields to the environment.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import recorded_model_url, rollouts_of_an_older_server
from gym_pipeline.diagnose.user_scripts import MAKEFILE_NAMES, SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_EXPORT_DIRECTIVE = re.compile(r"^\s*#SBATCH\s+--export[= ]\S*?\b(?P<name>[A-Za-z_]\w*)=")


def rule_model_url_pinned_to_an_older_server(ev: Evidence) -> list[Finding]:
    if (servers := rollouts_of_an_older_server(ev)) is None:
        return []
    (used_step, used_line), newest = servers
    address = urlsplit(recorded_model_url(ev)).netloc
    if not address or newest[0].endswith(f"//{address}"):
        return []  # the newest server had that address too (one port, servers in turn): the URL is not what is wrong
    pinned = next(((file, number, line) for file, number, line, _ in
                   lines_matching(ev.user_files, re.compile(rf"//{re.escape(address)}\b"), SCRIPT_SUFFIXES)), None)
    if pinned is None:
        return _env_file_beats_a_conditional_assignment(ev, address, used_step, used_line, newest)
    file, number, line = pinned
    where = EvidenceLine(file=file.name, line=number, text=line.strip())
    directive = _EXPORT_DIRECTIVE.match(line)
    how = (f"An explicit `{directive['name']}=value` in `--export` is set in the job whatever the submitting shell "
           f"exported, so the job's {directive['name']} was that address, not the one of the server started for this "
           "run." if directive else
           "The script uses that address whatever server was started for this run.")
    return [Finding(
        category=CONFIG,
        title=f"{where.where} fixes the model URL to {address}, the step {used_step} server, while the run started "
              f"the step {newest[1]} server: the rollouts are the older checkpoint's",
        evidence=[where, used_line, newest[2]],
        cause=f"{where.where} writes the address {address} ({used_line.where}: the step {used_step} checkpoint's "
              f"server) into the run. {how} Every command exits 0; the step {newest[1]} server ({newest[2].where}) "
              "got no request, and the rewards are of the older model.",
        fix=(f"Drop `{directive['name']}=...` from the `#SBATCH --export` line of {file.name} (keep `--export=ALL`, "
             f"so the job takes the {directive['name']} the submitting shell exports), or set it there to the server "
             "meant"
             if directive else
             f"Take the model URL from the server started for the run in {file.name} (a variable or its ready file) "
             f"instead of the fixed address {address}")
            + "; then collect again on a clean output path and profile.",
    )]


# an env file's `NAME=value` (`ci.env`, sourced with `set -a`), and a Makefile's `NAME ?= value`
_ENV_FILE_SETTING = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=")
_CONDITIONAL_ASSIGNMENT = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*\?=\s*(?P<value>\S+)")


def _env_file_beats_a_conditional_assignment(ev: Evidence, address: str, used_step: int, used_line: EvidenceLine,
                                             newest: tuple[str, int, EvidenceLine]) -> list[Finding]:
    """The older server's address in an env file the CI exports, and the newest server's given by a Makefile's
    `NAME ?= value`, which applies only when NAME is not in the environment: the env file's value wins."""
    setting = next(((file, number, line, match) for file, number, line, match in lines_matching(
        ev.user_files, _ENV_FILE_SETTING, {".env"}) if f"//{address}" in line), None)
    conditional = next(((file, number, line, match) for file, number, line, match in lines_matching(
        [file for file in ev.user_files if PurePosixPath(file.name).name in MAKEFILE_NAMES], _CONDITIONAL_ASSIGNMENT)
        if newest[0].split("//")[-1] in match["value"]), None)
    if setting is None or conditional is None or setting[3]["name"] != conditional[3]["name"]:
        return []
    name = setting[3]["name"]
    env_file, env_number, env_line = setting[0].name, setting[1], setting[2].strip()
    makefile, make_number, make_line = conditional[0].name, conditional[1], conditional[2].strip()
    return [Finding(
        category=CONFIG,
        title=f"{makefile}:{make_number} sets {name} with `?=`, which yields to the environment: {env_file}:{env_number} "
              f"exports the step {used_step} server's address, and the rollouts are the older checkpoint's",
        evidence=[EvidenceLine(file=makefile, line=make_number, text=make_line),
                  EvidenceLine(file=env_file, line=env_number, text=env_line), used_line, newest[2]],
        cause=f"`{make_line}` assigns only when {name} is not already in the environment, and the CI exports "
              f"{env_file} (`{env_line}`, the step {used_step} server) before make runs: make used that address, so "
              f"the step {newest[1]} server ({newest[2].where}) got no request and every command exited 0.",
        fix=f"Make the Makefile's value win for this target (`{name} := ...` or `override {name} = ...` in "
            f"{makefile}:{make_number}, keeping `?=` only for values CI may override on purpose), or drop the stale "
            f"`{name}=` from {env_file}:{env_number}; then collect again on a clean output path and profile.",
    )]
