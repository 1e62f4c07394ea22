"""Run the collect stage in a container through gym_pipeline's DockerLauncher, as a sweep step would."""
import sys
from pathlib import Path

from gym_pipeline.launchers.base import StageLaunch
from gym_pipeline.launchers.docker import DockerLauncher

run = Path(sys.argv[1])
launcher = DockerLauncher(network='host', cpus=8)
state = launcher.run(StageLaunch("collect", sys.argv[2:], run, env={'PYTHONPATH': '/work/wt-heldout5'}, cwd=run))
print("collect ended:", state.exit_code, flush=True)
