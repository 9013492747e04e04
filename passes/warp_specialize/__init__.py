"""Warp specialization for Hopper (sm_90a), in phases that talk through op attributes.

1. `partition.py` (`ttpipe-ws-partition`): which loops, and `ttg.partition` on their ops.
2. `partition_loops.py` (`ttpipe-ws-partition-loops`): the TMA ring (`tma_pipeline.py`) and
   the producer and consumer loops under `ttg.warp_specialize`.
3. `registers.py` (`ttpipe-ws-registers`): `requestedRegisters` of the partitions.

`warp_specialize.py` (`ttpipe-warp-specialize`) runs the three in order.
"""
