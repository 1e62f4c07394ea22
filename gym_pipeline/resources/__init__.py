"""Dagster resources that hand model servers (model_server.py) and launchers (launchers.py) to assets."""
