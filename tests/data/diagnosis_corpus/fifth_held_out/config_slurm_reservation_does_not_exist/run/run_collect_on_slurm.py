"""Run the collect stage as a Slurm job through gym_pipeline's SlurmLauncher, as a sweep step would."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.slurm import SlurmLauncher

run = Path(sys.argv[1])
launcher = SlurmLauncher(time_limit='10', extra_options=['--reservation=gpu_maint'], poll_interval_s=0.5)
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.slurm_state, state.exit_code, flush=True)
