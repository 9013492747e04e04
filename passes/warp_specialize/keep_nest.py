"""`ttpipe-ws-keep-nest`: phase 0 of Hopper warp specialization, run before
`tritongpu-fuse-nested-loops`: a persistent kernel marked both `flatten=True` and
`warp_specialize=True` keeps its loop nest where phase 1 would specialize it.

Why: Triton's tutorial 09 marks its persistent tile loop
`tl.range(..., flatten=True, warp_specialize=True)` (flattening is what Blackwell's
warp specialization takes). `tritongpu-fuse-nested-loops` flattens a nest whose tile loop
carries `tt.flatten` into one loop over the merged (tile, k) iterations, the epilogue under
an `scf.if` in its body, and copies `tt.warp_specialize` onto it. Phase 1 takes persistent
nests (its producer runs the merged iteration space itself, seed 000; its consumers keep
the tile and K loops apart, the epilogue between them) and refuses a body with control
flow. Stock Triton on Hopper flattens and pipelines the loop, ignoring the mark.

Algorithm, for each persistent nest (`partition.persistent_loops`: a tile loop around one
K loop) whose tile loop carries `tt.flatten` and either loop `tt.warp_specialize`:
  1. Probe: phase 1 (`PartitionLoops.specialize` with `keep=False`, this pass's options)
     on a copy of the function, standing in the module for the function (phase 1 reads the
     module's attributes and counts its functions); then the function is put back and the
     copy erased, so nothing of the probe stays.
  2. Taken: `tt.flatten` is dropped from the tile loop. fuse-nested-loops leaves the nest
     alone, and `ttpipe-warp-specialize` meets it as written.
  3. Refused: the nest stays marked, to be flattened and pipelined as stock Triton does it,
     and the tile loop gets the remark `loop not warp-specialized: <reason>` (phase 1 later
     remarks on the fused loop too, which keeps the mark).

The probe sees the IR before the canonicalization and LICM that run between fusion and
phase 1. Those simplify a nest (tile-invariant values hoisted out of it, constants folded)
and so should not turn a nest phase 1 takes into one it refuses; if one did, the nest would
be pipelined unflattened, with phase 1's remark. A nest not marked `tt.warp_specialize` is flattened
as before in every mode: `mode=auto` specializes loops, it does not undo a flattening the
user asked for.

Attributes read: `tt.flatten`, `tt.warp_specialize` (loops). Written: `tt.flatten` removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttpipe.dialects import scf, tt
from ttpipe.passes.common.diagnostics import emit_remark
from ttpipe.passes.pipeline.schedule import WARP_SPECIALIZE
from ttpipe.passes.warp_specialize.options import WarpSpecializeOptions
from ttpipe.passes.warp_specialize.partition import REMARK, PartitionLoops, function_loops, persistent_loops

FLATTEN = "tt.flatten"
"""The frontend's mark of a loop `tl.range(..., flatten=True)`, which
`tritongpu-fuse-nested-loops` flattens with the loops nested in it."""


def marked_nest(loop: scf.ForOp) -> bool:
    """`loop` is the tile loop of a persistent nest marked for flattening and for warp
    specialization (either loop of the nest)."""
    nest = persistent_loops(loop)
    return (nest is not None and nest[0] is loop and FLATTEN in loop.attributes
            and any(WARP_SPECIALIZE in each.attributes for each in nest))


@dataclass(frozen=True)
class KeepNest(WarpSpecializeOptions, ModulePass):
    """Keep a persistent nest marked flatten and warp_specialize unflattened where warp specialization takes it.

    See `ttpipe.passes.warp_specialize.keep_nest` for the algorithm.
    """

    name = "ttpipe-ws-keep-nest"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        partitioner = PartitionLoops(self.mode, self.num_stages, self.consumers, self.epilogue, self.programs)
        for func in [f for f in op.ops if isinstance(f, tt.FuncOp)]:
            for position, loop in enumerate(function_loops(func)):
                if not marked_nest(loop):
                    continue
                _, refused = partitioner.specialize(func, position, keep=False)
                if refused is None:
                    del loop.attributes[FLATTEN]
                else:
                    emit_remark(loop, REMARK + str(refused))
