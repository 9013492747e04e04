"""Named pipelines: TTIR to final TTGIR as Triton 3.6 compiles it for one GPU generation.

`ttgir-sm80`, `ttgir-sm90` and `ttgir-sm100` stand for the passes that `make_ttgir` of
triton 3.6 (third_party/nvidia/backend/compiler.py) adds for compute capability 80, 90
and 100: same passes, same arguments, same order (`make_ttgir` below follows it line
for line). Their options are the compile options that reach those passes (`num-warps`,
`num-stages`, `num-ctas`), `impl`, and `scheduler` (the scheduler of
`ttpipe-schedule-loops`, with `impl=ttpipe`): with `impl=ttpipe` (the default), each pass of
`PYTHON_REPLACEMENTS` whose ttpipe version is registered runs instead of Triton's; with
`impl=triton`, the pipeline is exactly Triton's.

Beyond Triton, on sm_90 with `impl=ttpipe` and on by default: `ttpipe-warp-specialize` in
place of Triton's `nvgpu-warp-specialization` for the loops the user marks and every other
TMA+wgmma loop where its cost model says it pays (`warp-specialize=auto`; `true` for the
marked loops only, `false` for Triton's pass; `warp-specialize-persistent=true` makes a GEMM of
a program a tile persistent over `sms` programs, the GPU's SMs, 132 unless given: the Triton
plug-in gives its device's, and the row ring takes the same count), with
`ttpipe-ws-keep-nest` before `tritongpu-fuse-nested-loops` (a persistent nest marked
`flatten=True` as well stays a nest where warp specialization takes it), and
`ttpipe-tile-order` before loops are fused (`tile-order=true`, on sm_100 as well: a GEMM's
row-major tiles walked in groups of rows), `ttpipe-row-ring`, `ttpipe-l2-eviction`,
`ttpipe-reverse-rereads` and `ttpipe-stream-loops` before the pipeliner (`row-ring=true`,
`l2-eviction=true`, `reverse-rereads=true`, `stream-loops=true`); `row-cache=true` and
`row-head-cache=true` add `ttpipe-row-cache` and `ttpipe-row-head-cache` after the L2 hints
(both off by default); and on the final TTGIR `ttpipe-merge-reductions`
(`merge-reductions=true`: independent reductions across warps as one, one pair of CTA
barriers for all). On every target with `impl=ttpipe`, `ttpipe-full-tile-versions` runs on
the final TTGIR (`full-tile-versions=true`: masked accesses of tiles wholly inside
their bound unmasked in a version of their own, so that they get full vectors), then
`ttpipe-transposing-copies` (`transposing-copies=true`: a tile copied through registers
between shared layouts contiguous along different dims, such as a tf32 wgmma's row-major B
made K-major, held in registers laid out for both).
`warp-specialize=false tile-order=false row-ring=false l2-eviction=false
reverse-rereads=false stream-loops=false merge-reductions=false full-tile-versions=false
transposing-copies=false` is `make_ttgir` with ttpipe's ports, pass for pass (on sm_100,
`tile-order=false full-tile-versions=false transposing-copies=false`; on sm_80,
`full-tile-versions=false transposing-copies=false`). Every named pipeline, either
`impl`, ends with `ttpipe-verify-async`, which checks the final TTGIR's
asynchronous protocols and changes nothing (`verify-async=false` leaves it out).

`ttpipe.pipeline.spec` expands a pipeline in place into its passes.
"""

from __future__ import annotations

from typing import Any

from ttpipe.pipeline.registry import PassInfo, PassOption, all_passes
from ttpipe.pipeline.spec import PassInvocation, PipelineError, invocation
from ttpipe.passes.common.hardware import H100_SMS
from ttpipe.passes.warp_specialize.options import check_consumers, check_epilogue, not_negative
from ttpipe.triton.passes import power_of_two

CAPABILITIES = {"ttgir-sm80": 80, "ttgir-sm90": 90, "ttgir-sm100": 100}

IMPLEMENTATIONS = ("triton", "ttpipe")

PYTHON_REPLACEMENTS = {
    "tritongpu-accelerate-matmul": "ttpipe-accelerate-matmul",
    "tritongpu-optimize-dot-operands": "ttpipe-optimize-dot-operands",
    "tritongpu-assign-latencies": "ttpipe-assign-latencies",
    "tritongpu-schedule-loops": "ttpipe-schedule-loops",
    "tritongpu-pipeline": "ttpipe-pipeline",
}
"""Triton's pass -> the ttpipe pass that replaces it under `impl=ttpipe`, once registered."""


def _positive(value: int) -> str | None:
    return None if value > 0 else "must be positive"


def _implementation(value: str) -> str | None:
    return None if value in IMPLEMENTATIONS else f"must be one of {', '.join(IMPLEMENTATIONS)}"


WARP_SPECIALIZE = {"false": None, "true": "marked", "auto": "auto"}
"""`warp-specialize` -> the `mode` of `ttpipe-warp-specialize` (sm_90), which takes the place
of Triton's Hopper pass `nvgpu-warp-specialization`: every loop marked `tt.warp_specialize`
is then ttpipe's to specialize, or to leave, with a remark, to the software pipeliner."""


def _warp_specialize(value: str) -> str | None:
    return None if value in WARP_SPECIALIZE else f"must be one of {', '.join(WARP_SPECIALIZE)}"


OPTIONS = (
    PassOption("num-warps", int, 4, "warps per CTA (compile option num_warps)", power_of_two),
    PassOption("num-stages", int, 3, "software pipeline stages (compile option num_stages)", not_negative),
    PassOption("num-ctas", int, 1, "CTAs per cluster (compile option num_ctas)", power_of_two),
    PassOption("impl", str, "ttpipe",
               "'triton': Triton's passes only; 'ttpipe': ttpipe's Python passes where registered",
               _implementation),
    # Checked where it is used: by the `scheduler` option of ttpipe-schedule-loops, when the
    # pipeline expands.
    PassOption("scheduler", str, "default",
               "ttpipe-schedule-loops's scheduler (impl=ttpipe): a registered name or module.path:function"),
    PassOption("warp-specialize", str, "auto",
               "sm_90: ttpipe-warp-specialize the loops marked tt.warp_specialize and every other TMA+wgmma loop where "
               "its cost model says it pays (auto: 1.17-1.58x stock on unmarked GEMMs and attention, "
               "docs/measurements.md; impl=triton: false unless given), only the marked loops (true); false: Triton's "
               "nvgpu-warp-specialization", _warp_specialize),
    PassOption("warp-specialize-consumers", str, "auto",
               "sm_90: the consumers= of ttpipe-warp-specialize (auto, pingpong, cooperative)", check_consumers),
    PassOption("warp-specialize-epilogue", str, "inline",
               "sm_90: the epilogue= of ttpipe-warp-specialize (inline, partition)", check_epilogue),
    PassOption("warp-specialize-persistent", bool, True,
               "sm_90: ttpipe-warp-specialize makes a GEMM of a program a tile persistent over `sms` programs (its "
               "programs=; 1.02-1.08x the same kernel kept at a program a tile, docs/measurements.md)"),
    PassOption("sms", int, H100_SMS,
               "the SMs of the GPU the kernels run on: the persistent programs of ttpipe-row-ring and of the GEMMs "
               "ttpipe-warp-specialize makes persistent (the Triton plug-in gives its device's)", _positive),
    PassOption("tile-order", bool, True,
               "sm_90 and sm_100, impl=ttpipe: ttpipe-tile-order before loops are fused (a GEMM's output tiles numbered "
               "row by row walked in groups of 8 rows, A and B shared in L2 by the tiles running together: 1.12-1.36x "
               "stock on bf16 GEMMs written without grouping at 8192^3 on the H100, docs/measurements.md)"),
    PassOption("stream-loops", bool, True,
               "sm_90, impl=ttpipe: ttpipe-stream-loops before the pipeliner (grid-stride memory-bound loops as deep TMA streams)"),
    PassOption("l2-eviction", bool, True,
               "sm_90, impl=ttpipe: ttpipe-l2-eviction before the pipeliner (what a kernel reads in two loops kept in "
               "L2 between the reads: the last reads and the output evict_first)"),
    PassOption("row-head-cache", bool, False,
               "sm_90, impl=ttpipe: ttpipe-row-head-cache before the pipeliner (the head of a row read twice kept in "
               "the shared memory the CTA's occupancy leaves, its second read walked backwards; off by default: "
               "rows of 64 KB gain 5-10 %, rows of 4-16 KB lose up to 8 %, docs/measurements.md)"),
    PassOption("reverse-rereads", bool, True,
               "sm_90, impl=ttpipe: ttpipe-reverse-rereads before the pipeliner (the loop reading memory for the last "
               "time walks it backwards: what the earlier loop read last, still in L2, first)"),
    PassOption("row-ring", bool, True,
               "sm_90, impl=ttpipe: ttpipe-row-ring first before the pipeliner (a program's row streamed by a producer "
               "warp through a ring of shared memory, persistent over rows, for rows of 48 KB up to the ring less the "
               "slots the next row streams into: 0.90-0.96x copy against 0.64-0.76x at rows of 32768 bf16; the Triton "
               "plug-in launches a compile without it for other rows, docs/measurements.md)"),
    PassOption("row-cache", bool, False,
               "sm_90, impl=ttpipe: ttpipe-row-cache before the pipeliner (a row two loops walk read once; off by "
               "default: its 64 KB of shared memory cost more occupancy than it saves at most sizes, "
               "docs/measurements.md)"),
    PassOption("merge-reductions", bool, True,
               "sm_90, impl=ttpipe: ttpipe-merge-reductions on the final TTGIR (independent reductions of a block "
               "that cross warps as one tt.reduce: one pair of CTA barriers for all; the row ring's online softmax, "
               "docs/measurements.md)"),
    PassOption("full-tile-versions", bool, True,
               "impl=ttpipe: ttpipe-full-tile-versions on the final TTGIR (masked loads and stores of a tile wholly "
               "inside its bound, such as every block but the last of a flat tensor whose size is no multiple of "
               "16, unmasked in a version of their own: full vectors instead of one element an access)"),
    PassOption("transposing-copies", bool, True,
               "impl=ttpipe: ttpipe-transposing-copies on the final TTGIR (a tile copied through registers between "
               "shared layouts contiguous along different dims, such as a tf32 or fp8 wgmma's row-major B made "
               "K-major, held in registers that read and write it without bank conflicts)"),
    PassOption("verify-async", bool, True,
               "ttpipe-verify-async on the final TTGIR: its async protocols (mbarriers, TMA, cp.async, wgmma, "
               "tcgen05, partitions) checked, each violation an error"),
)


BEFORE_LOOP_FUSION = {
    "tile-order": "ttpipe-tile-order",
}
"""sm_90 and sm_100 with impl=ttpipe: option -> the pass it adds before
`tritongpu-fuse-nested-loops` (and `ttpipe-ws-keep-nest`), which folds a persistent loop's
tile index into a flattened loop's counters. Which tiles run together and share L2 is no
matter of the MMA unit, so both tensor-core generations take it."""

BEFORE_PIPELINER = {
    "row-ring": "ttpipe-row-ring",
    "l2-eviction": "ttpipe-l2-eviction",
    "row-cache": "ttpipe-row-cache",
    "row-head-cache": "ttpipe-row-head-cache",
    "reverse-rereads": "ttpipe-reverse-rereads",
    "stream-loops": "ttpipe-stream-loops",
}
"""sm_90 with impl=ttpipe: option -> the pass it adds before the pipeliner, in their order
(the L2 hints and the row caches match the loops' pointers before the re-reads are
reversed, which changes them; the streams last). One that declares an `sms` option (the row
ring's persistent programs) gets the pipeline's."""

ON_FINAL_TTGIR = {
    "merge-reductions": "ttpipe-merge-reductions",
    "full-tile-versions": "ttpipe-full-tile-versions",
    "transposing-copies": "ttpipe-transposing-copies",
}
"""impl=ttpipe: option -> the pass it adds after `make_ttgir`'s passes, in their order (before
the async check); `GENERATIONS` says on which targets."""

GENERATIONS = {**dict.fromkeys(BEFORE_LOOP_FUSION, (9, 10)), **dict.fromkeys(BEFORE_PIPELINER, (9,)),
               "merge-reductions": (9,), **dict.fromkeys(("full-tile-versions", "transposing-copies"), (8, 9, 10))}
"""Option of ttpipe's own passes -> the GPU generations (capability // 10) whose pipeline
adds its pass under impl=ttpipe."""


def default_pipeline(capability: int) -> str:
    """The named pipeline of a compute capability (a PipelineError for one without)."""
    for name, known in CAPABILITIES.items():
        if known == capability:
            return name
    raise PipelineError(f"ttpipe has no TTGIR pipeline for sm_{capability}")


def make_ttgir(capability: int, num_warps: int, num_stages: int, num_ctas: int) -> list[tuple[str, dict[str, Any]]]:
    """(pass, options) in the order `make_ttgir` of triton 3.6 adds them for `capability`."""
    emu_tf32 = capability // 10 >= 8
    passes: list[tuple[str, dict[str, Any]]] = [
        ("convert-triton-to-tritongpu", {"target": f"cuda:{capability}", "num-warps": num_warps,
                                         "threads-per-warp": 32, "num-ctas": num_ctas}),
        ("tritongpu-coalesce", {}),
        ("tritongpu-F32DotTC", {"emu-tf32": emu_tf32}),
        ("triton-nvidia-gpu-plan-cta", {}),
        ("tritongpu-remove-layout-conversions", {}),
        ("tritongpu-optimize-thread-locality", {}),
        ("tritongpu-accelerate-matmul", {}),
        ("tritongpu-remove-layout-conversions", {}),
        ("tritongpu-optimize-dot-operands", {"hoist-layout-conversion": capability >= 80}),
        ("triton-nvidia-optimize-descriptor-encoding", {}),
        ("triton-loop-aware-cse", {}),
    ]
    if capability // 10 in (8, 9):
        passes += [
            ("tritongpu-fuse-nested-loops", {}),
            ("canonicalize", {}),
            ("triton-licm", {}),
            ("canonicalize", {}),
            ("tritongpu-combine-tensor-select-and-if", {}),
            ("nvgpu-warp-specialization", {"num-stages": num_stages, "dump-intermediate-steps": False}),
            ("tritongpu-assign-latencies", {"num-stages": num_stages}),
            ("tritongpu-schedule-loops", {}),
            ("tritongpu-pipeline", {"num-stages": num_stages, "dump-intermediate-steps": False}),
        ]
    elif capability // 10 >= 10:
        passes += [
            ("tritongpu-fuse-nested-loops", {}),
            ("canonicalize", {}),
            ("triton-licm", {}),
            ("tritongpu-optimize-accumulator-init", {}),
            ("tritongpu-hoist-tmem-alloc", {"hoist-out-of-if": False}),
            ("tritongpu-promote-lhs-to-tmem", {}),
            ("tritongpu-assign-latencies", {"num-stages": num_stages}),
            ("tritongpu-schedule-loops", {}),
            ("tritongpu-automatic-warp-specialization", {"num-stages": num_stages}),
            ("tritongpu-pipeline", {"num-stages": num_stages, "dump-intermediate-steps": False}),
            ("tritongpu-optimize-partition-warps", {}),
            ("tritongpu-combine-tensor-select-and-if", {}),
            ("tritongpu-hoist-tmem-alloc", {"hoist-out-of-if": True}),
            ("triton-nvidia-gpu-remove-tmem-tokens", {}),
        ]
    else:
        passes += [("triton-licm", {})]
    passes += [
        ("canonicalize", {}),
        ("triton-loop-aware-cse", {}),
        ("tritongpu-prefetch", {}),
        ("tritongpu-optimize-dot-operands", {"hoist-layout-conversion": capability >= 80}),
        ("tritongpu-coalesce-async-copy", {}),
        ("triton-nvidia-optimize-tmem-layouts", {}),
    ]
    if capability // 10 >= 9:
        passes += [("triton-nvidia-tma-lowering", {})]
    passes += [
        ("tritongpu-remove-layout-conversions", {}),
        ("triton-nvidia-interleave-tmem", {}),
        ("tritongpu-reduce-data-duplication", {}),
        ("tritongpu-reorder-instructions", {}),
        ("triton-loop-aware-cse", {}),
        ("symbol-dce", {}),
        ("triton-nvidia-gpu-fence-insertion", {"compute-capability": capability}),
        ("triton-nvidia-mma-lowering", {}),
        ("sccp", {}),
        ("cse", {}),
        ("canonicalize", {}),
    ]
    return passes


def _in_python(name: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The registered ttpipe pass replacing Triton's pass `name`, else `name` itself.

    The replacement gets the options it declares; an option it lacks is dropped when its
    value is the C++ pass's default (anything else is an error in `spec.invocation`).
    """
    passes = all_passes()
    replacement = passes.get(PYTHON_REPLACEMENTS.get(name, ""))
    if replacement is None:
        return name, options
    original = passes[name]
    return replacement.name, {key: value for key, value in options.items()
                              if replacement.option(key) is not None or value != original.option(key).default}


def _expand(capability: int, given: dict[str, Any]) -> list[PassInvocation]:
    values = {option.name: given.get(option.name, option.default) for option in OPTIONS}
    steps = make_ttgir(capability, values["num-warps"], values["num-stages"], values["num-ctas"])
    if values["impl"] == "ttpipe":
        steps = [_in_python(name, options) for name, options in steps]
    mode = WARP_SPECIALIZE[values["warp-specialize"]]
    if "warp-specialize" not in given and (values["impl"] == "triton" or capability // 10 != 9):
        mode = None  # Triton's own pass where the pipeline is Triton's, or the target no Hopper
    if mode is not None:
        if capability // 10 != 9:
            raise PipelineError("option 'warp-specialize' is for ttgir-sm90")
        options = {"mode": mode, "num-stages": values["num-stages"], "consumers": values["warp-specialize-consumers"],
                   "epilogue": values["warp-specialize-epilogue"],
                   "programs": values["sms"] if values["warp-specialize-persistent"] else 0}
        at = next(i for i, (name, _) in enumerate(steps) if name == "nvgpu-warp-specialization")
        steps[at] = ("ttpipe-warp-specialize", options)
        at = next(i for i, (name, _) in enumerate(steps) if name == "tritongpu-fuse-nested-loops")
        steps.insert(at, ("ttpipe-ws-keep-nest", options))
    else:
        for name in ("warp-specialize-consumers", "warp-specialize-epilogue", "warp-specialize-persistent"):
            if values[name] != next(option.default for option in OPTIONS if option.name == name):
                raise PipelineError(f"option '{name}' needs warp-specialize=true or auto")
    added = {option for option, generations in GENERATIONS.items()
             if values[option] and values["impl"] == "ttpipe" and capability // 10 in generations}
    for option, generations in GENERATIONS.items():
        if option in given and values[option] and option not in added:
            targets = " and ".join(f"ttgir-sm{generation}0" for generation in generations)
            raise PipelineError(f"option '{option}' is for {targets} with impl=ttpipe")
    at = next(i for i, (name, _) in enumerate(steps) if name in ("ttpipe-ws-keep-nest", "tritongpu-fuse-nested-loops"))
    steps[at:at] = [(name, {}) for option, name in BEFORE_LOOP_FUSION.items() if option in added]
    at = next(i for i, (name, _) in enumerate(steps) if name.endswith("assign-latencies"))
    steps[at:at] = [(name, {"sms": values["sms"]} if all_passes()[name].option("sms") is not None else {})
                    for option, name in BEFORE_PIPELINER.items() if option in added]
    steps += [(name, {}) for option, name in ON_FINAL_TTGIR.items() if option in added]
    if values["scheduler"] != "default":
        if not any(name == "ttpipe-schedule-loops" for name, _ in steps):
            raise PipelineError("option 'scheduler' needs impl=ttpipe (Triton's tritongpu-schedule-loops "
                                "has no scheduler to choose)")
        steps = [(name, {**options, "scheduler": values["scheduler"]}) if name == "ttpipe-schedule-loops"
                 else (name, options) for name, options in steps]
    if values["verify-async"]:
        steps.append(("ttpipe-verify-async", {}))
    return [invocation(name, {key: (value,) for key, value in options.items()}) for name, options in steps]


def named_pipelines() -> list[PassInfo]:
    return [PassInfo(name, f"TTIR to final TTGIR as Triton 3.6's make_ttgir compiles it for sm_{capability}",
                     OPTIONS, "pipeline", lambda given, capability=capability: _expand(capability, given),
                     description=f"third_party/nvidia/backend/compiler.py: make_ttgir, capability {capability}")
            for name, capability in CAPABILITIES.items()]
