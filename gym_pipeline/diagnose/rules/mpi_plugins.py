"""Step 1: job steps started with an MPI plugin this cluster's Slurm cannot load (`srun: error: mpi/pmix_v4: init:
... can not load PMIx library`, `Couldn't load specified plugin name for mpi/pmix`).

`srun` takes its MPI plugin from `--mpi` or from `SLURM_MPI_TYPE` in its environment; a shell settings file kept from
another cluster (`export SLURM_MPI_TYPE=pmix`) asks every step for a plugin this one lacks, and each step fails before
it runs, while the batch job itself may end 0. Named from Slurm's words and, where the run's own files set it, the
variable's line.

The same holds for the options of a SPANK plugin: `srun --container-image=...` exists only where the pyxis plugin is
installed; elsewhere srun answers `unrecognized option '--container-image=...'`, and the step never runs.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import INFRA

_PLUGIN_REFUSED = re.compile(r"srun: error: (?:mpi/(?P<plugin>\w+): [^\n]*?(?:can not|cannot|couldn't) load"
                             r"|Couldn't load specified plugin name for mpi/(?P<named>\w+))", re.I)
_MPI_CHOSEN = re.compile(r"^\s*(?:export\s+)?SLURM_MPI_TYPE=\S+|\bsrun\b[^\n]*--mpi[= ](?!none\b)\S+")


def rule_mpi_plugin_the_cluster_cannot_load(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_PLUGIN_REFUSED)
    a = ev.artifacts
    if refused is None or (a.rollouts.valid_rows and not a.missing_keys):
        return []  # a probe of the plugin that failed beside steps that ran (`srun --mpi=pmix true || echo ...`)
    said, match = refused
    plugin = match["plugin"] or match["named"]
    chosen = next(lines_matching(ev.user_files, _MPI_CHOSEN), None)
    where = f"{chosen[0].name}:{chosen[1]} (`{chosen[2].strip()}`)" if chosen else None
    return [Finding(
        category=INFRA,
        title=f"srun could not load the MPI plugin mpi/{plugin} on this cluster: the job's steps never ran"
              + (f" ({where} asks for it)" if where else ""),
        evidence=[said, *([EvidenceLine(file=chosen[0].name, line=chosen[1], text=chosen[2].strip())] if chosen
                          else [])],
        cause=f"Each `srun` step asked Slurm for the MPI plugin mpi/{plugin} (from `--mpi` or `SLURM_MPI_TYPE` in "
              "its environment), and this cluster's Slurm cannot load it (no PMIx library on its nodes): the step "
              "failed before its command ran. A settings file kept from another cluster is the usual source."
              + (f" Here {where} sets it." if where else ""),
        fix=(f"Remove {where} (or `unset SLURM_MPI_TYPE` before sbatch/srun)" if where else
             "Unset SLURM_MPI_TYPE where the job's environment sets it")
            + ", or start the steps with a plugin the cluster has (`srun --mpi=list` shows them; `--mpi=none` for "
            "steps that are not MPI programs, as an eval's are); then submit the job again.",
    )]


# pyxis's options (enroot containers in job steps): srun knows them only where the plugin is installed
_PYXIS_OPTION_REFUSED = re.compile(r"\b(?:srun|salloc|sbatch): unrecognized option '(?P<option>--(?:no-)?container-"
                                   r"[\w-]+)(?:=[^']*)?'")


def rule_container_option_without_pyxis(ev: Evidence) -> list[Finding]:
    refused = ev.first_in_log_heads(_PYXIS_OPTION_REFUSED)
    if refused is None:
        return []
    said, match = refused
    option = match["option"]
    given = next(lines_matching(ev.user_files, re.compile(rf"\bsrun\b[^\n]*{re.escape(option)}\b|^\s*#SBATCH\s+"
                                                          rf"{re.escape(option)}\b")), None)
    return [Finding(
        category=INFRA,
        title=f"srun does not know `{option}`: this cluster's Slurm has no pyxis plugin, so the container step never "
              "ran",
        evidence=[said, *([EvidenceLine(file=given[0].name, line=given[1], text=given[2].strip())] if given else [])],
        cause=f"`{option}` is an option of pyxis, the SPANK plugin that runs job steps in enroot containers; srun "
              "has it only where the cluster's plugstack.conf loads pyxis. This cluster's does not, so srun refused "
              "the option and the step (and all that needed its output) never ran.",
        fix="Run the step where the pyxis SPANK plugin is installed (`srun --help | grep container-image` shows it), "
            "or without the "
            f"container here: drop `{option}` (and the other --container-* options) and run the step in the job's "
            "own environment (the project's venv), or in a container the node's runtime starts (`docker run`, "
            "`apptainer exec`); then submit again.",
    )]
