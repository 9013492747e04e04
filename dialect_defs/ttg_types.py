"""Placeholder: being written."""

OPS = ()
ATTRS = ()
