"""Command-line entry points, thin over `ttpipe`."""
