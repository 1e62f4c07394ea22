"""Step 3: settings of NeMo Gym kept from another use of it (a load test, training, a laptop) that change the eval.

A team passes the same settings file to every `gym env start` (an overrides list, a model YAML given with
`+config_paths`), and a setting meant for another job comes along:
- `skip_verification=true` (a load test of the serving stack): the agents never call the resources server's
  `/verify`, and every rollout gets `skip_verification_reward` (0.0 by default) whatever it answered;
- the model server's `endpoint_file` (an RL run's serving job publishes its URL there): Gym's vllm_model re-reads it
  and rebinds its clients to that server (`backend endpoint changed ... rebinding clients`), away from the
  `--model-url` the eval was given;
- `server_spinup_timeout_seconds` of a few seconds (fail fast on a laptop): the servers need longer to start on the
  eval node, and `gym env start` gives up on them.
- `dispatch_budget_s` given in minutes (`20`): Gym stops starting rollouts after that many seconds and drains the
  rest (throughput: the budget, not the data or the model, ended the collection).
Named from the setting's line in the user's file and what Gym wrote of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, THROUGHPUT_RESOURCES


def setting_lines(ev: Evidence, pattern: re.Pattern[str]) -> Iterator[tuple[str, int, str, re.Match[str]]]:
    """(file, line, text, match) of the uncommented lines of the user's files, and of the run folder's own text
    files (an overrides list kept as `team_overrides.txt`), where `pattern` matches."""
    for file, number, line, match in lines_matching(ev.user_files, pattern):
        if not line.lstrip().startswith("#"):
            yield file.name, number, line.strip(), match
    for name, lines in ev.text_settings:
        for number, line in enumerate(lines, 1):
            if not line.lstrip().startswith("#") and (match := pattern.search(line)):
                yield name, number, line.strip(), match


def block_setting(ev: Evidence, block: str, key: re.Pattern[str]) -> tuple[UserFile, int, str, re.Match[str]] | None:
    """(file, line, text, match) of the first `key` under a `block:` mapping of the user's YAML (Gym's model server
    settings: `sampling_overrides:`, `extra_body:`), or on the block's own line (`extra_body: {max_tokens: 6}`)."""
    opens = re.compile(rf"^(?P<indent>\s*){re.escape(block)}\s*:(?P<inline>.*)$")
    for file in ev.user_files:
        if file.suffix not in (".yaml", ".yml"):
            continue
        lines = file.text.splitlines()
        for index, line in enumerate(lines):
            if (opened := opens.match(line)) is None:
                continue
            if found := key.search(opened["inline"]):
                return file, index + 1, line, found
            for number, inner in enumerate(lines[index + 1:], index + 2):
                if inner.strip() and len(inner) - len(inner.lstrip()) <= len(opened["indent"]):
                    break  # the block ended
                if not inner.lstrip().startswith("#") and (found := key.search(inner)):
                    return file, number, inner, found
    return None


_SKIP_VERIFICATION = re.compile(r"\bskip_verification\s*[:=]\s*(?:true|True|1|yes)\b")
_SKIPPED = re.compile(r"Skipping aggregate metrics because skip_verification=True")
_SKIP_REWARD = re.compile(r"\bskip_verification_reward\s*[:=]\s*(?P<reward>-?[\d.]+)")


def rule_verification_skipped_by_a_kept_setting(ev: Evidence) -> list[Finding]:
    setting = next(setting_lines(ev, _SKIP_VERIFICATION), None)
    if setting is None:
        return []
    file, number, line, _ = setting
    said = ev.first_in_log_heads(_SKIPPED)
    reward = next((match["reward"] for *_, match in setting_lines(ev, _SKIP_REWARD)), "0.0")
    return [Finding(
        category=CONFIG,
        title=f"{file}:{number} turns Gym's verification off (`skip_verification=true`): every rollout got the "
              f"placeholder reward {reward}, whatever it answered",
        evidence=[EvidenceLine(file=file, line=number, text=line), *([said[0]] if said else [])],
        cause="With `skip_verification` on, Gym's agents never send the rollouts to the resources server's /verify "
              f"and give each one `skip_verification_reward` ({reward}): the rewards, the profile and pass@k say "
              "nothing of the model. The setting is for load tests of the serving stack.",
        fix=f"Remove `skip_verification` (and `skip_verification_reward`) from {file} (line {number}) for evals; "
            "then score the stored responses (`gym-pipeline reverify`, no model needed) or collect again, and "
            "profile.",
    )]


_ENDPOINT_FILE = re.compile(r"\bendpoint_file\s*[:=]\s*(?P<path>\S+)")
_REBOUND = re.compile(r"backend endpoint changed \[?'?(?P<old>[^'\]\s]+)'?\]? -> \[?'?(?P<new>[^'\]\s]+)'?\]?; "
                      r"rebinding clients")


def rule_model_url_replaced_by_an_endpoint_file(ev: Evidence) -> list[Finding]:
    rebound = ev.first_in_log_heads(_REBOUND)
    setting = next(setting_lines(ev, _ENDPOINT_FILE), None)
    if rebound is None or setting is None:
        return []
    said, match = rebound
    file, number, line, endpoint = setting
    return [Finding(
        category=CONFIG,
        title=f"{file}:{number} gives Gym's model server an `endpoint_file`: Gym rebound its clients from "
              f"{match['old']} to {match['new']}, the server that file names",
        evidence=[said, EvidenceLine(file=file, line=number, text=line)],
        cause=f"Gym's vllm_model re-reads `endpoint_file` ({endpoint['path']}) while it runs and sends the requests "
              f"to the URL written there, replacing the one it was started with ({match['old']}); that file is "
              "published by another serving job (a training run's), so the rollouts came from that job's model, not "
              "the checkpoint the eval meant. Nothing fails.",
        fix=f"Remove `endpoint_file` from {file} (line {number}) for evals, or give the eval a settings file of its "
            "own without it, so the model URL the eval is started with stays; then collect again on a clean output "
            "path and profile.",
    )]


_SPINUP_TIMEOUT = re.compile(r"\bserver_spinup_timeout_seconds\s*[:=]\s*(?P<seconds>\d+(?:\.\d+)?)")
_SPINUP_EXPIRED = re.compile(r"server_spinup_timeout_seconds")
MIN_SPINUP_S = 60  # Gym's servers (uv venvs, Ray) take tens of seconds to start on a loaded node


def rule_servers_given_too_short_a_spinup_timeout(ev: Evidence) -> list[Finding]:
    setting = next((hit for hit in setting_lines(ev, _SPINUP_TIMEOUT)
                    if 0 < float(hit[3]["seconds"]) < MIN_SPINUP_S), None)
    expired = ev.first_in_log_heads(_SPINUP_EXPIRED)
    if setting is None or expired is None:
        return []
    file, number, line, match = setting
    return [Finding(
        category=CONFIG,
        title=f"{file}:{number} gives Gym's servers {match['seconds']} s to start "
              "(`server_spinup_timeout_seconds`): `gym env start` gave up on them before they were up",
        evidence=[EvidenceLine(file=file, line=number, text=line), expired[0]],
        cause=f"`server_spinup_timeout_seconds={match['seconds']}` (a fail-fast setting) is shorter than Gym's "
              "servers take to start here (their venvs, Ray, the first import): Gym stopped waiting and no rollout "
              "ran.",
        fix=f"Raise `server_spinup_timeout_seconds` in {file} (line {number}) to a few minutes, or set it to 0 to "
            "wait without a limit; then start the servers again and collect.",
    )]


_DRAINED = re.compile(r"Drained \(not dispatched, no time left in the budget\): (?P<count>\d+)")
_DISPATCH_BUDGET = re.compile(r"\bdispatch_budget_s\s*[:=]\s*(?P<seconds>\d+(?:\.\d+)?)")
MINUTES_LIKELY_BELOW_S = 120  # a budget of seconds this short was most likely meant in minutes


def rule_rows_left_undispatched_by_the_dispatch_budget(ev: Evidence) -> list[Finding]:
    """Gym's `dispatch_budget_s` ran out and left rows never dispatched: a budget in seconds, often given in
    minutes (`20` for twenty minutes), ends the collection part way; the profile then refuses the partial run."""
    drained = ev.first_in_log_heads(_DRAINED)
    if drained is None:
        return []
    said, match = drained
    if (capped := _parallel_cap(ev)) is not None:
        return [_budget_spent_one_at_a_time(said, match["count"], *capped)]
    setting = next(setting_lines(ev, _DISPATCH_BUDGET), None)
    seconds = float(setting[3]["seconds"]) if setting else None
    minutes = seconds is not None and seconds < MINUTES_LIKELY_BELOW_S
    where = f"{setting[0]}:{setting[1]}" if setting else "the run's settings"
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Gym's dispatch budget ran out: {match['count']} rollouts were never dispatched"
              + (f" ({where} gives `dispatch_budget_s={setting[3]['seconds']}`, seconds)" if setting else ""),
        evidence=[said, *([EvidenceLine(file=setting[0], line=setting[1], text=setting[2])] if setting else [])],
        cause="`dispatch_budget_s` is the time, in seconds, in which Gym starts new rollouts; once less is left than "
              "a task takes, the rest are drained, never sent, and write no row"
              + (f": {seconds:g} s was most likely meant as {seconds:g} minutes" if minutes else "")
              + ". The collection is partial, and the profile refuses it.",
        fix=f"Give `dispatch_budget_s` in seconds in {where}"
            + (f" (`dispatch_budget_s={seconds * 60:g}` for {seconds:g} minutes)" if minutes else "")
            + ", or remove it; then resume the collection (`gym eval run ... --resume` dispatches the drained rows) "
            "and profile.",
    )]


_PARALLEL_CAP = re.compile(r"\bnum_samples_in_parallel\s*[:=]\s*(?P<cap>\d+)")
_QUERYING = re.compile(r"Querying with (?P<running>\d+) concurrent requests")
_CONCURRENCY_ASKED = re.compile(r"--concurrency[ =](?P<asked>\d+)")


def _parallel_cap(ev: Evidence) -> tuple[tuple[str, int, str], int, int, EvidenceLine] | None:
    """(the setting's file, line and text; the cap; the concurrency the script asks for; Gym's log line) when a
    `num_samples_in_parallel` setting holds Gym below the `--concurrency` the user's script gives, and Gym says so."""
    setting = next(setting_lines(ev, _PARALLEL_CAP), None)
    querying = ev.first_in_log_heads(_QUERYING)
    # the concurrency asked: the user's script's `--concurrency`, or the one our engine recorded in the manifest
    asked = next(lines_matching(ev.user_files, _CONCURRENCY_ASKED), None)
    wanted = int(asked[3]["asked"]) if asked else max((n for n, _ in ev.manifest.concurrency), default=None)
    if setting is None or querying is None or wanted is None:
        return None
    cap, running = int(setting[3]["cap"]), int(querying[1]["running"])
    if running != cap or cap >= wanted:
        return None
    return setting[:3], cap, wanted, querying[0]


def _budget_spent_one_at_a_time(drained: EvidenceLine, count: str, setting: tuple[str, int, str], cap: int,
                                 wanted: int, querying: EvidenceLine) -> Finding:
    file, line, text = setting
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Gym ran {cap} rollout(s) at a time, not {wanted}: {file}:{line} keeps `num_samples_in_parallel={cap}`, "
              f"and the dispatch budget ran out with {count} rollouts never dispatched",
        evidence=[querying, EvidenceLine(file=file, line=line, text=text), drained],
        cause=f"`num_samples_in_parallel` caps how many rollouts Gym runs at once whatever `--concurrency` says: "
              f"{file}:{line} sets it to {cap} (a debugging setting, so log lines do not interleave), Gym queried with "
              f"{cap} concurrent request(s) where the script asked for {wanted}, and the collection went that much "
              "slower, so the dispatch budget ran out before every row was sent. The collection is partial, and the "
              "profile refuses it.",
        fix=f"Remove `num_samples_in_parallel={cap}` from {file}:{line} (or set it to the concurrency you want, "
            f"{wanted}); then resume the collection (`gym eval run ... --resume` dispatches the drained rows) and "
            "profile.",
    )


_DRY_RUN = re.compile(r"\bdry_run\s*[:=]\s*(?:true|True|1|yes)\b")
_DRY_RUN_SAID = re.compile(r"DRY_RUN enabled")


def rule_servers_only_prepared_by_a_kept_dry_run(ev: Evidence) -> list[Finding]:
    """`dry_run=true` kept in the settings given to `gym env start` (an image build's venv prewarm step): Gym sets up
    each server's environment and exits without serving, so the eval finds no server."""
    said = ev.first_in_log_heads(_DRY_RUN_SAID)
    setting = next(setting_lines(ev, _DRY_RUN), None)
    if said is None or setting is None:
        return []
    file, number, line, _ = setting
    return [Finding(
        category=CONFIG,
        title=f"{file}:{number} runs `gym env start` as a dry run (`dry_run=true`): it prepared the servers' "
              "environments and exited without serving any",
        evidence=[EvidenceLine(file=file, line=number, text=line), said[0]],
        cause="With `dry_run` on, `gym env start` only runs each server's setup (its venv) and ends ('NeMo Gym "
              "finished!'): the setting is for an image build's prewarm step. No server was up when the eval ran, so "
              "it reached none and collected nothing.",
        fix=f"Remove `dry_run=true` from {file} (line {number}) for evals (keep it in the image build's own "
            "settings); start the servers again and collect.",
    )]


_PORT_RANGE = re.compile(r"\bport_range_(?P<end>low|high)\s*[:=]\s*(?P<port>\d+)")
_PORT_SEARCH = re.compile(r"in _find_open_port_using_range")


def rule_port_range_narrower_than_the_servers_gym_starts(ev: Evidence) -> list[Finding]:
    """A `port_range_low`/`port_range_high` with fewer ports than the servers `gym env start` places there: Gym
    draws ports from the range until it finds a free one, forever, and no server starts."""
    searching = ev.first_in_log_heads(_PORT_SEARCH)
    ends = {hit[3]["end"]: hit for hit in setting_lines(ev, _PORT_RANGE)}
    if searching is None or set(ends) != {"low", "high"}:
        return []
    low, high = int(ends["low"][3]["port"]), int(ends["high"][3]["port"])
    file, number, line, _ = ends["high"]
    return [Finding(
        category=CONFIG,
        title=f"{file}:{number} gives Gym {high - low + 1} port(s) (`port_range_low={low}` to "
              f"`port_range_high={high}`): `gym env start` was still looking for a free one when it was stopped",
        evidence=[EvidenceLine(file=file, line=ends["low"][1], text=ends["low"][2]),
                  EvidenceLine(file=file, line=number, text=line), searching[0]],
        cause="Gym places every server it starts (the head server, the model server's proxy, each agent and "
              "resources server) on a port of its own drawn from `port_range_low`..`port_range_high`, and draws "
              f"again until one is free: with more servers than the {high - low + 1} port(s) of the range, the "
              "search never ends, so no server started and the eval collected nothing.",
        fix=f"Widen the range in {file} (`port_range_high` at line {number}) to a port for every server Gym starts "
            "and a few spare (ask for a block of 20 or more), or drop both settings to let Gym take free ports; "
            "then start the servers again and collect.",
    )]


_MODEL_REFUSED = re.compile(r"[Tt]he model `(?P<name>[^`]+)` does not exist")
_ENV_WITH_DEFAULT = re.compile(r"\$\{oc\.env:(?P<var>\w+),\s*(?P<default>[^}]+?)\s*\}")
_FAILURES_HEAD_BYTES = 64 << 10


def _refused_model(ev: Evidence) -> tuple[EvidenceLine | None, str] | None:
    """(where, the name) of the first model name the model server said it does not serve, in a log or the failed
    attempts' sidecar."""
    if said := ev.first_in_log_heads(_MODEL_REFUSED):
        return said[0], said[1]["name"]
    failures = ev.artifacts.files.failures
    if failures.is_file():
        with failures.open("rb") as file:
            head = file.read(_FAILURES_HEAD_BYTES).decode("utf-8", errors="replace").replace('\\"', '"')
        if match := _MODEL_REFUSED.search(head):
            return None, match["name"]
    return None


def rule_model_name_fallen_back_to_a_settings_default(ev: Evidence) -> list[Finding]:
    """The model server refused a model name that is the default of a `${oc.env:VAR,default}` in the user's Gym
    settings: VAR, which the settings' owners export where they run, is unset in this shell, and Gym asked for the
    default (another deployment's model)."""
    refused = _refused_model(ev)
    if refused is None:
        return []
    where, name = refused
    setting = next((hit for hit in lines_matching(ev.user_files, _ENV_WITH_DEFAULT)
                    if hit[3]["default"].strip("'\"") == name), None)
    if setting is None:
        return []
    file, number, line, match = setting
    return [Finding(
        category=CONFIG,
        title=f"{file.name}:{number} takes the model name from ${match['var']}, unset here, and fell back to "
              f"{name}, which the model server does not serve",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *([where] if where else [])],
        cause=f"`{match.group(0)}` reads the environment variable {match['var']} when Gym loads the settings and "
              f"uses {name} when it is unset: the settings' owners export {match['var']} where they run (their "
              f"launcher), this run's shell did not, so every request asked the model server for {name}, and it "
              "refused them all (model does not exist).",
        fix=f"Export {match['var']} to the name the model server serves before `gym env start` (`export "
            f"{match['var']}=<served name>`; `curl -s <model-url>/models` lists it), or give the eval its own "
            f"settings with the model named in {file.name}:{number}; then start the servers again and collect.",
    )]
