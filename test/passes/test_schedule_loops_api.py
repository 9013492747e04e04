"""The Python API of `ttpipe-schedule-loops`: pluggable schedulers, their registry and their checks."""

from __future__ import annotations

import re

import pytest
from xdsl.context import Context

from ttpipe.dialects import scf, tt
from ttpipe.passes.pipeline.schedule import (
    LATENCY,
    LOOP_CLUSTER,
    LOOP_STAGE,
    SCHEDULED_MAX_STAGE,
    CoarseSchedule,
    body_ops,
)
from ttpipe.passes.pipeline.schedule_loops import LoopScheduleContext, ScheduleLoops, triton_scheduler
from ttpipe.passes.pipeline.schedulers import (
    not_a_scheduler,
    register_scheduler,
    scheduler_named,
    scheduler_snapshot,
    scoped_schedulers,
)
from ttpipe.pipeline import spec
from ttpipe.textio import DiagnosticError, parse_module

MATMUL = """
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @matmul(%k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %false = arith.constant false
    %true = arith.constant true
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r:2 = scf.for %i = %c0 to %k step %c1 iter_args(%use = %false, %t = %tok) -> (i1, !ttg.async.token) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %i] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %a_sh = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%c0, %i] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %b_sh = ttg.local_alloc %b : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b_t = ttg.memdesc_trans %b_sh {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xf16, #shared, #smem> -> !ttg.memdesc<64x128xf16, #shared_t, #smem>
      %t2 = ttng.tc_gen5_mma %a_sh, %b_t, %acc[%t], %use, %true {tt.latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      scf.yield %true, %t2 : i1, !ttg.async.token
    }
    tt.return
  }
}
"""


@pytest.fixture(autouse=True)
def scoped():
    """Every scheduler a test registers is forgotten after it."""
    with scoped_schedulers():
        yield


def parse():
    module = parse_module(MATMUL, "matmul.mlir").module
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    return module, loop


def stages(loop: scf.ForOp) -> list[tuple[str, int, int]]:
    return [(op.name, op.attributes[LOOP_STAGE].value.data, op.attributes[LOOP_CLUSTER].value.data)
            for op in body_ops(loop)]


def one_stage(loop: scf.ForOp, context: LoopScheduleContext) -> CoarseSchedule:
    """Everything in stage 0, one cluster: the loop is not pipelined, only scheduled."""
    schedule = CoarseSchedule(1)
    cluster = schedule.new_at_back()
    for op in body_ops(loop):
        schedule.insert(op, 0, cluster)
    return schedule


def test_a_function_replaces_the_scheduler():
    module, loop = parse()
    seen = {}

    def record(loop, context):
        seen.update(context.latencies)
        return one_stage(loop, context)

    ScheduleLoops(scheduler=record).apply(Context(), module)
    assert sorted(seen.values()) == [1, 2, 2]
    assert {stage for _, stage, _ in stages(loop)} == {0}
    assert loop.attributes[SCHEDULED_MAX_STAGE].value.data == 0
    assert not any(LATENCY in op.attributes for op in module.walk())


def test_registered_scheduler_by_name():
    register_scheduler("test-one-stage", one_stage)
    assert scheduler_named("test-one-stage") is one_stage
    module, loop = parse()
    ScheduleLoops(scheduler="test-one-stage").apply(Context(), module)
    assert {stage for _, stage, _ in stages(loop)} == {0}


def test_loads_first_example_and_module_path():
    results = []
    for name in ("loads-first", "ttpipe.passes.pipeline.schedulers:loads_first_scheduler"):
        module, loop = parse()
        ScheduleLoops(scheduler=name).apply(Context(), module)
        results.append(stages(loop))
    assert results[0] == results[1]
    assert [s for n, s, _ in results[0] if n == "tt.descriptor_load"] == [0, 0]
    assert {s for n, s, _ in results[0] if n != "tt.descriptor_load"} == {2}


def test_default_is_tritons():
    module, loop = parse()
    ScheduleLoops().apply(Context(), module)
    mma = [s for n, s, _ in stages(loop) if n == "ttng.tc_gen5_mma"]
    assert mma == [2]


def test_none_leaves_the_loop():
    module, loop = parse()
    ScheduleLoops(scheduler=lambda loop, context: None).apply(Context(), module)
    assert not any(LOOP_STAGE in op.attributes for op in module.walk())
    assert SCHEDULED_MAX_STAGE not in loop.attributes


def test_unplaced_op_is_reported_at_the_op():
    module, loop = parse()

    def forgetful(loop, context):
        schedule = one_stage(loop, context)
        schedule.erase(body_ops(loop)[1])
        return schedule

    with pytest.raises(DiagnosticError, match="no stage") as error:
        ScheduleLoops(scheduler=forgetful).apply(Context(), module)
    assert error.value.where == "matmul.mlir:16:15"  # the unplaced ttg.local_alloc


def test_consumer_before_producer_is_reported():
    module, loop = parse()

    def backwards(loop, context):
        schedule = CoarseSchedule(2)
        cluster = schedule.new_at_back()
        for op in body_ops(loop):
            schedule.insert(op, 1 if isinstance(op, tt.DescriptorLoadOp) else 0, cluster)
        return schedule

    with pytest.raises(DiagnosticError, match="before 'tt.descriptor_load'"):
        ScheduleLoops(scheduler=backwards).apply(Context(), module)


def test_unknown_scheduler_name():
    module, _ = parse()
    assert scheduler_named("no-such-scheduler") is None
    with pytest.raises(ValueError, match="registered scheduler"):
        ScheduleLoops(scheduler="no-such-scheduler").apply(Context(), module)


def test_a_taken_name_needs_replace():
    register_scheduler("test-one-stage", one_stage)
    for name in ("test-one-stage", "default", "loads-first"):
        with pytest.raises(ValueError, match=f"scheduler '{name}' is already registered .*; replace=True replaces it"):
            register_scheduler(name, one_stage)
    register_scheduler("default", one_stage, replace=True)
    module, loop = parse()
    ScheduleLoops().apply(Context(), module)
    assert {stage for _, stage, _ in stages(loop)} == {0}


def test_scoped_schedulers_forgets_what_it_registered():
    before = scheduler_snapshot()
    with scoped_schedulers():
        register_scheduler("test-one-stage", one_stage)
        register_scheduler("default", one_stage, replace=True)
    assert scheduler_snapshot() == before and scheduler_named("default") is triton_scheduler


class NotAScheduler:
    def __call__(self, loop, context):
        return None


NOT_CALLABLE = 3


def _name(candidate) -> str:
    return f"{__name__}.{candidate.__qualname__}" if hasattr(candidate, "__qualname__") else repr(candidate)


def three_arguments(loop, context, extra):
    return None


@pytest.mark.parametrize("candidate, why", [
    (NotAScheduler, "is a class"),
    (NOT_CALLABLE, "is not callable (a int)"),
    (three_arguments, "takes (loop, context, extra)"),
])
def test_what_is_not_a_scheduler_is_refused(candidate, why):
    assert not_a_scheduler(candidate) == why
    with pytest.raises(TypeError, match=re.escape(f"register_scheduler('test-bad'): {_name(candidate)} {why}; ")):
        register_scheduler("test-bad", candidate)
    module, _ = parse()
    with pytest.raises(TypeError, match="a scheduler is a function \\(loop, context\\)"):
        ScheduleLoops(scheduler=candidate).apply(Context(), module)
    assert not_a_scheduler(NotAScheduler()) is None and not_a_scheduler(lambda *args: None) is None


@pytest.mark.parametrize("attribute, why", [
    ("NotAScheduler", "is a class"),
    ("NOT_CALLABLE", "is not callable (a int)"),
    ("three_arguments", "takes (loop, context, extra)"),
    ("SCHEDULER", "is a NotAScheduler, not a function"),
    ("missing", None),
])
def test_module_path_names_only_a_scheduler_function(attribute, why):
    """`scheduler=module:function`: a one-line error naming what is wrong with it."""
    name = f"{__name__}:{attribute}"
    with pytest.raises(spec.PipelineError) as error:
        spec.parse(f"ttpipe-schedule-loops{{scheduler={name}}}")
    message = str(error.value)
    assert "\n" not in message and message.startswith("option 'scheduler' of pass 'ttpipe-schedule-loops' must name")
    if why is None:
        assert f"a function of module '{__name__}', which has no 'missing'" in message
    else:
        assert f"({name} {why}), not '{name}'" in message


SCHEDULER = NotAScheduler()


def test_unimportable_module_path():
    with pytest.raises(spec.PipelineError, match="must name an importable module .ModuleNotFoundError: "
                                                 "No module named 'no_such_module'., not 'no_such_module:f'"):
        spec.parse("ttpipe-schedule-loops{scheduler=no_such_module:f}")


def test_a_scheduler_name_has_no_colon():
    with pytest.raises(ValueError, match="cannot name a scheduler"):
        register_scheduler("a:b", one_stage)


def test_named_pipelines_pass_the_scheduler_on():
    from ttpipe.pipeline.spec import PipelineError
    from ttpipe.triton.pipelines import _expand

    steps = [step.describe() for step in _expand(100, {"scheduler": "loads-first"})]
    assert "ttpipe-schedule-loops{scheduler=loads-first}" in steps
    with pytest.raises(PipelineError, match="needs impl=ttpipe"):
        _expand(100, {"scheduler": "loads-first", "impl": "triton"})
