"""The ops' keyword `__init__`s build what the parser builds from Triton's text: the same
operands (with `operandSegmentSizes`), result types (inferred where the op fixes them) and
properties (defaults left to IRDL), so passes may build ops either way."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr, i1, i32
from xdsl.ir import Block, Region

from ttpipe.dialects import arith, scf, tt, ttg, ttng, ub
from ttpipe.textio import parse_module

LAYOUTS = """
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#barrier = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
"""

BODY = """
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: i32, %b: i32, %p: !tt.ptr<f16>, %ptrs: tensor<128x64x!tt.ptr<f16>, #blocked>,
             %mask: tensor<128x64xi1, #blocked>, %x: tensor<128x64xf16, #blocked>,
             %ring: !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>,
             %buf: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>,
             %bars: !ttg.memdesc<2x1xi64, #barrier, #smem, mutable>,
             %bar: !ttg.memdesc<1xi64, #barrier, #smem, mutable>,
             %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>,
             %bt: !ttg.memdesc<64x128xf16, #shared, #smem>,
             %desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %pred: i1) {
    %0 = arith.addi %a, %b : i32
    %1 = arith.cmpi slt, %a, %b : i32
    %2 = arith.select %1, %a, %b : i32
    %3 = arith.constant 7 : i32
    %4 = arith.extui %pred : i1 to i32
    %5 = tt.splat %p : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>, #blocked>
    %6 = tt.addptr %p, %a : !tt.ptr<f16>, i32
    %7 = tt.trans %x {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked> -> tensor<64x128xf16, #ttg.slice<{dim = 0, parent = #blocked}>>
    %8 = ttg.memdesc_index %ring[%a] : !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %9 = ttg.async_copy_global_to_local %ptrs, %8 mask %mask : tensor<128x64x!tt.ptr<f16>, #blocked> -> <128x64xf16, #shared, #smem, mutable>
    %10 = ttg.async_commit_group tokens %9
    %11 = ttg.async_wait %10 {num = 0 : i32}
    %12 = ttg.local_load %8 token %11 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> -> tensor<128x64xf16, #blocked>
    %13 = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #shared, #smem, mutable>
    ttg.local_store %x, %buf : tensor<128x64xf16, #blocked> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #barrier, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #barrier, #smem, mutable>
    ttng.wait_barrier %bar, %a deps %buf : !ttg.memdesc<1xi64, #barrier, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%a, %b] %buf, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #barrier, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %14 = ttng.tc_gen5_mma %buf, %bt, %acc[], %pred, %pred, %bar[%pred] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #barrier, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.fence_async_shared {bCluster = false}
    %15 = ttg.predicate_stage %a, %b, %a maxStage 2 stage 0 : i32 -> i1
    %16 = ub.poison : !ttg.async.token
    %17 = arith.extsi %a : i32 to i64
    %18 = tt.make_tensor_descriptor %p, [%a, %b], [%17, %17] : <f16>, <tensor<128x64xf16, #shared>>
    %19 = tt.descriptor_load %18[%a, %b] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
    %20 = tt.ptr_to_int %p : !tt.ptr<f16> -> i64
    tt.return
  }
}
"""


def _ops():
    module = parse_module(LAYOUTS + BODY, "ops.mlir").module
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    return [op for op in func.body.block.ops][:-1]


BUILDERS = {
    arith.AddIOp: lambda o: arith.AddIOp(o.lhs, o.rhs),
    arith.CmpIOp: lambda o: arith.CmpIOp(arith.CmpIPredicate.slt, o.lhs, o.rhs),
    arith.SelectOp: lambda o: arith.SelectOp(o.condition, o.true_value, o.false_value),
    arith.ConstantOp: lambda o: arith.ConstantOp.from_int(7, i32),
    arith.ExtUIOp: lambda o: arith.ExtUIOp(o.in_, result_type=o.out.type),
    tt.SplatOp: lambda o: tt.SplatOp(o.src, result_type=o.result.type),
    tt.AddPtrOp: lambda o: tt.AddPtrOp(o.ptr, o.offset),
    tt.TransOp: lambda o: tt.TransOp(o.src, order=[1, 0], result_type=o.result.type),
    ttg.MemDescIndexOp: lambda o: ttg.MemDescIndexOp(o.src, o.index, result_type=o.result.type),
    ttg.AsyncCopyGlobalToLocalOp: lambda o: ttg.AsyncCopyGlobalToLocalOp(o.src, o.result, o.mask),
    ttg.AsyncCommitGroupOp: lambda o: ttg.AsyncCommitGroupOp(list(o.inputTokens)),
    ttg.AsyncWaitOp: lambda o: ttg.AsyncWaitOp(list(o.asyncToken), num=0),
    ttg.LocalLoadOp: lambda o: ttg.LocalLoadOp(o.src, o.token, result_type=o.result.type),
    ttg.LocalAllocOp: lambda o: ttg.LocalAllocOp(result_type=o.result.type),
    ttg.LocalStoreOp: lambda o: ttg.LocalStoreOp(o.src, o.dst),
    ttng.InitBarrierOp: lambda o: ttng.InitBarrierOp(o.alloc, count=1),
    ttng.BarrierExpectOp: lambda o: ttng.BarrierExpectOp(o.alloc, o.pred, size=16384),
    ttng.WaitBarrierOp: lambda o: ttng.WaitBarrierOp(o.alloc, o.phase, deps=list(o.deps)),
    ttng.AsyncTMACopyGlobalToLocalOp: lambda o: ttng.AsyncTMACopyGlobalToLocalOp(
        o.desc, list(o.coord), o.barrier, o.result, o.pred),
    ttng.TCGen5MMAOp: lambda o: ttng.TCGen5MMAOp(o.a, o.b, o.d, o.useD, o.pred, barriers=list(o.barriers),
                                                 barrier_preds=list(o.barrier_preds), is_async=True,
                                                 with_token=True),
    ttng.TMAStoreWaitOp: lambda o: ttng.TMAStoreWaitOp(pendings=0),
    ttng.FenceAsyncSharedOp: lambda o: ttng.FenceAsyncSharedOp(b_cluster=False),
    ttg.PredicateStageOp: lambda o: ttg.PredicateStageOp(o.iv, o.ub, o.step, max_stage=2, stage=0),
    ub.PoisonOp: lambda o: ub.PoisonOp(o.result.type),
    arith.ExtSIOp: lambda o: arith.ExtSIOp(o.in_, result_type=o.out.type),
    tt.MakeTensorDescOp: lambda o: tt.MakeTensorDescOp(o.base, list(o.shape), list(o.strides), o.result.type),
    tt.DescriptorLoadOp: lambda o: tt.DescriptorLoadOp(o.desc, list(o.indices), result_type=o.result.type),
    tt.PtrToIntOp: lambda o: tt.PtrToIntOp(o.src, result_type=o.result.type),
}


@pytest.mark.parametrize("parsed", _ops(), ids=lambda op: op.name)
def test_init_builds_what_the_parser_builds(parsed):
    built = BUILDERS[type(parsed)](parsed)
    built.verify()
    assert list(built.operands) == list(parsed.operands)
    assert [r.type for r in built.results] == [r.type for r in parsed.results]
    assert built.properties == parsed.properties


def test_every_op_of_the_module_has_a_builder():
    assert {type(op) for op in _ops()} == set(BUILDERS)


def test_scf_for_and_if_infer_their_result_types():
    parsed = _ops()
    a, cond = parsed[0].result, parsed[1].result
    body = Block(arg_types=[i32, i32])
    body.add_op(scf.YieldOp(body.args[1]))
    loop = scf.ForOp(a, a, a, [a], body=body)
    assert [r.type for r in loop.results] == [i32] and loop.unsignedCmp is None
    then = Region(Block([scf.YieldOp(a)]))
    otherwise = Region(Block([scf.YieldOp(a)]))
    branch = scf.IfOp(cond, [i32], then, otherwise)
    assert [r.type for r in branch.results] == [i32]
    assert len(scf.IfOp(cond, [], Region(Block([scf.YieldOp()]))).elseRegion.blocks) == 0


def test_constant_from_int_takes_any_true_for_i1():
    assert arith.ConstantOp.from_int(5, i1).value == IntegerAttr(1, i1)
    assert arith.ConstantOp.from_int(0, i1).value == IntegerAttr(0, i1)
