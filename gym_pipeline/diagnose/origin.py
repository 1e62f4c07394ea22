"""Where a log error comes from and what it is: the class of an error no rule knows.

An error is placed by what it is when that is unambiguous whatever process met it (an errno class:
a full disk, a stale handle, a taken port, a failed DNS lookup), then by the process that raised it
(the server whose `(name)` prefixes the line, the log it is in, the frames of its traceback, the
package its exception comes from), and only then, marked as a guess, by words in its text.

    placement = place(incident, addresses)   # Placement(category, basis, guess)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple
from urllib.parse import urlsplit

from gym_pipeline.diagnose.logs import LogIncident
from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CONFIG,
    DATA_SCHEMA,
    INFRA,
    MODEL_SERVING,
    THROUGHPUT_RESOURCES,
    VERIFIER_RUNTIME,
)


@dataclass(frozen=True)
class Placement:
    category: str
    basis: str  # why it is placed there, for the finding's cause
    guess: bool = False  # only words of the error placed it
    fix: str = ""  # what to do about this kind of error, when it is specific


class _Kind(NamedTuple):
    pattern: re.Pattern[str]
    category: str
    basis: str
    fix: str = ""


def _kinds(*rows: tuple[str, str, str] | tuple[str, str, str, str]) -> tuple[_Kind, ...]:
    return tuple(_Kind(re.compile(row[0], re.I), *row[1:]) for row in rows)


NAME_NOT_DEFINED = "a name the config does not define"
DATA_PATH_MISSING = "the command was given a data path that does not exist"
INTERPRETER_GONE = r"(?P<program>\S+): (?:cannot execute: required file not found|bad interpreter: No such file or directory)"
READING_ROWS = "reading the data rows"
REFUSED_COMMAND_LINE = "the command line was refused (an option missing, unknown or with a bad value): the command did nothing"
BAD_DATA_ROW = "a row of a JSONL data file is malformed or lacks a field (file:line named)"
VERIFY_RESPONSE_INVALID = r"validation errors? for \w*Verify\w*Response\b"
# the Docker client told to use TLS with certificates that are not there (settings left from a remote engine)
DOCKER_TLS = r"client_cert param|TLS configuration|DOCKER_CERT_PATH|DOCKER_TLS_VERIFY|[Dd]ocker[^\n]*\bx509:"
DOCKER_TLS_FIX = ("Unset the TLS settings left from another engine (`unset DOCKER_TLS_VERIFY DOCKER_CERT_PATH`, and "
                  "DOCKER_HOST if it names that engine) where they are set (a sourced env script, `~/.bashrc`), or "
                  "give DOCKER_CERT_PATH a folder holding ca.pem, cert.pem and key.pem; `docker info` must answer; "
                  "then run again.")
# What it is, whoever met it: errno classes, network failures, and the few errors our own commands name.
_WHAT = _kinds(
    (r"Errno 28\b|No space left on device|ENOSPC|Disk quota exceeded|EDQUOT", INFRA,
     "ENOSPC: the filesystem it writes to is full",
     "Free space where the run writes (`df -h <output folder>`), or write to a larger filesystem; then resume."),
    (r"Errno 116\b|Stale file handle|ESTALE", INFRA, "ESTALE: a network filesystem's file handle went stale",
     "Re-run on the node after the mount recovers (`mount | grep <path>`), or write to local disk and copy after."),
    (r"Errno 30\b|Read-only file system|EROFS", INFRA, "EROFS: the filesystem is mounted read-only",
     "Write the output to a writable folder (`--output`), or remount it read-write."),
    (r"Errno 27\b|File too large|EFBIG", INFRA, "EFBIG: a file reached the file size limit of the process",
     "Lift the file size limit (`ulimit -f` shows it; `ulimit -f unlimited` in the shell or job script that starts the "
     "run: Slurm jobs inherit it from the submitting shell), then resume."),
    (r"Errno 40\b|Too many levels of symbolic links|ELOOP", INFRA,
     "ELOOP: a path goes through a symbolic link that leads back to itself (a `latest` or `current` link made to point "
     "at itself or at a link to it)",
     "Follow the path the error names (`ls -l` each link on it; `readlink -f <path>` fails on the loop) and point the "
     "link at a real folder (`ln -sfn <real folder> <link>`); then run again."),
    (r"Errno 107\b|Transport endpoint is not connected|ENOTCONN\b", INFRA,
     "ENOTCONN: the mount the path is on dropped (a FUSE mount such as s3fs, gcsfuse, sshfs, or a network filesystem)",
     "Mount it again (`mount | grep <mount point>`; `fusermount -u <mount point>` and mount it, or restart its "
     "service), or copy the files to local disk first; then resume."),
    (r"Errno 26\b|Text file busy|ETXTBSY", INFRA,
     "ETXTBSY: a program or script was written while it ran (or run while still open for writing)",
     "Do not rewrite a script or binary a running job executes: write the new one beside it and move it into place "
     "(`mv` is atomic), or wait for the job to end; then run again."),
    (r"Argument list too long|Errno 7\b|E2BIG", CONFIG,
     "E2BIG: the command line is longer than the system allows: a glob expanded to too many file names",
     "Give the command a folder or a file list instead of the expanded names (`find <dir> -name '*.jsonl' -print0 | "
     "xargs -0 ...`, or join the files first); then run again."),
    # mktemp's folder is TMPDIR unless the script names one: a node setting pointing at scratch this node lacks
    (r"mktemp: failed to create (?:directory|file) via template [‘'`](?P<template>[^’'`\n]+)", INFRA,
     "a temporary folder or file could not be made: the folder mktemp writes in (TMPDIR, unless the script gives it "
     "one) is not there or not writable on this node",
     "Point TMPDIR at a folder that exists and is writable on every node the run lands on (node-local scratch is "
     "mounted on some nodes only: `ls -ld <folder of {template}>`), or unset it so mktemp uses /tmp; then run again."),
    (r"Errno 24\b|Too many open files|EMFILE", INFRA, "EMFILE: the process ran out of file descriptors",
     "Raise the limit (`ulimit -n 65536` before starting) or lower `--concurrency`."),
    (r"Errno 98\b|Errno 48\b|address already in use|EADDRINUSE", INFRA, "EADDRINUSE: another process holds the port",
     "Find the holder (`ss -ltnp 'sport = :<port>'`), stop it or pick another port, then start again."),
    # `docker run --cpuset-cpus 4-7` on a host with fewer CPUs (a flag copied from a bigger node's template)
    (r"Requested CPUs are not available - requested (?P<requested>\S+), available: (?P<available>[\w,-]+)", INFRA,
     "the container was pinned to CPUs this host does not have",
     "Pin the container to CPUs this host has (`--cpuset-cpus` {available}, `nproc` tells how many), or drop "
     "`--cpuset-cpus {requested}` (from another node's template) and limit it with `--cpus`; then run again."),
    # `docker run --gpus all` (a GPU node's template) on a host whose engine has no NVIDIA runtime
    (r"could not select device driver \"[^\"\n]*\" with capabilities: \[\[gpu\]\]", INFRA,
     "the container asked for GPUs (`--gpus`) and this host's Docker engine has no GPU runtime (NVIDIA Container "
     "Toolkit) to give them",
     "Drop `--gpus all` from the `docker run` line (from a GPU node's template: the simulated policy and the stages "
     "need no GPU), or run on a node whose engine has the NVIDIA runtime (`docker info | grep -i runtimes` lists "
     "nvidia there); then run again."),
    # a container run as another user (`--user 65534`, a hardening template) that cannot read what is mounted in
    (r"unable to start container process: exec: \"?(?P<program>[^\s\":]+)\"?: stat [^\n]*permission denied", INFRA,
     "the container's user may not read the program it was started with",
     "The container runs as a user (`docker run --user`, or the image's USER) that may not read {program}, mounted "
     "from a folder only its owner may enter: run it as the owner (drop `--user` or give the same uid), or mount a "
     "program that user may read; then run again."),
    (r"Errno 13\b|Permission denied|EACCES", INFRA, "EACCES: a file or folder it needs is not accessible",
     "Check the owner and mode of the path it names (`ls -ld <path>`), and which user the stage runs as."),
    (r"Errno 1\] Operation not permitted|\bEPERM\b", INFRA, "EPERM: the system refused the operation whatever the "
     "file modes say (an immutable or append-only file or folder, `chattr +i`; a mount or security policy)",
     "Find what protects the path the error names (`lsattr -d <path>` shows `i`, immutable, or `a`, append-only; "
     "`mount` its mount options) and have it lifted (`chattr -i` / `chattr -a`, by whoever set it: a retention, "
     "archive or cleanup job), or write the run "
     "elsewhere (`--output`); then run again."),
    # Hydra's override grammar refusing a value: `~` that no shell expanded, spaces, brackets, quotes
    (r"(?:LexerNoViableAltException|mismatched input [^\n]*expecting)[^\n]*?(?P<override>\+?[\w.]+=\S*)"
     r"|override_grammar", CONFIG,
     "a command-line value Gym's config loader (Hydra's override grammar) cannot parse",
     "Give the value in a form the grammar takes: an absolute path for a file option such as `--input` (a `~` in "
     "quotes reaches Gym unexpanded: write `$HOME/...` or leave the `~` unquoted so the shell expands it), and "
     "quote values with spaces, brackets or `=` for Hydra (`'++key=\"a b\"'`); the refused override was "
     "`{override}`. Then run again."),
    (r"LexerNoViableAltException", CONFIG,
     "a command-line value Gym's config loader (Hydra's override grammar) cannot parse",
     "The `^` under the error marks where the value went wrong; a blank one is most often a line break gone wrong (a "
     "backslash followed by a space in a script, a variable that is empty or ends in `\\r`): give Gym the options as "
     "the usage says, values with spaces or brackets quoted for Hydra (`'++key=\"a b\"'`); then run again."),
    # a line of a script starting with an option, run as a command of its own
    (r"(?P<script>\S+): line (?P<line>\d+): (?P<option>-[-\w]*): command not found", CONFIG,
     "a line of a script that starts with an option ran as a command of its own: the line before it does not end "
     "in a continuing backslash",
     "In {script}, end the line before line {line} with a backslash and nothing after it (a space after the "
     "backslash ends the command there; `cat -A {script}` shows one as `\\ $`), so {option} and the options after it "
     "reach the command; then run again."),
    # our commands' and argparse's refusals of a command line: nothing ran
    (r"(?:^|\n)(?:[\w.-]+: )?[Ee]rror: (?:[^\n]*\bneeds? --[\w-]+|the following arguments are required"
     r"|unrecognized arguments|argument --?[\w-]+|Missing option|No such option|invalid choice)", CONFIG,
     REFUSED_COMMAND_LINE,
     "Give the command the options its error and usage line name (`<command> --help`); then run again."),
    # Python started without its standard library: PYTHONHOME (or PYTHONPATH) left pointing at another installation
    (r"init_fs_encoding|No module named '?encodings'?|Could not find platform (?:in)?dependent libraries", INFRA,
     "Python could not find its own standard library: PYTHONHOME (or PYTHONPATH) points at an installation that is "
     "gone or of another version",
     "Unset PYTHONHOME (`unset PYTHONHOME`, and PYTHONPATH if it names another Python's library) where the job's "
     "environment is set (a sourced env script, `~/.bashrc`, a module load), or point it at an installation that "
     "exists; `python -c 'import sys; print(sys.prefix)'` must work; then run again."),
    # a process whose text encoding is ASCII (PYTHONIOENCODING=ascii, a non-UTF-8 locale with PYTHONUTF8=0) meeting
    # any character beyond it: printing a progress bar, a name, an answer
    (r"'(?:ascii|ANSI_X3\.4-1968)' codec can't (?:en|de)code (?:character|byte)", INFRA,
     "the process's text encoding is ASCII (its environment sets PYTHONIOENCODING=ascii, or a locale that is not UTF-8), "
     "so it cannot write or read a character beyond ASCII",
     "Run it with UTF-8 text: `export PYTHONIOENCODING=utf-8 LANG=C.UTF-8` (or `PYTHONUTF8=1`) where the job's "
     "environment is set (a job script, a sourced env script, `~/.bashrc`), or unset what sets ASCII: `LC_ALL=C` "
     "overrides LANG, and `PYTHONCOERCECLOCALE=0` with `PYTHONUTF8=0` turn off Python's own ways to UTF-8 under the C "
     "locale (`env | grep -E '^(LC_ALL|LANG|PYTHONCOERCECLOCALE|PYTHONUTF8|PYTHONIOENCODING)='` shows them); "
     "`python -c 'import sys; print(sys.stdout.encoding)'` must say utf-8; then run again (or open files with "
     "`encoding=\"utf-8\"`)."),
    # a program whose interpreter (its `#!` line) is not there: a virtual environment moved or copied elsewhere
    (INTERPRETER_GONE, INFRA,
     "a program's interpreter (the path in its `#!` line) is not there: a virtual environment moved or copied to "
     "another folder, whose entry scripts still name the old one",
     "`head -1 {program}` shows the interpreter it wants. A virtual environment is not relocatable: create it again "
     "where it now lives (`python -m venv` or `uv venv`, then reinstall) rather than moving it with `mv`, or put it "
     "back where it was built; then run again."),
    # an image the container runtime does not have and could not pull
    (r"Error response from daemon: (?:pull access denied|No such image|manifest (?:for \S+ )?(?:not found|unknown))"
     r"|repository does not exist or may require 'docker login'", INFRA,
     "the container image is not on this machine and could not be pulled (a wrong name or tag, a private registry "
     "without `docker login`, or no network to the registry)",
     "See which images the engine has (`docker images`), then build the image or pull it where the registry is "
     "reachable (`docker login` first for a private one), or fix the name and tag in the command; then run again."),
    # a package the environment asks for that the package index it reaches does not have, or pip refusing the system
    # Python (PEP 668)
    (r"Could not find a version that satisfies the requirement (?P<requirement>\S+)|No matching distribution found "
     r"for (?P<requirement2>\S+)|externally-managed-environment", INFRA,
     "installing the environment's packages failed: a version the index it reaches does not have, or pip refused to "
     "install into the system Python",
     "See which versions the index has (`pip index versions <package>`) and pin one of them, or point pip at the "
     "index or mirror that has it (PIP_INDEX_URL); for the system Python, install into a virtual environment "
     "(`python -m venv`, `uv venv`); then run again."),
    # an archive or compressed data file cut short: an interrupted download or copy
    (r"(?:gzip|gunzip|zcat|tar|unzip|xz|zstd): [^\n]*(?:unexpected end of file|Unexpected EOF|truncated)", DATA_SCHEMA,
     "a compressed or archived file ends before its end: its download or copy was interrupted",
     "Check it (`gzip -t <file>`, `tar -tzf <file> > /dev/null`), fetch it again and compare its size or checksum with "
     "the source's; make the script stop on a failed step (`set -euo pipefail`); then build the data again and run."),
    # a JSON or JSONL file that does not parse, read by pyarrow or pandas
    (r"ArrowInvalid: JSON parse error|ValueError: (?:Expected object or value|Trailing data)\b", DATA_SCHEMA,
     "a JSON or JSONL file does not parse (read with pyarrow or pandas, which name no line)",
     "Find the first line that does not parse (`python -c \"import json,sys; [json.loads(l) for l in "
     "open(sys.argv[1])]\" <file>` names it) and repair or drop it; then run again."),
    # the dynamic loader found a broken or wrong copy of a library first (a folder on LD_LIBRARY_PATH), or none
    (r"error while loading shared libraries: (?P<lib>\S+?): (?:file too short|cannot read file data|cannot open shared "
     r"object file|wrong ELF class|invalid ELF header|[^\n]*version `[^`']+' not found)", INFRA,
     "the dynamic loader could not load a shared library the program needs, so it never started",
     "See which copy the loader takes (`ldd $(command -v python)`; `echo $LD_LIBRARY_PATH`): a folder on LD_LIBRARY_PATH "
     "holding a broken or other-version copy of {lib} comes before the right one. Take that folder out of "
     "LD_LIBRARY_PATH where the job's environment is set (a sourced modules script, `~/.bashrc`), or repair the "
     "copy; then run again."),
    # a data file a script copies or joins into the dataset was not there: the dataset is built without it
    (r"(?:cp|mv|cat|zcat|gzip|gunzip|tar|rsync|scp): (?:cannot (?:stat|access|open) '?(?P<path>\S+?\.(?:jsonl|json|"
     r"parquet|csv|tsv|gz))'?|(?P<path2>\S+?\.(?:jsonl|json|parquet|csv|tsv|gz)): No such file or directory)", DATA_SCHEMA,
     "a data file the dataset is built from was not there, and what built it went on without it",
     "The data is incomplete: {path} was missing when it was copied or joined in (a shard not on the mirror yet, a "
     "wrong name), so the run covers only part of the dataset. Get the file, make the build script stop on a failed "
     "step (`set -euo pipefail`), build the data again and check its row count against the dataset's own list; then "
     "run again on a clean output path."),
    # a package imported from a folder outside the environment (PYTHONPATH, `pip install --target`) that lacks a name
    (r"cannot import name '?(?P<name>\w+)'? from '?(?P<package>[\w.]+)'? \((?P<path>(?![^)]*(?:site|dist)-packages)/"
     r"[^)]*)\)", INFRA,
     "a copy of the package outside the environment (on PYTHONPATH) shadows the installed one, and lacks the name",
     "`{package}` was imported from {path}, not from the environment's site-packages: a folder on PYTHONPATH (or a "
     "`pip install --target` folder) holds another version. Take that folder off PYTHONPATH where the job's "
     "environment is set (a sourced env script, `~/.bashrc`), or uninstall that copy; `python -c 'import {package}; "
     "print({package}.__file__)'` must name site-packages; then run again."),
    (DOCKER_TLS, INFRA, "the Docker client was told to use TLS (DOCKER_TLS_VERIFY, DOCKER_CERT_PATH) with certificates "
     "it cannot find: settings left from another engine", DOCKER_TLS_FIX),
    (r"IsADirectoryError|Errno 21\b|Is a directory", CONFIG, "EISDIR: a path given where a file is read names a "
     "folder", "Point the option that names the file (`--input` or `--inputs` for data, `--rollouts`, a config path) "
     "at a file inside that folder (`ls` it for the .jsonl), not at the folder itself; then run again."),
    # a folder to create that exists as something else: most often a symlink whose target is gone (an unmounted
    # scratch filesystem), which mkdir sees as existing and Path.is_dir as not a folder
    (r"FileExistsError: \[Errno 17\] File exists: '(?P<path>[^']+)'|cannot lock run directory (?P<path2>\S+): "
     r"File exists", INFRA,
     "EEXIST: a folder the run creates exists as something that is not a directory (a file left in its place, or "
     "a symlink whose target is gone: a filesystem not mounted)",
     "Look at what is there (`ls -ld {path}`): a regular file where the directory should be (left by a `> path` "
     "redirect: move or delete it, or write the run to another directory with `--output`), or a symlink to a "
     "scratch or network filesystem not mounted on this node (`mount | grep <target>`; mount it, or point the link "
     "elsewhere); then run again."),
    # a path written under a file, as if it were a folder: `out/rollouts.jsonl` where `out` is a file
    # our commands refuse a path through a symlink to nothing before writing anything
    (r"is a symlink to (?P<path>\S+), which does not exist", INFRA,
     "a symlink on the output's path points to nothing (a scratch or network filesystem not mounted on this node)",
     "Mount the filesystem the symlink points into (`mount | grep` its mount point; `ls -l` the link: a target that "
     "is itself a link back makes a loop that never reaches a folder), or point the symlink at a real folder "
     "(`ln -sfn <real folder> <link>`) or the output elsewhere; then run again."),
    (r"NotADirectoryError|Errno 20\b|Not a directory|ENOTDIR|is a file, not a directory", INFRA,
     "ENOTDIR: a path the run writes or reads goes through a file, not a directory",
     "Find the file standing where a directory of the path should be (`ls -ld` each parent of the path the error "
     "names), move or delete it (often left by a `> path` redirect), or write the run to another directory; then "
     "run again."),
    # the Docker socket refused to this user: not in the `docker` group (or a rootless engine's socket elsewhere)
    (r"(?:docker\.sock|Docker engine|docker daemon)[^\n]*(?:Permission denied|Errno 13)|"
     r"(?:Permission denied|Errno 13)[^\n]*docker\.sock", INFRA,
     "the Docker engine's socket refuses this user (not in the `docker` group)",
     "Add the user to the docker group (`sudo usermod -aG docker $USER`, then log in again or `newgrp docker`), or run "
     "with a DOCKER_HOST this user may use (a rootless engine's socket); `docker info` must answer; then run again."),
    (r"Temporary failure in name resolution|Name or service not known|nodename nor servname|gaierror"
     r"|Could not resolve host|dns error|failed to lookup address", INFRA,
     "DNS resolution failed: no network, or a wrong host name",
     "The machine cannot resolve the host it names: check the network and the host name. For Gym's per-server "
     "venvs without network, pre-build them and start with `++skip_venv_if_present=true`, or point uv at a "
     "reachable index (`UV_INDEX_URL`)."),
    (r"AF_UNIX path length|unix socket path .*too long|socket path is too long", INFRA,
     "a Unix socket path is too long (Ray keeps its sockets under its temp folder)",
     "Give Ray a short temp folder: `export TMPDIR=/tmp` (or `RAY_TMPDIR=/tmp/ray`) before `gym env start`; a socket "
     "path must stay under 108 bytes."),
    (r"Network is unreachable|Errno 101\b|No route to host|Errno 113\b", INFRA, "the network is unreachable",
     "Check the route to the host it names (`ip route`, a firewall, the node's network)."),
    (r"Errno 5\b|Input/output error|\bEIO\b", INFRA, "EIO: the storage failed to read or write (a disk or network "
     "mount error)", "Check the filesystem it names (`dmesg`, `mount`); re-run on healthy storage, then resume."),
    (r"Errno 36\b|File name too long|ENAMETOOLONG", CONFIG, "ENAMETOOLONG: a path it built is longer than the "
     "filesystem allows", "Shorten what the path is built from (the output folder, run or checkpoint names), then run "
     "again."),
    # a server told to listen on an address this machine does not have: a host setting copied from another node
    (r"error while attempting to bind on address \('(?P<host>[^']+)', (?P<port>\d+)\): cannot assign requested "
     r"address", CONFIG, "a server was told to listen on an address this machine does not have",
     "Bind the servers to an address of this machine, not {host} (`ip -brief addr` lists them): drop the host copied from "
     "another node's or a multi-node config, or set it to 127.0.0.1 (0.0.0.0 for every address): for Gym, "
     "`++head_server.host`, `++default_host` or the server's own `host`; then start the servers again."),
    (r"Errno 99\b|Cannot assign requested address|EADDRNOTAVAIL", INFRA, "EADDRNOTAVAIL: the address is not on this "
     "machine, or no local port was left for a new connection",
     "Bind servers to an address of this machine (`127.0.0.1`, `0.0.0.0`); with thousands of short connections, "
     "lower `--concurrency` or reuse connections."),
    (r"can't start new thread|Errno 11\b|Resource temporarily unavailable|EAGAIN|fork: retry", THROUGHPUT_RESOURCES,
     "the process could not start a thread or process: a limit on processes (`ulimit -u`, a container's pids "
     "limit) or memory", "Raise the process limit where it runs (`ulimit -u` shows it; a container's `--pids-limit`, "
     "a job's limits) or lower `--concurrency` and the workers per server; then run again."),
    # a worker pool sized from the node to nothing: `ThreadPoolExecutor(max_workers=os.cpu_count() // 4)` on 2 cores
    (r"max_workers must be greater than 0|Number of processes must be at least 1|n_jobs == 0 has no meaning"
     r"|(?:workers|processes|threads|concurrency)\w* must be (?:at least 1|positive|greater than 0)", THROUGHPUT_RESOURCES,
     "a worker pool sized to 0: its size is worked out from the node (`os.cpu_count() // 4` is 0 on a 2-core node) or "
     "from a setting that came out empty",
     "Give the pool at least one worker where its size is worked out (`max(1, os.cpu_count() // 4)`), or size it "
     "from the CPUs the job was given (`len(os.sched_getaffinity(0))`, `$SLURM_CPUS_PER_TASK`) and check the value "
     "it gets on this node; then run again."),
    # TLS: a certificate the client does not trust, or TLS spoken to a server that speaks plain HTTP
    (r"CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLCertVerificationError", CONFIG,
     "TLS: the server's certificate is not trusted by the client",
     "For a server on this machine use `http://` in the URL; for a server with its own CA, point the client at it "
     "(`SSL_CERT_FILE=<ca.pem>`); then run again."),
    (r"WRONG_VERSION_NUMBER|wrong version number|record layer failure|http request to an https server", CONFIG,
     "TLS spoken to a server that speaks plain HTTP (or the reverse)",
     "Use the scheme the server speaks in the URL (`http://` for vLLM and the simulated policy unless they were "
     "started with TLS), then run again."),
    # a proxy between the client and the server (a loopback address sent to the proxy)
    (r"ProxyError|Proxy Authentication Required|\b407\b.*[Pp]roxy|Unable to connect to proxy", INFRA,
     "a web proxy stands between the client and the server",
     "Keep loopback and cluster addresses off the proxy: `export no_proxy=127.0.0.1,localhost,<cluster hosts>` (and "
     "NO_PROXY) in the shell that runs the command, or unset http_proxy/https_proxy there; then run again."),
    # no network to a model hub: a tokenizer or weights fetched at start
    (r"couldn't connect to 'https://huggingface\.co'|huggingface_hub\.errors\.\w*(?:Connection|Offline)|"
     r"LocalEntryNotFoundError|We couldn't connect to", INFRA,
     "no network to the model hub, and the files are not in its cache",
     "Download the model's files where the server runs beforehand (`huggingface-cli download <repo>`), point it at a "
     "local folder, and set `HF_HUB_OFFLINE=1`; then start again."),
    # a Python version the environment's requirements refuse (uv building a server's venv)
    (r"No interpreter found for Python|requires-python|Requires-Python|Python version .*(?:unsatisfiable|not supported)",
     INFRA, "no Python interpreter of the version a server's environment requires",
     "Install the Python version it requires where the servers start (`uv python install <version>`), or pre-build "
     "the servers' venvs and start with `++skip_venv_if_present=true`; then start again."),
    # a TOML settings file that does not parse (dataset.toml, task.toml, pyproject.toml)
    (r"TOMLDecodeError|tomli?\.\w*DecodeError|Invalid TOML", CONFIG, "a TOML settings file does not parse",
     "Fix the TOML file the error names at the line and column it gives (a value without quotes, a duplicate key), "
     "check it with `python -c 'import sys, tomllib; tomllib.load(open(sys.argv[1], \"rb\"))' <file>`; then run "
     "again."),
    # a request model refusing a row's fields: the data (a verify response refused is the verifier's, below)
    (r"validation errors? for \w*(?:Run|Seed|Create)\w*Request\b", DATA_SCHEMA,
     "the request model refused a row's fields (field and type named)",
     "Give the rows the fields and types the error lists (each field name, then what it should be), then materialize "
     "again and run on a clean output path."),
    # a text file that is not UTF-8: the data (a YAML config would say so in a YAML error first); its first bytes
    # tell a compressed file (gzip: 1f 8b) and UTF-16 text (a byte-order mark: ff fe or fe ff) from a legacy encoding
    (r"can't decode byte 0x8b in position 1\b", DATA_SCHEMA, "a file it read is gzip-compressed (its bytes 1f 8b)",
     "Decompress the data file before reading it (`file <path>` says `gzip compressed data`; `gunzip -c <path> > "
     "<new>.jsonl`), or download it decompressed; then run again on a clean output path."),
    (r"can't decode byte 0x(?:ff|fe) in position 0\b", DATA_SCHEMA,
     "a file it read is UTF-16 text (a byte-order mark at its start)",
     "Convert the file from UTF-16 to UTF-8 (`file <path>` says `UTF-16`; `iconv -f utf-16 -t utf-8 <path> > "
     "<new path>`: an editor's or a Windows export's 'Unicode' is UTF-16), then run again on a clean output path."),
    (r"UnicodeDecodeError|codec can't decode byte", DATA_SCHEMA, "a file it read is not UTF-8 text",
     "Convert the file to UTF-8 (`file <path>` tells its encoding; `iconv -f latin1 -t utf-8 <path> > <new path>`), "
     "then run again on a clean output path."),
    # a YAML file that does not parse: a config file (data are JSONL)
    (r"Malformed YAML|yaml\.(?:scanner|parser|constructor)\.|\b(?:Scanner|Parser)Error\b|while (?:scanning|parsing) a"
     r"|found character '\\t'|mapping values are not allowed here", CONFIG, "a YAML config file does not parse",
     "Fix the YAML file the error names at the line and column it gives (indent with spaces: YAML refuses tabs; a "
     "missing colon or quote); check it with `python -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' <file>`."),
    # a data file given where materialized inputs are read: its rows lack what only materialization adds
    (r"(?P<file>[^\s:'\"]+(?<!_materialized_inputs)\.jsonl):(?P<line>\d+): field '(?P<field>agent_ref|_ng_task_index"
     r"|_ng_rollout_index)': Field required", CONFIG,
     "the command was given the source data where it reads materialized inputs",
     "Materialize the data first (`gym-pipeline materialize --input {file} --num-repeats <n> --agent <agent> --output "
     "<run>/rollouts_materialized_inputs.jsonl`, or the sweep's stage), then give `--inputs` that file."),
    # our commands name a settings file's line and field: `dataset.toml:3: field 'gym.defaults.timeout_multiplier': ...`
    (r"(?P<file>[^\s:'\"]+\.(?:toml|ya?ml|json)):(?P<line>\d+): field '(?P<field>[\w.\[\]-]+)': (?P<problem>[^\n]+)", CONFIG,
     "a settings file has a field its model refuses (file, line and field named)",
     "Correct `{field}` at line {line} of {file} ({problem}), then run the command again."),
    # the failures sidecar (a row per failed attempt) given to a profile as its rollouts: keys repeat
    (r"(?P<file>[^\s:'\"]*_failures\.jsonl):\d+: Duplicate rollout result row", CONFIG,
     "the profile was given the failures sidecar as its rollouts (a row per failed attempt, so keys repeat)",
     "Give `--rollouts` the rollouts file beside the sidecar, not {file}: `gym-pipeline profile --inputs "
     "<run>/rollouts_materialized_inputs.jsonl --rollouts <run>/rollouts.jsonl` (Gym: `gym eval profile "
     "--rollouts`)."),
    # a prompt template filling a field the very first row lacks: a template written for other data
    (r"(?P<file>[^\s:'\"]+\.jsonl):1: field '(?P<field>[\w.]+)': the prompt template uses this field and the row "
     r"lacks it", CONFIG, "the prompt template (prompt_config) fills a field the data's rows do not have, from the "
     "first row on: a template written for other data",
     "Point `prompt_config` at the template written for this data, or change its `{{field}}` placeholder to the "
     "field the rows of {file} hold; then materialize again."),
    # our commands name the data file, line and field of a bad row: `data.jsonl:3: not valid JSON`
    (r"(?P<file>[^\s:'\"]+\.jsonl):(?P<line>\d+)\b", DATA_SCHEMA, BAD_DATA_ROW,
     "Fix line {line} of {file} (`sed -n '{line}p' {file}`), then materialize again."),
    # the verifier answered, but not with what Gym's verify response model requires (the guide's "malformed verify
    # response"); a request model refusing a row is the data's fault and is read as a 422 elsewhere
    (VERIFY_RESPONSE_INVALID, VERIFIER_RUNTIME, "a malformed verify response: the verifier's answer lacks a field "
     "Gym's verify response model requires, or has the wrong type",
     "Make the resources server's `verify` return every field its response model requires, with its type (the "
     "error names the field, e.g. `reward`: a float); then re-run the collection."),
    # the model server's own program missing where it runs: serving, whoever configured it
    (r"'vllm' is not an executable|vllm: command not found|exec vllm failed|No module named '?vllm", MODEL_SERVING,
     "vLLM is not installed where the model server runs",
     "Install vLLM where the model server runs (`pip install vllm` in that environment, node or image), or point the "
     "model server's command in sweep.yaml at the vllm that is installed; then start the server again."),
    # a server started from a script its config names, which is not there
    (r"can't open file '(?P<file>[^']+)': \[Errno 2\]", CONFIG, "a server's entrypoint script does not exist",
     "The config names a script that is not there ({file}): point the server's `entrypoint` in its config at the file "
     "that exists (renamed?), or restore it; then `gym env start` again."),
    # the run's own output file gone while the run wrote it (a scratch cleaner, a folder removed under a job): the
    # inputs a command is given are refused as `file not found` before anything runs, not with an errno
    (r"Errno 2\] No such file or directory: '(?P<file>[^']*(?:rollouts[^'/]*|_failures|_reward_profiling)\.jsonl)'",
     INFRA, "the run's output folder was removed while the run was writing to it",
     "Find what deletes files there (a scratch-space cleaner, a quota purge, another job's cleanup: `ls -ld` the "
     "folder of {file}) and write the run to a folder it spares; then collect again on a clean output path."),
    # no path at all: the working directory itself is gone (os.getcwd() in a shell whose folder was deleted)
    (r"FileNotFoundError: \[Errno 2\] No such file or directory\s*$|getcwd\(?\)?: cannot access parent|"
     r"shell-init: error retrieving current directory", INFRA,
     "the current working directory no longer exists (deleted, or its mount gone, under the shell)",
     "`cd` to a folder that exists (the project or $HOME) before running, and keep cleanups off folders a shell or "
     "job is still in; then run again."),
    # a path given on the command line that is not there
    (r"(?:Input|input|data|dataset) file (?:not found|does not exist)|No such file or directory: '[^']+\.jsonl'"
     # (not a file an earlier stage should have written: its absence follows from that stage's failure)
     r"|(?<!rollouts)(?<!_materialized_inputs)(?<!_failures)\.jsonl: file not found",
     CONFIG, DATA_PATH_MISSING,
     "Point `--input` (or the environment's `dataset`) at the file that exists: `ls` the folder it names for the "
     "real name; then run again."),
    # `gym eval run --input` asks it to collect from servers already running
    (r"is not supported when serving", CONFIG, "`gym eval run` was given `--input` without `--no-serve`",
     "Start the servers with `gym env start ...`, then collect from them with `gym eval run --no-serve --input "
     "<data.jsonl> ...` (without `--no-serve`, `gym eval run` serves a config's own datasets and takes no `--input`)."),
    # a script whose interpreter (its #! line) is gone: the environment it was installed in was deleted or moved
    (r"(?P<script>/\S+): cannot execute: required file not found|(?P<script2>/\S+): bad interpreter: No such file",
     INFRA, "a program's interpreter is gone: the environment it was installed in was deleted or moved",
     "`head -1 {script}` names the interpreter it needs, which is gone (a purged scratch, a rebuilt or moved venv): "
     "take that environment off the PATH (`which -a <command>` lists what runs first; check ~/.bashrc and module "
     "loads) or reinstall it; then run the command again."),
    # a setting naming a program that is not there
    (r"program not found|executable not found|not an executable|command not found", CONFIG,
     "the settings name a program that is not installed where the stage runs",
     "Point the setting that names the program (`nemo_gym.executable` or the model server's command in sweep.yaml, "
     "or the PATH) at an executable that exists there (`ls -l <path>`), or install it (scripts/install-nemo-gym.sh "
     "for NeMo Gym); then run the stage again."),
    # Gym reading a row without a field every row must have (a KeyError in its row preprocessing)
    (r"KeyError: '(?P<field>responses_create_params|agent_ref|_ng_task_index|_ng_rollout_index|task_id|task_input)'",
     DATA_SCHEMA, "a data row lacks a field Gym reads from every row",
     "Give every row of the data `{field}` (Gym's input format: `responses_create_params.input` holds the prompt), "
     "then run again on a clean output path."),
    # Gym's CLI: a name given to an option (`--model-type`, `--resources-server`) that no config on its search path has
    (r"`(?P<option>--[\w-]+) (?P<value>[^`]+)` was specified which implies config `(?P<config>[^`]+)`, which does not"
     r" exist", CONFIG, "no config on Gym's search path has the name given to an option",
     "`{option} {value}` names a config Gym does not have ({config}): give `{option}` a name it lists (the error "
     "suggests one when it can), or, for your own servers, point `--search-dir` at the folder that holds {config}; "
     "then start again."),
    # a config value that refers to a key nothing set (`${policy_api_key}` with no --model-api-key, env.yaml entry)
    (r"Config value '(?P<path>[^']+)'\s*\n?\s*references '(?P<key>\w+)', which is not set", CONFIG,
     "a config value refers to a setting that nothing set",
     "Set `{key}`: on the command line with `{option_of_key}` (or its `++{key}` override), or in env.yaml; `{path}` "
     "reads it. Then start again."),
    # a setting whose value its config model refuses (pydantic's "Value error, <field> must ...", or its message)
    (r"invalid configuration\b[^\n]*?(?:Value error, (?P<field>\w+) (?P<rule>[^,)]+)|: (?P<field2>\w+) "
     r"\((?P<rule2>[^)]+)\))", CONFIG,
     "the command's settings failed validation",
     "Give `{field}` a valid value ({rule}): on the command line `{option_of_field}` (or `++{field}=`), in a config "
     "file its `{field}` key; check what sets it (an unset shell variable, a default of 0)."),
    # a verifier's result holding numpy values: the rollout row cannot be written as JSON
    (r"not JSON serializable: numpy\.(?P<type>\w+)|Object of type '?(?P<type2>int64|int32|float64|float32|bool_|ndarray)'? "
     r"is not JSON serializable", VERIFIER_RUNTIME, "the verifier returned a numpy value, which JSON cannot hold",
     "Return plain Python values from `verify` (`float(reward)`, `bool(...)`, `.tolist()` for arrays), then collect "
     "the missing rollouts."),
    # a config file its model refuses, naming the field (ours: `sweep.json: not a valid sweep config: field 'x': ...`;
    # pydantic's "validation error for <X>Config" with the field's path on the next line)
    (r"(?P<file>[^\s:'\"]+\.(?:ya?ml|json|toml)): not a (?:valid )?sweep config\b[^\n]*?field '(?P<field>[\w.\[\]-]+)': "
     r"(?P<problem>[^\n]+?)(?: \(got (?P<value3>[^\n]+)\))?(?=\n|$)|validation errors? for \w*Config\)?\s*\n(?P<field2>[\w.\[\]-]+)\s*\n\s*(?P<problem2>[^\n\[]+?)\s*"
     r"(?:\[type=\w+, input_value=(?P<value>[^,\]]+)|$)", CONFIG,
     "a config file failed its settings' validation (the field named)",
     "Correct `{field}` where it is set: the sweep config, a config file, or a `++{field}=` override on the command "
     "line (an empty value there is often a shell variable that is not set) ({problem}; the value given: {value}); "
     "then run again."),
    # ... and without the field's path
    (r"(?P<file>[^\s:'\"]+\.(?:ya?ml|json|toml)): not a (?:valid )?sweep config|validation errors? for \w*Config\b", CONFIG,
     "a config file failed its settings' validation",
     "Correct the setting the error names in {file} (the lines after the error give the field, what it accepts and "
     "the value found), then run the stage again."),
    # Gym's settings validated (pydantic): `invalid configuration: num_repeats.int (Input should be a valid integer...`
    (r"invalid configuration: (?P<field>[a-z_]\w*)(?:\.[\w\[\], ]+)? \((?P<wants>Input should be [^)]*)\)", CONFIG,
     "a setting given a value of the wrong type",
     "Give `{option_of_field}` (the setting `{field}`) a value of the type it takes ({wants}): a word, or a variable "
     "that was empty or unset, is not a number; then run the command again."),
    # the model server's command refusing its arguments: the server never started (its serving script's line)
    (r"(?m)^(?:\S*/)?(?:gym-pipeline serve-policy|vllm(?: serve)?|sglang\S*|text-generation-launcher)(?: [\w-]+){0,2}: "
     r"error: ", MODEL_SERVING, "the model server's command refused its arguments: the server never started",
     "Fix the command that starts the model server (the serving script's line, and what it adds to the arguments it "
     "is given: a wrapper's `\"$@\"` followed by options of its own) so it takes the argument the error names once "
     "and as the server expects (`--help` lists them); start the server, check it answers (`curl <url>/v1/models`), "
     "then run the collection."),
    # a command refusing its arguments (argparse's `prog: error: ...`)
    (r"(?m)^(?:\S*/)?(?:gym|gym-pipeline|ng_\w+|python[\d.]*|[\w.-]+\.py)(?: [\w-]+){0,3}: error: ", CONFIG,
     "the command refused its arguments (its usage error)",
     "Fix the argument the error names (`<command> --help` lists them), then run the command again."),
    # a profile given rollouts and materialized inputs of two different runs (Gym's profile refuses the pair)
    (r"Rollout results contain rows with no matching materiali[sz]ed input", CACHE_RESUME,
     "the profile was given rollouts and materialized inputs of different runs",
     "Profile the rollouts with the materialized inputs they were collected on (the `<stem>_materialized_inputs.jsonl` "
     "the same run wrote beside them): `gym eval profile --inputs <run>/rollouts_materialized_inputs.jsonl "
     "--rollouts <run>/rollouts.jsonl`; never pair files of two runs."),
    # a workspace verifier whose module raises when imported: the verifier's code, whoever loads it
    (r"module '(?P<module>[\w.]+)' (?:\([^)]*\) )?failed to import: (?P<error>[^\n]+)", VERIFIER_RUNTIME,
     "the verifier's module raises when it is imported",
     "Fix the verifier module `{module}` so it imports ({error}); check it with `python -c 'import {module}'` in the "
     "workspace's verifiers folder, then run again."),
    # a request URL with no scheme or host: the base URL it was built from is empty (an unset shell variable)
    (r"InvalidURL\w*:?\s*['\"]?(?P<url>/[\w/.-]*)|Invalid URL ['\"]?(?P<url2>/[\w/.-]*)|MissingSchema", CONFIG,
     "a request went to a URL with no host: the base URL it was built from is empty",
     "Set the base URL (`--model-url http://<host>:<port>/v1` for Gym's model server, `model_server.url` in "
     "sweep.yaml): it is empty, so requests went to `{url}` alone; check that the shell variable it comes from is set "
     "and exported (`echo \"$POLICY_URL\"`), then start the servers again."),
    # a setting read from an environment variable the shell did not set or export (ours, OmegaConf's oc.env, bash -u)
    (r"environment variable \$?(?P<var>\w+),? which is not set|Environment variable '(?P<var2>\w+)' not found"
     r"|(?P<var3>\b[A-Z_][A-Z0-9_]*): unbound variable", CONFIG,
     "a setting names an environment variable that is not set",
     "Export the variable the error names in the shell (or job script) that runs the command: `export "
     "{var}=<value>`; a key kept in a file your login shell reads is not in a Slurm job or container unless it is "
     "passed on (`--export=ALL`, `-e`). Then run the command again."),
    # one output folder, two writers: our run lock refuses the second
    (r"run directory \S+ is in use by pid|is locked by another (?:run|writer)", CACHE_RESUME,
     "a second writer on the same output folder",
     "Run one job per output folder: wait for the other writer to finish, or give this run its own `--output`."),
    # an environment our commands do not know (`--env`, a sweep's `environments`): they list the known ones
    (r"unknown environment '(?P<name>[^']+)' \(known: (?P<known>[^)]+)\)"
     r"|environment '(?P<name2>[^']+)' is not in the sweep \(known: (?P<known2>[^)]+)\)", CONFIG, NAME_NOT_DEFINED,
     "Give `--env` (or the sweep's `environments`) one of the names the error lists, {known}, exactly: names are "
     "case-sensitive and `{name}` is none of them (or register the environment with a `verifier:`); then run "
     "again."),
    # a name the config does not define: an agent, a server, an environment
    (r"unknown (?:environment|agent|server|resources.server)|not present in the running config"
     r"|(?:agent|server|environment)\S* \S+ (?:is )?not (?:defined|found) in|no (?:agent|server) named", CONFIG,
     NAME_NOT_DEFINED,
     "Use a name the config defines (the error lists or suggests them), or add that agent's or server's config "
     "(`config_paths`) to the run."),
)
# A connection that did not open, and the address it was for.
_REFUSED = re.compile(r"Connection refused|Errno 111\b|Connect call failed|Cannot connect to host|ConnectError"
                      r"|ECONNREFUSED", re.I)
# A connection the other side dropped, or one that never got an answer to its opening.
_DROPPED = re.compile(r"Connection reset by peer|Errno 104\b|ECONNRESET|Server disconnected|RemoteProtocolError"
                      r"|Broken pipe|Errno 32\b|EPIPE", re.I)
_CONNECT_TIMEOUT = re.compile(r"Errno 110\b|Connection timed out|ConnectTimeout|ETIMEDOUT", re.I)
_CONNECTION_TROUBLE = (
    (_REFUSED, "connection refused", "was not running"),
    (_DROPPED, "connection dropped by the other side", "crashed, restarted or was killed mid-request"),
    (_CONNECT_TIMEOUT, "connection timed out", "did not answer (a wrong host, a firewall, or a frozen process)"),
)
_ADDRESS = re.compile(r"Connect call failed \('(?P<h1>[^']+)', (?P<p1>\d+)\)|(?:https?://)?(?P<h2>[\w.-]+|\[[\w:]+\])"
                      r":(?P<p2>\d{2,5})\b")
# The package an exception's class comes from says which layer raised it.
_EXCEPTION_PACKAGES = _kinds(
    (r"\b(?:omegaconf|hydra)\.errors\.|\bhydra\.|ConfigAttributeError|ConfigKeyError|MissingMandatoryValue"
     r"|InterpolationResolutionError|Could not override|unrecognized arguments|error: argument"
     # a command line refused: `(-i/--input) is not supported when ...`, click's `No such option`
     r"|\(-\w+/--[\w-]+\)|\bNo such option\b|Invalid value for ['\"]?-|Missing (?:option|argument) ['\"]?-", CONFIG,
     "the config loader (Hydra/OmegaConf) or the command's arguments"),
    (r"\bray\.exceptions\.|RaySystemError|RayActorError|GCS|Raylet|core_worker\w*\.cc", INFRA, "Ray",
     "Check Ray: `ray status`; a dead GCS or actor usually follows a killed node or process, and workers that fail to "
     "register or die at start usually lack file descriptors (`ulimit -n`: Ray wants 65536) or memory."),
    (r"\bdocker\.errors\.|Error response from daemon|docker: |Docker engine", INFRA, "the Docker engine",
     "Check the Docker engine the launcher talks to, with the same DOCKER_HOST: `echo $DOCKER_HOST; docker info`; "
     "start it or point DOCKER_HOST at its socket."),
    (r"\bslurmstepd\b|\bsrun: error|\bsbatch: error", INFRA, "Slurm",
     "Check the job: `sacct -j <jobid>`, `scontrol show job <jobid>`."),
    (r"\bopenai\.(?:\w+Error)|\bvllm\b", MODEL_SERVING, "the model server or its client"),
)
# Frames of a traceback: the innermost one in a known layer places the error.
TRACEBACK_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?')
_FRAME_LAYERS = _kinds(
    # ...and turning a row's responses_create_params into the request (our collector's engines/responses.py)
    (r", in _?(?:preprocess|load|read|parse)_\w*rows?\b|gym_pipeline/engines/responses\.py", DATA_SCHEMA, READING_ROWS),
    (r"resources_servers/|/verifiers?/|/verif\w*\.py|gym_pipeline/environments/|judge|, in _?verify\b", VERIFIER_RUNTIME,
     "the verifier (resources server)"),
    (r"responses_api_models/|/vllm/|gym_pipeline/(?:serving|models)/", MODEL_SERVING, "the model server"),
    (r"/hydra/|/omegaconf/|nemo_gym/config|gym_pipeline/config\.py", CONFIG, "loading the config"),
    (r"/ray/", INFRA, "Ray"),
    (r"/pip/_internal/|/uv/|/docker/|/slurm", INFRA, "setting up the environment"),
)
# The log a line is in: a model server's own log, a verifier's test output.
_LOG_LAYERS = _kinds(
    (r"model_server|vllm|policy", MODEL_SERVING, "the model server's log"),
    (r"test-stdout|verifier", VERIFIER_RUNTIME, "the verifier's output"),
    # materializing reads only the data and the settings: an error naming no data line (placed above) is the settings'
    (r"materiali", CONFIG, "the materialize step's log: materializing reads only the data and its settings",
     "Correct the materialization setting the error names (`num_repeats`, `agent` or `agent_map`, `prompt_config`, "
     "`limit`) in the sweep config or on the command line, then materialize again."),
)
_MISSING_CONFIG_FILE = re.compile(r"(?:Errno 2\]|FileNotFoundError|No such file or directory|not found|does not exist)"
                                  r".*\.(?:ya?ml|json|toml)\b|\.ya?ml\b.*(?:not found|does not exist)"
                                  r"|Cannot find primary config|config_paths", re.I)
# An HTTP error from the model server itself (its readiness route or a completion).
_MODEL_HTTP_ERROR = re.compile(r"HTTP(?: Error)? 5\d\d|Service Unavailable|Bad Gateway", re.I)
_MODEL_ROUTE = re.compile(r"/models\b|/chat/completions|/completions|/responses\b|model", re.I)
_MISSING_MODULE = re.compile(r"ModuleNotFoundError|ImportError|No module named")
_MODULE_NAME = re.compile(r"No module named ['\"]?(?P<module>[\w.]+)|cannot import name ['\"]?(?P<name>\w+)")
# (a shared library that cannot be mapped: the address space is capped, `ulimit -v`)
_MEMORY = re.compile(r"\bMemoryError\b|Cannot allocate memory|Errno 12\b|ENOMEM|failed to map segment from shared object"
                     r"|mmap\(?\)? failed|\boom[_ -]?kill|OOM[ -]?Killed|Out of memory", re.I)
# The last resort: words of the error, reported as a guess.
_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (MODEL_SERVING, re.compile(r"/v1/|chat/completions|model server|APIConnectionError|RateLimitError", re.I)),
    (CONFIG, re.compile(r"No such file or directory|FileNotFoundError|agent_ref|not defined|unknown (?:agent|server)"
                        r"|config|\busage:|\boverride|invalid (?:value|choice|argument|option)|unrecognized argument"
                        r"|expected (?:one|an?) argument", re.I)),
    (DATA_SCHEMA, re.compile(r"ValidationError|JSONDecodeError|Unprocessable|\b422\b|validation error", re.I)),
    (THROUGHPUT_RESOURCES, re.compile(r"TimeoutError|timed out|Timeout", re.I)),
)


HEAD_SERVER = "Gym's head server"
# Gym's settings that its CLI sets under another name (`gym env start --model-api-key` is `policy_api_key`)
GYM_OPTION_OF_SETTING = {"num_samples_in_parallel": "--concurrency", "policy_api_key": "--model-api-key",
                         "policy_base_url": "--model-url", "policy_model_name": "--model"}


@dataclass(frozen=True)
class Listener:
    """Who listens at an address the run's files name: the model server, or a Gym server by name."""

    category: str  # MODEL_SERVING for the model server; INFRA for a Gym server (it was not up)
    who: str
    source: str


def server_role(name: str) -> str:
    """'model', 'verifier' or 'agent' for a Gym server name such as `VLLMModel___policy_model`."""
    if re.search(r"resources?_?server|environment_?server|verif|judge_?resources", name, re.I):
        return "verifier"
    if re.search(r"model|vllm|openai|llm", name, re.I):
        return "model"
    if re.search(r"agent", name, re.I):
        return "agent"
    return "unknown"


def address_of(url: str) -> tuple[str, int] | None:
    """(host, port) of a URL a log names; None without a port, or with one that is not a number (a line cut short
    mid-port: `http://127.0.0.1:4741…`)."""
    try:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        return (parts.hostname or "", parts.port) if parts.port else None
    except ValueError:
        return None


def place(incident: LogIncident, listeners: dict[int, Listener]) -> Placement:
    """The category of one log error; `listeners` maps the ports the run's files name to who listens there."""
    text = incident.full_text
    for kind in _WHAT:
        if match := kind.pattern.search(text):
            if kind.basis == DATA_PATH_MISSING and (opened_by_verify := _opened_by_a_verifier(incident)):
                return opened_by_verify
            return Placement(kind.category, kind.basis, fix=_filled(kind.fix, match, _config_section(incident)))
    if (head := _HEAD_SERVER_ELSEWHERE.search(text)) and (elsewhere := _head_server_elsewhere(head, listeners)):
        return elsewhere
    for pattern, what, meaning in _CONNECTION_TROUBLE:
        if pattern.search(text):
            return _at_peer(text, listeners, what, meaning)
    if _MEMORY.search(text):
        return Placement(THROUGHPUT_RESOURCES, "the process ran out of memory (or of address space)",
                         fix="Give the process more memory: check its limits (`ulimit -v` caps the address space, "
                             "`ulimit -a` shows all; a job's `--mem`, a container's `--memory`) and raise them "
                             "(`ulimit -v unlimited` in the shell or job script that starts it), or lower "
                             "`--concurrency`; then run again.")
    if _MODEL_HTTP_ERROR.search(text) and _MODEL_ROUTE.search("\n".join([text, *incident.frames])):
        return Placement(MODEL_SERVING, "the model server answered with a server error (5xx: not ready, or failing)")
    layer = _layer(incident)
    if layer is not None:
        module_fix = missing_module_fix(text, incident.server and f"`{incident.server}`" or "the process that raised it")
        return replace(layer, fix=module_fix) if module_fix and not layer.fix else layer
    if _MISSING_CONFIG_FILE.search(text):
        return Placement(CONFIG, "a config file (or a path the command was given) does not exist",
                         fix="Point `config_paths` (or `--resources-server`, `--config`) at a config file that exists: "
                             "the error names the one it looked for and, when it can, the one you meant.")
    if _MISSING_MODULE.search(text):
        return Placement(INFRA, "a Python package is not installed in the environment that ran it",
                         fix=missing_module_fix(text))
    for category, pattern in _WORDS:
        if pattern.search(text):
            return Placement(category, f"a guess from the words of the error ({pattern.search(text).group(0)!r})",
                             guess=True)
    return Placement(VERIFIER_RUNTIME, "a guess: nothing places it, and runtime errors are most often the verifier's",
                     guess=True)


_HOST_LIMITS = ("EMFILE", "ENOSPC", "EROFS", "ESTALE", "EFBIG")


def host_limit(text: str) -> Placement | None:
    """An error of the machine the process ran on (out of descriptors, a full, read-only or stale filesystem),
    whatever call met it: a request that failed for it says nothing of the server it was for."""
    for kind in _WHAT:
        if kind.basis.startswith(_HOST_LIMITS) and (match := kind.pattern.search(text)):
            return Placement(kind.category, kind.basis, fix=_filled(kind.fix, match))
    return None


def _config_section(incident: LogIncident) -> str | None:
    """The section of Gym's config a traceback was loading, when its frames say: only the head server's has a
    loader of its own (`load_head_server_config`)."""
    return "head_server" if any("load_head_server_config" in frame for frame in incident.frames) else None


def _filled(fix: str, match: re.Match[str], section: str | None = None) -> str:
    """A fix naming what the error named: `{file}`, `{line}`... from the pattern's groups (`{option_of_field}`: the
    command-line option of the `field` group, `num_repeats` -> `--num-repeats`). A pattern's alternatives name
    their groups `var`, `var2`, `var3`...: whichever matched fills `{var}`. `section` qualifies a bare field
    (`port` of the head server's config is `head_server.port`)."""
    groups: dict[str, str | None] = {}
    for name, value in match.groupdict().items():
        base = name.rstrip("0123456789")
        groups[base] = groups.get(base) or value
    if section and groups.get("field") and "." not in groups["field"]:
        groups["field"] = f"{section}.{groups['field']}"
    for name in ("field", "key"):
        if groups.get(name):
            groups[f"option_of_{name}"] = GYM_OPTION_OF_SETTING.get(groups[name], "--" + groups[name].replace("_", "-"))
    return re.sub(r"\{(\w+)\}", lambda m: groups.get(m[1]) or f"<{m[1]}>", fix)


def missing_module_fix(text: str, where: str = "the process that raised it") -> str:
    """What to install where, when `text` says a module is missing ("" otherwise)."""
    match = _MODULE_NAME.search(text)
    if not match:
        return ""
    if match["module"]:
        package = match["module"].split(".")[0]
        return (f"Install `{package}` where {where} runs: add it to that server's requirements (the "
                "`requirements.txt` or pyproject beside its app) and let `gym env start` rebuild its venv (without "
                f"`++skip_venv_if_present=true`), or `uv pip install {package}` into that venv.")
    return (f"`{match['name']}` is not in the installed version of the package it is imported from: pin the "
            f"version that has it in {where}'s requirements.")


def layer_of_frame(frame: str) -> Placement | None:
    """The layer a traceback frame (`File "path", line N, in func`) belongs to, when its path says."""
    for kind in _FRAME_LAYERS:
        if kind.pattern.search(frame):
            return Placement(kind.category, f"raised in {kind.basis}: {frame}")
    return None


def innermost_frame(incident: LogIncident) -> str | None:
    """`path:line (in func)` of the frame where a traceback was raised."""
    for frame in reversed(incident.frames):
        match = TRACEBACK_FRAME.search(frame)
        if match:
            return f"{match['path']}:{match['line']}" + (f" in {match['func']}" if match["func"] else "")
    return None


_HEAD_SERVER_ELSEWHERE = re.compile(r"Could not connect to the head server at (?P<url>\S+?)\.?(?:\s|$)")


def _head_server_elsewhere(match: re.Match[str], listeners: dict[int, Listener]) -> Placement | None:
    """A command looking for Gym's head server at one port while the run's logs show it started on another."""
    address = address_of(match["url"])
    started = [(port, who) for port, who in listeners.items() if who.who == HEAD_SERVER]
    if address is None or not started or any(port == address[1] for port, _ in started):
        return None
    port, listener = started[0]
    return Placement(CONFIG, f"the command looked for Gym's head server at port {address[1]}, while it was started on "
                             f"port {port} ({listener.source})",
                     fix=f"Give every Gym command the head server's address it was started with: add "
                         f"`++head_server.port={port}` to `gym eval run` (the same override `gym env start` got), "
                         "then run again.")


def _at_peer(text: str, listeners: dict[int, Listener], what: str, meaning: str) -> Placement:
    """A connection that failed (`what`), placed by who listens at the address it names."""
    match = _ADDRESS.search(text)
    port = int(match["p1"] or match["p2"]) if match else None
    listener = listeners.get(port) if port else None
    if listener is not None:
        return Placement(listener.category, f"{what} by {listener.who} at port {port} (named in "
                                            f"{listener.source}): it {meaning}")
    where = f"port {port}" if port else "an address the error does not name"
    if re.search(r"/v1/|completions|model", text, re.I):
        return Placement(MODEL_SERVING, f"{what} at {where}, on a model request: the model server {meaning} (a "
                                        "guess: the run's files do not say who listens there)", guess=True)
    return Placement(INFRA, f"{what} at {where}: the server there {meaning} (a guess: the run's files do not say "
                            "which server should listen there)", guess=True)


def _opened_by_a_verifier(incident: LogIncident) -> Placement | None:
    """A file a resources server's `verify` opened itself (a path it builds from the row), not a path the command was
    given: the verifier's code."""
    layer = _layer(incident)
    raised_in = innermost_frame(incident) or ""
    if layer is None or layer.category != VERIFIER_RUNTIME or not re.search(r"\bin (?:verify|grade|score)\b", raised_in):
        return None
    return Placement(VERIFIER_RUNTIME, f"a file the verifier's own code opens ({raised_in}) does not exist",
                     fix=f"Read the line that opens it ({raised_in}): a path built from the row's values (a label with "
                         "`/` in it names a folder that does not exist) or a folder never made; build the path from "
                         "something that is always a plain name (a digest of the value), or create the folder first; "
                         "then restart the servers and collect again.")


def _layer(incident: LogIncident) -> Placement | None:
    """The layer of the process that raised it: its package, its server prefix, its frames, its log."""
    for kind in _EXCEPTION_PACKAGES:
        if kind.pattern.search(incident.full_text):
            return Placement(kind.category, f"raised by {kind.basis}", fix=kind.fix)
    if incident.server:
        role = server_role(incident.server)
        if role == "verifier":
            return Placement(VERIFIER_RUNTIME, f"raised in the resources server `{incident.server}` (its log prefix)")
        if role == "model":
            return Placement(MODEL_SERVING, f"raised in the model server `{incident.server}` (its log prefix)")
    for frame in reversed(incident.frames):
        if (placement := layer_of_frame(frame)) is not None:
            return placement
    for kind in _LOG_LAYERS:
        if kind.pattern.search(incident.file):
            return Placement(kind.category, f"written to {kind.basis} ({incident.file})", fix=kind.fix)
    return None
