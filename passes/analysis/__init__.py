"""Analyses the passes share (axis info)."""
