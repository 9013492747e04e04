// RUN: ttpipe-opt %s --split-input-file -p ttpipe-l2-eviction,ttpipe-reverse-rereads | filecheck %s

// ttpipe-l2-eviction's hints where the rows outgrow L1, the loop as written where they do
// not: 4 warps (16 CTAs per SM) re-reading 2 KB an iteration fill 64 KB of rows at 2
// iterations. From there the hinted loop (evict_first), reversed past 12 iterations (the
// rows L2 holds); below it the loop with its policies as written, no mark left anywhere.
// CHECK-LABEL: tt.func @two_passes(
// CHECK: scf.for
// CHECK: %[[L1LAST:.+]] = arith.divsi
// CHECK-NEXT: %[[L1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[OUTGROW:.+]] = arith.cmpi sge, %[[L1LAST]], %[[L1]] : i32
// CHECK-NEXT: scf.if %[[OUTGROW]] {
// CHECK: %[[L2:.+]] = arith.constant 12 : i32
// CHECK-NEXT: %[[LONG:.+]] = arith.cmpi sge, %{{.+}}, %[[L2]] : i32
// CHECK-NEXT: scf.if %[[LONG]] {
// CHECK: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.subi
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<1024x!tt.ptr<f16>
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<1024x!tt.ptr<f16>
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK-NOT: evict
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{[^ ]+}} : tensor<1024x!tt.ptr<f16>
// CHECK-NOT: ttpipe.l2_eviction
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_passes(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %g = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %f = arith.extf %g : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// The kernel's own policy on the store stays in every version.
// CHECK-LABEL: tt.func @user_policy(
// CHECK: scf.if
// CHECK: scf.if
// CHECK: tt.store %{{.+}} evictionPolicy = evict_last
// CHECK: } else {
// CHECK: tt.store %{{.+}} evictionPolicy = evict_last
// CHECK: } else {
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{[^ ]+}} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}} evictionPolicy = evict_last
// CHECK: tt.return

#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @user_policy(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %g = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %f = arith.extf %g : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in evictionPolicy = evict_last : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// 8 warps (8 CTAs per SM) re-reading 16 KB an iteration outgrow L1 at once: the hints stay
// unversioned; only the reversal is guarded.
// CHECK-LABEL: tt.func @wide_chunks(
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK: %[[L2:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[LONG:.+]] = arith.cmpi sge, %{{.+}}, %[[L2]] : i32
// CHECK-NEXT: scf.if %[[LONG]] {
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<8192x!tt.ptr<f16>
// CHECK: } else {
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first : tensor<8192x!tt.ptr<f16>
// CHECK-NOT: ttpipe.l2_eviction
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [32], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wide_chunks(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c8192 = arith.constant 8192 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<8192xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<8192xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<8192xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<8192x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<8192x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<8192x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c8192 iter_args(%acc = %zero) -> (tensor<8192xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<8192xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<8192xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<8192xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<8192x!tt.ptr<f16>, #blocked>, tensor<8192xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<8192x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<8192x!tt.ptr<f16>, #blocked>, tensor<8192xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<8192x!tt.ptr<f16>, #blocked>
      %g = arith.mulf %v, %vw : tensor<8192xf16, #blocked>
      %f = arith.extf %g : tensor<8192xf16, #blocked> to tensor<8192xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<8192xf32, #blocked>
      scf.yield %next : tensor<8192xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c8192 : i32 {
      %offs = tt.splat %off : i32 -> tensor<8192xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<8192xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<8192xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<8192x!tt.ptr<f16>, #blocked>, tensor<8192xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<8192x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<8192x!tt.ptr<f16>, #blocked>, tensor<8192xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<8192x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<8192xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<8192x!tt.ptr<f16>, #blocked>, tensor<8192xi32, #blocked>
      tt.store %q, %o, %in : tensor<8192x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
