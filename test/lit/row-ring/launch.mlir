// RUN: ttpipe-opt %s --split-input-file -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s --split-input-file --remarks -p ttpipe-row-ring 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-row-ring{consumers=2}' | filecheck %s --check-prefix=TWO

// Where the ring pays (rows of 48 KB up to the ring less its stream slots): f16 chunks of 2048
// elements, 4 KB, slots of 4 chunks, 12 slots, 2 of them the stream slots (32 KB in flight for
// the next row), so rows of 12 to 40 chunks (at most 10 slots). The rows' length is a kernel
// argument (%n) and the loops start at another (%lower, a multiple of 16: each chunk starts on
// 16 bytes of its row, as TMA needs): the ring is built and the range written on the function,
// for the Triton plug-in to choose at each launch. The cost model gives the loops one
// consumer, for rows of up to half the slots a row may fill (20 chunks): longer rows run the
// ring compiled with two consumers instead, whose range is the ring's (TWO).
// CHECK-LABEL: tt.func @from_arguments(
// CHECK-SAME: attributes {ttpipe.launch_when = {at_least = 12 : i64, at_most = 20 : i64, instead = "ttpipe-row-ring{sms=132 consumers=2}", lower_argument = 3 : i64, step = 2048 : i64, upper_argument = 4 : i64, without = "ttpipe-row-ring"}}
// CHECK: ttg.warp_specialize(
// CHECK-NOT: partition1(
// CHECK: tt.return
// TWO-LABEL: tt.func @from_arguments(
// TWO-SAME: attributes {ttpipe.launch_when = {at_least = 12 : i64, at_most = 40 : i64, lower_argument = 3 : i64, step = 2048 : i64, upper_argument = 4 : i64, without = "ttpipe-row-ring"}}
// TWO: partition0(
// TWO-SAME: num_warps(8)
// TWO: partition1(
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @from_arguments(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %lower: i32 {tt.divisibility = 16 : i32}, %n: i32) {
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
    %sum = scf.for %off = %lower to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
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
    scf.for %off = %lower to %n step %c2048 : i32 {
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

// Constant bounds: rows of 16 chunks take the ring, and no range is written.
// CHECK-LABEL: tt.func @sixteen_chunks(
// CHECK-NOT: ttpipe.launch_when
// CHECK: ttg.warp_specialize(
// CHECK-NOT: partition1(
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @sixteen_chunks(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %lower = arith.constant 0 : i32
    %n = arith.constant 32768 : i32
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
    %sum = scf.for %off = %lower to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
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
    scf.for %off = %lower to %n step %c2048 : i32 {
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

// Constant bounds of 32 chunks: longer than half the slots a row may fill, so the pass builds
// the ring with two consumers itself; no range is written.
// CHECK-LABEL: tt.func @thirty_two_chunks(
// CHECK-NOT: ttpipe.launch_when
// CHECK: ttg.warp_specialize(
// CHECK: partition0(
// CHECK-SAME: num_warps(8)
// CHECK: partition1(
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @thirty_two_chunks(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %lower = arith.constant 0 : i32
    %n = arith.constant 65536 : i32
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
    %sum = scf.for %off = %lower to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
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
    scf.for %off = %lower to %n step %c2048 : i32 {
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

// Rows of 4 chunks (16 KB): the default pipeline's CTAs per SM serve them better; no ring.
// REMARK: remark: row ring not built: rows of 4 chunks; the ring pays for 12 to 40
// CHECK-LABEL: tt.func @four_chunks(
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @four_chunks(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}) {
    %lower = arith.constant 0 : i32
    %n = arith.constant 8192 : i32
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
    %sum = scf.for %off = %lower to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
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
    scf.for %off = %lower to %n step %c2048 : i32 {
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

// The loops count chunks, `for i in range(tl.cdiv(n, 2048))`, each at `i * 2048`: the upper
// bound `(n + 2047) / 2048` is still known at launch, written with its addend and divisor
// (the trip range is in steps of 1). The trip count is made again at the function's start,
// before the ops that computed it for the loops.
// CHECK-LABEL: tt.func @chunks_counted(
// CHECK-SAME: attributes {ttpipe.launch_when = {at_least = 12 : i64, at_most = 20 : i64, instead = "ttpipe-row-ring{sms=132 consumers=2}", lower = 0 : i64, step = 1 : i64, upper_add = 2047 : i64, upper_argument = 3 : i64, upper_divisor = 2048 : i64, without = "ttpipe-row-ring"}}
// CHECK-NEXT: %[[ROW:.*]] = tt.get_program_id x
// CHECK-NEXT: %[[PROGRAMS:.*]] = tt.get_num_programs x
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ADD:.*]] = arith.constant 2047 : i32
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %arg3, %[[ADD]] : i32
// CHECK-NEXT: %[[DIVISOR:.*]] = arith.constant 2048 : i32
// CHECK-NEXT: %[[UPPER:.*]] = arith.divsi %[[SUM]], %[[DIVISOR]] : i32
// CHECK: ttg.warp_specialize(
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @chunks_counted(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2047 = arith.constant 2047 : i32
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
    %padded = arith.addi %n, %c2047 : i32
    %chunks = arith.divsi %padded, %c2048 : i32
    %sum = scf.for %i = %c0 to %chunks step %c1 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %off = arith.muli %i, %c2048 : i32
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
    scf.for %i = %c0 to %chunks step %c1 : i32 {
      %off = arith.muli %i, %c2048 : i32
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

// A row length known at compile time and no masks (`N: tl.constexpr`, BLOCK dividing it):
// the boxes take as their extent what the loops reach, 16 chunks of 2048, so the view of
// every row has (G - 1) * stride + 32768 elements, and the ring is built with no range.
// CHECK-LABEL: tt.func @unmasked(
// CHECK-NOT: ttpipe.launch_when
// CHECK: %[[FAR:.*]] = arith.muli %{{.*}}, %c32768_i64{{.*}} : i64
// CHECK-NEXT: %[[VIEW:.*]] = arith.addi %c32768_i64{{.*}}, %[[FAR]] : i64
// CHECK-NEXT: arith.constant 2146435071 : i64
// CHECK-NEXT: arith.cmpi sle, %[[VIEW]]
// CHECK: tt.make_tensor_descriptor
// CHECK: ttg.warp_specialize(
// CHECK-NOT: tt.load
// CHECK: partition0
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unmasked(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %n = arith.constant 32768 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %n : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c2048 iter_args(%acc = %zero) -> (tensor<2048xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p : tensor<2048x!tt.ptr<f16>, #blocked>
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
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p : tensor<2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<2048xf16, #blocked> to tensor<2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<2048xf32, #blocked>
      %h = arith.truncf %o : tensor<2048xf32, #blocked> to tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %h : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A program walking several rows (a loop over rows around the row's loops): not a row
// program; the remark says why, at the loop over rows.
// REMARK: launch.mlir:[[# @LINE + 15]]:{{[0-9]+}}: remark: row ring not built: the row's loops are inside another loop (a program walking several rows): the ring makes a program of one row persistent itself
// CHECK-LABEL: tt.func @rows_walked(
// CHECK-NOT: ttg.warp_specialize
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @rows_walked(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %rows: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %programs = tt.get_num_programs x : i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    scf.for %row = %pid to %rows step %programs : i32 {
      %row_off = arith.muli %row, %stride : i32
      %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
      %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
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
    }
    tt.return
  }
}
