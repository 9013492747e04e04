// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty
// RUN: not ttpipe-opt %s -p 'ttpipe-row-ring,ttpipe-plant-async-mutant{operator=drop-fence site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=UNFENCED

// A layer norm as Triton's tutorial writes it: the row's mean in one loop, the variance
// around it in a second, the mean stored (a scalar a row), then the output in a third; every
// loop reads the same row. The ring holds each slot until the third loop has read it: the
// first loop waits for the slot's full mbarrier, the second reads the slot with no wait and
// no release, the third reads it and releases it (proxy fence, barrier, arrive, barrier).
// The async-protocol check passes the ring, and without the fence reports the refill.
// VERIFIED-NOT: error
// UNFENCED: error: the TMA copy overwrites {{.*}}[proxy-fence]
// CHECK-LABEL: tt.func @mean_variance_output(
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// The first loop: runs of a slot, a wait, four reads.
// CHECK: scf.for %{{.+}} step %c8192_i32{{[_0-9]*}} iter_args
// CHECK: ttng.wait_barrier
// CHECK-COUNT-4: ttg.local_load
// CHECK-NOT: ttng.arrive_barrier
// CHECK: scf.yield
// The last chunks, fewer than a slot: one more run of guarded copies.
// CHECK: scf.if %{{.+}} -> (tensor<2048xf32
// CHECK: ttng.wait_barrier
// CHECK-NOT: ttng.arrive_barrier
// CHECK: "tt.reduce"
// The second loop: reads only.
// CHECK: scf.for %{{.+}} step %c8192_i32{{[_0-9]*}} iter_args
// CHECK-NOT: {{ttng.wait_barrier|ttng.arrive_barrier|gpu.barrier|arith.select}}
// CHECK-COUNT-4: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|ttng.arrive_barrier|gpu.barrier}}
// CHECK: scf.yield
// CHECK: scf.if %{{.+}} -> (tensor<2048xf32
// CHECK-NOT: {{ttng.wait_barrier|ttng.arrive_barrier}}
// CHECK: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|ttng.arrive_barrier}}
// CHECK: "tt.reduce"
// CHECK: tt.store %{{.+}}, %{{.+}} : !tt.ptr<f32>
// The third loop: reads, stores, releases.
// CHECK: scf.for %{{.+}} step %c8192_i32{{[_0-9]*}} 
// CHECK-NOT: ttng.wait_barrier
// CHECK-COUNT-4: ttg.local_load
// CHECK-NOT: {{ttng.fence_async_shared|gpu.barrier|ttng.arrive_barrier}}
// CHECK-COUNT-4: tt.store %{{.+}}, %{{.+}} : tensor
// CHECK-NEXT: ttng.fence_async_shared
// CHECK-NEXT: gpu.barrier
// CHECK: ttng.arrive_barrier
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttng.arrive_barrier
// CHECK: tt.store
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK-SAME: num_warps(1)
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mean_variance_output(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %means: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
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
    %nf = arith.sitofp %n : i32 to f32
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
    %mean = arith.divf %total, %nf : f32
    %m = tt.splat %mean : f32 -> tensor<2048xf32, #blocked>
    %squares = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %d = arith.subf %f, %m : tensor<2048xf32, #blocked>
      %c = arith.select %in, %d, %zero : tensor<2048xi1, #blocked>, tensor<2048xf32, #blocked>
      %sq = arith.mulf %c, %c : tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %sq : tensor<2048xf32, #blocked>
      scf.yield %next : tensor<2048xf32, #blocked>
    }
    %var_sum = "tt.reduce"(%squares) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #blocked>) -> f32
    %var = arith.divf %var_sum, %nf : f32
    %rstd = math.rsqrt %var : f32
    %r = tt.splat %rstd : f32 -> tensor<2048xf32, #blocked>
    %mean_ptr = tt.addptr %means, %row : !tt.ptr<f32>, i32
    tt.store %mean_ptr, %mean : !tt.ptr<f32>
    scf.for %off = %c0 to %n step %c2048 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %d = arith.subf %f, %m : tensor<2048xf32, #blocked>
      %o = arith.mulf %d, %r : tensor<2048xf32, #blocked>
      %h = arith.truncf %o : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
