"""Dagster resources that hand model servers (model_server.py), launchers (launchers.py) and the digest cache
(digest_cache.py) to assets."""
