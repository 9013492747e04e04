"""Helpers shared by ttpipe's passes: layout computations, IR building and def-use walks."""
