"""Software pipelining as phases, each a pass of its own, talking through op attributes:
`ttpipe-assign-latencies` -> `ttpipe-schedule-loops` -> `ttpipe-pipeline` (lowering and
expansion). See `schedule.py` for the attributes and the coarse schedule."""
