// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty

// VERIFIED-NOT: error

// A row scaled by the root of its mean square and by a weight vector w (an RMS norm: f16
// chunks of 2048 elements at 8 warps). The stride and the row's length are not known
// multiples of 16: the run-time condition checks that x's base and every row's start
// (the stride's bytes) fall on 16 bytes, as TMA's coordinates must. The loop that writes the
// row also loads w, which the ring does not hold: it is issued 8 iterations ahead (32 KB in
// flight cover 8 chunks of 4 KB; 384 bytes a thread hold 8 of w's 32-byte tiles widened to f32). The
// run-time condition adds w's stride (not negative) and y's hull clear of w's. Before the
// first loop (their latency runs under it and the reduction), w of the second loop's
// iterations 0-7, each predicated on the iteration existing; the second loop runs in steps
// of 8 chunks, the body 8 times, each copy reading its own slot of the queue and loading
// the same slot 8 iterations ahead, widened to f32 there (the queue carries what the loop
// reads: no 16-bit packing of the loop-carried registers; it stays in place: no register copy) and storing
// unmasked (every chunk of a step lies inside the row); the remaining iterations, fewer than
// a step, run as one more step of copies, copy c in an scf.if on its chunk being in the row
// nested in copy c - 1's, copy c reading the queue's place c as the steps left it: nothing
// shifts the queue.
// CHECK-LABEL: tt.func @scaled_rows(
// CHECK: tt.ptr_to_int %arg0
// CHECK: %[[ROW_BYTES:.+]] = arith.muli %{{.+}}, %c2_i64{{.*}} : i64
// CHECK: arith.remsi %{{.+}}, %c16_i64
// CHECK: arith.remsi %[[ROW_BYTES]], %c16_i64
// CHECK: %[[W:.+]] = tt.ptr_to_int %arg2
// CHECK: %[[W_FIRST:.+]] = arith.addi %[[W]], %{{.+}} : i64
// CHECK: arith.cmpi slt, %{{.+}}, %[[W_FIRST]] : i64
// CHECK: scf.if
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: scf.for
// CHECK-COUNT-8: tt.load %{{.+}}, %{{.+}} : tensor<2048x!tt.ptr<f16>
// CHECK: scf.for %{{.+}} step %c8192_i32
// CHECK: scf.if %{{.+}} -> (tensor<2048xf32
// CHECK: tt.reduce
// CHECK: %[[END:.+]] = arith.addi %c0_i32{{.*}}, %{{.+}} : i32
// CHECK: %[[RUNS:.+]]:8 = scf.for %{{.+}} = %c0_i32{{.*}} to %[[END]] step %c16384_i32{{.*}} iter_args(%[[Q0:[^ ]+]] = %{{[^,]+}}, %[[Q1:[^ ]+]] = %{{[^,]+}}, %{{.+}}, %[[Q7:[^ ]+]] = %{{[^)]+}})
// CHECK-SAME: -> (tensor<2048xf32, #blocked>,
// CHECK: %[[L0:.+]] = tt.load
// CHECK-NEXT: %[[N0:.+]] = arith.extf %[[L0]] : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
// CHECK: arith.mulf %{{.+}}, %[[Q0]]
// CHECK: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor
// CHECK: %[[L1:.+]] = tt.load
// CHECK-NEXT: %[[N1:.+]] = arith.extf %[[L1]]
// CHECK: arith.mulf %{{.+}}, %[[Q1]]
// CHECK: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor
// CHECK-COUNT-5: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor
// CHECK: %[[L7:.+]] = tt.load
// CHECK-NEXT: %[[N7:.+]] = arith.extf %[[L7]]
// CHECK: arith.mulf %{{.+}}, %[[Q7]]
// CHECK: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor
// CHECK: scf.yield %[[N0]], %[[N1]], %{{.+}}, %[[N7]] :
// CHECK: %[[FROM:.+]] = arith.extsi %[[END]] : i32 to i64
// CHECK: %[[LAST:.+]] = arith.cmpi slt, %[[FROM]], %{{.+}} : i64
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: arith.mulf %{{.+}}, %[[RUNS]]#0
// CHECK: scf.if %{{.+}} {
// CHECK: arith.mulf %{{.+}}, %[[RUNS]]#1
// CHECK-NOT: {{scf.for|scf.yield %arg}}
// CHECK: ttg.warp_yield
// CHECK: } else {
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @scaled_rows(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32) {
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
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %sq = arith.mulf %f, %f : tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %sq : tensor<2048xf32, #blocked>
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
      %wp = tt.addptr %ws, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %wv = tt.load %wp, %in : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %wf = arith.extf %wv : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %ow = arith.mulf %o, %wf : tensor<2048xf32, #blocked>
      %h = arith.truncf %ow : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
