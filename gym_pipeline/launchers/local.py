"""A stage as a local process, in its own session so that teardown reaches everything it started."""

from __future__ import annotations

import os
import signal
import subprocess

from gym_pipeline.diagnose.vocabulary import signal_name
from gym_pipeline.host import process_tree, stop_process_tree
from gym_pipeline.launchers.base import Launcher, RunningStage, StageLaunch
from gym_pipeline.launchers.state import LauncherState

_KILL_WAIT_S = 10.0  # after SIGKILL, how long the tree may take to vanish


class LocalLauncher(Launcher):
    """Runs the argv as a subprocess of this process (inheriting its environment, plus `launch.env`).

    Teardown (`host.stop_process_tree`): SIGINT to its process group, `grace_period_s` for the whole tree
    to exit, then SIGKILL.
    """

    kind = "local"

    def __init__(self, grace_period_s: float = 10.0, poll_interval_s: float = 0.2):
        super().__init__(grace_period_s=grace_period_s, poll_interval_s=poll_interval_s)

    def prepare(self, launch: StageLaunch, state: LauncherState) -> RunningStage:
        return _LocalProcess(launch, state, self.grace_period_s)


class _LocalProcess(RunningStage):
    def __init__(self, launch: StageLaunch, state: LauncherState, grace_period_s: float):
        super().__init__(launch, state)
        self.grace_period_s = grace_period_s
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.launch.log_path.open("ab") as log_file:
            self.process = subprocess.Popen(
                self.launch.argv, cwd=self.launch.workdir, env={**os.environ, **self.launch.env},
                stdin=subprocess.DEVNULL, stdout=log_file, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own session and process group (pgid == pid)
            )
        self.state.pid = self.process.pid

    def poll(self) -> bool:
        if self.process is None or self.process.poll() is None:
            return False
        self._record_exit(self.process.returncode)
        return True

    def stop(self) -> None:
        if self.process is not None:
            stop_process_tree(self.process, signal.SIGINT, self.grace_period_s, _KILL_WAIT_S)
            self.process.wait()
            self._record_exit(self.process.returncode)
        self.ended = True

    def release(self) -> None:
        # Whatever the stage left running in its session (a daemonized helper) ends with it.
        if self.process is not None and process_tree(self.process.pid):
            stop_process_tree(self.process, signal.SIGINT, self.grace_period_s, _KILL_WAIT_S)

    def _record_exit(self, returncode: int) -> None:
        self.ended = True
        self.state.exit_code = returncode
        if returncode < 0:
            self.state.signal = signal_name(-returncode)

