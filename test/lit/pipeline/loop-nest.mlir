// A loop nest (one output tile per outer iteration, a K loop inside): only the innermost
// loop is software-pipelined; the outer loop keeps its shape.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// The inner loop gets its TMA rings and mbarriers allocated in the outer body, just before
// its prologue (which reads the outer loop's row), and freed right after it, once the last
// wgmma is waited for. The outer loop is not expanded: no prologue copies before it, and its
// epilogue's TMA store becomes asynchronous with one staging buffer allocated before the
// outer loop and drained after it.
// CHECK-LABEL: tt.func @tiles
// CHECK-SAME: (%{{[^:]+}}: i32{{.*}}, %[[K:[^:]+]]: i32{{.*}}, %[[A_DESC:[^:]+]]: !tt.tensordesc<tensor<128x64xf16
// CHECK: %[[C_BUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<128x128xf16
// CHECK-NOT: ttng.async_tma_copy_global_to_local
// CHECK: scf.for %[[T:[^ ]+]] =
// CHECK-NEXT: %[[ROW:.+]] = arith.muli %[[T]],
// CHECK-NEXT: %[[A_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16
// CHECK-NEXT: %[[B_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x128xf16
// CHECK-NEXT: %[[BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK: %[[RUN0:.+]] = arith.cmpi sgt, %[[K]],
// CHECK: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[ROW]], %{{.+}}] %{{.+}}, %{{.+}}, %[[RUN0]]
// CHECK: %[[INNER:.+]]:6 = scf.for
// CHECK: ttng.wait_barrier
// CHECK: ttng.warp_group_dot {{.*}}isAsync = true
// CHECK: ttng.warp_group_dot_wait {{.*}}pendings = 1 : i32
// CHECK: ttng.async_tma_copy_global_to_local %[[A_DESC]][%[[ROW]],
// CHECK: scf.yield
// CHECK: %[[ACC:.+]] = ttng.warp_group_dot_wait %[[INNER]]#0 {pendings = 0 : i32}
// CHECK-DAG: ttg.local_dealloc %[[BARS]]
// CHECK-DAG: ttg.local_dealloc %[[B_RING]]
// CHECK-DAG: ttg.local_dealloc %[[A_RING]]
// CHECK: arith.truncf %[[ACC]]
// CHECK: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK: ttg.local_store %{{.+}}, %[[C_BUF]]
// CHECK: ttng.async_tma_copy_local_to_global %{{.+}}[%[[ROW]], %{{.+}}] %[[C_BUF]]
// CHECK-NEXT: }
// CHECK-NEXT: ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT: ttg.local_dealloc %[[C_BUF]]
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#out = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tiles(%tiles: i32, %k: i32, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x128xf16, #shared>>, %c_desc: !tt.tensordesc<tensor<128x128xf16, #shared>>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    scf.for %t = %c0 to %tiles step %c1 : i32 {
      %row = arith.muli %t, %c128 : i32
      %acc = scf.for %off = %c0 to %k step %c64 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
        %av = tt.descriptor_load %a_desc[%row, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
        %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
        %bv = tt.descriptor_load %b_desc[%off, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blk>
        %bs = ttg.local_alloc %bv : (tensor<64x128xf16, #blk>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
        %d = ttng.warp_group_dot %as, %bs, %acc {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
        scf.yield %d : tensor<128x128xf32, #mma>
      }
      %h = arith.truncf %acc : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
      %hc = ttg.convert_layout %h : tensor<128x128xf16, #mma> -> tensor<128x128xf16, #out>
      tt.descriptor_store %c_desc[%row, %c0], %hc : !tt.tensordesc<tensor<128x128xf16, #shared>>, tensor<128x128xf16, #out>
    }
    tt.return
  }
}
