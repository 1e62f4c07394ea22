"""Dagster resources that hand model servers (and later engines and launchers) to assets."""
