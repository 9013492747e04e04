// Tensor descriptors made in a pipelined loop are written into a ring of 128-byte global
// scratch slots, one per stage in flight (tensormap_create, a fence, and a reinterpret of
// the slot as the descriptor), with a loop-carried slot counter.
// RUN: ttpipe-opt %s --split-input-file --strip-debuginfo --allow-unregistered-dialect -p ttpipe-lower-loops | filecheck %s

// A descriptor made in a branch: the counter advances in the branch, and the new value
// leaves the `scf.if` as an extra result (the else branch yields the counter unchanged).
// CHECK-LABEL: tt.func public @descriptor_in_branch
// CHECK-SAME: (%{{[^:]+}}: i32, %[[BASE:[^:]+]]: !tt.ptr<f32>, %[[DIM:[^:]+]]: i32)
// CHECK: %[[STRIDE:.*]] = arith.constant 1 : i64{{$}}
// CHECK: %[[SCRATCH:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[SLOTS:.*]] = arith.constant 2 : i32
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}, %{{[^ ]+}} = %{{[^ ]+}}, %[[SLOT:[^ ]+]] = %[[ZERO]])
// CHECK: %[[SLOT_NEXT:.*]] = scf.if %{{.*}} -> (i32) {
// CHECK-NEXT: %[[SIZE:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[OFFSET:.*]] = arith.muli %[[SIZE]], %[[SLOT]] : i32
// CHECK-NEXT: %[[PTR:.*]] = tt.addptr %[[SCRATCH]], %[[OFFSET]] : !tt.ptr<i8>, i32
// CHECK: %[[ELEM_BYTES:.*]] = arith.constant 4 : i64{{$}}
// CHECK: %[[BYTE_STRIDE:.*]] = arith.muli %[[STRIDE]], %[[ELEM_BYTES]] : i64
// CHECK-NEXT: ttng.tensormap_create %[[PTR]], %[[BASE]], [%{{.*}}, %{{.*}}], [%[[DIM]], %[[DIM]]], [%[[BYTE_STRIDE]]], [%{{.*}}, %{{.*}}] {elem_type = 7 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32}
// CHECK-NEXT: ttng.tensormap_fenceproxy_acquire %[[PTR]] : !tt.ptr<i8>
// CHECK-NEXT: %[[DESC:.*]] = ttng.reinterpret_tensor_descriptor %[[PTR]] : !tt.ptr<i8> to !tt.tensordesc<tensor<128x256xf32, #{{[a-z0-9]+}}>>
// CHECK-NEXT: %[[SLOT_P1:.*]] = arith.addi %[[SLOT]], %[[ONE]] : i32
// CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi sge, %[[SLOT_P1]], %[[SLOTS]] : i32
// CHECK-NEXT: %[[WRAPPED:.*]] = arith.select %[[WRAP]], %[[ZERO]], %[[SLOT_P1]] : i32
// CHECK-NEXT: "use"(%[[DESC]])
// CHECK-NEXT: scf.yield %[[WRAPPED]] : i32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[SLOT]] : i32
// CHECK-NEXT: } {loop.cluster = 4 : i32, loop.stage = 2 : i32}
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}}, %[[SLOT_NEXT]] : i32, i32, i32
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90"} {
  tt.func public @descriptor_in_branch(%ub: i32, %base: !tt.ptr<f32>, %dim: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    scf.for %i = %c0_i32 to %ub step %c1_i32  : i32 {
      %ptrs = tt.splat %base {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32> -> tensor<128x256x!tt.ptr<f32>, #blocked>
      %x = tt.load %ptrs {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<128x256x!tt.ptr<f32>, #blocked>
      %y = arith.addf %x, %x {loop.cluster = 0 : i32, loop.stage = 2 : i32} : tensor<128x256xf32, #blocked>
      %last = arith.cmpi eq, %i, %c1_i32 {loop.cluster = 4 : i32, loop.stage = 2 : i32} : i32
      scf.if %last {
        %desc = tt.make_tensor_descriptor %base, [%dim, %dim], [%c1_i64, %c1_i64] : <f32>, <tensor<128x256xf32, #shared>>
        "use"(%desc) : (!tt.tensordesc<tensor<128x256xf32, #shared>>) -> ()
      } {loop.cluster = 4 : i32, loop.stage = 2 : i32}
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}
