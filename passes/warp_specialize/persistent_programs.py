"""A program per tile made persistent: a GEMM kernel whose every program computes one output
tile (its K loop at the function's top level, as Triton's tutorial 03 writes a matmul) is
rewritten, before phase 1 partitions it, as a persistent kernel whose first P programs walk
the grid's tiles, so that phase 1 takes it as the nest it knows (a tile loop around the K
loop: `partition.persistent_refusal`).

Why: a warp-specialized CTA takes its SM's whole register file (`registers.py`), so it
holds the SM alone. With a program per tile each CTA fills its ring from empty, drains it,
and runs its epilogue with the tensor cores idle before the next CTA starts; a persistent
CTA's producer loads the next tile's stages while the consumers store this one (seed 000:
the producer walks the merged (tile, k) space, its ring never drains between tiles), and
at `num_warps=4` its two consumer warpgroups can take turns (`pingpong.py`), where a
program per tile has one consumer warpgroup, which `mode=auto` leaves to the software
pipeliner.

Algorithm, for a function whose lone K loop phase 1 is about to take (`refusal` first):
  1. A = the grid axes the function reads a `tt.get_program_id` along (x, y, z in order),
     G_a = `tt.get_num_programs a`, the program's linear id over them
     l = x + G_x (y + G_y z), and T = the product of the G_a (the tiles).
  2. The function's top-level ops but `tt.return` split in two, in order: those that stay
     ahead (side-effect free, without regions, every operand an argument or an op that
     stays: constants, sizes, device-made descriptors from the arguments) and the rest,
     which move, in order, into the body of
         scf.for %t = select(l < P, l, T) to T step P
     (P = `programs`: the SMs of the GPU). The loop carries nothing.
  3. In the body the ids are read as t's coordinates: with one axis the id is t; else
     x = t mod G_x, y = (t / G_x) mod G_y, z = t / (G_x G_y) (the axes read only), and
     every `tt.get_program_id` is replaced by its axis's coordinate. `tt.get_num_programs`
     still reads the grid the kernel was launched with, as the kernel's own code expects.

Meaning: program l < P computes tiles l, l + P, ... < T, each with the ids of the program
that computed it as written, one after another; programs with l >= P compute none. Every
tile is computed once, by code reading exactly what its own program read. Programs run in
no order Triton promises, so one program running several of them one after another is an
order the kernel as written may run in, except where a program waits for another: a spin
on a flag another program sets would wait forever for a tile the same program has still to
run. So no atomics (`tt.atomic_rmw`, `tt.atomic_cas`, the only way programs talk), no calls
(a callee may read the id itself) and no inline asm with side effects (it may read
`%ctaid`). Axes the function does not read keep their ids: programs along them repeat the
tiles, as the kernel as written does. The body is one block (a function that returns early
branches between blocks). The coordinates count in i32, as the ids do: T must stay below
2^31, which a GEMM's grid does (its tiles' outputs would outgrow any GPU's memory first).

Measured on an H200 (132 SMs, Hopper's SM and power limit; docs/measurements.md,
twenty-seventh session), the bench's bf16 GEMMs of a program a tile against the same
kernels kept at one tile a program, same run: 128x128 tiles at 4 warps (now ping-pong)
1.06-1.08x, 128x256 at 8 warps 1.02-1.04x, 128x128 at 8 warps 1.06-1.08x; against stock
Triton's best of the same source 1.04-1.23x, where kept at a tile a program 0.98-1.18x.

P is the pass's option `programs`: the named pipelines pass their `sms`, which the Triton
plug-in sets to its device's SMs. On a GPU with fewer SMs than P the programs past its SMs
run after the others, still correct.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from ttpipe.dialects import scf, tt
from ttpipe.dialects.arith import CmpIPredicate
from ttpipe.passes.common.builder import OpBuilder

REMARK = "tiles kept one a program: "
"""The remark of a program-per-tile K loop warp-specialized as written, not made persistent."""


def refusal(func: tt.FuncOp, k_loop: scf.ForOp) -> str | None:
    """Why `func`, whose lone K loop is `k_loop`, cannot have its programs made persistent
    (step 1's legality), or None."""
    if len(func.body.blocks) != 1:
        return "the function branches between blocks (an early return)"
    if k_loop.parent_op() is not func:
        return "the K loop is not at the function's top level"
    reads_id = False
    for op in func.walk():
        reads_id |= isinstance(op, tt.GetProgramIdOp)
        if isinstance(op, (tt.AtomicRMWOp, tt.AtomicCASOp)):
            return (f"'{op.name}': programs may wait for one another through memory, and a program waiting "
                    f"for a tile it has still to run would wait forever")
        if isinstance(op, tt.CallOp):
            return "'tt.call': the callee may read the program id"
        if isinstance(op, tt.ElementwiseInlineAsmOp) and not op.pure.value.data:
            return "inline asm with side effects (it may read the CTA's id)"
    return None if reads_id else "no program reads its id: every program computes the same"


def _stays_ahead(op: Operation, ahead: set[Operation], block: Block) -> bool:
    return (not isinstance(op, tt.GetProgramIdOp) and not op.regions and is_side_effect_free(op)
            and all((isinstance(v, BlockArgument) and v.block is block) or v.owner in ahead for v in op.operands))


def make_persistent(func: tt.FuncOp, programs: int) -> None:
    """Steps 1-3 on `func` (which `refusal` accepts): a tile loop holding every op of the
    function that reads a program id or has effects."""
    block = func.body.block
    ids = [op for op in func.walk() if isinstance(op, tt.GetProgramIdOp)]
    axes = sorted({op.axis.value.data for op in ids})
    ops = list(block.ops)[:-1]
    ahead: set[Operation] = set()
    for op in ops:
        if _stays_ahead(op, ahead, block):
            ahead.add(op)
    moved = [op for op in ops if op not in ahead]

    b = OpBuilder(InsertPoint.before(block.last_op), ids[0].location)
    sizes = {axis: b.insert(tt.GetNumProgramsOp(axis)).result for axis in axes}
    linear = tiles = None
    for axis in reversed(axes):
        own = b.insert(tt.GetProgramIdOp(axis)).result
        linear = own if linear is None else b.addi(own, b.muli(sizes[axis], linear))
        tiles = sizes[axis] if tiles is None else b.muli(sizes[axis], tiles)
    step = b.int_constant(programs, 32)
    first = b.select(b.cmpi(CmpIPredicate.slt, linear, step), linear, tiles)
    body = Block(arg_types=[i32])
    b.insert(scf.ForOp(first, tiles, step, body=body))

    tb = OpBuilder(InsertPoint.at_end(body), ids[0].location)
    coordinates: dict[int, SSAValue] = {}
    rest: SSAValue = body.args[0]
    for axis in axes[:-1]:
        coordinates[axis] = tb.remsi(rest, sizes[axis])
        rest = tb.divsi(rest, sizes[axis])
    coordinates[axes[-1]] = rest
    for op in moved:
        op.detach()
        body.add_op(op)
    body.add_op(scf.YieldOp())
    for op in ids:
        Rewriter.replace_op(op, [], [coordinates[op.axis.value.data]])
