"""An error no rule knows is placed by the process it came from and what it is, not by its exception's name."""

from pathlib import Path

import pytest

from gym_pipeline.diagnose.logs import LogFacts, scan_text
from gym_pipeline.diagnose.origin import Listener, address_of, innermost_frame, place

VERIFIER_IMPORT = """\
(my_resources_server) Traceback (most recent call last):
(my_resources_server)   File "/gym/nemo_gym/server_utils.py", line 40, in load
(my_resources_server)   File "/gym/resources_servers/my_env/app.py", line 7, in <module>
(my_resources_server) ModuleNotFoundError: No module named 'sympy'
"""
VENV_NETWORK = (Path(__file__).parent / "data" / "diagnose" / "venv_network.log").read_text()
API_KEY_ENV_UNSET = (Path(__file__).parent / "data" / "diagnose" / "api_key_env_unset.log").read_text()
CONFIG_NOT_FOUND = """\
Traceback (most recent call last):
  File "/gym/nemo_gym/cli.py", line 120, in main
FileNotFoundError: [Errno 2] No such file or directory: 'configs/my_env.yaml'
"""
DISK_FULL_IN_VERIFIER = """\
(my_resources_server) Traceback (most recent call last):
(my_resources_server)   File "/gym/resources_servers/my_env/app.py", line 30, in verify
(my_resources_server) OSError: [Errno 28] No space left on device
"""
HYDRA = """\
Traceback (most recent call last):
  File "/gym/nemo_gym/cli.py", line 88, in main
omegaconf.errors.ConfigAttributeError: Key 'polciy_model' is not in struct
"""
MODEL_CRASH = """\
Traceback (most recent call last):
  File "/srv/gym_pipeline/serving/simulated_policy.py", line 210, in chat_completions
KeyError: 'choices'
"""


# a user's resources server whose verify appends to a file named after the label (`3/4` names a folder `3`)
FILE_OPENED_BY_VERIFY = """\
(quiz_audit) Traceback (most recent call last):
(quiz_audit)   File "/srv/nemo_gym/judge.py", line 95, in wrapper
(quiz_audit)     return await verify_fn(*args, **kwargs)
(quiz_audit)   File "/srv/my_gym/resources_servers/quiz_audit/app.py", line 372, in verify
(quiz_audit)     with open(os.path.join(AUDIT_DIR, f"{body.expected_answer}.jsonl"), "a") as audit:
(quiz_audit) FileNotFoundError: [Errno 2] No such file or directory: '/runs/eval/audit/3/4.jsonl'
"""
# the same error from the command that was given the data path
DATA_PATH_GIVEN = """\
Traceback (most recent call last):
  File "/srv/gym_pipeline/cli.py", line 40, in main
FileNotFoundError: [Errno 2] No such file or directory: '/runs/eval/data/trivia_v2.jsonl'
"""


def incident(text: str, file: str = "env_start.log"):
    facts = LogFacts()
    scan_text(file, text, facts)
    [first, *_] = facts.incidents
    return first


@pytest.mark.parametrize(("text", "category", "basis"), [
    (VERIFIER_IMPORT, "verifier_runtime", "resources server `my_resources_server`"),
    (VENV_NETWORK, "infra", "DNS resolution failed"),
    (CONFIG_NOT_FOUND, "config", "config file"),
    (DISK_FULL_IN_VERIFIER, "infra", "ENOSPC"),  # what it is wins over where it happened
    (HYDRA, "config", "Hydra/OmegaConf"),
    (MODEL_CRASH, "model_serving", "the model server"),
    (API_KEY_ENV_UNSET, "config", "environment variable that is not set"),
    (FILE_OPENED_BY_VERIFY, "verifier_runtime", "a file the verifier's own code opens"),
    (DATA_PATH_GIVEN, "config", "data path that does not exist"),
])
def test_placed_by_origin_and_errno(text, category, basis):
    placement = place(incident(text), {})
    assert (placement.category, placement.guess) == (category, False)
    assert basis in placement.basis


def test_the_fix_names_the_variable_whichever_alternative_of_the_pattern_matched():
    assert "export MYKEY=<value>" in place(incident(API_KEY_ENV_UNSET), {}).fix
    assert "export POLICY_URL=<value>" in place(incident("Error: Environment variable 'POLICY_URL' not found\n"), {}).fix


def test_an_ascii_codec_error_names_the_variables_that_turn_utf_8_off():
    fix = place(incident("UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3 in position 57: ordinal not in "
                         "range(128)\n"), {}).fix
    assert "`PYTHONCOERCECLOCALE=0` with `PYTHONUTF8=0`" in fix and "`LC_ALL=C` overrides LANG" in fix


def test_a_model_servers_usage_error_is_model_serving():
    placement = place(incident("gym-pipeline serve-policy: error: --checkpoint given twice: it takes one value\n"), {})
    assert placement.category == "model_serving" and "the server never started" in placement.basis
    assert place(incident("gym-pipeline collect: error: argument --inputs: expected one argument\n"), {}).category == \
        "config"


def test_connection_refused_is_placed_by_who_listens_on_the_port():
    text = "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:18123 ssl:default\n"
    error = incident("ERROR: " + text)
    gym_server = {18123: Listener("infra", "the Gym server `math_resources_server`", "env_start.log:12")}
    model = {18123: Listener("model_serving", "the model server", "eval.log:1")}
    assert place(error, gym_server).category == "infra"
    assert place(error, model).category == "model_serving"
    assert place(error, {}).guess


def test_only_words_make_a_guess_and_say_so():
    placement = place(incident("ERROR: request timed out after 30 s\n"), {})
    assert placement.guess and "guess" in placement.basis
    refused = place(incident("ERROR: invalid value for the override ++policy.port\n"), {})
    assert (refused.category, refused.guess) == ("config", True)


def test_the_innermost_frame_is_where_it_was_raised():
    assert innermost_frame(incident(VERIFIER_IMPORT)) == "/gym/resources_servers/my_env/app.py:7 in <module>"


def test_a_url_cut_short_in_its_port_names_no_address():
    assert address_of("http://127.0.0.1:4741…;") is None
    assert address_of("http://127.0.0.1:8000/v1") == ("127.0.0.1", 8000)


@pytest.mark.parametrize(("line", "category", "basis"), [
    ("OSError: [Errno 5] Input/output error: '/mnt/nfs/run/rollouts.jsonl'", "infra", "EIO"),
    ("OSError: [Errno 36] File name too long: '/runs/aaaa'", "config", "ENAMETOOLONG"),
    ("RuntimeError: can't start new thread", "throughput_resources", "could not start a thread"),
    ("ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed", "config",
     "certificate"),
    ("ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1000)", "config", "plain HTTP"),
    ("httpx.ProxyError: 407 Proxy Authentication Required", "infra", "proxy"),
    ("error: No interpreter found for Python >=3.13 in managed installations or search path", "infra", "Python"),
    ("tomllib.TOMLDecodeError: Invalid value (at line 3, column 9)", "config", "TOML"),
    ("slurmstepd: error: Detected 1 oom_kill event in StepId=12.batch.", "throughput_resources", "out of memory"),
    ("error: [Errno 2] No such file or directory: '/scratch/run/rollouts.jsonl'", "infra", "output folder was removed"),
    ("FileNotFoundError: [Errno 2] No such file or directory", "infra", "working directory no longer exists"),
    ("error: /data/evals/math_tasks.jsonl: file not found", "config", "data path that does not exist"),
    ("LexerNoViableAltException: +input_jsonl_fpath=~/datasets/tasks.jsonl", "config", "override grammar"),
    ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8b in position 1: invalid start byte", "data_schema",
     "gzip"),
    ("UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte", "data_schema",
     "UTF-16"),
    ("UnicodeEncodeError: 'ascii' codec can't encode character '\\u2014' in position 12: ordinal not in range(128)",
     "infra", "text encoding is ASCII"),
    ("OSError: [Errno 40] Too many levels of symbolic links: '/data/current'", "infra", "ELOOP"),
    ("gym-pipeline collect: error: argument --output: results is a symlink loop (results -> results_migrated -> ...): "
     "too many levels of symbolic links", "infra", "ELOOP"),
    ("OSError: [Errno 107] Transport endpoint is not connected: '/mnt/s3/tasks.jsonl'", "infra", "ENOTCONN"),
    ("OSError: [Errno 26] Text file busy: '/work/run/verify.sh'", "infra", "ETXTBSY"),
    ("bash: /work/.venv/bin/gym-pipeline: Argument list too long", "config", "E2BIG"),
    ("docker: Error response from daemon: pull access denied for gym-verifier, repository does not exist or may "
     "require 'docker login'", "infra", "container image"),
    ("docker: Error response from daemon: No such image: gym-verifier:latest.", "infra", "container image"),
    ("ERROR: Could not find a version that satisfies the requirement nemo-gym==0.9.0", "infra", "installing"),
    ("error: externally-managed-environment", "infra", "system Python"),
    ("gzip: stdin: unexpected end of file", "data_schema", "interrupted"),
    ("tar: Unexpected EOF in archive", "data_schema", "interrupted"),
    ("pyarrow.lib.ArrowInvalid: JSON parse error: Missing a closing quotation mark in string. in row 12", "data_schema",
     "does not parse"),
    ("gym eval run: error: invalid configuration: num_repeats.int (Input should be a valid integer, unable to parse "
     "string as an integer)", "config", "wrong type"),
    ("error: unknown environment 'String_Match' (known: mcqa, string_match)", "config", "does not define"),
    ("error: cannot lock run directory /runs/out: File exists", "infra", "EEXIST"),
    ("error: cannot lock run directory /runs/out/a: /runs/out is a file, not a directory: move it away", "infra",
     "ENOTDIR"),
    ("NotADirectoryError: [Errno 20] Not a directory: '/runs/out/rollouts.jsonl'", "infra", "ENOTDIR"),
    ("error: cannot lock run directory /runs/s/a: /runs/s is a symlink to /scratch/a, which does not exist", "infra",
     "symlink"),
])
def test_what_an_error_is_places_it_whoever_met_it(line, category, basis):
    placement = place(incident(line + "\n"), {})
    assert (placement.category, placement.guess) == (category, False)
    assert basis in placement.basis


def test_a_connection_dropped_is_placed_by_who_listens_on_the_port():
    text = "aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected (http://127.0.0.1:8000/v1)\n"
    model = {8000: Listener("model_serving", "the model server", "manifest.json:3")}
    placement = place(incident(text), model)
    assert (placement.category, placement.guess) == ("model_serving", False)
    assert "crashed, restarted or was killed" in placement.basis


def test_a_refused_sweep_config_field_is_named_in_the_fix_in_both_forms_our_command_printed():
    now = (Path(__file__).parent / "data" / "diagnose" / "sweep_config_field_refused.log").read_text()
    before = (Path(__file__).parent / "data" / "diagnosis_corpus" / "ninth_held_out" /
              "config_sweep_launcher_memory_with_unit" / "run" / "logs" / "materialize.log").read_text()
    for text in (now, before):  # one line, or pydantic's details on the lines after it
        placement = place(incident(text), {})
        assert placement.category == "config" and not placement.guess
        assert "Correct `launchers.collect.docker.memory_mb`" in placement.fix and "'4g'" in placement.fix


def test_an_ipv6_address_printed_without_brackets_is_read_and_kept_apart_from_127_0_0_1():
    from gym_pipeline.diagnose.rules.endpoint_address import _address, _reaches

    served, asked = _address("http://::1:37445/v1"), _address("http://127.0.0.1:37445/v1/models")
    assert served == ("::1", 37445, True) and not _reaches(asked, served)
    assert _reaches(_address("http://localhost:37445/v1"), _address("http://0.0.0.0:37445/v1"))
    assert _address("http://127.0.0.1/v1") == ("127.0.0.1", 80, False)



def _stderr_of(command: list[str], cwd: Path) -> str:
    import subprocess

    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False).stderr


def test_errors_the_system_really_prints_are_placed_by_what_they_are(tmp_path):
    """The messages come from running the failing thing here, not from memory."""
    import gzip
    import os
    import sys

    data = tmp_path / "tasks.jsonl.gz"
    data.write_bytes(gzip.compress(b'{"x": 1}\n' * 1000)[:40])  # a download cut short
    (tmp_path / "current").symlink_to(tmp_path / "current")  # a link made to point at itself
    gym = tmp_path / "venv" / "bin" / "gym"  # an entry script of a virtual environment moved from /opt/venv
    gym.parent.mkdir(parents=True)
    gym.write_text("#!/opt/venv/bin/python3\nprint('gym')\n")
    gym.chmod(0o755)
    (tmp_path / "run_eval.sh").write_text(f"#!/bin/bash\n{gym} eval run\n")
    # a driver sizing its pool from the node, which gives 0 workers on a node of fewer than 64 CPUs
    pool = "import os; from concurrent.futures import ThreadPoolExecutor; ThreadPoolExecutor(os.cpu_count() // 64)"
    errors = {
        "worker pool sized to 0": _stderr_of([sys.executable, "-c", pool], tmp_path),
        "interrupted": _stderr_of(["gzip", "-t", str(data)], tmp_path),
        "ELOOP": _stderr_of([sys.executable, "-c", "open('current/tasks.jsonl')"], tmp_path),
        # an argument of 3 MB, as a glob over very many files gives
        "E2BIG": _stderr_of(["bash", "-c", "/bin/true $(head -c 3000000 /dev/zero | tr '\\0' a)"], tmp_path),
        "interpreter": _stderr_of(["bash", "run_eval.sh"], tmp_path),
    }
    for basis, text in errors.items():
        assert text or (basis == "worker pool sized to 0" and (os.cpu_count() or 0) >= 64), basis
        if not text:
            continue
        placement = place(incident(text, "build.log"), {})
        assert basis in placement.basis and not placement.guess, (basis, text)
