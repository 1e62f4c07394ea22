"""NeMo Gym domain core: file formats, materialization, profiling, diagnosis. No Dagster here."""
