"""`ttpipe-warp-specialize`: Hopper warp specialization of TMA + wgmma K loops, its three
phases in order (see the package docstring and each phase's module)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from ttpipe.passes.warp_specialize.options import WarpSpecializeOptions
from ttpipe.passes.warp_specialize.partition import PartitionLoops
from ttpipe.passes.warp_specialize.partition_loops import PartitionLoopsToWarpSpecialize
from ttpipe.passes.warp_specialize.registers import AssignPartitionRegisters


@dataclass(frozen=True)
class WarpSpecialize(WarpSpecializeOptions, ModulePass):
    """Warp-specialize TMA + wgmma loops on sm_90: a TMA producer warp, wgmma consumer warpgroups, a ring of full/empty mbarriers.

    Before (TTGIR after accelerate-matmul, the loop marked by `tl.range(...,
    warp_specialize=True)`, or any such loop with `mode=auto`):

        %acc = scf.for %k = %lb to %ub step %s iter_args(%c = %zero) {
          %a = tt.descriptor_load %A[%m, %off]  ;  %as = ttg.local_alloc %a
          %b = tt.descriptor_load %B[%n, %off]  ;  %bs = ttg.local_alloc %b
          %d = ttng.warp_group_dot %as, (memdesc_trans %bs), %c
          scf.yield %d
        } {tt.warp_specialize}

    After: rings `S x tile` and full/empty mbarriers `S x 1 x i64` before a

        %acc = ttg.warp_specialize(captures) attributes {requestedRegisters = [40]}
        default {            // consumer warpgroup: wait full, async wgmma, wait(1), release previous
          scf.for ... iter_args(%c, %index = 0, %phase = 0) {tt.num_stages = 0}
          ttng.warp_group_dot_wait {pendings = 0}; ttg.warp_yield
        }
        partition0(...) num_warps(1) {   // producer: wait empty (phase from 1), expect-tx, TMA copies
          scf.for ... iter_args(%index = 0, %phase = 1) {tt.num_stages = 0}
          ttg.warp_return
        }

    With `ttg.num-warps = 8`: two cooperative consumer warpgroups (the default region and
    a 4-warp partition, rows `[0, M/2)` and `[M/2, M)` of the tile), each with its share of
    the epilogue, and the producer last; `requestedRegisters = [232, 40]`
    (`cooperative.py`, `registers.py`).

    A persistent kernel (a grid-stride tile loop around such a K loop, either loop marked):
    `ttg.warp_specialize` around the whole tile loop, the producer's tile loop around its K
    loop and each consumer warpgroup's tile loop around its K loop, flush, last-stage release
    and epilogue, one (index, phase) state through both loops of each (`partition_loops.py`
    steps 9-10; with `num_warps=8` the TMA-store staging tile gets a full/empty mbarrier pair
    whose phase the consumer tile loops carry).

    With `programs=P` (the named pipelines pass their `sms`), a GEMM of a program a tile is
    made persistent first: its body in a tile loop over the grid's tiles, the first P
    programs walking them (`persistent_programs.py`), then specialized as the persistent
    kernel it now is; where programs may talk through memory it stays as written.

    A persistent kernel of `num_warps=4` whose tile's accumulators leave room for the
    epilogue (128x128 fp32: 128 registers of 232): two ping-pong consumer warpgroups, each
    on alternate tiles, their mainloops taking turns through two mbarriers so that one's
    epilogue runs under the other's wgmmas; `requestedRegisters = [232, 40]`
    (`pingpong.py`: the cost model; `consumers=pingpong|cooperative` forces either).

    `epilogue=partition`: a persistent kernel's TMA stores move to a one-warp partition fed
    tile by tile through a full/empty channel (`epilogue_partition.py`); the consumers
    write each tile to shared memory and go on.

    Pointer loads (`tt.load` of `a_ptr + rows * stride + cols` with masked tails, as
    Triton's tutorials write them) are TMA loads of descriptors the kernel makes on the
    device before the loop (`pointer_loads.py`, `ttpipe-pointer-loads-to-tma`).

    Attention (`attention.py`, `attention_lowering.py`): a loop whose first wgmma's result
    the iteration reads (S = Q K^T, then the online softmax, then O += P V) gets a one-warp
    producer loading K and V into a ring (and Q once), and consumer warpgroups each
    computing its rows of the tile (`row_split.py`) in a loop rotated by one iteration, so
    that the next S and this O are issued back to back, the softmax after them
    (FlashAttention-3's intra-warpgroup overlap; `attention.SoftmaxOverlap` says how much of
    it the SASS keeps); masked selects run only where their mask
    can be false (the causal diagonal), causal query blocks launch longest first, and a
    sequence of such loops (the blocks below the diagonal, then the diagonal) shares one
    ring. `consumers=pingpong` adds turns between the two warpgroups (measured slower).

    Phases: `ttpipe-ws-partition` (which loops; refusals as `loop not warp-specialized:
    <reason>` remarks), `ttpipe-ws-partition-loops`, `ttpipe-ws-registers`; each module's
    docstring gives its steps, preconditions and attributes.
    """

    name = "ttpipe-warp-specialize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PartitionLoops(self.mode, self.num_stages, self.consumers, self.epilogue, self.programs).apply(ctx, op)
        PartitionLoopsToWarpSpecialize().apply(ctx, op)
        AssignPartitionRegisters().apply(ctx, op)
