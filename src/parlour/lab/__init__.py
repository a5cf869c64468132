"""Batch simulation, metrics and reports."""
