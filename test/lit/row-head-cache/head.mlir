// RUN: ttpipe-opt %s --split-input-file -p ttpipe-row-head-cache --verify-diagnostics=only-expected | filecheck %s

// A layer norm's two passes at 4 warps (16 CTAs per SM: 14592 bytes of shared memory each,
// less 1 KB reserved and 2 KB of scratch, hold 5 chunks of 1024 f16): the first loop keeps
// its first 5 chunks of x, the second reads them from there and x's other chunks (and w,
// which every program reads) from memory, from its last chunk to its first.
// CHECK-LABEL: tt.func @two_passes(
// CHECK: %[[HEAD:.+]] = ttg.local_alloc : () -> !ttg.memdesc<5x1024xf16, #shared, #smem, mutable>
// CHECK: scf.for %[[IV1:.+]] = %[[C0:.+]] to %{{.+}} step %[[C1024:.+]] iter_args
// CHECK: %[[X1:.+]] = tt.load
// CHECK-NEXT: %[[J1:.+]] = arith.divsi %[[IV1]], %[[C1024]] : i32
// CHECK-NEXT: %[[K:.+]] = arith.constant 5 : i32
// CHECK-NEXT: %[[IN1:.+]] = arith.cmpi slt, %[[J1]], %[[K]] : i32
// CHECK-NEXT: scf.if %[[IN1]] {
// CHECK-NEXT: %[[SLOT1:.+]] = ttg.memdesc_index %[[HEAD]][%[[J1]]]
// CHECK-NEXT: ttg.local_store %[[X1]], %[[SLOT1]]
// CHECK: arith.divsi
// CHECK: scf.for %[[IV2:.+]] = %[[C0]] to %{{.+}} step %[[C1024]] : i32 {
// CHECK-NEXT: %[[DONE:.+]] = arith.subi %[[IV2]], %[[C0]] : i32
// CHECK-NEXT: %[[REV:.+]] = arith.subi %{{.+}}, %[[DONE]] : i32
// CHECK: %[[J2:.+]] = arith.divsi %[[REV]], %[[C1024]] : i32
// CHECK: %[[IN2:.+]] = arith.cmpi slt, %[[J2]]
// CHECK-NEXT: %[[X2:.+]] = scf.if %[[IN2]] -> (tensor<1024xf16, #blocked>) {
// CHECK-NEXT: %[[SLOT2:.+]] = ttg.memdesc_index %[[HEAD]][%[[J2]]]
// CHECK-NEXT: ttg.local_load %[[SLOT2]]
// CHECK: } else {
// CHECK-NEXT: %[[LOADED:.+]] = tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f16>, #blocked>
// CHECK-NEXT: scf.yield %[[LOADED]]
// CHECK: tt.load
// CHECK: arith.mulf %[[X2]]
// CHECK: tt.store
// CHECK: ttg.local_dealloc %[[HEAD]]
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
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %mean = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %means = tt.splat %mean : f32 -> tensor<1024xf32, #blocked>
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %f = arith.extf %o : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %c = arith.subf %f, %means : tensor<1024xf32, #blocked>
      %t = arith.truncf %c : tensor<1024xf32, #blocked> to tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %t, %in : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Not cached, reversed or not by ttpipe-reverse-rereads alone:
//   - the second read's `other` is not the first's (the first read's value is not the
//     second's where the mask is false);
//   - a store through the row's own base between the loops (it may write the head);
//   - the second loop writes the row before it reads it, in place (the cached chunk would
//     be the value before the write).
// CHECK-LABEL: tt.func @not_the_same_value(
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_the_same_value(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %stride: i32, %n: i32, %n2: i32, %n3: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %ninf = arith.constant dense<0xFC00> : tensor<1024xf16, #blocked>
    %one = arith.constant 1.000000e+00 : f16
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %s1 = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %ninf : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.maximumf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{row head not kept in shared memory: a later read has another mask or `other` than the first}}
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %s1 : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %s2 = scf.for %off = %c0 to %n2 step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    tt.store %y_row, %one : !tt.ptr<f16>
    scf.for %off = %c0 to %n2 step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{row head not kept in shared memory: a store between the reads may write the row}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %s2 : tensor<1024xf16, #blocked>
      tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %s3 = scf.for %off = %c0 to %n3 step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n3 step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %u = arith.subf %zero, %s3 : tensor<1024xf16, #blocked>
      tt.store %p, %u : tensor<1024x!tt.ptr<f16>, #blocked>
      // expected-remark @below {{row head not kept in shared memory: a store between the reads may write the row}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %s3 : tensor<1024xf16, #blocked>
      tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Three passes over the row (mean, variance, output, as Triton's tutorial writes a layer
// norm): the first keeps the head, the second (which carries its sums, and stays forwards)
// and the third (backwards) read it there.
// CHECK-LABEL: tt.func @three_passes(
// CHECK: %[[HEAD:.+]] = ttg.local_alloc : () -> !ttg.memdesc<5x1024xf16
// CHECK: scf.for
// CHECK: %[[X1:.+]] = tt.load
// CHECK: ttg.local_store %[[X1]]
// CHECK: scf.yield
// CHECK: scf.for %[[IV2:.+]] = %[[C0:.+]] to
// CHECK-NEXT: tt.splat %[[IV2]]
// CHECK: scf.if %{{.+}} -> (tensor<1024xf16, #blocked>) {
// CHECK: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: tt.load
// CHECK: scf.for %[[IV3:.+]] = %[[C0]] to
// CHECK-NEXT: arith.subi %[[IV3]], %[[C0]]
// CHECK: scf.if %{{.+}} -> (tensor<1024xf16, #blocked>) {
// CHECK: ttg.local_load
// CHECK: } else {
// CHECK-NEXT: tt.load
// CHECK: ttg.local_dealloc %[[HEAD]]
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @three_passes(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %s1 = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    %s2 = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f16>, #blocked>
      %d = arith.subf %v, %s1 : tensor<1024xf16, #blocked>
      %sq = arith.mulf %d, %d : tensor<1024xf16, #blocked>
      %next = arith.addf %acc, %sq : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %s2 : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Chunks of 8192 f32 (32 KB) at 4 warps: the 11520 bytes a CTA may take hold none.
// CHECK-LABEL: tt.func @chunk_too_large(
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chunk_too_large(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c8192 = arith.constant 8192 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<8192xf32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f32>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f32>, i32
    %cols = tt.make_range {end = 8192 : i32, start = 0 : i32} : tensor<8192xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f32> -> tensor<8192x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f32> -> tensor<8192x!tt.ptr<f32>, #blocked>
    %s = scf.for %off = %c0 to %n step %c8192 iter_args(%acc = %zero) -> (tensor<8192xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<8192xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<8192xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<8192x!tt.ptr<f32>, #blocked>, tensor<8192xi32, #blocked>
      %v = tt.load %p : tensor<8192x!tt.ptr<f32>, #blocked>
      %next = arith.addf %acc, %v : tensor<8192xf32, #blocked>
      scf.yield %next : tensor<8192xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c8192 : i32 {
      %offs = tt.splat %off : i32 -> tensor<8192xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<8192xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<8192x!tt.ptr<f32>, #blocked>, tensor<8192xi32, #blocked>
      // expected-remark @below {{row head not kept in shared memory: one iteration reads 32768 bytes; the shared memory its occupancy leaves holds less}}
      %v = tt.load %p : tensor<8192x!tt.ptr<f32>, #blocked>
      %o = arith.subf %v, %s : tensor<8192xf32, #blocked>
      %q = tt.addptr %ys, %idx : tensor<8192x!tt.ptr<f32>, #blocked>, tensor<8192xi32, #blocked>
      tt.store %q, %o : tensor<8192x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}

// -----

// The first loop writes the row's next chunk before it reads this one (a later iteration
// of it runs between a chunk's two reads): not cached.
// CHECK-LABEL: tt.func @first_loop_writes_the_row(
// CHECK-NOT: ttg.local_alloc
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @first_loop_writes_the_row(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %step = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %s = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %next_idx = arith.addi %idx, %step : tensor<1024xi32, #blocked>
      %pn = tt.addptr %xs, %next_idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %pn, %acc : tensor<1024x!tt.ptr<f16>, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{row head not kept in shared memory: a store between the reads may write the row}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %s : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
