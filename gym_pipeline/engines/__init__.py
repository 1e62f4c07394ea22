"""Engines produce rollouts from materialized inputs: the built-in collector, later the real `gym` CLI."""
