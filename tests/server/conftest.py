"""Fixtures of the online rooms' tests."""

from tests.server.postgres import postgres_url

__all__ = ["postgres_url"]
