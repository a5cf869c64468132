"""Shared test settings: hypothesis without deadlines (CI machines are slow and noisy)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "parlour",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("parlour")
