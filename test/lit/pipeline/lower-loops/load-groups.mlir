// cp.async rings grouped by distance: loads whose first use is the same number of stages
// later share a ring depth and one pair of insert/extract indices; a loop without a
// schedule is left alone.
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect -p ttpipe-lower-loops | filecheck %s

// One load, used one stage later and again two stages later: one slot is enough (it is read
// back at its first use, stage 1, into registers); the later use reads the same registers.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_use_stages
  // CHECK: %[[RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x512xf32
  // CHECK: scf.for
  // CHECK: ttg.async_copy_global_to_local {{.*}}loop.stage = 0 : i32
  // CHECK: %[[DONE:.+]] = ttg.async_wait {{.*}}loop.stage = 1 : i32, num = 0 : i32
  // CHECK: %[[V:.+]] = ttg.local_load %{{.+}} token %[[DONE]] {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  // CHECK: "early"(%[[V]])
  // CHECK: "late"(%[[V]])
  // CHECK-NOT: tt.load
  // CHECK: ttg.local_dealloc %[[RING]]
  tt.func @two_use_stages(%n: i32, %p: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      "early"(%v) {loop.cluster = 1 : i32, loop.stage = 1 : i32} : (tensor<512xf32, #blk>) -> ()
      "late"(%v) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<512xf32, #blk>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// A load whose only use is the loop's yield (it is read in the next iteration): it is read
// back in the last stage, and the value read is what the loop yields.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @yielded
  // CHECK: ttg.local_alloc : () -> !ttg.memdesc<1x512xf32
  // CHECK: scf.for {{.*}} iter_args(%[[PREV:[^ ]+]] = %{{[^,]+}},
  // CHECK: %[[V:.+]] = ttg.local_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 1 : i32}
  // CHECK: "use"(%[[PREV]])
  // CHECK: scf.yield %[[V]],
  tt.func @yielded(%n: i32, %p: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}, %init: tensor<512xf32, #blk>) -> tensor<512xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (tensor<512xf32, #blk>) : i32 {
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      "use"(%prev) {loop.cluster = 0 : i32, loop.stage = 1 : i32} : (tensor<512xf32, #blk>) -> ()
      scf.yield %v : tensor<512xf32, #blk>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return %r : tensor<512xf32, #blk>
  }
}

// -----

// Two loads used in the same stage, one issued two stages ahead and one a single stage
// ahead: two rings of different depths (2 and 1 slots), each with its own insert and
// extract index (four loop-carried indices, all starting at -1), each copy in its own
// commit group waited for where it is used.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_distances
  // CHECK-SAME: (%{{[^:]+}}: i32{{.*}}, %[[P:[^:]+]]: tensor<512x!tt.ptr<f32>{{.*}}, %[[Q:[^:]+]]: tensor<512x!tt.ptr<f32>
  // CHECK: %[[DEEP:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32
  // CHECK: %[[SHALLOW:.+]] = ttg.local_alloc : () -> !ttg.memdesc<1x512xf32
  // CHECK: scf.for {{.*}} iter_args(%[[DEEP_INS:[^ ]+]] = %[[M1:[^,]+]], %[[DEEP_EXT:[^ ]+]] = %[[M1]], %[[SHALLOW_INS:[^ ]+]] = %[[M1]], %[[SHALLOW_EXT:[^ ]+]] = %[[M1]])
  // CHECK-DAG: %[[SI:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  // CHECK-DAG: %[[SE:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK-DAG: %[[DI:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: %[[DEEP_SLOT:.+]] = ttg.memdesc_index %[[DEEP]][%[[DI]]]
  // CHECK: %[[CP_P:.+]] = ttg.async_copy_global_to_local %[[P]], %[[DEEP_SLOT]] {{.*}}loop.stage = 0 : i32
  // CHECK: %[[G_P:.+]] = ttg.async_commit_group tokens %[[CP_P]]
  // CHECK: %[[W_P:.+]] = ttg.async_wait %[[G_P]] {loop.cluster = 0 : i32, loop.stage = 2 : i32, num = 0 : i32}
  // CHECK: %[[A:.+]] = ttg.local_load %{{.+}} token %[[W_P]]
  // CHECK: %[[SHALLOW_SLOT:.+]] = ttg.memdesc_index %[[SHALLOW]][%[[SI]]]
  // CHECK: %[[CP_Q:.+]] = ttg.async_copy_global_to_local %[[Q]], %[[SHALLOW_SLOT]] {{.*}}loop.stage = 1 : i32
  // CHECK: %[[G_Q:.+]] = ttg.async_commit_group tokens %[[CP_Q]]
  // CHECK: %[[W_Q:.+]] = ttg.async_wait %[[G_Q]] {loop.cluster = 0 : i32, loop.stage = 2 : i32, num = 0 : i32}
  // CHECK: %[[SHALLOW_READ:.+]] = ttg.memdesc_index %[[SHALLOW]][%[[SE]]]
  // CHECK: %[[B:.+]] = ttg.local_load %[[SHALLOW_READ]] token %[[W_Q]]
  // CHECK: "use"(%[[A]], %[[B]])
  tt.func @two_distances(%n: i32, %p: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}, %q: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %b = tt.load %q {loop.cluster = 1 : i32, loop.stage = 1 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      "use"(%a, %b) {loop.cluster = 0 : i32, loop.stage = 2 : i32} : (tensor<512xf32, #blk>, tensor<512xf32, #blk>) -> ()
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return
  }
}

// -----

// No schedule (no loop.stage/loop.cluster): nothing to lower.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @unscheduled
  // CHECK-NOT: ttg.local_alloc
  // CHECK: scf.for
  // CHECK-NEXT: %[[V:.+]] = tt.load
  // CHECK-NEXT: "use"(%[[V]])
  // CHECK-NOT: ttg.async_wait
  // CHECK: tt.return
  tt.func @unscheduled(%n: i32, %p: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %p : tensor<512x!tt.ptr<f32>, #blk>
      "use"(%v) : (tensor<512xf32, #blk>) -> ()
    }
    tt.return
  }
}
