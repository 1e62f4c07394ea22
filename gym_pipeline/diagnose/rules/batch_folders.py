"""Folders a batch script names that do not exist where its job runs.

- An `--output` (or `--error`) file in a folder that does not exist. Slurm opens the job's output file before the script runs, and does not create its folder: with
`#SBATCH --output=slurm_logs/eval_%j.out` and no slurm_logs/ in the submit folder, the job fails at once, runs not a
line of the script, and leaves no log at all. `sbatch` itself succeeded, so a script that submits, waits and goes on
meets only what the job never made (no rollouts to profile).
- A `--chdir` folder that nothing else of the user's names: a line copied from someone else's job script (a
  colleague's home folder). slurmstepd cannot enter it and runs the job in /tmp, where the relative paths name
  nothing. (A folder the submitting script did use, missing only on the compute node, is the cluster's mounts:
  the known problem `slurm_chdir_failed`.) A `--chdir=~/...` is the same failure by the user's line: no shell expands
  an `#SBATCH` line, so `~` names a folder `~` under the submit folder.
- A job that runs where it was submitted from (`cd $SLURM_SUBMIT_DIR`, or no folder of its own) with relative paths,
  submitted by a script that first went to another folder (a cron job starts in the home folder, and `cd ~` or
  `cd /scratch` before `sbatch` does the same): its files name nothing there.
- A job submitted to run as another user (`sbatch --uid=nobody`, a CI policy for unprivileged jobs) whose output
  folder that user cannot write (the run's logs/, owned by the submitter, mode 755): slurmd opens the output file as
  the job's user, is refused, and the job fails at launch with no log.
- A file the job script looks for beside itself (`source "$(dirname "$0")/settings.env"`): sbatch runs a copy of the
  script from slurmd's spool folder, so `$0` names that copy and the file is not there. The script goes on with its
  defaults (another dataset, fewer repeats), and every command exits 0.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA

_OUTPUT_OPTION = re.compile(r"^\s*#SBATCH\s+(?P<option>--output|--error|-o|-e)[= ]\s*(?P<path>\S+)")
_CHDIR_OPTION = re.compile(r"^\s*#SBATCH\s+(?:--chdir|-D)[= ]\s*(?P<path>\S+)")


def rule_job_output_in_a_missing_folder(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _OUTPUT_OPTION):
        path = PurePosixPath(match["path"].strip("\"'"))
        # an absolute path or a job that changes folder: where it points cannot be told from the run folder
        if path.is_absolute() or "%" in str(path.parent) or any(_CHDIR_OPTION.match(text) for text in file.text.splitlines()):
            continue
        folder = path.parent
        submit_dir = ev.run_dir / PurePosixPath(file.name).parent
        if str(folder) == "." or (submit_dir / folder).is_dir() or (submit_dir / folder).is_symlink():
            continue  # a link to a folder this node lacks is read by the rule after this one
        option = match["option"]
        return [Finding(
            category=CONFIG,
            title=f"{file.name} sends the job's output to {path}, in a folder {folder}/ that does not exist: the job "
                  "failed before running a line",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"Slurm opens the job's `{option}` file before the script starts and does not create its folder: "
                  f"{folder}/ is not in the submit folder, so the job could not open {path}, ended at once and left "
                  "no log. sbatch had accepted it, so whatever came after met only what the job never made.",
            fix=f"Create the folder before submitting (`mkdir -p {folder}` in the script that calls sbatch), or point "
                f"`#SBATCH {option}=` at a folder that exists (`{option}=%x_%j.out` writes beside the submit folder); "
                "then submit again.",
        )]
    return []


def rule_job_output_in_a_link_to_a_missing_folder(ev: Evidence) -> list[Finding]:
    """The job's `--output` folder is a link in the run folder to a place this node does not have (node-local
    scratch mounted on other nodes): Slurm cannot open the file, and the job fails at launch."""
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _OUTPUT_OPTION):
        folder = PurePosixPath(match["path"].strip("\"'")).parent
        if str(folder) == ".":
            continue
        link = ev.run_dir / folder.name
        if not link.is_symlink() or link.exists():
            continue
        target = os.readlink(link)
        return [Finding(
            category=INFRA,
            title=f"The job's output folder {folder.name}/ is a symlink to {target}, which this node does not have: "
                  "the job failed at launch, before running a line",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=ev.rel(link), text=f"{folder.name} -> {target} (missing here)")],
            cause=f"{file.name} sends the job's output into {folder.name}/, which is a link to {target}: node-local "
                  "scratch, mounted on the nodes the link was made for and not on this one. Slurm opens the output "
                  "file before the script starts, could not, and ended the job (JobLaunchFailure) with no log; "
                  "nothing ran.",
            fix=f"Point the job's output at a folder every node has (`#SBATCH {match['option']}=` under the submit "
                f"folder, or the shared file system), or replace the symlink {folder.name} with a real folder "
                f"(`rm {folder.name} && mkdir {folder.name}`), or run on the nodes that mount {target}; then submit "
                "again.",
        )]
    return []


_SUBMITTED_AS = re.compile(r"\bsbatch\b[^#\n]*?\s--uid[= ](?P<user>[\w.-]+)")
_OWNER_SHOWN = re.compile(r"^d[rwxsStT-]{9}\S*\s+\d+\s+(?P<owner>\S+)\s+(?P<group>\S+)\s.*\s(?P<name>\S+)$", re.M)


def rule_job_run_as_a_user_who_cannot_write_its_output(ev: Evidence) -> list[Finding]:
    """`sbatch --uid=<user>` of a job whose output folder only its owner writes: the job fails at launch."""
    submitted = next(((file, number, line, match) for file, number, line, match
                      in lines_matching(ev.user_files, _SUBMITTED_AS) if match["user"] not in {"root", "0"}), None)
    output = next(((match["path"], file.name) for file, _, _, match in lines_matching(ev.user_files, _OUTPUT_OPTION)),
                  None)
    if submitted is None or output is None:
        return []
    # the job's own log, by its `--output` pattern: `eval_%j.log` -> eval_\d+.log
    log_name = re.sub(r"%[jAa]", r"\\d+", re.sub(r"%x", r"[\\w.-]+", re.escape(PurePosixPath(output[0]).name)))
    failed = ev.first_in_log_heads(re.compile(rf"JobLaunchFailure|cat: \S*{log_name}: No such file or directory"))
    if failed is None:
        return []
    file, number, line, match = submitted
    user, folder = match["user"], PurePosixPath(output[0].strip("\"'")).parent
    shown = next((found for _, head in ev.log_heads for found in _OWNER_SHOWN.finditer(head)
                  if found["name"].rstrip("/") in {folder.name, str(folder)}), None)
    owned = f" (owned by {shown['owner']}, `{shown[0].split()[0]}`)" if shown else ""
    return [Finding(
        category=INFRA,
        title=f"{file.name}:{number} runs the job as `{user}` (`--uid={user}`), who cannot write its output folder "
              f"{folder.name}/{owned}: the job failed at launch, before running a line",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), failed[0]],
        cause=f"slurmd opens the job's output file ({output[1]}: `{output[0]}`) as the job's user before the script "
              f"starts. The job runs as `{user}`, and {folder.name}/ is writable by its owner only{owned}, so the file "
              f"could not be created (Permission denied in slurmd's log): the job ended at launch (JobLaunchFailure) "
              "with no log, and nothing ran. The job would meet the same refusal writing its rollouts into the run "
              "folder.",
        fix=f"Let `{user}` write where the job writes: before sbatch in {file.name}, give it the run folder and its "
            f"{folder.name}/ (`chown -R {user} .`, or `chmod -R o+w {folder.name} .` on a folder only this job uses), "
            f"or point `#SBATCH --output` and the run at a folder `{user}` owns, or submit as the folder's owner "
            f"(without `--uid={user}`); then submit again.",
    )]


def _unexpanded_folder(ev: Evidence, folder: str) -> Finding | None:
    """A `#SBATCH --chdir=~/...` (or `$HOME/...`): sbatch reads its directives as text, no shell expands them, and a
    path not starting with `/` is taken from the submit folder (`run/~/evals`)."""
    for file, number, line, match in lines_matching(ev.user_files, _CHDIR_OPTION):
        path = match["path"].strip("\"'")
        if not re.match(r"[~$]", path) or not folder.rstrip("/").endswith(path.lstrip("~").rstrip("/")):
            continue
        return Finding(
            category=CONFIG,
            title=f"{file.name}:{number} sets the job's folder to `{path}`, which no shell expands in an #SBATCH line: "
                  "the job ran in /tmp",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"sbatch reads `#SBATCH` lines as plain text: `{path[0]}` is not the home folder there but a folder "
                  f"named `{path.split('/')[0]}` under the submit folder ({folder}), which does not exist. slurmstepd "
                  "could not enter it and ran the job in /tmp, where the script's relative paths name nothing.",
            fix=f"In {file.name}, write the folder out in full in `#SBATCH --chdir` (an absolute path: `#SBATCH "
                f"--chdir=/home/<user>/{path.split('/', 1)[-1]}`), or pass it on the command line where the shell "
                "expands `~` (`sbatch --chdir ~/... job.sbatch`); then submit again.",
            explains=frozenset({"slurm_chdir_failed"}),
        )
    return None


def rule_job_folder_left_unexpanded(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("slurm_chdir_failed"):
        if (unexpanded := _unexpanded_folder(ev, hit.groups["path"])) is not None:
            return [unexpanded.model_copy(update={"evidence": [*unexpanded.evidence, hit.evidence()]})]
    return []


def rule_job_folder_copied_from_another_script(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("slurm_chdir_failed"):
        folder = hit.groups["path"]
        if _unexpanded_folder(ev, folder) is not None:
            continue  # the user's own `~`, not another script's folder
        option = next(((file, number, line) for file, number, line, match in lines_matching(ev.user_files, _CHDIR_OPTION)
                       if match["path"].strip("\"'").rstrip("/") == folder.rstrip("/")), None)
        if option is None:
            continue
        file, number, line = option
        used_elsewhere = [1 for other, other_number, _, _ in lines_matching(ev.user_files, re.compile(re.escape(folder)))
                          if (other.name, other_number) != (file.name, number)]
        if used_elsewhere:
            continue  # the submitting side made or used it: a mount the node lacks (the known problem)
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} sets the job's folder to {folder}, which nothing of this run makes or uses: "
                  "the job ran in /tmp",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), hit.evidence()],
            cause=f"`{line.strip()}` names a folder that no other script or setting of the run creates or uses, and "
                  f"that does not exist where the job ran ({hit.groups['reason']}): a line kept from another job's "
                  "script. slurmstepd could not enter it and ran the job in /tmp, where the script's relative paths "
                  "name nothing.",
            fix=f"Set `#SBATCH --chdir` to this run's folder (or drop the line: the job then starts in the folder "
                f"sbatch was called from) instead of {folder}; then submit again.",
            explains=frozenset({"slurm_chdir_failed"}),
        )]
    return []


# bash reporting a file the job's spool copy of the script (`.../job00231/slurm_script`) looked for beside itself
_BESIDE_THE_SPOOL_COPY = re.compile(r"(?P<spool>\S*/job\d+)/slurm_script: line (?P<line>\d+): (?P=spool)/"
                                    r"(?P<name>[\w.-]+): No such file or directory")
_OWN_PATH = re.compile(r"\$0\b|\$\{0\}|BASH_SOURCE")


def rule_files_looked_for_beside_the_spool_copy(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        if (missing := _BESIDE_THE_SPOOL_COPY.search(head)) is None:
            continue
        number, name = int(missing["line"]), missing["name"]
        script = next((file for file in ev.user_files if "#SBATCH" in file.text
                       and number <= len(lines := file.text.splitlines()) and _OWN_PATH.search(lines[number - 1])
                       and name in lines[number - 1]), None)
        if script is None:
            continue
        line = script.text.splitlines()[number - 1].strip()
        said = head.count("\n", 0, missing.start()) + 1
        return [Finding(
            category=CONFIG,
            title=f"{script.name}:{number} looks for {name} beside `$0`, which in a job is Slurm's copy of the script "
                  f"({missing['spool']}/slurm_script): it was not found, and the job went on without it",
            evidence=[EvidenceLine(file=ev.rel(log), line=said, text=head.splitlines()[said - 1].strip()),
                      EvidenceLine(file=script.name, line=number, text=line)],
            cause=f"sbatch copies the batch script into slurmd's spool folder and runs the copy, so `$0` (and "
                  f"`dirname \"$0\"`) name {missing['spool']}, not the folder {script.name} is in: `{line}` found no "
                  f"{name} there, and the script ran on with what it has without it (its defaults), exiting 0.",
            fix=f"In {script.name}:{number}, find the file from the folder the job was submitted from: "
                f"`$SLURM_SUBMIT_DIR/{name}` (or an absolute path) instead of `$(dirname \"$0\")/{name}`; then "
                "submit again.",
        )]
    return []


# a relative file a command did not find: gym-pipeline's words, and the C library's
_RELATIVE_NOT_FOUND = re.compile(r"(?:^|[\s'\"])(?P<name>[\w][\w.-]*(?:/[\w.-]+)*)['\"]?: (?:input )?(?:file not found"
                                 r"|No such file or directory)", re.M)
_SUBMITS = re.compile(r"\bsbatch\b[^#\n]*?(?P<script>[^\s\"'/]+\.(?:sbatch|slurm|sh))\b")
_CD = re.compile(r"^\s*cd\s+[\"']?(?P<folder>[^\s\"';&]+)")
_TO_SUBMIT_FOLDER = re.compile(r"^\s*cd\s+[\"']?\$\{?SLURM_SUBMIT_DIR\}?")


def rule_job_submitted_from_another_folder(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for log, head in ev.log_heads:
        missing = next((match for match in _RELATIVE_NOT_FOUND.finditer(head) if (ev.run_dir / match["name"]).is_file()),
                       None)
        if missing is None:
            continue
        for submitter, number, line, call in lines_matching(ev.user_files, _SUBMITS):
            job = next((file for file in ev.user_files if file.name.endswith(call["script"]) and "#SBATCH" in file.text
                        and not _CHDIR_OPTION.search(file.text)), None)
            earlier = submitter.text.splitlines()[:number - 1]
            went = next(((at, text.strip(), cd["folder"]) for at, text in reversed(list(enumerate(earlier, 1)))
                         if (cd := _CD.match(text))), None)
            if job is None or went is None or PurePosixPath(went[2]).name == ev.run_dir.name:
                continue
            to_submit = next(((at, text.split("#")[0].strip()) for at, text in enumerate(job.text.splitlines(), 1)
                              if _TO_SUBMIT_FOLDER.match(text)), None)
            said = head.count("\n", 0, missing.start()) + 1
            return [Finding(
                category=CONFIG,
                title=f"{job.name} runs in the folder it is submitted from, and {submitter.name} submits it from "
                      f"{went[2]}: the job's relative paths ({missing['name']}) name nothing there",
                evidence=[EvidenceLine(file=submitter.name, line=went[0], text=went[1]),
                          EvidenceLine(file=submitter.name, line=number, text=line.strip()),
                          *([EvidenceLine(file=job.name, line=to_submit[0], text=to_submit[1])] if to_submit else []),
                          EvidenceLine(file=ev.rel(log), line=said, text=head.splitlines()[said - 1].strip())],
                cause=f"A Slurm job starts in the folder sbatch was called from (SLURM_SUBMIT_DIR) unless its script "
                      f"sets one; {job.name} {'goes to $SLURM_SUBMIT_DIR' if to_submit else 'sets none'} and names "
                      f"its files relative to it, and {submitter.name} calls sbatch after `{went[1]}` (a cron job "
                      f"starts in the home folder too). So the job ran in {went[2]}, where {missing['name']} is "
                      f"not: it is in the run folder, beside {job.name}.",
                fix=f"Give the job its own folder: in {job.name}, "
                    + (f"replace `{to_submit[1]}` with a `cd` to the run folder's absolute path (or "
                       if to_submit else "add ")
                    + "`#SBATCH --chdir=<the run folder>`" + (")" if to_submit else "")
                    + f", so that it does not depend on SLURM_SUBMIT_DIR; or in {submitter.name} `cd` to the run "
                      f"folder before `sbatch`. Then submit again.",
            )]
    return []
