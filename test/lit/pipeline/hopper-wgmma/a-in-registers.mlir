// The whole pipeliner on a wgmma whose A operand is in registers (as attention's P @ V),
// with B coming through TMA.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// The wgmma is split along K into four 16-deep wgmmas: A's registers are cut into four
// K-slices (reshape, trans, split) and B's slot into four 16-row subslices. Each piece is
// asynchronous and chained through the accumulator (use_acc true after the first); after
// each, a wait keeps up to three pieces in flight and forwards only the B subslice it read.
// After the loop one wait retires everything.
// CHECK-LABEL: tt.func @a_in_registers
// CHECK-SAME: (%{{[^:]+}}: i32{{.*}}, %[[P:[^:]+]]: tensor<128x64xf16
// CHECK: scf.for {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^,]+}},
// CHECK: ttng.wait_barrier
// CHECK: %[[SLOT:.+]] = ttg.memdesc_index
// CHECK: %[[P4:.+]] = tt.reshape %[[P]] : {{.*}} -> tensor<128x2x2x16xf16
// CHECK: tt.trans %[[P4]]
// CHECK-COUNT-3: tt.split
// CHECK-COUNT-4: ttg.convert_layout %{{.+}} -> tensor<128x16xf16, #ttg.dot_op<{opIdx = 0
// CHECK: %[[B0:.+]] = ttg.memdesc_subslice %[[SLOT]][0, 0]
// CHECK: %[[B1:.+]] = ttg.memdesc_subslice %[[SLOT]][16, 0]
// CHECK: %[[B2:.+]] = ttg.memdesc_subslice %[[SLOT]][32, 0]
// CHECK: %[[B3:.+]] = ttg.memdesc_subslice %[[SLOT]][48, 0]
// CHECK: %[[D0:.+]] = ttng.warp_group_dot %{{.+}}, %[[B0]], %[[ACC]] {{{.*}}isAsync = true}
// CHECK: %[[W0:.+]]:2 = ttng.warp_group_dot_wait %[[D0]], %[[B0]] {pendings = 3 : i32}
// CHECK: %[[D1:.+]] = ttng.warp_group_dot %{{.+}}, %[[B1]], %[[W0]]#0, %true {{{.*}}isAsync = true}
// CHECK: %[[W1:.+]]:2 = ttng.warp_group_dot_wait %[[D1]], %[[B1]] {pendings = 3 : i32}
// CHECK: %[[D2:.+]] = ttng.warp_group_dot %{{.+}}, %[[B2]], %[[W1]]#0, %true
// CHECK: %[[W2:.+]]:2 = ttng.warp_group_dot_wait %[[D2]], %[[B2]] {pendings = 3 : i32}
// CHECK: %[[D3:.+]] = ttng.warp_group_dot %{{.+}}, %[[B3]], %[[W2]]#0, %true
// CHECK: %[[W3:.+]]:2 = ttng.warp_group_dot_wait %[[D3]], %[[B3]] {pendings = 3 : i32}
// CHECK: ttng.async_tma_copy_global_to_local
// CHECK: scf.yield %[[W3]]#0,
// CHECK: ttng.warp_group_dot_wait %{{.+}} {pendings = 0 : i32}
#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @a_in_registers(%n: i32, %p: tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %v_desc: !tt.tensordesc<tensor<64x64xf16, #shared>>) -> tensor<128x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
    %r = scf.for %off = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma>) : i32 {
      %v = tt.descriptor_load %v_desc[%off, %c0] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blk>
      %vs = ttg.local_alloc %v : (tensor<64x64xf16, #blk>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %p, %vs, %acc {inputPrecision = 0 : i32} : tensor<128x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<128x64xf32, #mma>
      scf.yield %d : tensor<128x64xf32, #mma>
    }
    tt.return %r : tensor<128x64xf32, #mma>
  }
}
