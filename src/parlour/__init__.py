"""Parlour."""
