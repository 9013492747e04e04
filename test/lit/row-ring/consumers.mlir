// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p 'ttpipe-row-ring{consumers=1}' | filecheck %s --check-prefix=ONE
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty
// RUN: not ttpipe-opt %s -p 'ttpipe-row-ring{consumers=3}' 2>&1 | filecheck %s --check-prefix=BAD

// VERIFIED-NOT: error
// BAD: consumers{{.*}}must be one of auto, 1, 2

// A row's running maximum (a tt.reduce across the warps every chunk, as an online softmax
// takes it), then the row less its maximum: the consumer waits on a barrier every chunk, so
// the cost model gives the ring two consumers on alternate rows, the second a partition of
// the kernel's 8 warps. `consumers=1` forces one.
// CHECK-LABEL: tt.func @running_max(
// CHECK: ttg.warp_specialize(
// CHECK: partition0(
// CHECK-SAME: num_warps(8)
// CHECK: "tt.reduce"
// CHECK: partition1(
// CHECK-SAME: num_warps(1)
// ONE-LABEL: tt.func @running_max(
// ONE: ttg.warp_specialize(
// ONE: partition0(
// ONE-SAME: num_warps(1)
// ONE-NOT: partition1(
// The row's sum, then exp(x - mean) of every element: no reduction in a loop, but a special
// function of every element (MUFU), so two consumers as well.
// CHECK-LABEL: tt.func @exp_of_row(
// CHECK: ttg.warp_specialize(
// CHECK: math.exp
// CHECK: partition0(
// CHECK-SAME: num_warps(8)
// CHECK: math.exp
// CHECK: partition1(
// CHECK-SAME: num_warps(1)

// The same with the exponent taken of the row's mean only (a scalar, once a row): one consumer.
// CHECK-LABEL: tt.func @exp_of_mean(
// CHECK: ttg.warp_specialize(
// CHECK: partition0(
// CHECK-SAME: num_warps(1)
// CHECK-NOT: partition1(
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @running_max(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %ninf = arith.constant 0xFF800000 : f32
    %other = arith.constant dense<0xFF800000> : tensor<1024xf32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f32>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f32>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %max = scf.for %off = %c0 to %n step %c1024 iter_args(%m = %ninf) -> (f32) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f32>, #blocked>
      %chunk = "tt.reduce"(%v) <{axis = 0 : i32}> ({
      ^bb0(%l: f32, %r: f32):
        %s = arith.maxnumf %l, %r : f32
        tt.reduce.return %s : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      %next = arith.maxnumf %m, %chunk : f32
      scf.yield %next : f32
    }
    %t = tt.splat %max : f32 -> tensor<1024xf32, #blocked>
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f32>, #blocked>
      %o = arith.subf %v, %t : tensor<1024xf32, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
  tt.func @exp_of_row(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f32>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f32>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %acc = scf.for %off = %c0 to %n step %c1024 iter_args(%a = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
      %s = arith.addf %a, %v : tensor<1024xf32, #blocked>
      scf.yield %s : tensor<1024xf32, #blocked>
    }
    %sum = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %nf = arith.sitofp %n : i32 to f32
    %mean = arith.divf %sum, %nf : f32
    %t = tt.splat %mean : f32 -> tensor<1024xf32, #blocked>
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
      %o = arith.subf %v, %t : tensor<1024xf32, #blocked>
      %e = math.exp %o : tensor<1024xf32, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %e, %in : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
  tt.func @exp_of_mean(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f32>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f32>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %acc = scf.for %off = %c0 to %n step %c1024 iter_args(%a = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
      %s = arith.addf %a, %v : tensor<1024xf32, #blocked>
      scf.yield %s : tensor<1024xf32, #blocked>
    }
    %sum = "tt.reduce"(%acc) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %nf = arith.sitofp %n : i32 to f32
    %mean = arith.divf %sum, %nf : f32
    %em = math.exp %mean : f32
    %t = tt.splat %em : f32 -> tensor<1024xf32, #blocked>
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
      %o = arith.subf %v, %t : tensor<1024xf32, #blocked>
      %e = arith.mulf %o, %t : tensor<1024xf32, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %e, %in : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }
}
