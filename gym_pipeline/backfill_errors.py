"""The error a backfill request raises, kept apart from gym_pipeline.backfill so that the command line can name it
without importing Dagster and the assets (and matplotlib with them) on every error it reports."""


class BackfillError(ValueError):
    pass
