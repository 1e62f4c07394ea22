"""The one table of log signatures, and the known problems they prove.

A `Signature` names a line shape. The log collector finds the lines that match any signature
(all of them at once, with Arrow's RE2 kernels: see `logs.py`), and rules read the hits by name:

- structure: what a log is made of (a traceback, an error line, shutdown, a new start);
- facts that dedicated rules interpret (readiness counts, missing keys, listening URLs...);
- known problems: the exact messages the debugging guide (seeds/000) and the task-folder
  troubleshooting page (seeds/004) quote, and what NeMo Gym 0.7.0 prints. Each `KnownProblem`
  lists the hits that prove it and says, once, its category, cause and fix; one generic rule
  turns hits into findings in the debug order.

Patterns must compile under both RE2 and Python `re` (no lookaround, no backreference; scoped
flags `(?i:...)` only; named groups are unique within a pattern). `test_diagnose_signatures.py`
checks that, and that every signature matches a line of a real or reproduced log.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CONFIG,
    DATA_SCHEMA,
    INFRA,
    MODEL_SERVING,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)

# What may precede a message on a line: a progress bar's "\r", Ray's "(server_name) " or
# "(pid=1, ip=...) ", and a timestamp in one of the shapes Gym, Ray, Hydra and uvicorn print.
LINE_START = (
    r"(?:^|\r)(?:\([^)\n]*\) )?"
    r"(?:\[\d{4}-\d\d-\d\d[ T][\d:,.]+\] ?|\d{4}-\d\d-\d\d[ T][\d:,.]+\s+)?"
)
# ... and the standard library's lower-case ones (`socket.gaierror: [Errno -3] Temporary failure in name resolution`)
EXCEPTION_NAME = (r"(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)\b|(?:pyarrow\.lib\.)?ArrowInvalid\b"
                  r"|socket\.(?:gaierror|herror|timeout)\b")


@dataclass(frozen=True)
class Signature:
    name: str
    pattern: str

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern, re.ASCII | re.MULTILINE)

    @cached_property
    def bare(self) -> str:
        """The pattern without named groups, for matching only (RE2 rejects duplicate names in a union)."""
        return re.sub(r"\(\?P<\w+>", "(?:", self.pattern)


# Names the log collector reads as structure, not as facts.
TRACEBACK = "traceback"
ERROR_LINE = "error_line"
EXCEPTION_LINE = "exception_line"
SHUTDOWN = "shutdown"
STARTUP = "startup"
CAUSED_BY = "caused_by"
STRUCTURE = (TRACEBACK, ERROR_LINE, EXCEPTION_LINE, SHUTDOWN, STARTUP, CAUSED_BY)

CREDENTIAL_HELPER_FIX = (
    "Give the Docker client a config made for this host: unset DOCKER_CONFIG or point it at another folder (the "
    "client reads $DOCKER_CONFIG/config.json, else ~/.docker/config.json), or remove `credsStore` (and "
    "`credHelpers`) from that config.json (`docker login` then keeps logins in the file), or install the helper it "
    "names on this node; then run again.")

SIGNATURES: tuple[Signature, ...] = (
    # --- structure -----------------------------------------------------------------------------
    # uvicorn logs an exception as "ERROR:    Traceback ...": still a traceback start
    Signature(TRACEBACK, LINE_START + r"(?:(?:ERROR|CRITICAL):\s+)?(?:\^C)?Traceback \(most recent call last\):"),
    Signature(
        ERROR_LINE,
        LINE_START
        + r"(?:(?:error|fatal):"  # uv, git
        r"|(?:ERROR|FATAL|CRITICAL)\b[:\s]"  # uvicorn, vLLM, Python logging, Ray's Python logs
        r"|(?:\[[^\]\n]*\])*\[(?:ERROR|CRITICAL|FATAL)\]"  # Hydra: [time][module][ERROR]
        r"|\[[\d-]+ [\d:,.]+ [EF] \d+ \d+\]"  # Ray's C++ logs: [time E pid tid]
        r"|[\w.]+:\d+:\s*(?:error|ERROR)\b"  # file:line: error
        r"|[\w.-]+(?: [\w.-]+){0,3}: error:"  # slurmstepd: error:, srun: error:, gym env start: error:
        r"|(?:docker: |podman: )?Error(?: response from daemon)?:"  # docker, buildah, podman
        r"|\S*python[\d.]*: can't open file"  # the interpreter given a script that is not there
        r"|\S+: error while loading shared libraries:"  # the dynamic loader, before a program could start
        r"|Fatal Python error:"  # the interpreter refusing to start or aborting
        # a file tool that did not find what a script gave it (a data build going on without a shard)
        r"|(?:cp|mv|cat|zcat|gzip|gunzip|tar|ls|rsync|scp): (?:cannot (?:stat|access|open)|[^\n]*: No such file or "
        r"directory)"
        # a script's scratch folder or file that could not be made (`mktemp -d` under a TMPDIR that is not there)
        r"|(?:mkdir|mktemp|touch): (?:cannot (?:create|touch)|failed to create) "
        # an archive or compressed file cut short (a download or copy interrupted)
        r"|(?:gzip|gunzip|zcat|tar|unzip|xz|zstd): [^\n]*(?:unexpected end of file|Unexpected EOF|truncated)"
        # the shell failing to run a command: not there, no interpreter, not executable
        r"|(?:ba|z|da)?sh: (?:line \d+: )?\S+: (?:cannot execute|bad interpreter|command not found|No such file"
        r"|Permission denied|Argument list too long)"
        # ... and a script's own line naming a program that cannot start (its interpreter gone, not executable)
        r"|\S+\.(?:sh|bash|sbatch): line \d+: \S+: (?:cannot execute|bad interpreter|Permission denied))",
    ),
    Signature(EXCEPTION_LINE, LINE_START + EXCEPTION_NAME + r"(?::|\s*$)"),
    # uv's (Rust's) error chain under an `error:` line: what the error really was (a DNS failure...)
    Signature(CAUSED_BY, r"^\s*Caused by: "),
    # A Ctrl-C, a SIGTERM or a cancelled task ends a run: tracebacks after it are shutdown noise.
    # (`interrupted` alone on a line: what our commands print on a Ctrl-C)
    Signature(SHUTDOWN, r"KeyboardInterrupt|Shutting down|(?i:received signal)|SIGTERM|SIGINT|CancelledError|^\^C"
                        r"|^interrupted$"),
    # ... until something starts again in the same (appended) log.
    Signature(STARTUP, r"Started server process|is starting a new Ray cluster|SIMULATED_POLICY_READY"),
    # --- facts read by dedicated rules ---------------------------------------------------------
    Signature("python_version_unsatisfiable",
              r"current Python version \((?P<current>[\d.]+)\) does not satisfy Python\s*"
              r"(?P<required>[<>=!~]{1,2}\s*[\d.]+)"),
    Signature("prefetch_failed", r"prefetch failed for (?P<path>\S+)"),
    Signature("venv_created", r"Creating virtual environment (?:with seed packages )?at: (?P<path>\S+)"),
    Signature("uv_interpreter", r"Using CPython (?P<version>[\d.]+) interpreter at: (?P<path>\S+)"),
    Signature("head_server_waiting", r"Head server is not up yet \(status `(?P<status>\w+)`\)"),
    # an environment dump (`env`, a job's environment): the proxies that HTTP clients follow, and what they skip
    Signature("proxy_env", r"^(?:https?_proxy|HTTPS?_PROXY|ALL_PROXY|all_proxy)=(?P<proxy>\S+)"),
    Signature("no_proxy_env", r"^(?:no_proxy|NO_PROXY)=(?P<hosts>\S*)"),
    # a request sent through a proxy: requests names the proxy's host and port and the whole URL it asked it for
    Signature("request_through_proxy", r"HTTPConnectionPool\(host='(?P<host>[^']+)', port=(?P<port>\d+)\): Max retries "
                                        r"exceeded with url: (?P<url>https?://[^\s)]+)"),
    # Ray told which cluster to join (a RAY_ADDRESS the shell exported), rather than starting its own
    Signature("ray_address_from_env", r"Using address (?P<address>\S+) set in the environment variable RAY_ADDRESS"),
    # `ip -brief link/addr` showing the loopback interface down
    Signature("loopback_down", r"^lo\s+DOWN\b"),
    Signature("ray_gcs_unreachable", r"Failed to connect to GCS at address (?P<address>\S+)"
                                     r"|Failed to get cluster ID from GCS server"),
    Signature("gym_malformed_json", r"Malformed JSON in\b|byte order mark \(BOM\) is not supported"),
    Signature("head_server_listening", r"^INFO:\s+Uvicorn running on (?P<url>https?://[^\s]+)"),
    Signature("server_listening", r"^\((?P<server>[\w.-]+)\) INFO:\s+Uvicorn running on (?P<url>https?://[^\s]+)"),
    Signature("gym_server_starting", r"^Starting `(?P<server>[\w.-]+)` from venv (?P<venv>\S+?/\.venv\b|\S+)"),  # `gym env start`, a server each
    Signature("servers_ready", r"(?P<ready>\d+) / (?P<total>\d+) servers ready"),
    Signature("model_url", r"(?:SIMULATED_POLICY_READY |--model-url[= ]|Starting vLLM API server (?:\d+ )?on )"
                           r"(?P<url>https?://[^\s'\"]+)"),
    # vLLM's engine stats line (V1 `Waiting`, V0 `Pending`; the simulated policy's bounded mode prints it too),
    # only lines with a queue: an idle or keeping-up server logs these by the million and says nothing
    Signature("server_load", r"Running: (?P<running>\d+) reqs,(?: Swapped: \d+ reqs,)? (?:Waiting|Pending): "
                             r"(?P<waiting>[1-9]\d*) reqs"),
    Signature("input_path", r"(?:--input[= ]|input_jsonl_fpath=)['\"]?(?P<path>[^\s'\"]+\.jsonl)"),
    # the names a model server answers to: vLLM's (and the simulated policy's) served_model_name, a /v1/models listing
    Signature("served_model", r"served_model_name['\"]?\s*[:=]\s*\[?['\"](?P<model>[^'\"]+)"
                              r"|\"id\"\s*:\s*\"(?P<model2>[^\"]+)\"\s*,\s*\"object\"\s*:\s*\"model\""),
    # a `gym eval run` that starts afresh, the rows it read and repeated, how many rows it materialized, and
    # where it wrote its rollouts
    Signature("gym_fresh_start", r"Clearing output fpath since `resume_from_cache=False`"),
    Signature("gym_read_rows", r"Reading rows: (?P<rows>[1-9]\d*)it \["),
    Signature("gym_repeats", r"Repeating rows (?P<repeats>\d+) times"),
    Signature("gym_materialized_rows", r"Writing materialized rows: 100%\|[^|\n]*\| (?P<rows>\d+)/\d+"),
    Signature("gym_rollouts_output", r"^Rollouts: (?P<path>\S+)"),
    Signature("prompt_config_conflict", r"rows have responses_create_params\.input but prompt_config"),
    # a Python process that crashed in native code (faulthandler's report, its frames follow, innermost first)
    Signature("native_crash", r"^Fatal Python error: (?P<what>Segmentation fault|Aborted|Bus error|Floating point "
                              r"exception|Illegal instruction)"),
    # the shell's report of a command that a signal ended (bash prints it for a script's child, with the child's pid)
    Signature("shell_reported_signal", r"^(?P<script>\S+): line (?P<line>\d+): +\d+ (?P<what>Segmentation fault|Killed|"
                                       r"Aborted|Bus error|Illegal instruction|Floating point exception|File size limit "
                                       r"exceeded|CPU time limit exceeded)(?: \(core dumped\))?\s+(?P<command>\S.*)$"),
    # our command line's refusal of a one-value option given twice (argparse alone keeps the last)
    Signature("option_given_twice_refused", r"error: (?P<option>--[\w-]+) given twice: it takes one value"),
    # the shell's report of a word it ran as a command and found nowhere (a script's `NAME = value`, a typo)
    # (a Gym server's own output carries its name first: `(string_match) /bin/bash: line 1: uv: command not found`)
    Signature("command_not_found", r"^(?:\((?P<server>[\w.-]+)\) )?\S+: line \d+: (?P<command>[^\s:]+): command not "
                                   r"found$"),
    # srun waiting for room in its job's allocation to start a step (other steps hold it)
    Signature("srun_step_waiting", r"srun: Job \d+ step creation (?:temporarily|still) disabled, retrying"),
    # ... and a step that could not start before the job ended
    Signature("srun_job_completing", r"srun: error: Unable to create step for job \d+: Job/step already completing"),
    # sbatch refusing a batch script saved with Windows line endings
    Signature("sbatch_dos_line_breaks", r"sbatch: error: Batch script contains DOS line breaks"),
    # bash under `set -u` stopping on a variable read while unset
    Signature("unbound_variable", r"^(?P<script>\S+): line (?P<line>\d+): (?P<name>[A-Za-z_]\w*|\d+): unbound variable$"),
    # a script's own report of a command's exit code (`echo "exit code $?"`): 128 + N is a death by signal N
    Signature("exit_code_report", r"^(?:[\w .-]+ )?exit (?:code|status)[ :=]+(?P<code>\d+)\s*$"),
    Signature("gym_resumed", r"^Resumed from cache\. Found:"),
    # the built-in collector's summary of a --resume that found rows already done
    Signature("builtin_resumed", r"\d+ collected, [1-9]\d* already done, \d+ failed of \d+"),
    # our collector's summary, with where it wrote the rollouts (the path may start on the next line in old logs)
    Signature("builtin_wrote", r"(?P<collected>[1-9]\d*) collected, \d+ already done, \d+ failed of \d+ in [\d.]+s "
                               r"-> (?P<path>\S+\.jsonl)"),
    # the built-in collector's resume that retried none of the rollouts an earlier run gave up on
    Signature("resume_kept_given_up", r"(?P<count>\d+) of the failed were given up by an earlier run"),
    # our collector's warning while nothing settles: a server that takes connections and answers none
    Signature("model_endpoint_silent", r"no answer from the model endpoint (?P<url>\S+) for (?P<seconds>\d+) s"),
    # a sweep's collect stage resuming the collection it finds cut short
    Signature("stage_resumed", r"resuming a collection cut short on"),
    # which weights a model server serves: the simulated policy's checkpoint, vLLM's --model
    Signature("served_weights", r"simulated policy: checkpoint (?P<checkpoint>[^,]+), served_model_name"
                                r"|non-default args: \{.*'model': '(?P<model>[^']+)'"),
    # Gym's model proxy retrying a request it cannot complete (0.7.0 logs every 50th retry)
    # Gym's model proxy retrying a call of the model server (0.7.0): the URL it called, and what came back
    Signature("gym_model_retry", r"\[model_retry url=(?P<url>\S+) status=(?P<status>\d+)"),
    # a Gym resume that found every row done: nothing was collected
    Signature("gym_resume_nothing_to_run", r"^- 0 rows that still need to be run"),
    # our model server launch giving up at its startup timeout
    Signature("server_not_ready_after", r"not ready after (?P<seconds>[\d.]+)s \(checkpoint"),
    Signature("gym_row_limit", r"Limiting the number of rows to (?P<limit>\d+)"),
    Signature("gym_request_retry", r"\[request_retry url=(?P<url>\S+) error=(?P<error>\w+) retry=(?P<retry>\d+) "
                                   r"elapsed_s=(?P<elapsed>[\d.]+)\]"),
    # a job's cgroup limits printed into a log (`grep . /sys/fs/cgroup/memory.max`, `name: value`), and the node's
    # ephemeral port range as `sysctl` prints it
    Signature("cgroup_limit", r"(?P<what>memory\.limit_in_bytes|memory\.max|cpu\.cfs_quota_us|cpu\.max)\s*[:=]?\s*"
                              r"(?P<value>\d+)(?:\s+(?:of\s+)?(?P<period>\d+))?\s*$"),
    Signature("port_range", r"net\.ipv4\.ip_local_port_range\s*=\s*(?P<low>\d+)\s+(?P<high>\d+)"),
    # a firewall rule printed into a log (`iptables -S` / `iptables-save`, `nft list ruleset`) that refuses or drops
    # connections to a port range; or listed by `iptables -L -v -n` (`DROP ... tcp spt:53935 length 577:65535`: a
    # server port's packets, over a length only)
    Signature("firewall_rule", r"^-A (?:INPUT|OUTPUT)\b[^\n]*?--dports? (?P<low>\d+)(?::(?P<high>\d+))?[^\n]*? -j "
                               r"(?P<action>REJECT|DROP)\b|^\s*tcp dport (?P<low2>\d+)(?:-(?P<high2>\d+))?[^\n]*? "
                               r"(?P<action2>reject|drop)\b|^\s*\d+[KMG]?\s+\d+[KMG]?\s+(?P<action3>DROP|REJECT)\s[^\n]*?"
                               r"\btcp (?P<side>[sd])pts?:(?P<low3>\d+)(?::(?P<high3>\d+))?(?:[^\n]*?\blength "
                               r"(?P<length>\d+):\d+)?"),
    # a shell's limits printed into a log (`ulimit -a`'s lines, or a script's `echo "ulimit -d: $(ulimit -d)"`): the
    # file size, address space, data segment and CPU time its processes may use
    Signature("process_limit", r"^(?P<what>file size|virtual memory|data seg size|cpu time)\s+"
                               r"\((?:blocks|kbytes|seconds), -[fvdt]\) (?P<value>\d+)\s*$"
                               r"|^ulimit -(?P<flag>[fvdt]):?\s+(?P<value2>\d+)\s*$"),
    # a native library that could not get memory (an address-space cap, or the machine out of memory)
    Signature("memory_allocation_failed", r"Memory allocation (?:still )?failed|OpenBLAS error: Memory"),
    # Python refusing, before it runs a line, a PYTHON* variable of its environment it cannot use
    Signature("python_startup_variable", r"Fatal Python error: \w+: (?P<variable>PYTHON[A-Z]+) must be"),
    Signature("gym_concurrency", r"Querying with (?P<concurrency>\d+) concurrent requests"),
    # Ctrl-C, or `timeout`'s budget: the shell's `exit status 124`, or a script's own echo of a collection's 124
    Signature("user_interrupt", r"^KeyboardInterrupt\s*$|^exit status 124$"
                                r"|\b(?:collect|eval|loop|stage)\w*\b[^\n]*\bexit(?:ed)?(?: with)?(?: status| code)? ?\(?124\)?\s*$"),
    Signature("builtin_interrupted", r"^interrupted$"),  # what our commands print on a Ctrl-C
    # what our commands print when a signal ends them (gym_pipeline/fatal_signals.py)
    # a device node the node's device cgroup (or a nodev mount) refuses: bash's `> /dev/null`, `cat /dev/urandom`
    Signature("device_not_permitted",
              r": /dev/(?P<device>null|zero|full|u?random|tty\d*|fuse|kvm|nvidia[\w-]*|dri/[\w.-]+): "
              r"(?P<reason>Operation not permitted|Permission denied)$"),
    # the machine's own loopback refused as a network nobody can reach: the process's network namespace has `lo` down
    Signature("loopback_unreachable",
              r"(?:Cannot connect to host|connect(?:ion)? to) (?P<host>127\.\d+\.\d+\.\d+|localhost|\[?::1\]?)"
              r"[^\n]*Network is unreachable"),
    Signature("ended_by_hangup", r"^gym-pipeline [\w -]+: ended by SIGHUP:"),
    Signature("ended_by_cpu_limit", r"^gym-pipeline [\w -]+: ended by SIGXCPU:"),
    Signature("ended_by_alarm", r"^gym-pipeline [\w -]+: ended by SIGALRM:"),
    Signature("ended_by_terminate", r"^gym-pipeline [\w -]+: ended by SIGTERM:"),  # `timeout`, scancel, kill
    # our profile reading a file with no reward at all as rollouts (Gym profiles it too, every reward read as 0)
    Signature("profile_inputs_swapped", r"warning: (?P<path>\S+): no row has a 'reward': it reads like materialized "
                                        r"inputs, not rollouts"),
    # a port forward or tunnel between a client and a server (a forwarder's own line, an `ssh -L` command line)
    Signature("port_forward", r"(?i)\bforward\w*\b[^\n]*?:(?P<local>\d{2,5})\b[^\n]*?(?:->|=>|\bto\b)[^\n]*?:(?P<remote>\d{2,5})\b"
                              r"|\bssh\b[^\n]*\s-L\s*(?:[\w.]+:)?(?P<local2>\d{2,5}):[\w.-]+:(?P<remote2>\d{2,5})\b"),
    # bash refusing a `>` onto a file that exists, under `set -o noclobber` (`set -C`): the file keeps its old content
    Signature("noclobber_refused", r"^(?P<script>\S+): line (?P<line>\d+): (?P<file>[^:]+): cannot overwrite existing "
                                   r"file"),
    # make's report of a recipe that failed: which Makefile line, which target, the recipe's exit code
    Signature("make_recipe_failed", r"^make(?:\[\d+\])?: \*\*\* \[(?P<makefile>[^:\]\s]+):(?P<line>\d+): "
                                    r"(?P<target>[^\]\s]+)\] Error (?P<code>\d+)"),
    # make finding its targets newer than their prerequisites: it ran nothing (rollouts kept from an earlier model)
    Signature("make_nothing_to_do", r"^make(?:\[\d+\])?: (?:Nothing to be done for '(?P<target>[^']+)'"
                                    r"|'(?P<target2>[^']+)' is up to date)\."),
    # our simulated policy started with fault injection on (`serve-policy --fault-rate`): it fails requests on purpose
    Signature("policy_fault_injection", r"^WARNING simulated policy: fault injection is on: (?P<what>.*)$"),
    # `gym env start` waiting for a model endpoint that refused its first probe, and its word when all answer
    Signature("gym_model_wait", r"^Waiting for \d+ model endpoint\(s\) to answer: (?P<url>\S+)"),
    Signature("gym_model_answering", r"^All model endpoints are answering after"),
    # a model server saying it stopped serving (ours, with the signal; uvicorn's last line under vLLM)
    Signature("model_server_stopped", r"^INFO simulated policy: stopped by SIG\w+|Finished server process \[\d+\]"),
    # `ps -o pid,stat,cmd` showing a server stopped (state T: SIGSTOP, a debugger, a job suspended with Ctrl-Z)
    Signature("process_stopped", r"^\s*(?P<pid>\d+)\s+T\S*\s+(?P<command>\S*(?:python|vllm|gym)\S*\s.*)$"),
    Signature("missing_rollout_keys", r"Missing rollout keys: (?P<keys>\[[^\]]*\]?)"),
    Signature("profile_dropped", r"Input rows: (?P<total>\d+) total; (?P<complete>\d+) complete; "
                                 r"(?P<partial>\d+) partial; (?P<dropped>\d+) without rollouts dropped"),
    Signature("run_failed", r"\[rollout_collection\] /run failed status=(?P<status>\d+)"),
    Signature("inner_server_error", r"Hit an exception in (?P<server>\S+?) calling an inner server"),
    # a Gym server (its `(name)` prefix) refused by a service it calls: a judge, a sandbox, a helper service
    Signature("server_call_rate_limited", r"^\((?P<server>[\w.-]+)\)[^\n]*Too Many Requests"),
    # --- known problems: step 1, the job and what stops it before anything runs ------------------
    Signature("https_to_plain_http", r"WRONG_VERSION_NUMBER|\[SSL\] wrong version number|SSL: HTTP_REQUEST"),
    Signature("address_in_use", r"(?i:address already in use)|\[Errno 98\]"),
    Signature("disk_full", r"No space left on device|Disk quota exceeded|\[Errno 28\]"),
    Signature("slurm_time_limit", r"\*\*\* (?:JOB|STEP) (?P<job>[\d.]+) ON \S+ CANCELLED AT \S+ DUE TO TIME LIMIT"),
    Signature("slurm_cancelled", r"\*\*\* (?:JOB|STEP) (?P<job>[\d.]+) ON \S+ CANCELLED AT \S+ \*\*\*"),
    # srun's word when the job around a step ends (its batch script finished) or the step is cancelled
    Signature("slurm_step_aborted", r"srun: Job step aborted"),
    Signature("slurm_preempted", r"\*\*\* (?:JOB|STEP) (?P<job>[\d.]+) ON \S+ CANCELLED AT \S+ DUE TO PREEMPTION"),
    Signature("slurm_node_failure", r"\*\*\* (?:JOB|STEP) (?P<job>[\d.]+) ON \S+ CANCELLED AT \S+ DUE TO NODE FAIL"),
    Signature("slurm_chdir_failed", r"couldn't chdir to [`'](?P<path>[^`']+)': (?P<reason>[^:]+): going to /tmp instead"),
    Signature("slurm_oom", r"Detected (?P<count>\d+) oom[-_]kill event|task \d+: Out Of Memory"),
    Signature("kernel_oom_kill", r"Out of memory: Killed process (?P<pid>\d+)|^Killed\s*$"),
    Signature("ray_failure", r"ray\.exceptions\.(?P<kind>\w+Error)|A worker died or was killed while executing"
                             r"|The node with node id \S+ has been marked dead"),
    Signature("ray_node_startup", r"The current node timed out during startup|raylet failed to start"
                                  r"|Timed out waiting for file \S*/gcs_server_port"),
    Signature("docker_hub_429", r"registry returned HTTP 429 for (?P<path>\S+)"),
    Signature("docker_toomanyrequests", r"toomanyrequests"),
    Signature("sandbox_pull_rate_limited",
              r"Could not set up sandbox[^\n]*(?:429|toomanyrequests|(?i:rate limit))"),
    Signature("tasks_not_loadable", r"(?P<count>\d+) task\(s\) could not load \(see (?P<skipped>[^)\s]+)\)"),
    Signature("skip_unloadable_hint", r"Use --skip-unloadable to explicitly run only the loadable subset"),
    Signature("validate_skipped", r"(?P<task>[\w.:/-]+):? skipped: (?P<reason>[A-Za-z].*)"),
    Signature("no_task_loads", r"No task under (?P<folder>\S+) loads"),
    Signature("no_runnable_task", r"No runnable task left in (?P<folder>\S+?);"),
    Signature("harness_not_allowed", r"(?P<dataset>\S+)/dataset\.toml \[gym\] allowed_agents admits (?P<allowed>.+)"),
    Signature("image_wrong_platform", r"the image came out as (?P<got>[\w/]+), not (?P<want>[\w/]+)"),
    Signature("image_resolved_other_platform", r"resolved to (?P<got>linux/\w+), not (?P<want>linux/\w+)"),
    Signature("image_index_no_platform", r"the image index has no (?P<want>[\w/]+) manifest"),
    Signature("exec_format_error", r"exec format error"),
    # the Docker client config names a credential helper this host lacks (docker-py's words)
    Signature("credential_helper_missing", r"(?P<helper>docker-credential-[\w.-]+) not installed or not available in PATH"),
    Signature("no_image_builder", r"No image builder found"),
    Signature("builder_store_unreadable", r"keeps built images in a store no sandbox provider reads"),
    Signature("local_image_not_pullable",
              r"(?i:pull|not found|manifest unknown|denied)[^\n]*hb__[0-9a-f]{6,}"
              r"|hb__[0-9a-f]{6,}[^\n]*(?i:pull|not found|manifest unknown|denied)"),
    Signature("config_override_error",
              r"Could not override '(?P<key>[^']+)'|Key '(?P<missing>[^']+)' is not in struct"
              r"|ConfigAttributeError: (?P<attribute>.+)|MissingMandatoryValue: (?P<value>.+)"),
    # Hydra reading a comma-separated value as a sweep: `+config_paths=a.yaml,b.yaml` without brackets
    Signature("override_read_as_a_sweep", r"Ambiguous value for argument '(?P<argument>[^'=]+)=(?P<value>[^'\n]*)'"),
    # slurmstepd refusing to execute a job step's program: no execute bit, or a filesystem mounted noexec
    Signature("step_program_not_executable", r"slurmstepd\S*: error: execve\(\): (?P<program>/\S+): Permission denied"),
    # a host name that does not resolve (aiohttp's and the resolver's words): the machine's name service, or the name
    Signature("host_unresolved", r"Cannot connect to host (?P<host>[^\s:]+):\d+ [^\n]*?\[(?:Name or service not known|"
                                 r"Temporary failure in name resolution|nodename nor servname provided)"),
    # --- step 2: model serving ---------------------------------------------------------------------
    Signature("model_endpoint_down",
              r"model endpoint (?P<url>\S+?) did not answer|model endpoint (?P<url2>\S+) lists no model"
              r"|model endpoint (?P<url3>\S+) answered HTTP [45]\d\d"
              r"|(?:simulated policy|vLLM server) (?:exited with code -?\d+ before it was ready|ended before it was ready"
              r"|not ready after [\d.]+s)"),
    Signature("checkpoint_missing", r"(?P<path>\S+): checkpoint folder not found"),
    Signature("vllm_engine_failed", r"Engine core initialization failed|EngineDeadError|EngineCore failed to start"),
    Signature("gpu_out_of_memory", r"CUDA out of memory|torch\.(?:cuda\.)?OutOfMemoryError"),
    Signature("vllm_tool_parser_missing",
              r"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"),
    Signature("vllm_tool_schema",
              r"not supported by xgrammar|xgrammar[^\n]*(?i:error|fail|invalid|unsupported)"
              r"|(?i:failed to convert (?:the )?json schema)|(?i:invalid json schema)"
              r"|(?i:grammar|guided decoding|structured output)[^\n]*(?i:compil|unsupported|not supported|invalid)"),
    # --- step 4: sandbox readiness ------------------------------------------------------------------
    Signature("harness_install_failed", r"Hermes sandbox installation failed|Could not download uv"),
    Signature("uv_missing_on_agent_host", r"Installing a sandbox runtime requires uv on the agent host"),
    Signature("opensandbox_networking", r"OpenSandbox networking requires networking\.enabled=true"),
    Signature("opensandbox_port_forwarding",
              r"OpenSandbox port forwarding requires networking\.loopback_forwarding=true"),
    # --- step 5: materialized inputs ----------------------------------------------------------------
    Signature("task_folder_changed", r"Task folder (?P<folder>\S+) changed since materialization"),
    Signature("run_directory_in_use", r"run directory (?P<run_dir>\S+) is in use by pid (?P<pid>\d+) \((?P<command>[^;]*); "
              r"stage (?P<stage>\w+)"),  # core/run_lock.py: a second writer refused
    Signature("pulled_dataset_changed", r"no longer match[^\n]*manifest\.toml"),
    Signature("earlier_fetch", r"(?P<folder>\S+) holds an earlier fetch of (?P<reference>\S+)"),
    Signature("stale_inputs_refused", r"refusing to collect on stale inputs: (?P<detail>.+)"
                                      r"|cannot resume: (?P<why>.+)"),
    # --- step 6: outputs ------------------------------------------------------------------------------
    Signature("no_result", r"None of the (?P<count>\d+) dispatched rollouts produced a result"),
    Signature("conflicting_metrics", r"Found conflicting aggregate metrics(?:[^\n]*?(?P<file>\S*_metrics\.json))?"),
    # --- step 7: the verifier ---------------------------------------------------------------------
    Signature("task_deadline", r"Episode exceeded the time budget of task (?P<task>[^\s,.;]+)"),
    Signature("episode_timeout", r"Episode timed out"),
    Signature("verifier_input_missing",
              r"(?:No such file or directory|FileNotFoundError|not found|does not exist)[^\n]*?"
              r"/logs/verifier/(?P<file>[\w.-]+)"
              r"|/logs/verifier/(?P<file2>[\w.-]+)[^\n]*?(?:No such file or directory|not found|does not exist)"),
)

# Lines that fill a healthy log (a progress bar's every update, a server's load every few seconds): matched only in
# the last bytes of each log (`logs.TAIL_BYTES`), where what they say about how a run ended is, so that the scan of
# the whole log stays a pass over rare lines.
TAIL_SIGNATURES: tuple[Signature, ...] = (
    # Gym's progress bar (tqdm: several updates a line, joined by carriage returns)
    # our collector's progress line: `collecting rollouts (0 failed) ━━━ 8/24 0:00:02`
    Signature("builtin_progress", r"collecting rollouts \((?P<failed>\d+) failed\)[^\n]*?(?P<done>\d+)/(?P<total>\d+) "
                                  r"(?P<elapsed>\d+:\d\d:\d\d)\s*$"),
    Signature("gym_progress", r"Collecting rollouts:\s+\d+%\|[^|\n]*\|\s*(?P<done>\d+)/(?P<total>\d+) "
                              r"\[(?P<elapsed>[\d:]+)<"),
    # a server's load line whenever it runs anything (vLLM's, the simulated policy's, a judge's)
    Signature("server_busy", r"Running: (?P<running>[1-9]\d*) reqs,(?: Swapped: \d+ reqs,)? (?:Waiting|Pending): "
                             r"(?P<waiting>\d+) reqs"),
)

SIGNATURES_BY_NAME: dict[str, Signature] = {s.name: s for s in (*SIGNATURES, *TAIL_SIGNATURES)}
assert len(SIGNATURES_BY_NAME) == len(SIGNATURES) + len(TAIL_SIGNATURES), "signature names must be unique"

# Headlines that are not a run's error: a stop being carried out (a Ctrl-C, a cancelled task, a
# server shutting down), or a wrapper whose cause follows it (a failed Dagster step's own exception).
NOT_THE_ERROR = re.compile(
    r"KeyboardInterrupt|CancelledError|Shutting down|Waiting for application shutdown"
    r"|Application shutdown complete|Finished server process|SystemExit: 0\b|^Aborted!?$"
    r"|DagsterExecutionStepExecutionError|Error occurred while executing op"
)


def match_text(text: str, names: tuple[str, ...] | None = None) -> Iterator[tuple[Signature, re.Match[str]]]:
    """The fact and problem signatures one text shows (structure left out), for texts outside logs."""
    for signature in SIGNATURES:
        if signature.name in STRUCTURE or (names is not None and signature.name not in names):
            continue
        match = signature.regex.search(text)
        if match:
            yield signature, match


# ---------------------------------------------------------------------------------------------
# Known problems: each is proven by hits of the named signatures (or of artifact facts), and
# becomes one finding at its debug step. `title` may use the named groups of the first hit.


@dataclass(frozen=True)
class KnownProblem:
    key: str
    step: int
    category: str
    signatures: tuple[str, ...]
    title: str
    cause: str
    fix: str
    guide: str  # the guide entry it covers
    # What other problems cause (a run-level summary of failures): a consequence when another cause is found.
    effect: bool = False


KNOWN_PROBLEMS: tuple[KnownProblem, ...] = (
    # step 1 --------------------------------------------------------------------------------------
    KnownProblem(
        "slurm_time_limit", 1, INFRA, ("slurm_time_limit",),
        "Slurm killed job {job} at its time limit",
        "The job ran past its --time; Slurm cancelled it and whatever was running stopped mid-write.",
        "`sacct -j {job} --format=JobID,State,ExitCode,Elapsed,Timelimit`; raise `--time` (or split the sweep), "
        "then continue where it stopped: `gym-pipeline collect ... --resume` (Gym: `gym eval run ... --resume`).",
        "seeds/000 debug step 1: Slurm job state",
        effect=True,  # of what made the job too slow for its time, when a rule finds that
    ),
    KnownProblem(
        "slurm_chdir_failed", 1, INFRA, ("slurm_chdir_failed",),
        "Slurm could not enter the job's working folder {path} on the node, and ran the job in /tmp",
        "The job's `--chdir` (`#SBATCH --chdir`, or the folder sbatch was called from) does not exist on the compute "
        "node ({reason}): a file system mounted on the login node only (scratch, a home not shared), or a folder made "
        "after submission on another machine. slurmstepd went on in /tmp, where the run's relative paths name nothing.",
        "Point `#SBATCH --chdir` at a folder every node mounts (check it on the node: `srun ls -d {path}`), or prepare "
        "the run there; then submit again.",
        "seeds/000 debug step 1: Slurm job state",
    ),
    KnownProblem(
        "slurm_oom", 1, INFRA, ("slurm_oom", "kernel_oom_kill"),
        "The job's processes were killed for running out of memory",
        "Slurm (or the kernel's OOM killer) killed a process of the job that exceeded its memory: often too many "
        "concurrent rollouts or a verifier holding large outputs.",
        "`sacct -j <jobid> --format=JobID,State,MaxRSS,ReqMem`; raise `--mem` or lower `--concurrency`, then "
        "resume: `gym-pipeline collect ... --resume` (Gym: `gym eval run ... --resume`).",
        "seeds/000 debug step 1: Slurm job state",
    ),
    KnownProblem(
        "slurm_stopped", 1, INFRA, ("slurm_cancelled", "slurm_preempted", "slurm_node_failure"),
        "Slurm stopped job {job} before it finished",
        "The job was cancelled (scancel or an admin), preempted, or lost its node: nothing in the run itself failed.",
        "`sacct -j {job} --format=JobID,State,ExitCode,NodeList,Reason`; resubmit, and continue where it stopped: "
        "`gym-pipeline collect ... --resume` (Gym: `gym eval run ... --resume`).",
        "seeds/000 debug step 1: Slurm job state",
    ),
    KnownProblem(
        "session_hangup", 1, INFRA, ("ended_by_hangup",),
        "The terminal session that started the command went away (SIGHUP)",
        "The shell or ssh session the command ran in closed (a dropped connection, a closed laptop, a logout), "
        "and its hangup signal ended the command part way: nothing in the run itself failed.",
        "Run long collections where a lost session cannot stop them: `nohup ... &`, inside `tmux` or `screen`, or "
        "as a Slurm job (`sbatch`); then continue where it stopped: `gym-pipeline collect ... --resume` (Gym: "
        "`gym eval run ... --resume`).",
        "seeds/000 debug step 1: job state and logs",
    ),
    KnownProblem(
        "device_not_permitted", 1, INFRA, ("device_not_permitted",),
        "The node refused the run access to /dev/{device} ({reason})",
        "Opening /dev/{device} failed with `{reason}`: the node's device cgroup (a job launcher's or container's "
        "allow list, rewritten for other hardware) or a `nodev` mount denies the device to the run's processes. "
        "Whatever needed it failed there (a redirection `> /dev/null` does not run its command at all), and what "
        "came after went on without its output.",
        "Check the device from inside the job (`ls -l /dev/{device}` shows a character device; `cat "
        "/sys/fs/cgroup/devices/<job cgroup>/devices.list` on cgroup v1, or the launcher's or container's device "
        "allow list, must hold it: `c 1:3 rwm` for /dev/null) and ask the admins to restore it; then run again.",
        "seeds/000 debug step 1: job state and logs",
    ),
    KnownProblem(
        "loopback_unreachable", 1, INFRA, ("loopback_unreachable",),
        "The run could not reach {host}, its own machine's loopback: Network is unreachable",
        "Connecting to {host} failed with `Network is unreachable` (ENETUNREACH). On a machine's own loopback that "
        "happens only in a network namespace whose `lo` is down: a private one the run was started in (`unshare "
        "--net`, a site job wrapper or sandbox that isolates each job's network, a container run with `--network "
        "none`). The model server listens in the node's own network namespace, which the run could not see, so "
        "whatever it asked of the server never arrived.",
        "Run the eval in the model server's network namespace: start it outside what gives it a private one (`unshare "
        "--net`, the site's job wrapper, `--network none`), or with the wrapper's option to keep the host network, or "
        "serve the model inside the same namespace or container. "
        "Check from inside the job: `ip addr show lo` (UP, with 127.0.0.1) and `curl -s http://{host}:<port>/v1/models`; "
        "then collect again with --resume.",
        "seeds/000 debug step 1: job state and logs",
    ),
    KnownProblem(
        "cpu_time_limit", 1, THROUGHPUT_RESOURCES, ("ended_by_cpu_limit",),
        "The command used up its CPU-time limit (SIGXCPU)",
        "The shell or job script caps each process's CPU time (`ulimit -t`, a login node's per-process cap): the "
        "kernel ended the command once it had used it, part way through its work.",
        "Lift the limit where the command runs (`ulimit -t unlimited` in the shell or job script; run long "
        "collections as batch jobs rather than on a login node), then resume: `gym-pipeline collect ... --resume`.",
        "seeds/000 debug step 1: job state and logs",
    ),
    KnownProblem(
        "memory_allocation_failed", 1, THROUGHPUT_RESOURCES, ("memory_allocation_failed",),
        "A process could not allocate memory",
        "A native library (OpenBLAS, numpy, Ray) could not get the memory it asked for: a per-process limit "
        "(`ulimit -v` or `ulimit -d` in the shell, job script or batch profile), the job's memory limit (`--mem`, "
        "a cgroup), or a machine out of memory; the command stopped before doing its work.",
        "`ulimit -a` where the command runs (virtual memory, data seg size) and the job's memory limit; raise or "
        "lift the limit (`ulimit -v unlimited`, `ulimit -d unlimited`, more `--mem` or `memory_mb`), or run where "
        "memory is free; then run the command again.",
        "seeds/000 debug step 7: resources",
    ),
    KnownProblem(
        "ray_failure", 1, INFRA, ("ray_failure",),
        "Ray lost a worker or a node",
        "A Ray worker or node died under the Gym servers (OOM, a crash, or the node going away); the servers it "
        "hosted stopped answering.",
        "`ray status` and `ray list nodes` on the head; read the raylet and worker logs under "
        "/tmp/ray/session_latest/logs/; fix memory or node health, then restart: `gym env start ...`.",
        "seeds/000 debug step 1: Ray state and logs",
    ),
    KnownProblem(
        "ray_gcs_unreachable", 1, INFRA, ("ray_gcs_unreachable",),
        "Ray cannot reach the cluster it was told to join (GCS at {address})",
        "Ray joins the cluster `RAY_ADDRESS` (or `ray.init(address=...)`) names instead of starting its own; when "
        "that head is gone (a variable left from an earlier session or job) it waits for a GCS that never answers, "
        "and `gym env start` never gets ready.",
        "`echo $RAY_ADDRESS`: unset it (`unset RAY_ADDRESS`) so Gym starts its own Ray, or point it at a live head "
        "(`ray status --address <host:port>` must answer); then start again.",
        "seeds/000 debug step 1: Ray state and logs",
    ),
    KnownProblem(
        "ray_node_startup", 1, INFRA, ("ray_node_startup",),
        "Ray's node did not start: its raylet or GCS never came up",
        "`gym env start` starts a local Ray node first; its raylet writes sockets, logs and its object store under "
        "Ray's temp folder, and stalls when that filesystem is full or too small, when leftover Ray processes hold "
        "its ports, or when the socket paths are too long.",
        "Read the raylet's log (`$TMPDIR/ray/session_latest/logs/raylet.err`; TMPDIR defaults to /tmp) and check the "
        "temp folder's space: `df -h $TMPDIR /tmp`. Point Ray at a roomy local folder with a short path "
        "(`export TMPDIR=/tmp` or `RAY_TMPDIR=/tmp/ray` before `gym env start`), stop leftovers with `ray stop "
        "--force`, then start again.",
        "seeds/000 debug step 1: Ray state and logs",
    ),
    KnownProblem(
        "address_in_use", 1, INFRA, ("address_in_use",),
        "A server could not bind its port: address already in use",
        "Another process holds the port: often a server of an earlier run that was never stopped, or a second job "
        "on the same node.",
        "Find the holder: `ss -ltnp | grep <port>` (or `gym-pipeline diagnose <run_dir> --probe`), stop that "
        "process by its pid, or start on free ports / another node; then `gym env start ...` again.",
        "seeds/000 infra: ports",
    ),
    KnownProblem(
        "disk_full", 1, INFRA, ("disk_full",),
        "The file system is full",
        "A write failed with no space left (the output folder, Ray's session folder under /tmp, or the venv cache).",
        "`df -h <output folder> /tmp` for space and `df -i <output folder> /tmp` for inodes (a filesystem of many small "
        "files runs out of inodes with space left); free disk space or inodes, or point outputs and Ray's temp folder "
        "elsewhere, then resume: `gym-pipeline collect ... --resume`.",
        "seeds/000 infra: filesystem",
    ),
    KnownProblem(
        "docker_hub_rate_limit", 1, INFRA, ("docker_hub_429", "docker_toomanyrequests", "sandbox_pull_rate_limited"),
        "Docker Hub answered 429: the anonymous pull limit",
        "Docker Hub limits anonymous pulls per IP address, and every job on one login node shares an address. "
        "Prepare reads each Dockerfile base image and Compose image it has no record of for the run's platform, "
        "the build tool pulls each build's base image, and sandboxes pull at seed (those episodes are retried).",
        "Log the build tool in to Docker Hub: `docker login` (or `buildah login docker.io`, `podman login "
        "docker.io`). On OpenSandbox give prepare an account under `sandbox.opensandbox.images.auth.\"docker.io/\"` "
        "(username/password from env.yaml keys). Before a fan-out of jobs on one dataset, start one job and wait "
        "for `Run config written to ...`: later jobs on the same builds.platform reuse its image records. For "
        "sandbox pulls, set `images.rewrites` to a mirror or add the account under \"library/\" and your org's "
        "prefix. Then rerun the command (`gym eval run ... --resume` keeps finished rollouts).",
        "seeds/004: Docker Hub answers 429",
    ),
    KnownProblem(
        "task_not_loadable", 1, CONFIG, ("tasks_not_loadable", "skip_unloadable_hint", "validate_skipped",
                                         "skipped_task"),
        "Some tasks could not load",
        "The loader refused these task folders, their image build failed, or their Compose file asks for something "
        "the provider cannot run; skipped.json maps each task to its reason.",
        "Read the reasons (`cat skipped.json`, quoted above). Run the rest with `gym eval run ... --skip-unloadable` "
        "(`gym dataset validate` already does), or leave a task out with `--exclude-tasks <name or glob>`.",
        "seeds/004: A task does not load",
    ),
    KnownProblem(
        "no_task_loads", 1, CONFIG, ("no_task_loads", "no_runnable_task"),
        "No task of {folder} loads",
        "The loader refused every task folder (or every task was excluded), so `--skip-unloadable` cannot help.",
        "Read the loader's reason for each task (skipped.json, or run one task: `gym dataset validate "
        "<task folder>`), fix the folders or the dataset.toml overrides, then rerun.",
        "seeds/004: A task does not load",
    ),
    KnownProblem(
        "harness_not_allowed", 1, CONFIG, ("harness_not_allowed",),
        "The dataset refuses this harness: allowed_agents admits {allowed}",
        "{dataset}/dataset.toml's [gym] allowed_agents does not list the harness passed to `gym eval run`.",
        "Rerun with a listed harness, or pass `--allow-unsupported-pairing` to run this one on purpose "
        "(`gym dataset validate`'s oracle is always admitted).",
        "seeds/004: The dataset refuses the harness",
    ),
    KnownProblem(
        "credential_helper_missing", 1, INFRA, ("credential_helper_missing",),
        "The Docker client config names a credential helper this host does not have",
        "Before a build or a pull the Docker client (docker-py, the docker CLI) asks the credential helper that "
        "its config's `credsStore` or `credHelpers` names for the registry logins; a config copied from a laptop "
        "names one (`desktop`, `osxkeychain`) that a Linux node does not have, so every image build stops first.",
        CREDENTIAL_HELPER_FIX,
        "seeds/004: A task does not load",
    ),
    KnownProblem(
        "image_platform", 1, INFRA, ("image_wrong_platform", "image_resolved_other_platform",
                                     "image_index_no_platform", "exec_format_error"),
        "The image platform does not match the host",
        "Gym builds and records images for linux/amd64 unless builds.platform says otherwise, many published task "
        "images exist for linux/amd64 only, and an arm64 host cannot run them without emulation.",
        "Check the host: `uname -m`. Build on an x86_64 host or register qemu binfmt emulation on the build host; "
        "run sandboxes on amd64 nodes. On a mixed OpenSandbox cluster set both keys: "
        "`++harbor_environment_server.environment_servers.harbor.sandbox_provider_options.platform.os=linux "
        "++harbor_environment_server.environment_servers.harbor.sandbox_provider_options.platform.arch=amd64`.",
        "seeds/004: The image platform does not match",
    ),
    KnownProblem(
        "builds_without_repository", 1, CONFIG, ("no_image_builder", "builder_store_unreadable",
                                                 "local_image_not_pullable"),
        "Images are built without a repository no sandbox can pull from",
        "Without builds.repository a built image stays on the build host; a sandbox provider starts local images "
        "only from the Docker daemon, so only docker builds without a repository, and only for the Docker provider.",
        "Set `builds.repository` (or `export NEMO_GYM_BUILD_REPOSITORY=<registry path you can push to>`), log the "
        "build tool in to that registry (`docker login <registry>`), and give OpenSandbox the pull credentials in "
        "`images.auth`; or install docker, or name a builder with `builds.tool`.",
        "seeds/004: Builds without a repository",
    ),
    KnownProblem(
        "prompt_config_conflict", 1, CONFIG, ("prompt_config_conflict",),
        "A prompt config was given for rows that already carry their prompt",
        "`gym eval run --prompt-config` builds each row's `responses_create_params.input` from the row's fields; "
        "Gym 0.7.0 refuses rows that already have an input, since one of the two prompts would be dropped.",
        "Run without `--prompt-config` (Gym's `prompt_config`) for rows that carry their prompt, or export the rows "
        "without `responses_create_params.input` so the prompt config builds it; then run again.",
        "seeds/000 config: wrong extra args",
    ),
    KnownProblem(
        "config_override", 1, CONFIG, ("config_override_error",),
        "The command's config overrides do not fit the config",
        "Hydra refused an override: the key does not exist in the loaded config bundle (a typo, a missing `+`, "
        "or a different agent/config than intended) or a required value was never set.",
        "Compare the override `{key}` with the loaded config: rerun with `-v` and check the key's path; a key the "
        "config does not have needs `+{key}=<value>` to add it or `++{key}=<value>` to add or override it; check that "
        "the agent and config bundle are the ones you meant.",
        "seeds/000 config: wrong config bundle, missing agent, wrong extra args",
    ),
    KnownProblem(
        "override_read_as_a_sweep", 1, CONFIG, ("override_read_as_a_sweep",),
        "Hydra read the override `{argument}` as a sweep: its value holds commas and no brackets",
        "A command-line value with commas (`{argument}=a.yaml,b.yaml`, a list joined by a script's `paste -sd,`) is "
        "a sweep to Hydra, which a single run refuses ('Ambiguous value for argument'): the command stopped before "
        "starting anything.",
        "Give the list in brackets, `{argument}=[a.yaml,b.yaml]` (a script joining files: wrap its output in `[` and "
        "`]`), or quote the value if it is one string; then run the command again.",
        "seeds/000 config: wrong extra args",
    ),
    KnownProblem(
        "step_program_not_executable", 1, INFRA, ("step_program_not_executable",),
        "Slurm could not execute the job step's program {program}: Permission denied",
        "slurmstepd's execve() of {program} was refused: the file has no execute bit, or the filesystem it is on is "
        "mounted noexec (node scratch and /tmp often are, and a sync or copy keeps the x bit, so `ls -l` looks "
        "right): the step never ran.",
        "Check both: `ls -l {program}` (`chmod +x` it) and `findmnt -T {program}` (`noexec` among its options); on a "
        "noexec filesystem run the program through its interpreter, `srun bash {program}`, or keep programs on a "
        "filesystem that allows them; then submit again.",
        "seeds/000 infra: Slurm",
    ),
    KnownProblem(
        "https_to_plain_http", 1, CONFIG, ("https_to_plain_http",),
        "An https:// URL points at a server that speaks plain HTTP",
        "The client opened a TLS connection and the server answered in plain HTTP (`WRONG_VERSION_NUMBER`): the URL's "
        "scheme is wrong, not the server; every request to it fails the same way.",
        "Use `http://` in the URL the run was given (`--model-url`, the model server's `url_template`, Gym's "
        "`policy_base_url`), check it with `curl -s http://<host>:<port>/v1/models`, then run again (`--resume` "
        "collects only what is missing).",
        "seeds/000 config: wrong config bundle, missing agent, wrong extra args",
    ),
    KnownProblem(
        "host_unresolved", 1, INFRA, ("host_unresolved",),
        "The host name {host} does not resolve on this machine",
        "A request's URL names {host}, and the machine's name service has no address for it (no line in /etc/hosts, "
        "no DNS answer), so no connection was ever made: the server behind it may be up and fine.",
        "Check the name where the stage runs: `getent hosts {host}`. For a server on this machine use `127.0.0.1` "
        "in the URL (`--model-url http://127.0.0.1:<port>/v1`), or restore `127.0.0.1 localhost` in /etc/hosts (a "
        "provisioning tool or container image can leave it out); for another machine, fix the name or the DNS, or "
        "use its address. Then run the stage again.",
        "seeds/000 infra: network",
    ),
    # step 2 --------------------------------------------------------------------------------------
    KnownProblem(
        "checkpoint_missing", 2, CONFIG, ("checkpoint_missing",),
        "The checkpoint to serve does not exist: {path}",
        "The sweep has a partition for a checkpoint whose folder is not there (never written, moved, or deleted), "
        "so no model server could start and nothing was collected.",
        "Restore the folder or point the sweep at the right one (`ls {path}`; the sweep config's checkpoints), or "
        "drop the partition; `gym-pipeline status` shows what each partition has. Then rerun the partition.",
        "seeds/000 config: wrong config bundle, missing agent, wrong extra args",
    ),
    KnownProblem(
        "model_endpoint_silent", 2, MODEL_SERVING, ("model_endpoint_silent",),
        "The model endpoint took connections and answered none",
        "Requests reached the model server's port and got no answer for a minute or more, while nothing failed fast: "
        "a server stopped (Ctrl-Z or SIGSTOP: its process in state T), hung, or so overloaded it answers nothing.",
        "`ps -o pid,stat,cmd -p <pid>` of the model server (T: stopped, resume it with `kill -CONT <pid>` or `fg` in "
        "its terminal, and start servers in the background with `&`, not Ctrl-Z; D: waiting on I/O); `curl -m 5 "
        "<model-url>/models`; restart it if it hangs, then resume: `gym-pipeline collect ... --resume`.",
        "seeds/000 debug step 2: vLLM readiness and /models",
    ),
    KnownProblem(
        "model_endpoint_down", 2, MODEL_SERVING, ("model_endpoint_down",),
        "The model server did not come up or did not answer",
        "The stage needed a model endpoint that never answered `/v1/models` (it crashed while starting, the URL is "
        "wrong, or it was still loading when the stage gave up).",
        "Read the model server's log (`logs/model_server.log` in our run folders), then check it answers: "
        "`curl -s {url}` (or `gym-pipeline diagnose <run_dir> --probe`). A refused connection means nothing "
        "listens there: start the server, or give the stage the URL it serves (`--model-url`, or the sweep's "
        "model server); a 503 means it is still loading: start the stage only once `/v1/models` answers 200 "
        "(the server is ready; vLLM logs `Application startup complete`). Then rerun the stage (`gym-pipeline "
        "collect ... --resume`).",
        "seeds/000 debug step 2: vLLM readiness and /models",
        effect=True,  # of whatever the model server's own log shows, when it shows something
    ),
    KnownProblem(
        "gpu_out_of_memory", 2, MODEL_SERVING, ("gpu_out_of_memory",),
        "The model server ran out of GPU memory",
        "The model, its KV cache and the batch do not fit the GPU: too long a max_model_len, too many concurrent "
        "sequences, or another process on the GPU.",
        "`nvidia-smi` for other processes; restart vLLM with `--gpu-memory-utilization`, `--max-model-len` or "
        "`--max-num-seqs` lowered, or lower `--concurrency` of the collection; then resume it.",
        "seeds/000 debug step 2: vLLM throughput",
    ),
    KnownProblem(
        "vllm_engine_failed", 2, MODEL_SERVING, ("vllm_engine_failed",),
        "vLLM's engine failed to start",
        "vLLM reports the root cause above this line: usually GPU memory, an unsupported model/config option, or a "
        "missing kernel.",
        "Read the lines above it in the vLLM log; retry with a smaller footprint (`vllm serve <model> "
        "--gpu-memory-utilization 0.85 --max-model-len <n>`) and check `curl -s <model-url>/models` before "
        "`gym env start`.",
        "seeds/000 debug step 2: vLLM startup",
    ),
    KnownProblem(
        "vllm_tool_parser_missing", 2, MODEL_SERVING, ("vllm_tool_parser_missing",),
        "vLLM refuses tool calls: it was started without a tool-call parser",
        "Rows that pass tools with tool_choice \"auto\" need vLLM started with automatic tool choice; the request "
        "fails before any generation.",
        "Restart vLLM with `--enable-auto-tool-choice --tool-call-parser <parser for this model>`, check "
        "`curl -s <model-url>/models`, then resume the collection.",
        "seeds/000: vLLM tool-call grammar/schema errors",
    ),
    KnownProblem(
        "vllm_tool_schema", 2, DATA_SCHEMA, ("vllm_tool_schema",),
        "vLLM rejected a tool-call schema before generation",
        "The tools' JSON schema (from the rows' responses_create_params.tools) uses features vLLM's structured-output "
        "grammar cannot compile, so those rows fail before generation: a data/schema problem, not a Gym wrapper bug.",
        "Run a static tool-schema check before changing Gym wrappers: list the distinct tool schemas with `jq -c "
        "'.responses_create_params.tools' <materialized inputs> | sort -u`, and simplify what the grammar backend "
        "rejects (the error names it; see the guide's references/vllm-tool-call-schema-checks.md). Then re-run "
        "one failing row before the whole collection.",
        "seeds/000: vLLM tool-call grammar/schema errors",
    ),
    # step 4 --------------------------------------------------------------------------------------
    KnownProblem(
        "harness_install_failed", 4, INFRA, ("harness_install_failed",),
        "The harness could not install its runtime in the sandbox",
        "hermes_agent installs its runtime into each sandbox with uv, from GitHub and the Python package index, "
        "unless the image already holds it; the sandbox (or the agent host, for uv itself) could not download it.",
        "Allow the sandbox outbound access to GitHub and the package index, or bake the runtime into the image at "
        "/tmp/nemo-gym-hermes-runtime-<key>/venv. On a slow network raise the agent's "
        "`sandbox_install_timeout_seconds` (900 s) and the environment server's `harness_setup_allowance_s` "
        "(300 s), or a long install ends in harbor:task_deadline.",
        "seeds/004: A harness cannot install its runtime in the sandbox",
    ),
    KnownProblem(
        "uv_missing_on_agent_host", 4, CONFIG, ("uv_missing_on_agent_host",),
        "uv is not on the agent host's PATH",
        "Installing a sandbox runtime copies uv from the agent host into the sandbox; the host running gym has none.",
        "Install uv on the host and put it on PATH (`command -v uv`), or bake the runtime into the image at "
        "/tmp/nemo-gym-hermes-runtime-<key>/venv; then rerun.",
        "seeds/004: A harness cannot install its runtime in the sandbox",
    ),
    KnownProblem(
        "opensandbox_networking", 4, CONFIG, ("opensandbox_networking", "opensandbox_port_forwarding"),
        "A Compose task cannot start on OpenSandbox: its networking is not enabled",
        "The shipped OpenSandbox config has no networking block, and a group of Compose services needs one.",
        "Add to the OpenSandbox provider block `networking.enabled=true` (and `networking.loopback_forwarding=true` "
        "for port forwarding), as in \"Networking and shared storage\"; then rerun.",
        "seeds/004: A Compose task does not start on OpenSandbox",
    ),
    # step 5 --------------------------------------------------------------------------------------
    KnownProblem(
        "stale_inputs_refused", 5, CACHE_RESUME, ("stale_inputs_refused",),
        "The pipeline refused to collect on stale inputs",
        "The materialized inputs no longer match their source data or settings (or changed since the rollouts "
        "began), so collecting or resuming would mix old and new rows.",
        "See what changed: `gym-pipeline check-stale --inputs <materialized> --source <data> --num-repeats <n> "
        "--agent <agent>`; rebuild with `gym-pipeline materialize ...`, then collect again without --resume.",
        "seeds/000: stale materialized inputs after a data change with resume",
    ),
    KnownProblem(
        "task_folder_changed", 5, CACHE_RESUME, ("task_folder_changed", "pulled_dataset_changed"),
        "A task folder changed since its rows were materialized",
        "A task folder (or its dataset.toml override, multipliers, or the dataset-level verifier.py) was edited "
        "after its rows were written, or a pulled task folder was edited by hand.",
        "Your own dataset: run the command again (prepare writes new rows). A pulled dataset: move the edited task "
        "folder out of the dataset folder and fetch it again with `gym dataset pull <entry or harbor: reference>`; "
        "put changes in dataset.toml overrides instead of editing pulled tasks.",
        "seeds/004: A task folder changed",
    ),
    KnownProblem(
        "earlier_fetch", 5, CACHE_RESUME, ("earlier_fetch",),
        "{folder} holds an earlier fetch that nothing reads any more",
        "A committed entry now declares {reference} as its [gym] source and fetches it into its own folder.",
        "Move {folder} aside or delete it.",
        "seeds/004: A task folder changed",
    ),
    KnownProblem(
        "gym_malformed_json", 5, DATA_SCHEMA, ("gym_malformed_json",),
        "A line of the data file is not valid JSON",
        "Gym's reader refused a line of the dataset (the message names the file and line): a truncated or merged "
        "line, a pretty-printed JSON array instead of one object per line, or a UTF-8 byte order mark (BOM) that "
        "a spreadsheet or Windows editor put before the first line.",
        "Fix that line of the data file (`sed -n '<line>p' <file> | python -m json.tool`): the file must be JSONL, "
        "one JSON object per line (a pretty-printed file becomes JSONL with `jq -c . <file>`); a BOM goes with "
        "`sed -i '1s/^\\xEF\\xBB\\xBF//' <file>`; then run again on a clean output path.",
        "seeds/000 data/schema: JSONL fields",
    ),
    # step 6 --------------------------------------------------------------------------------------
    KnownProblem(
        "no_result", 6, INFRA, ("no_result",),
        "None of the {count} dispatched rollouts produced a result",
        "Every rollout failed before a result row existed, so the run has no score: what failed is in the failure "
        "classes the message counts and in the failures file (a model server not answering, an agent or verifier "
        "error; for task folders most often no sandbox could be created: Docker not running, --sandbox left out).",
        "Read the failures file the message names (`head -n 3 <stem>_failures.jsonl`: each row's "
        "`_ng_failure_class` and message) or each task's failure.message in the run summary, and fix what the first "
        "failure names (for task folders: pass `--sandbox <provider>` and check the provider's settings).",
        "seeds/004: No task produced a result",
        effect=True,
    ),
    KnownProblem(
        "resume_kept_given_up", 6, CACHE_RESUME, ("resume_kept_given_up",),
        "A resume retried none of the {count} rollouts an earlier run gave up on",
        "`--resume` counts a rollout whose attempts an earlier run used up as settled: whatever made that run fail "
        "(a model server not up yet) is fixed or not, those rollouts are never tried again, and the profile finds "
        "them missing.",
        "Collect again without --resume (on a clean output path, or after moving the failures sidecar aside) so every "
        "rollout is tried afresh, then profile.",
        "seeds/000 cache/resume: partial rollout output",
    ),
    KnownProblem(
        "conflicting_metrics", 6, CACHE_RESUME, ("conflicting_metrics",),
        "Found conflicting aggregate metrics: two runs wrote one results folder",
        "Two runs wrote one results folder at the same time, leaving a _metrics.json the next run cannot reconcile.",
        "Run the jobs one at a time, or give each its own checkout; a fresh run clears the stale file, and before a "
        "--resume run delete the _metrics.json the error names ({file}).",
        "seeds/004: Found conflicting aggregate metrics",
    ),
    # step 7 --------------------------------------------------------------------------------------
    KnownProblem(
        "verifier_alarm", 7, VERIFIER_RUNTIME, ("ended_by_alarm",),
        "An alarm that code the command ran set and never cancelled ended it (SIGALRM)",
        "gym-pipeline sets no alarm: a verifier (or a library it calls) used `signal.alarm` as a grading time "
        "limit and did not cancel it, so the alarm went off later, outside the grading, and its default action "
        "ended the whole process.",
        "In the verifier, cancel the alarm once grading ends (`signal.alarm(0)` in a `finally:`), or bound grading "
        "time without process signals (a thread or process pool's timeout); then `gym-pipeline collect ... "
        "--resume`.",
        "seeds/000 debug step 7: first real verifier exception",
    ),
    KnownProblem(
        "task_time_budget", 7, THROUGHPUT_RESOURCES, ("task_deadline", "episode_timeout"),
        "Episodes ran past their time budget",
        "harbor:task_deadline: the episode ran past its task's budget (harness setup, [agent].timeout_sec, collect "
        "hooks, [verifier].timeout_sec and a grace period, from when the sandbox is ready); `Episode timed out`: "
        "it hit the server's default_episode_timeout_seconds (6 h). Both are retried, not scored.",
        "Raise the budgets in the dataset, not the task: `timeout_multiplier` in [gym.defaults] of dataset.toml "
        "(scales every agent and verifier timeout_sec), or `[gym.tasks.\"<task>\".verifier] timeout_sec = <s>`; "
        "raise the server's `default_episode_timeout_seconds` for longer tasks; then `gym eval run ... --resume`.",
        "seeds/004: Verifier or agent timeout",
    ),
)

PROBLEM_OF_SIGNATURE: dict[str, str] = {name: p.key for p in KNOWN_PROBLEMS for name in p.signatures}
assert len(PROBLEM_OF_SIGNATURE) == sum(len(p.signatures) for p in KNOWN_PROBLEMS), "a hit proves one problem"
assert [p.step for p in KNOWN_PROBLEMS] == sorted(p.step for p in KNOWN_PROBLEMS), "known problems in debug order"
