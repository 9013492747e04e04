"""Triton 3.6's C++ passes, by the names triton-opt gives them, for ttpipe pipelines.

`_PASSES` lists every pass the Python bindings of triton 3.6 can add to a pass manager
(`triton._C.libtriton.passes.*` and `triton._C.libtriton.nvidia.passes.*`): its name (the
`Pass<"name", ...>` of its .td file, MLIR's own name for upstream passes), the `add_*`
binding, the .td summary, and the .td options that the binding takes, in the order of
the binding's arguments (python/src/passes.cc, third_party/nvidia/triton_nvidia.cc).
An option the binding does not take (`canonicalize`'s `max-iterations`,
`convert-triton-to-tritongpu`'s `enable-source-remat`, ...) cannot be set from Python and
is not listed: the pass runs with its .td default, as in Triton's own compiler.

Not listed: AMD's passes (`triton._C.libtriton.amd.passes`: ttpipe's Triton context loads
no AMD dialects) and Proton's (`triton._C.libtriton.proton`: no Proton dialect in ttpipe).

`create(options)` of a pass returns `add_to(pm)`, which adds the pass with its options
(defaults filled in) to a Triton `ir.pass_manager`; `ttpipe.triton.handoff` runs them.
Nothing here imports Triton until a pass is added, so `--list-passes` stays quick.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import reduce
from typing import Any

from ttpipe.pipeline.registry import PassInfo, PassOption


def _int32(value: int) -> str | None:
    return None if -2**31 <= value < 2**31 else "must fit in 32 bits"


def power_of_two(value: int) -> str | None:
    return None if value > 0 and value & (value - 1) == 0 else "must be a power of two"


def _target(value: str) -> str | None:
    return None if re.fullmatch(r"(cuda:\d+|hip:gfx\w+)?", value) else "must look like cuda:90 or hip:gfx942"


_OptionRow = tuple
"""(name, type, default, help[, check]) of one option, as in the pass's .td file."""

_NUM_STAGES: _OptionRow = ("num-stages", int, 3, "number of pipeline stages")
_DUMP: _OptionRow = ("dump-intermediate-steps", bool, False, "Dump intermediate steps")
_CAPABILITY_90: _OptionRow = ("compute-capability", int, 90, "device compute capability")
_CAPABILITY_AND_PTX: tuple[_OptionRow, ...] = (
    ("compute-capability", int, 80, "device compute capability"),
    ("ptx-version", int, 80, "PTX version"),
)

_PASSES: tuple[tuple[str, str, str, tuple[_OptionRow, ...]], ...] = (
    # (pass name, binding under triton._C.libtriton, summary, options in argument order)
    # MLIR's passes (passes.common, passes.convert)
    ("canonicalize", "passes.common.add_canonicalizer", "Canonicalize operations", ()),
    ("cse", "passes.common.add_cse", "Eliminate common sub-expressions", ()),
    ("inline", "passes.common.add_inliner", "Inline function calls", ()),
    ("loop-invariant-code-motion", "passes.common.add_licm",
     "Hoist loop invariant instructions outside of the loop", ()),
    ("sccp", "passes.common.add_sccp", "Sparse Conditional Constant Propagation", ()),
    ("symbol-dce", "passes.common.add_symbol_dce", "Eliminate dead symbols", ()),
    ("print-ir", "passes.common.print_ir", "Print IR on the debug stream", ()),
    ("convert-scf-to-cf", "passes.convert.add_scf_to_cf",
     "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG", ()),
    ("convert-cf-to-llvm", "passes.convert.add_cf_to_llvmir",
     "Convert ControlFlow operations to the LLVM dialect", ()),
    ("convert-index-to-llvm", "passes.convert.add_index_to_llvmir",
     "Lower the `index` dialect to the `llvm` dialect.", ()),
    ("convert-arith-to-llvm", "passes.convert.add_arith_to_llvmir", "Convert Arith dialect to LLVM dialect", ()),
    ("convert-nvvm-to-llvm", "passes.convert.add_nvvm_to_llvm",
     "Convert NVVM to PTX with Inline Assembly in LLVM dialect", ()),
    # include/triton/Dialect/Triton/Transforms/Passes.td (passes.ttir)
    ("triton-combine", "passes.ttir.add_combine", "combine ops", ()),
    ("triton-reorder-broadcast", "passes.ttir.add_reorder_broadcast",
     "Moves broadcast and splat after elementwise operations", ()),
    ("triton-rewrite-tensor-pointer", "passes.ttir.add_rewrite_tensor_pointer",
     "Rewrite load/stores with tensor pointers into legacy load/stores", ()),
    ("triton-rewrite-tensor-descriptor-to-pointer", "passes.ttir.add_rewrite_tensor_descriptor_to_pointer",
     "Rewrite load/stores of tensor descriptors into pointer load/stores", ()),
    ("triton-loop-unroll", "passes.ttir.add_loop_unroll", "Loop unroller", ()),
    ("triton-licm", "passes.ttir.add_triton_licm", "MLIR's LICM plus hoist load ops out of loops with masks.", ()),
    ("triton-loop-aware-cse", "passes.ttir.add_loop_aware_cse", "CSE within loop bodies", ()),
    # include/triton/Conversion/TritonToTritonGPU/Passes.td
    ("convert-triton-to-tritongpu", "passes.ttir.add_convert_to_ttgpuir", "Convert Triton to TritonGPU", (
        ("target", str, "", "the GPU target, e.g., cuda:80, hip:gfx942", _target),
        ("num-warps", int, 4, "number of warps", power_of_two),
        ("threads-per-warp", int, 32, "number of threads per warp", power_of_two),
        ("num-ctas", int, 1, "number of ctas in a cga", power_of_two),
    )),
    # include/triton/Dialect/TritonGPU/Transforms/Passes.td (passes.ttgpuir)
    ("tritongpu-coalesce", "passes.ttgpuir.add_coalesce", "coalesce", ()),
    ("tritongpu-optimize-thread-locality", "passes.ttgpuir.add_optimize_thread_locality",
     "Reduce the cost of synchronization between threads in an SM", ()),
    ("tritongpu-hoist-tmem-alloc", "passes.ttgpuir.add_hoist_tmem_alloc",
     "Hoist TMEM allocations out of the loop. This is a preparation for the loop lowering.",
     (("hoist-out-of-if", bool, False, "Hoist TMEM allocations out of if statements"),)),
    ("tritongpu-assign-latencies", "passes.ttgpuir.add_assign_latencies",
     "assign latencies to interesting ops ahead of pipelining", (_NUM_STAGES,)),
    ("tritongpu-schedule-loops", "passes.ttgpuir.add_schedule_loops", "software pipeline loop scheduling", ()),
    ("tritongpu-pipeline", "passes.ttgpuir.add_pipeline", "pipeline", (_NUM_STAGES, _DUMP)),
    ("tritongpu-automatic-warp-specialization", "passes.ttgpuir.add_warp_specialize",
     "automatic warp specialization of loops", (_NUM_STAGES,)),
    ("tritongpu-prefetch", "passes.ttgpuir.add_prefetch", "prefetch", ()),
    ("tritongpu-accelerate-matmul", "passes.ttgpuir.add_accelerate_matmul", "accelerate matmul", ()),
    ("tritongpu-reorder-instructions", "passes.ttgpuir.add_reorder_instructions", "Reorder instructions", ()),
    ("tritongpu-F32DotTC", "passes.ttgpuir.add_f32_dot_tc",
     "Emulate dot-product tensor core precision using TF32s or BF16s",
     (("emu-tf32", bool, False, "whether to handle InputPrecision TF32xN for Nvidia GPUs"),)),
    ("tritongpu-optimize-dot-operands", "passes.ttgpuir.add_optimize_dot_operands", "fuse transpositions",
     (("hoist-layout-conversion", bool, True,
       "whether to move conver to dot operand earlier pass elementwise ops"),)),
    ("tritongpu-remove-layout-conversions", "passes.ttgpuir.add_remove_layout_conversions",
     "remove superfluous layout conversions", ()),
    ("tritongpu-reduce-data-duplication", "passes.ttgpuir.add_reduce_data_duplication",
     "Reduce data duplication in register by decomposing convert[distributed -> dotOperand] "
     "into convert[distributed -> shared -> dotOperand]", ()),
    ("tritongpu-combine-tensor-select-and-if", "passes.ttgpuir.add_combine_tensor_select_and_if",
     "Combine tensor select and if", ()),
    ("tritongpu-optimize-accumulator-init", "passes.ttgpuir.add_optimize_accumulator_init",
     "Replace accumulator zero-initialization with the flag indicating first use of the accumulator", ()),
    ("tritongpu-fuse-nested-loops", "passes.ttgpuir.add_fuse_nested_loops", "fuse nested loops for pipelining", ()),
    ("tritongpu-coalesce-async-copy", "passes.ttgpuir.add_coalesce_async_copy",
     "Improve coalescing for async global to local copies", ()),
    ("tritongpu-optimize-partition-warps", "passes.ttgpuir.add_optimize_partition_warps",
     "optimize the number of warps assigned to partitions", ()),
    # include/triton/Conversion/TritonGPUToLLVM/Passes.td and TritonInstrument (passes.ttgpuir)
    ("allocate-shared-memory", "passes.ttgpuir.add_allocate_shared_memory",
     "Add metadata for shared memory allocation", ()),
    ("tritongpu-global-scratch-memory-allocation", "passes.ttgpuir.add_allocate_global_scratch_memory",
     "Assign global scratch memory allocation", ()),
    ("tritongpu-allocate-warp-groups", "passes.ttgpuir.add_allocate_warp_groups", "Allocate warp groups", ()),
    ("tritoninstrument-concurrency-sanitizer", "passes.ttgpuir.add_concurrency_sanitizer",
     "Add runtime verification of asynchronous operations", ()),
    # include/triton/Target/LLVMIR/Passes.td (passes.llvmir)
    ("enable-line-info", "passes.llvmir.add_di_scope", "Materialize LLVM line info", ()),
    ("extract-variable-info", "passes.llvmir.add_di_local_variable",
     "Pull out source variable info from Location to DILocalVariable", ()),
    # include/triton/Dialect/Gluon/Transforms/Passes.td (passes.gluon)
    ("gluon-resolve-auto-encodings", "passes.gluon.add_resolve_auto_encodings", "Resolve automatic encodings", ()),
    ("gluon-infer-coalesced-encodings", "passes.gluon.add_infer_coalesced_encodings",
     "Infer coalesced encodings based on axis analysis", ()),
    ("gluon-canonicalize", "passes.gluon.add_canonicalizer", "reduced set of simplifications for TTGIR", ()),
    ("gluon-inline", "passes.gluon.add_inliner", "reduced set of simplifications for TTGIR", ()),
    # include/triton/Dialect/TritonNvidiaGPU/Transforms/Passes.td (nvidia.passes.ttnvgpuir)
    ("triton-nvidia-gpu-plan-cta", "nvidia.passes.ttnvgpuir.add_plan_cta", "plan CTA", ()),
    ("triton-nvidia-gpu-fence-insertion", "nvidia.passes.ttnvgpuir.add_fence_insertion",
     "Insert fences across generic and async proxy.", (_CAPABILITY_90,)),
    ("triton-nvidia-gpu-proxy-fence-insertion", "nvidia.passes.ttnvgpuir.add_proxy_fence_insertion",
     "Insert fences across generic and async proxy", (_CAPABILITY_90,)),
    ("triton-nvidia-tma-lowering", "nvidia.passes.ttnvgpuir.add_tma_lowering",
     "lower to TMA load/store operations", ()),
    ("tritongpu-promote-lhs-to-tmem", "nvidia.passes.ttnvgpuir.add_promote_lhs_to_tmem",
     "Promote LHS operand of MMAv5 op to Tensor Memory", ()),
    ("triton-nvidia-gpu-remove-tmem-tokens", "nvidia.passes.ttnvgpuir.add_remove_tmem_tokens",
     "remove TMEM tokens", ()),
    ("triton-nvidia-check-matmul-two-cta", "nvidia.passes.ttnvgpuir.add_check_matmul_two_cta",
     "Verify consistent two_ctas usage across matmuls", ()),
    ("triton-tensor-memory-allocation", "nvidia.passes.ttnvgpuir.add_allocate_tensor_memory",
     "Assign tensor memory allocation", ()),
    ("triton-nvidia-mma-lowering", "nvidia.passes.ttnvgpuir.add_lower_mma", "lower mma operations if needed", ()),
    ("triton-nvidia-optimize-descriptor-encoding", "nvidia.passes.ttnvgpuir.add_optimize_descriptor_encoding",
     "Set encodings on tensor descriptor types", ()),
    ("triton-nvidia-optimize-tmem-layouts", "nvidia.passes.ttnvgpuir.add_optimize_tmem_layouts",
     "Optimize TMEM layouts.", ()),
    ("triton-nvidia-interleave-tmem", "nvidia.passes.ttnvgpuir.add_interleave_tmem",
     "Interleave TMEM loads/stores.", ()),
    # third_party/nvidia/include/{NVGPUToLLVM,TritonNVIDIAGPUToLLVM}/Passes.td
    ("convert-nv-gpu-to-llvm", "nvidia.passes.ttnvgpuir.add_nvgpu_to_llvm", "Convert NVGPU to LLVM", ()),
    ("convert-warp-specialize-to-llvm", "nvidia.passes.ttnvgpuir.add_warp_specialize_to_llvm",
     "lower `ttg.warp_specialize` to LLVM", ()),
    ("convert-triton-gpu-to-llvm", "nvidia.passes.ttgpuir.add_to_llvmir", "Convert TritonGPU to LLVM",
     _CAPABILITY_AND_PTX),
    ("allocate-shared-memory-nv", "nvidia.passes.ttgpuir.add_allocate_shared_memory_nv",
     "Add metadata for shared memory allocation for Nvidia", _CAPABILITY_AND_PTX),
    # third_party/nvidia/include/Dialect/NVWS/Transforms/Passes.td (nvidia.passes.nvws)
    ("nvws-lower-warp-group", "nvidia.passes.nvws.add_lower_warp_group",
     "Convert nvws.warp_group to ttg.warp_specialize.", ()),
    ("nvws-lower-aref", "nvidia.passes.nvws.add_lower_aref", "Convert nvws.aref.* to ttng.*barrier* ops.", ()),
    ("nvws-assign-stage-phase", "nvidia.passes.nvws.add_assign_stage_phase",
     "Assign buffer stage to nvws.aref.*.", ()),
    ("nvws-insert-tmem-aref", "nvidia.passes.nvws.add_insert_tmem_aref",
     "Insert tmem arefs between producer and consumer partitions.", ()),
    # third_party/nvidia/hopper/include/Transforms/Passes.td (nvidia.passes.hopper)
    ("nvgpu-warp-specialization", "nvidia.passes.hopper.add_hopper_warpspec",
     "Automatic Warp specialization for NVIDIA GPU",
     (("num-stages", int, 0, "number of buffers for warp specialization"), _DUMP)),
)


def _option(row: _OptionRow) -> PassOption:
    """The PassOption of a row; an int option also checks that it fits the binding's int32."""
    name, type_, default, help_, *check = row
    checks = ([_int32] if type_ is int else []) + check

    def check_all(value: Any) -> str | None:
        return next((why for why in (c(value) for c in checks) if why is not None), None)

    return PassOption(name, type_, default, help_, check_all if checks else None)


def _binding(path: str) -> Callable[..., None]:
    """The `add_*` function at `path` under `triton._C.libtriton`."""
    import triton._C.libtriton as libtriton

    return reduce(getattr, path.split("."), libtriton)


def _info(name: str, path: str, summary: str, rows: tuple[_OptionRow, ...]) -> PassInfo:
    options = tuple(_option(row) for row in rows)

    def create(values: dict[str, Any]) -> Callable[[Any], None]:
        arguments = [values.get(option.name, option.default) for option in options]

        def add_to(pm) -> None:
            _binding(path)(pm, *arguments)

        return add_to

    return PassInfo(name, summary, options, "triton", create,
                    description=f"Triton's C++ pass, added by triton._C.libtriton.{path}")


def triton_passes() -> list[PassInfo]:
    return [_info(*row) for row in _PASSES]
