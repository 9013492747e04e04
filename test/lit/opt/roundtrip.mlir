// RUN: ttpipe-opt %s --mlir-print-debuginfo | filecheck %s
// RUN: ttpipe-opt %s -mlir-print-debuginfo | ttpipe-opt -mlir-print-debuginfo | filecheck %s

// Triton's text survives a round trip: layout aliases, hex float splats (-inf keeps its
// bits), forward-referenced location aliases, and NameLoc-derived SSA names.

// CHECK-DAG: #[[$BLOCKED:blocked]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #smem = #ttg.shared_memory
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func public @kernel(
  // CHECK-SAME: %x_ptr: !tt.ptr<f16>
  tt.func public @kernel(%x_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc))) attributes {noinline = false} {
    // CHECK: %cst = arith.constant dense<0xFF800000> : tensor<32x32xf32, #[[$BLOCKED]]>
    %cst = arith.constant dense<0xFF800000> : tensor<32x32xf32, #blocked> loc(#loc1)
    // CHECK: %pid = tt.get_program_id x : i32 loc(#loc{{[0-9]*}})
    %pid = tt.get_program_id x : i32 loc(#loc2)
    // CHECK: ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<32x32xf16, #shared, #smem, mutable> loc(#loc1)
    tt.return loc(#loc1)
  } loc(#loc)
} loc(#loc)
// CHECK: #loc{{[0-9]*}} = loc("kernel.py":7:24)
#loc = loc("kernel.py":3:0)
#loc1 = loc(unknown)
#loc2 = loc("pid"(#loc3))
#loc3 = loc("kernel.py":7:24)
