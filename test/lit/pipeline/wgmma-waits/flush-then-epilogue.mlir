// Seed 001, case 3: after a flush, the consumers of the flushed result need no second wait:
// `relu(acc + bias)` reads the value the single `warp_group_dot_wait {pendings = 0}` forwards.
// Triton 3.6's tritongpu-pipeline emits the same single wait.
// RUN: ttpipe-opt %s -p ttpipe-pipeline | filecheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @flush_then_epilogue(
  // CHECK: scf.for
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: %[[D:.+]] = ttng.warp_group_dot {{.*}}{isAsync = true}
  // CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %{{.+}}, %{{.+}} {pendings = 0 : i32}
  // CHECK-NEXT: %[[B:.+]] = arith.addf %[[W]]#0, %{{.+}}
  // CHECK-NEXT: arith.maximumf %[[B]], %{{.+}}
  // CHECK-NOT: ttng.warp_group_dot_wait
  // CHECK: tt.return
  tt.func @flush_then_epilogue(%ta1: tensor<128x64xf16, #blocked>, %tb1: tensor<64x64xf16, #blocked>,
                               %bias: tensor<128x64xf32, #mma>, %n: i32) -> tensor<128x64xf32, #mma> {
    %a1 = ttg.local_alloc %ta1 : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
    %b1 = ttg.local_alloc %tb1 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %d = ttng.warp_group_dot %a1, %b1, %zero : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      %b = arith.addf %d, %bias : tensor<128x64xf32, #mma>
      %a = arith.maximumf %b, %zero : tensor<128x64xf32, #mma>
      %next = arith.addf %acc, %a : tensor<128x64xf32, #mma>
      scf.yield %next : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}
