"""Where a stage runs: a local process, a Docker container or a Slurm job, behind one interface.

    from gym_pipeline.launchers.base import StageLaunch
    from gym_pipeline.launchers.factory import launcher_from_settings
    from gym_pipeline.launchers.settings import SlurmLauncherSettings

    launcher = launcher_from_settings(SlurmLauncherSettings(partition="gpu", memory_mb=16000))
    state = launcher.run(StageLaunch("rollouts", [sys.executable, "-m", "gym_pipeline.cli", ...], run_dir))
    with launcher.serve(StageLaunch("model_server", [...], run_dir), ready=answers, timeout_s=600):
        ...

Modules: `base` (StageLaunch, StageResources, Launcher, the errors), `local`, `docker`, `slurm`, `factory`
(`launcher_from_settings`), `pipes` (the Dagster Pipes client), `settings` (the pydantic settings; light to
import, so the sweep config can embed them without loading the launchers' dependencies) and `state` (the
`LauncherState` records, a leaf the diagnosis reads). Nothing is imported here for the same reason. In
Dagster, each kind is a resource: gym_pipeline/resources/launchers.py.

Every launcher writes the stage's output to `<run_dir>/logs/<stage>.log` and its `LauncherState` to
`logs/launcher.json` and `logs/launcher_<stage>.json` (read by gym_pipeline/diagnose/launcher.py).
"""
