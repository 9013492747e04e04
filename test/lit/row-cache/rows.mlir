// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-row-cache
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-row-cache 2>/dev/null | filecheck %s
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-row-cache,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty

// The cached version passes the async-protocol check: its chunk index is in range only
// under the run-time condition (`trips <= 16 and ...pointers...`), which the checker
// decides without knowing the pointers.
// VERIFIED-NOT: error

// A row summed, then divided by its sum and stored (one row per program): the second loop's
// load reads the first's tiles, so the row is read once. Before the loops: the condition
// (16 chunks of 2048 elements at most, 64 KB; y's row outside x's or the same row, in place),
// then the scf.if: every chunk's TMA copy issued at once, an mbarrier each; the first loop
// waits for its chunk and reads it from shared memory, the second reads it with no wait; the
// else branch runs the loops as they were. The loads' other (-inf) comes back by a select.
// CHECK-LABEL: tt.func @row_twice(
// CHECK: %[[TRIPS:.+]] = arith.divsi
// CHECK: %[[FITS:.+]] = arith.cmpi sle, %[[TRIPS]], %c16_i32
// CHECK: tt.ptr_to_int
// CHECK: %[[SAME:.+]] = arith.cmpi eq
// CHECK: %[[DESC:.+]] = tt.make_tensor_descriptor
// CHECK: scf.if %{{.+}} {
// CHECK: %[[BARS:.+]] = ttg.local_alloc : () -> !ttg.memdesc<16x1xi64
// CHECK-COUNT-16: ttng.init_barrier
// CHECK: %[[ROWBUF:.+]] = ttg.local_alloc : () -> !ttg.memdesc<16x2048xf16, #shared, #smem, mutable>
// CHECK: gpu.barrier
// CHECK: scf.for %[[J:.+]] = %c0_i32{{.*}} to %{{.+}} step %c1_i32
// CHECK: ttng.barrier_expect %{{.+}}, 4096
// CHECK: ttng.async_tma_copy_global_to_local %[[DESC]]
// CHECK: scf.for
// CHECK: ttng.wait_barrier
// CHECK: %[[FIRST:.+]] = ttg.local_load
// CHECK: arith.select %{{.+}}, %[[FIRST]], %{{.+}}
// CHECK: scf.for
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK: tt.store
// CHECK: ttng.inval_barrier
// CHECK: ttg.local_dealloc
// CHECK: } else {
// CHECK: tt.load
// CHECK: tt.load
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_twice(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0xFC00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<2048xf32, #blocked>
      scf.yield %next : tensor<2048xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #blocked>) -> f32
    %t = tt.splat %total : f32 -> tensor<2048xf32, #blocked>
    scf.for %off = %c0 to %n step %c2048 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %h = arith.truncf %o : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// The second loop stores each tile one chunk further along y: if y were x (in place, shifted),
// it would overwrite tiles the cached loop has not read yet; its region is not known to be
// the row's tile of the same iteration, so only disjoint rows take the cached version.
// CHECK-LABEL: tt.func @shifted_store(
// CHECK: scf.if
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shifted_store(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<2048xf32, #blocked>
      scf.yield %next : tensor<2048xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #blocked>) -> f32
    %t = tt.splat %total : f32 -> tensor<2048xf32, #blocked>
    scf.for %off = %c0 to %n step %c2048 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %h = arith.truncf %o : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %c2048s = tt.splat %c2048 : i32 -> tensor<2048xi32, #blocked>
      %next_idx = arith.addi %idx, %c2048s : tensor<2048xi32, #blocked>
      %q = tt.addptr %ys, %next_idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
