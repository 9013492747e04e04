// RUN: ttpipe-opt %s --split-input-file -p ttpipe-warp-specialize | filecheck %s

// The ring protocol, op by op. The K offset is an induction-derived iteration argument
// (carried by the producer only, since only its loads read it); the loop's own
// tt.num_stages = 4 sets the ring depth. Producer: PipelineState (index 0, phase 1) carried
// as iteration arguments; wait empty[index] with that phase (phase 1 passes on a fresh
// mbarrier), expect 2 x 16 KiB on full[index], both TMA copies into stage `index`
// signalling full[index]; advance (index + 1, wrapping to 0 at 4 and flipping the phase).
// Consumer: state (0, 0); wait full[index]; async wgmma on the stage views; wait until one
// wgmma group is pending (the previous iteration's has retired); arrive on empty for the
// previous iteration's stage, except in the first iteration.
// CHECK-LABEL: tt.func @ring(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>, %[[B:[a-z0-9_]+]]: !tt.tensordesc<{{.+}}>, %[[LB:[a-z0-9_]+]]: i32, %[[UB:[a-z0-9_]+]]: i32
// CHECK: %[[ABUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x128x64xf16
// CHECK: %[[BBUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x64x128xf16
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<4x1xi64
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: %[[S:.+]] = arith.constant 4 : i32
// CHECK: %[[I0:.+]] = arith.constant 0 : i32
// CHECK: %[[P0:.+]] = arith.constant 0 : i32
// CHECK: scf.for %[[K:.+]] = %[[LB]] to %[[UB]] step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[I:.+]] = %[[I0]], %[[P:.+]] = %[[P0]])
// CHECK-NEXT: %[[FB:.+]] = ttg.memdesc_index %[[FULL]][%[[I]]]
// CHECK-NEXT: ttng.wait_barrier %[[FB]], %[[P]]
// CHECK-NEXT: %[[AV:.+]] = ttg.memdesc_index %[[ABUF]][%[[I]]]
// CHECK-NEXT: %[[BV:.+]] = ttg.memdesc_index %[[BBUF]][%[[I]]]
// CHECK-NEXT: %[[D:.+]] = ttng.warp_group_dot %[[AV]], %[[BV]], %[[ACC]] {{.+}}isAsync = true
// CHECK-NEXT: %[[W:.+]]:3 = ttng.warp_group_dot_wait %[[D]], %[[AV]], %[[BV]] {pendings = 1 : i32}
// CHECK-NEXT: %[[NOT_FIRST:.+]] = arith.cmpi ne, %[[K]], %[[LB]]
// CHECK: %[[WRAP_BACK:.+]] = arith.cmpi eq, %[[I]], %{{.+}}
// CHECK: %[[PREV:.+]] = arith.select %[[WRAP_BACK]]
// CHECK-NEXT: %[[EB:.+]] = ttg.memdesc_index %[[EMPTY]][%[[PREV]]]
// CHECK-NEXT: ttng.arrive_barrier %[[EB]], 1, %[[NOT_FIRST]]
// CHECK: %[[NEXT:.+]] = arith.addi %[[I]], %{{.+}}
// CHECK-NEXT: %[[WRAP:.+]] = arith.cmpi eq, %[[NEXT]], %[[S]]
// CHECK-NEXT: %[[NI:.+]] = arith.select %[[WRAP]], %{{.+}}, %[[NEXT]]
// CHECK-NEXT: %[[FLIP:.+]] = arith.xori %[[P]], %{{.+}}
// CHECK-NEXT: %[[NP:.+]] = arith.select %[[WRAP]], %[[FLIP]], %[[P]]
// CHECK-NEXT: scf.yield %[[W]]#0, %[[NI]], %[[NP]]
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: %[[R:.+]] = ttng.warp_group_dot_wait %{{.+}}#0 {pendings = 0 : i32}
// CHECK-NEXT: ttg.warp_yield %[[R]]
// CHECK: partition0(%[[PA:.+]]: !tt.tensordesc<{{.+}}>, %{{.+}}: i32, %[[PB:.+]]: !tt.tensordesc<{{.+}}>, %{{.+}}: i32, %[[PLB:.+]]: i32, %[[PUB:.+]]: i32, %[[PSTEP:.+]]: i32, %[[PABUF:.+]]: !ttg.memdesc<4x128x64xf16, {{.+}}>, %[[PBBUF:.+]]: !ttg.memdesc<4x64x128xf16, {{.+}}>, %[[PFULL:.+]]: !ttg.memdesc<4x1xi64, {{.+}}>, %[[PEMPTY:.+]]: !ttg.memdesc<4x1xi64, {{.+}}>) num_warps(1) {
// CHECK: %[[PS:.+]] = arith.constant 4 : i32
// CHECK: %[[PI0:.+]] = arith.constant 0 : i32
// CHECK: %[[PP0:.+]] = arith.constant 1 : i32
// CHECK: scf.for %{{.+}} = %[[PLB]] to %[[PUB]] step %[[PSTEP]] iter_args(%[[OFF:.+]] = %{{.+}}, %[[PI:.+]] = %[[PI0]], %[[PP:.+]] = %[[PP0]])
// CHECK: %[[EB2:.+]] = ttg.memdesc_index %[[PEMPTY]][%[[PI]]]
// CHECK-NEXT: ttng.wait_barrier %[[EB2]], %[[PP]]
// CHECK-NEXT: %[[FB2:.+]] = ttg.memdesc_index %[[PFULL]][%[[PI]]]
// CHECK-NEXT: ttng.barrier_expect %[[FB2]], 32768
// CHECK-NEXT: %[[AS:.+]] = ttg.memdesc_index %[[PABUF]][%[[PI]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[PA]][%{{.+}}, %[[OFF]]] %[[AS]], %[[FB2]]
// CHECK-NEXT: %[[BS:.+]] = ttg.memdesc_index %[[PBBUF]][%[[PI]]]
// CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[PB]][%[[OFF]], %{{.+}}] %[[BS]], %[[FB2]]
// CHECK: %[[NOFF:.+]] = arith.addi %[[OFF]]
// CHECK: scf.yield %[[NOFF]], %{{.+}}, %{{.+}} : i32, i32, i32
// CHECK-NEXT: } {tt.num_stages = 0 : i32}
// CHECK-NEXT: ttg.warp_return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @ring(%a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x128xf16, #shared>>, %lb: i32, %ub: i32) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %acc:2 = scf.for %k = %lb to %ub step %c1 iter_args(%c = %zero, %off = %c0) -> (tensor<128x128xf32, #mma>, i32) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %off] : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<128x64xf16, #blocked>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%off, %c0] : !tt.tensordesc<tensor<64x128xf16, #shared>> -> tensor<64x128xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x128xf16, #blocked>) -> !ttg.memdesc<64x128xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem> * !ttg.memdesc<64x128xf16, #shared, #smem> -> tensor<128x128xf32, #mma>
      %next = arith.addi %off, %c64 : i32
      scf.yield %d, %next : tensor<128x128xf32, #mma>, i32
    } {tt.warp_specialize, tt.num_stages = 4 : i32}
    tt.return %acc#0 : tensor<128x128xf32, #mma>
  }
}

// -----

// Fewer iterations (1) than stages (3): nothing special is emitted. Both loops run the
// same single iteration: the producer's wait on empty[0] with phase 1 passes on the fresh
// mbarrier, the consumer's release is predicated off (first iteration), and the flush after
// the loop retires the one wgmma. (test_warp_specialize_protocol.py checks every trip count.)
// CHECK-LABEL: tt.func @one_iteration(
// CHECK: %[[C0:.+]] = arith.constant 0 : i32
// CHECK: %[[C1:.+]] = arith.constant 1 : i32
// CHECK: ttg.warp_specialize
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step %[[C1]]
// CHECK: ttng.warp_group_dot_wait {{.+}} {pendings = 1 : i32}
// CHECK: ttng.warp_group_dot_wait {{.+}} {pendings = 0 : i32}
// CHECK: partition0
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect {{.+}}, 16384
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @one_iteration(%a_desc: !tt.tensordesc<tensor<64x64xf16, #shared>>, %b_desc: !tt.tensordesc<tensor<64x64xf16, #shared>>) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
    %acc = scf.for %k = %c0 to %c1 step %c1 iter_args(%c = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
      %a = tt.descriptor_load %a_desc[%c0, %k] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %as = ttg.local_alloc %a : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %b = tt.descriptor_load %b_desc[%k, %c0] : !tt.tensordesc<tensor<64x64xf16, #shared>> -> tensor<64x64xf16, #blocked>
      %bs = ttg.local_alloc %b : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
      %d = ttng.warp_group_dot %as, %bs, %c {inputPrecision = 0 : i32} : !ttg.memdesc<64x64xf16, #shared, #smem> * !ttg.memdesc<64x64xf16, #shared, #smem> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    } {tt.warp_specialize}
    tt.return %acc : tensor<64x64xf32, #mma>
  }
}
