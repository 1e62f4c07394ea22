"""NeMo Gym domain core: file formats, materialization, staleness, profiling, comparison. No Dagster here."""
