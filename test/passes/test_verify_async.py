"""`ttpipe-verify-async`: no error on any pipelined or warp-specialized module of the corpus
(Triton's outputs at every stage, sm_90a and sm_100a) or of ttpipe's warp specialization;
the planted bugs of `ttpipe.passes.verify_async.mutants` are caught; the parts of the model."""

from __future__ import annotations

import pathlib

import pytest

from ttpipe.async_mutants import campaign
from ttpipe.ir.diagnostics import Diagnostic, DiagnosticError, diagnostic_handler
from ttpipe.dialects import tt, ttng
from ttpipe.passes.verify_async import VerifyAsync, check_module, protocol_loops
from ttpipe.passes.verify_async.cta import Coverage
from ttpipe.passes.verify_async.interpreter import gives_data
from ttpipe.passes.verify_async.machine import Access, Allocation, Mbarrier, SharedMemory, View, join, ordered_after
from ttpipe.passes.verify_async.mutants import OPERATORS
from ttpipe.pipeline import driver, spec
from ttpipe.textio import parse_module

from corpus_kernels import CORPUS
from ws_inputs import INPUTS as WS_INPUTS
from ws_inputs import specialized

HERE = pathlib.Path(__file__).resolve().parent
ASYNC_MARKERS = ("wait_barrier", "async_wait", "warp_group_dot_wait", "tc_gen5", "async_tma_copy")


STAGES = ("final-ttgir.mlir", "*-tritongpu-pipeline.mlir", "*-tritongpu-automatic-warp-specialization.mlir",
          "*-nvws-lower-aref.mlir")
"""The stages checked here: Triton's pipeliner's and warp specialization's outputs and the final
TTGIR (every stage of the corpus passes too, docs/measurements.md; checking all takes 30 s)."""


def _async_corpus_files() -> list[pathlib.Path]:
    files = sorted({f for stage in STAGES for f in CORPUS.glob(f"*/*/{stage}")})
    return [f for f in files if any(marker in f.read_text() for marker in ASYNC_MARKERS)]


def _checked(module) -> tuple[list, list[Diagnostic]]:
    remarks: list[Diagnostic] = []
    with diagnostic_handler(remarks.append):
        results = check_module(module)
    return results, remarks


def test_no_error_on_any_corpus_module_with_async_protocols():
    checked = unchecked = 0
    for path in _async_corpus_files():
        try:
            module = parse_module(path.read_text(), str(path)).module
        except Exception:  # a corpus file ttpipe cannot read is test_corpus_roundtrip's business
            continue
        for func, result in check_module(module):
            assert not result.violations, f"{path}: {[v.diagnostic().render() for v in result.violations]}"
            assert not result.truncated, path
            if result.unsupported is None:
                checked += 1
            else:  # only the stages before Triton lowers its NVWS arefs
                assert "nvws." in result.unsupported.reason, (path, result.unsupported.reason)
                unchecked += 1
    assert checked >= 35 and unchecked <= 2, (checked, unchecked)


DECLINED = {"matmul_pointers_f32_out"}
"""Inputs whose marked loop the pass leaves to the software pipeliner at num_warps = 8: its
ring and the cooperative epilogue's layout conversion exceed shared memory
(`test_warp_specialize_compile.py`)."""


CONSUMER_AND_EPILOGUE_CHOICES = ("persistent", "attention")
"""The inputs that `warp-specialize-consumers` and `warp-specialize-epilogue` act on: persistent
kernels (ping-pong or cooperative tiles, the epilogue's partition) and attention (ping-pong);
a non-persistent GEMM has one consumer whatever they say."""


@pytest.mark.parametrize("options", ["num-warps=4", "num-warps=4 warp-specialize-consumers=cooperative",
                                     "num-warps=4 warp-specialize-epilogue=partition", "num-warps=8",
                                     "num-warps=8 warp-specialize-consumers=pingpong"])
def test_no_error_on_ttpipes_warp_specialized_kernels(options):
    """Every input through the named pipeline (`warp-specialize=auto`, its default): at
    num_warps=4 the marked loops warp-specialized (the unmarked attention kernels stay on the
    software pipeliner there, whose outputs the corpus test checks), at num_warps=8 the
    attention kernels, but those made to be declined (`DECLINED`); a consumer or epilogue
    choice on the inputs it acts on (`CONSUMER_AND_EPILOGUE_CHOICES`)."""
    eight_warps = "num-warps=8" in options
    chosen = "warp-specialize-" in options
    for source in sorted(WS_INPUTS.glob("*.ttir")):
        text = source.read_text()
        if not eight_warps and "tt.warp_specialize" not in text:
            continue
        if chosen and not any(word in source.stem for word in CONSUMER_AND_EPILOGUE_CHOICES):
            continue
        found = specialized(source.name, options)
        results, remarks = _checked(found.module)
        assert results and all(not r.violations and r.unsupported is None for _, r in results), source
        turns_refused = "pingpong" in options and source.stem.endswith("two_loops")  # a later round
        if source.stem in DECLINED:
            continue
        if (eight_warps and source.stem.startswith("attention") and not source.stem.endswith("d64")
                and not turns_refused) or (not eight_warps and "tt.warp_specialize" in text):
            assert "ttg.warp_specialize" in found.ttgir, source


def _ttpipe_output(tmp_path, source: str, options: str) -> str:
    path = tmp_path / (pathlib.Path(source).stem + ".mlir")
    path.write_text(specialized(source, options).ttgir)
    return str(path)


def test_the_planted_bugs_are_caught(tmp_path):
    """Every operator at every site of three kernels: ttpipe's ping-pong TMA kernel, Triton's
    cp.async pipeline (sm_90a) and Triton's warp-specialized tcgen05 kernel (sm_100a)."""
    files = [_ttpipe_output(tmp_path, "matmul_tma_ws_persistent.ttir", "num-warps=4"),
             str(CORPUS / "sm90a" / "matmul_ptr" / "final-ttgir.mlir"),
             str(CORPUS / "sm100a" / "matmul_tma_persistent_ws" / "final-ttgir.mlir")]
    results, false_positives = campaign(files, deep=False)
    assert not false_positives
    assert len(results) >= 50
    caught = sum(r.caught for r in results)
    assert caught >= 0.95 * len(results), [(r.operator, r.site) for r in results if not r.caught]
    assert {r.operator for r in results if r.caught} == set(OPERATORS)


def test_the_violations_are_one_error_led_by_the_first_found(tmp_path):
    path = _ttpipe_output(tmp_path, "matmul_tma_ws_persistent.ttir", "num-warps=4")
    module = parse_module(pathlib.Path(path).read_text(), path).module
    module = driver.run(module, spec.parse("ttpipe-plant-async-mutant{operator=expect-half site=0}"))
    emitted: list[Diagnostic] = []
    with diagnostic_handler(emitted.append), pytest.raises(DiagnosticError) as raised:
        VerifyAsync().apply(None, module)
    error = raised.value
    assert not emitted
    assert error.where.startswith("matmul_tma_ws_persistent.ttir:") and error.message.endswith("[expect-bytes]")
    assert "barrier_expect announces 16384 bytes" in error.message
    assert error.notes[0].severity == "note" and error.notes[0].message == "a copy still in flight"
    followers = [note for note in error.notes if note.severity == "error"]
    assert followers and all(f.message.endswith("]") for f in followers)
    lines = error.render().splitlines()
    assert lines[0].split(": error: ")[1] == error.message and len(lines) == 2 + sum(1 + len(f.notes) for f in followers)


def test_an_op_it_does_not_model_gets_a_remark():
    path = CORPUS / "sm100a" / "matmul_tma_persistent_ws" / "27.02-nvws-insert-tmem-aref.mlir"
    module = parse_module(path.read_text(), str(path)).module
    remarks: list[Diagnostic] = []
    with diagnostic_handler(remarks.append):
        VerifyAsync().apply(None, module)
    assert [r.severity for r in remarks] == ["remark"]
    assert "not checked: 'nvws.aref.create'" in remarks[0].message


def test_a_run_past_its_steps_gets_a_remark():
    path = CORPUS / "sm90a" / "matmul_ptr" / "final-ttgir.mlir"
    module = parse_module(path.read_text(), str(path)).module
    remarks: list[Diagnostic] = []
    with diagnostic_handler(remarks.append):
        VerifyAsync(max_steps=5).apply(None, module)
    assert len(remarks) == 1 and "first 5 steps" in remarks[0].message


def test_mbarrier_parity_and_phases():
    allocation = Allocation(None, (1,), "i64", "shared")
    barrier = Mbarrier(("b",), View(allocation), None, count=2)
    assert barrier.passes(1) and not barrier.passes(0)  # a fresh barrier: parity 1 is "the phase before"
    barrier.pending -= 1
    assert not barrier.complete_if_done()
    barrier.pending -= 1
    barrier.tx = 64
    assert not barrier.complete_if_done()  # arrivals in, bytes not
    barrier.tx = 0
    assert barrier.complete_if_done() and barrier.completed == 1
    assert barrier.passes(0) and not barrier.passes(1) and barrier.pending == 2
    assert ordered_after(barrier.completed_clock, (barrier.agent, 1))


def test_clocks_and_views():
    clock = {"t": 2}
    join(clock, {"t": 1, "u": 3})
    assert clock == {"t": 2, "u": 3}
    assert ordered_after(clock, ("u", 3)) and not ordered_after(clock, ("u", 4)) and not ordered_after(clock, None)
    ring = Allocation(None, (3, 128, 64), "f16", "shared")
    slot0, slot1 = View(ring, (0,)), View(ring, (1,))
    assert not slot0.overlaps(slot1) and View(ring).overlaps(slot1) and View(ring).covers(slot1)
    left = View(ring, (0,), ((0, 128), (0, 32)))
    right = View(ring, (0,), ((0, 128), (32, 64)))
    assert not left.overlaps(right) and slot0.overlaps(left) and slot0.covers(right) and not left.covers(slot0)


def test_shared_memory_compares_a_slot_with_its_own_and_the_whole_allocations_accesses():
    """Unordered accesses of one slot race, of two slots do not; a view of the whole ring or of
    an unknown slot meets every slot's; a write forgets what it covers, in its slot only."""
    ring = Allocation(None, (3, 128), "f16", "shared")

    def access(view: View, write: bool, agent: str) -> Access:
        return Access(None, view, write, agent, (agent, 1), "an access")

    memory = SharedMemory()
    assert not memory.touch(access(View(ring, (0,)), True, "t"), {})
    assert not memory.touch(access(View(ring, (1,)), True, "u"), {})
    assert [race.earlier.agent for race in memory.touch(access(View(ring, (1,)), False, "t"), {})] == ["u"]
    unknown = memory.touch(access(View(ring, (None,)), False, "v"), {})
    assert [race.earlier.agent for race in unknown] == ["t", "u"]  # in the order made
    assert [race.earlier.agent for race in memory.touch(access(View(ring), True, "w"), {"t": 1, "u": 1})] == ["v"]
    ordered = {"t": 1, "u": 1, "v": 1, "w": 1}
    assert not memory.touch(access(View(ring, (2,)), True, "x"), ordered)
    assert not memory.touch(access(View(ring), True, "y"), {**ordered, "x": 1})  # covers all: forgets them
    assert [race.earlier.agent for race in memory.touch(access(View(ring, (0,)), False, "z"), {})] == ["y"]
    assert memory.live_allocations() == [ring]


def test_a_ring_turns_over_the_executions_of_its_loop():
    """A persistent row kernel's producer fills each row's slots in an inner loop that starts
    where the earlier rows left the ring (`ttpipe-row-ring`): no execution of it runs the 13
    trips a 12-slot ring needs in one go, but over the rows each of its rings takes a slot a
    second time, and then it is covered."""
    text = (HERE.parent / "lit" / "row-ring" / "three-loops.mlir").read_text()
    module = driver.run(parse_module(text).module, spec.parse("ttpipe-row-ring"))
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    fill = next(loop for loop in protocol_loops(func)
                if any(isinstance(op, ttng.BarrierExpectOp) for op in loop.loop.body.ops))
    assert fill.trips == 49 and {ring.src.type.shape[0] for ring in fill.rings} == {12, 48}
    coverage = Coverage()
    for row in range(2):  # two rows of 6 slots: 12 slots filled, none twice
        coverage.loop_ran(fill.loop, 6)
        for slot in range(6 * row, 6 * row + 6):
            for ring in fill.rings:
                coverage.slot_taken(ring, slot if ring.src.type.shape[0] == 12 else 4 * slot)
    assert not fill.covered(coverage)
    for ring in fill.rings:  # the third row takes slot 0 again
        coverage.slot_taken(ring, 0)
    assert fill.covered(coverage)


def test_data_the_kernel_reads_is_one_value_of_the_run():
    """A non-volatile load's and a reduction's integers are data, the run's `Instance.data`;
    an atomic's, a volatile load's and an address (`tt.ptr_to_int`) stay unknown: other
    programs change the first two while the kernel runs (a spin lock on a compare-and-swap
    would spin for ever), and pointer arguments are opaque (a row kernel's alignment checks
    take both sides)."""
    module = parse_module("""
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reads(%p: !tt.ptr<i32>, %ps: tensor<128x!tt.ptr<i32>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %loaded = tt.load %p : !tt.ptr<i32>
    %rows = tt.load %ps : tensor<128x!tt.ptr<i32>, #blocked>
    %largest = "tt.reduce"(%rows) <{axis = 0 : i32}> ({
    ^bb0(%x: i32, %y: i32):
      %m = arith.maxsi %x, %y : i32
      tt.reduce.return %m : i32
    }) : (tensor<128xi32, #blocked>) -> i32
    %flag = tt.load %p {isVolatile = true} : !tt.ptr<i32>
    %old = tt.atomic_cas acq_rel, gpu, %p, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
    %address = tt.ptr_to_int %p : !tt.ptr<i32> -> i64
    tt.return
  }
}""").module
    func = next(op for op in module.walk() if isinstance(op, tt.FuncOp))
    reads = [op for op in func.body.ops if op.name.startswith("tt.") and op.results]
    assert [gives_data(op) for op in reads] == [True, False, True, False, False, False]  # %loaded ... %address
