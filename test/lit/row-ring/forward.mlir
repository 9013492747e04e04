// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty

// VERIFIED-NOT: error

// A residual add fused into an RMS norm, both in place (vLLM's fused_add_rms_norm, looped:
// f16 chunks of 2048 at 8 warps): the first loop stores h = x + r over r and sums h * h;
// the second reads r again, now h, and writes the norm over x. The ring holds r (the second
// loop reads its tiles); x, read once, is loaded ahead into registers. The first loop's store
// writes r's tile of its own iteration, so the ring forwards it: each copy writes the stored
// tile into its chunk of the slot, next to the store, and the second loop reads h there.
// The run-time condition takes both stores as in place: h over r's row (r is cached) and
// the norm over x's row, which the first loop's loads of x read ahead only before it.
// CHECK-LABEL: tt.func @add_rms_in_place(
// CHECK: scf.if
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: ttng.wait_barrier
// CHECK-COUNT-4: ttg.local_load
// CHECK: ttg.local_store %[[H0:.+]], %[[CHUNK0:.+]] : tensor<2048xf16, #blocked> -> !ttg.memdesc<2048xf16
// CHECK-NEXT: tt.store %{{.+}}, %[[H0]] : tensor<2048x!tt.ptr<f16>, #blocked>
// CHECK: ttg.local_store %[[H1:.+]], %{{.+}} : tensor<2048xf16
// CHECK-NEXT: tt.store %{{.+}}, %[[H1]] :
// CHECK: tt.reduce
// CHECK-NOT: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK-NOT: ttg.local_store
// CHECK: ttng.arrive_barrier
// CHECK: ttg.warp_yield

// The same kernel storing h one element past r's tile: not r's box, so nothing is forwarded
// (the run-time condition finds the store's hull over r's and runs the loops as written).
// CHECK-LABEL: tt.func @stored_one_past(
// CHECK-NOT: ttg.local_store
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @add_rms_in_place(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %r: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %r_row = tt.addptr %r, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %rs = tt.splat %r_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %px = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vx = tt.load %px, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %pr = tt.addptr %rs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vr = tt.load %pr, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %h = arith.addf %vx, %vr : tensor<2048xf16, #blocked>
      tt.store %pr, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %h : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %sq = arith.mulf %f, %f : tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %sq : tensor<2048xf32, #blocked>
      scf.yield %next : tensor<2048xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #blocked>) -> f32
    %t = tt.splat %total : f32 -> tensor<2048xf32, #blocked>
    scf.for %off = %c0 to %n step %c2048 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %pr = tt.addptr %rs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vr = tt.load %pr, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %wp = tt.addptr %ws, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %wv = tt.load %wp, %in : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %vr : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %wf = arith.extf %wv : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %ow = arith.mulf %o, %wf : tensor<2048xf32, #blocked>
      %y = arith.truncf %ow : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %px = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %px, %y, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
  tt.func @stored_one_past(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %r: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %w: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %r_row = tt.addptr %r, %row_off : !tt.ptr<f16>, i32
    %h_row = tt.addptr %r_row, %c1 : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %rs = tt.splat %r_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %hs = tt.splat %h_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %px = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vx = tt.load %px, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %pr = tt.addptr %rs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vr = tt.load %pr, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %h = arith.addf %vx, %vr : tensor<2048xf16, #blocked>
      %ph = tt.addptr %hs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %ph, %h, %in : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %h : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %sq = arith.mulf %f, %f : tensor<2048xf32, #blocked>
      %next = arith.addf %acc, %sq : tensor<2048xf32, #blocked>
      scf.yield %next : tensor<2048xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #blocked>) -> f32
    %t = tt.splat %total : f32 -> tensor<2048xf32, #blocked>
    scf.for %off = %c0 to %n step %c2048 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %pr = tt.addptr %rs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %vr = tt.load %pr, %in, %other : tensor<2048x!tt.ptr<f16>, #blocked>
      %wp = tt.addptr %ws, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %wv = tt.load %wp, %in : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %vr : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %wf = arith.extf %wv : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %ow = arith.mulf %o, %wf : tensor<2048xf32, #blocked>
      %y = arith.truncf %ow : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %px = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %px, %y, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
