"""An example third-party package for ttpipe: the pass `example-count-dots` and the
scheduler `example-loads-ahead`, declared as entry points in pyproject.toml."""
