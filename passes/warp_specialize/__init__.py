"""Warp specialization for Hopper (sm_90a), in phases that talk through op attributes.

0. `keep_nest.py` (`ttpipe-ws-keep-nest`, in the named pipelines before Triton's
   `tritongpu-fuse-nested-loops`): a persistent nest marked `flatten=True` as well stays a
   nest where phase 1 takes it.
1. `partition.py` (`ttpipe-ws-partition`): which loops, and `ttg.partition` on their ops.
2. `partition_loops.py` (`ttpipe-ws-partition-loops`): the TMA ring (`tma_pipeline.py`) and
   the producer and consumer loops under `ttg.warp_specialize`.
3. `registers.py` (`ttpipe-ws-registers`): `requestedRegisters` of the partitions.

`cooperative.py`: with `num_warps=8`, two consumer warpgroups splitting the tile along M,
each in its own region with its share of the epilogue (used by phases 1 and 2).
`pingpong.py`: in a persistent kernel of `num_warps=4`, two consumer warpgroups on
alternate tiles, their mainloops taking turns (the cost model for phase 1, the turn
mbarriers for phase 2).

`epilogue_store.py`: a persistent epilogue's TMA stores through staging tiles, waited for a
tile later. `epilogue_partition.py`: with `epilogue=partition`, the stores in a one-warp
partition fed through a full/empty channel.

`attention.py`: attention-shaped loops (a wgmma result the iteration reads, the online
softmax between two wgmmas), and sequences of them: what phase 1 checks and stamps;
`attention_lowering.py`: their phase 2 (a producer for K, V and Q once; consumer
warpgroups each on its rows, the softmax under the next wgmmas). `row_split.py`: a
function's tensors split by rows over the consumer warpgroups. `loop_copies.py`: the
partitions' copies of a loop and the producer's TMA loads (phase 2's steps 3-4, shared).

`persistent_programs.py`: with `programs=P`, a GEMM of a program a tile made persistent (the
first P programs walk the grid's tiles) before phase 1 takes it, as the nest it knows.

`warp_specialize.py` (`ttpipe-warp-specialize`) runs the three in order.
"""
