// --list-passes lists Triton's C++ passes under triton-opt's names, with their options,
// and each named pipeline with the passes it expands to (make_ttgir's, in its order).
// RUN: ttpipe-opt --list-passes | filecheck %s

// CHECK:      convert-triton-to-tritongpu - Convert Triton to TritonGPU
// CHECK-NEXT:     target: str = ""  the GPU target, e.g., cuda:80, hip:gfx942
// CHECK-NEXT:     num-warps: int = 4  number of warps
// CHECK-NEXT:     threads-per-warp: int = 32  number of threads per warp
// CHECK-NEXT:     num-ctas: int = 1  number of ctas in a cga
// CHECK:      tritongpu-pipeline - pipeline
// CHECK-NEXT:     num-stages: int = 3  number of pipeline stages
// CHECK-NEXT:     dump-intermediate-steps: bool = false  Dump intermediate steps
// CHECK:      ttgir-sm100 - TTIR to final TTGIR as Triton 3.6's make_ttgir compiles it for sm_100
// CHECK:          expands to:
// CHECK-NEXT:       convert-triton-to-tritongpu{target=cuda:100 num-warps=4 threads-per-warp=32 num-ctas=1}
// CHECK:            tritongpu-automatic-warp-specialization{num-stages=3}
// CHECK:            triton-nvidia-gpu-fence-insertion{compute-capability=100}
// CHECK:      ttgir-sm80 - TTIR to final TTGIR as Triton 3.6's make_ttgir compiles it for sm_80
// CHECK-NOT:        triton-nvidia-tma-lowering
// With impl=ttpipe (the default), ttpipe's Python passes replace these five once registered;
// on sm_90 ttpipe's warp specialization takes the place of Triton's, a GEMM's row-major tiles are
// regrouped, memory-bound loops are streamed,
// and independent reductions across warps merged; on every target the masked accesses of full tiles
// get a version without masks; every named pipeline ends with the async-protocol check.
// CHECK-LABEL: ttgir-sm90 - TTIR to final TTGIR as Triton 3.6's make_ttgir compiles it for sm_90
// CHECK-NEXT:    num-warps: int = 4  warps per CTA (compile option num_warps)
// CHECK-NEXT:    num-stages: int = 3  software pipeline stages (compile option num_stages)
// CHECK-NEXT:    num-ctas: int = 1  CTAs per cluster (compile option num_ctas)
// CHECK-NEXT:    impl: str = ttpipe  'triton': Triton's passes only; 'ttpipe': ttpipe's Python passes where registered
// CHECK-NEXT:    scheduler: str = default  ttpipe-schedule-loops's scheduler (impl=ttpipe): a registered name or module.path:function
// CHECK-NEXT:    warp-specialize: str = auto  sm_90: ttpipe-warp-specialize the loops marked tt.warp_specialize and every other TMA+wgmma loop where its cost model says it pays {{.*}}
// CHECK-NEXT:    warp-specialize-consumers: str = auto  sm_90: the consumers= of ttpipe-warp-specialize (auto, pingpong, cooperative)
// CHECK-NEXT:    warp-specialize-epilogue: str = inline  sm_90: the epilogue= of ttpipe-warp-specialize (inline, partition)
// CHECK-NEXT:    warp-specialize-persistent: bool = true  sm_90: ttpipe-warp-specialize makes a GEMM of a program a tile persistent over `sms` programs {{.*}}
// CHECK-NEXT:    sms: int = 132  the SMs of the GPU the kernels run on: the persistent programs of ttpipe-row-ring and of the GEMMs ttpipe-warp-specialize makes persistent (the Triton plug-in gives its device's)
// CHECK-NEXT:    tile-order: bool = true  sm_90 and sm_100, impl=ttpipe: ttpipe-tile-order before loops are fused {{.*}}
// CHECK-NEXT:    stream-loops: bool = true  sm_90, impl=ttpipe: ttpipe-stream-loops before the pipeliner (grid-stride memory-bound loops as deep TMA streams)
// CHECK-NEXT:    l2-eviction: bool = true  sm_90, impl=ttpipe: ttpipe-l2-eviction before the pipeliner (what a kernel reads in two loops kept in L2 between the reads: the last reads and the output evict_first)
// CHECK-NEXT:    row-head-cache: bool = false  sm_90, impl=ttpipe: ttpipe-row-head-cache before the pipeliner (the head of a row read twice kept in the shared memory the CTA's occupancy leaves, its second read walked backwards; off by default: rows of 64 KB gain 5-10 %, rows of 4-16 KB lose up to 8 %, docs/measurements.md)
// CHECK-NEXT:    reverse-rereads: bool = true  sm_90, impl=ttpipe: ttpipe-reverse-rereads before the pipeliner (the loop reading memory for the last time walks it backwards: what the earlier loop read last, still in L2, first)
// CHECK-NEXT:    row-ring: bool = true  sm_90, impl=ttpipe: ttpipe-row-ring first before the pipeliner (a program's row streamed by a producer warp through a ring of shared memory, persistent over rows, for rows of 48 KB up to the ring less the slots the next row streams into: 0.90-0.96x copy against 0.64-0.76x at rows of 32768 bf16; the Triton plug-in launches a compile without it for other rows, docs/measurements.md)
// CHECK-NEXT:    row-cache: bool = false  sm_90, impl=ttpipe: ttpipe-row-cache before the pipeliner (a row two loops walk read once; off by default: its 64 KB of shared memory cost more occupancy than it saves at most sizes, docs/measurements.md)
// CHECK-NEXT:    merge-reductions: bool = true  sm_90, impl=ttpipe: ttpipe-merge-reductions on the final TTGIR {{.*}}
// CHECK-NEXT:    full-tile-versions: bool = true  impl=ttpipe: ttpipe-full-tile-versions on the final TTGIR {{.*}}
// CHECK-NEXT:    transposing-copies: bool = true  impl=ttpipe: ttpipe-transposing-copies on the final TTGIR {{.*}}
// CHECK-NEXT:    verify-async: bool = true  ttpipe-verify-async on the final TTGIR: its async protocols (mbarriers, TMA, cp.async, wgmma, tcgen05, partitions) checked, each violation an error
// CHECK-NEXT:    expands to:
// CHECK-NEXT:      convert-triton-to-tritongpu{target=cuda:90 num-warps=4 threads-per-warp=32 num-ctas=1}
// CHECK-NEXT:      tritongpu-coalesce
// CHECK-NEXT:      tritongpu-F32DotTC{emu-tf32=true}
// CHECK-NEXT:      triton-nvidia-gpu-plan-cta
// CHECK-NEXT:      tritongpu-remove-layout-conversions
// CHECK-NEXT:      tritongpu-optimize-thread-locality
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-accelerate-matmul
// CHECK-NEXT:      tritongpu-remove-layout-conversions
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-optimize-dot-operands{{.*}}
// CHECK-NEXT:      triton-nvidia-optimize-descriptor-encoding
// CHECK-NEXT:      triton-loop-aware-cse
// CHECK-NEXT:      ttpipe-tile-order
// CHECK-NEXT:      ttpipe-ws-keep-nest{mode=auto num-stages=3 consumers=auto epilogue=inline programs=132}
// CHECK-NEXT:      tritongpu-fuse-nested-loops
// CHECK-NEXT:      canonicalize
// CHECK-NEXT:      triton-licm
// CHECK-NEXT:      canonicalize
// CHECK-NEXT:      tritongpu-combine-tensor-select-and-if
// CHECK-NEXT:      ttpipe-warp-specialize{mode=auto num-stages=3 consumers=auto epilogue=inline programs=132}
// CHECK-NEXT:      ttpipe-row-ring{sms=132}
// CHECK-NEXT:      ttpipe-l2-eviction
// CHECK-NEXT:      ttpipe-reverse-rereads
// CHECK-NEXT:      ttpipe-stream-loops
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-assign-latencies{{.*}}
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-schedule-loops
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-pipeline{{.*}}
// CHECK-NEXT:      canonicalize
// CHECK-NEXT:      triton-loop-aware-cse
// CHECK-NEXT:      tritongpu-prefetch
// CHECK-NEXT:      {{(tritongpu|ttpipe)}}-optimize-dot-operands{{.*}}
// CHECK-NEXT:      tritongpu-coalesce-async-copy
// CHECK-NEXT:      triton-nvidia-optimize-tmem-layouts
// CHECK-NEXT:      triton-nvidia-tma-lowering
// CHECK-NEXT:      tritongpu-remove-layout-conversions
// CHECK-NEXT:      triton-nvidia-interleave-tmem
// CHECK-NEXT:      tritongpu-reduce-data-duplication
// CHECK-NEXT:      tritongpu-reorder-instructions
// CHECK-NEXT:      triton-loop-aware-cse
// CHECK-NEXT:      symbol-dce
// CHECK-NEXT:      triton-nvidia-gpu-fence-insertion{compute-capability=90}
// CHECK-NEXT:      triton-nvidia-mma-lowering
// CHECK-NEXT:      sccp
// CHECK-NEXT:      cse
// CHECK-NEXT:      canonicalize
// CHECK-NEXT:      ttpipe-merge-reductions
// CHECK-NEXT:      ttpipe-full-tile-versions
// CHECK-NEXT:      ttpipe-transposing-copies
// CHECK-NEXT:      ttpipe-verify-async
