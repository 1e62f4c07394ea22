"""Run the collect stage in a container through gym_pipeline's DockerLauncher, with our shared checkpoint store."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.docker import BindMount, DockerLauncher

run = Path(sys.argv[1])
launcher = DockerLauncher(network="host", mounts=[BindMount(Path("/scratch/shared-checkpoints"), None, True)])
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, cwd=run))
print("collect ended:", state.exit_code, flush=True)
