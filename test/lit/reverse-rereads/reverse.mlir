// RUN: ttpipe-opt %s --split-input-file -p ttpipe-reverse-rereads | filecheck %s

// A layer norm's output loop re-reads the row its statistics loop read: where the row is
// longer than the rows of all CTAs in flight fit in L2 (at 4 warps, 16 CTAs on each of
// 132 SMs, 2 KB an iteration: 50 MB hold 12 iterations a row), it runs from the last chunk
// to the first (the bounds stay, the induction variable's uses read last - (iv - lb), with
// last = lb + (ub - lb - 1) / step * step); shorter rows take the loop as it was. The
// statistics loop, which carries its sums, is left as it is.
// CHECK-LABEL: tt.func @two_passes(
// CHECK: scf.for %[[IV1:.+]] = %[[C0:.+]] to %[[N:.+]] step %[[C1024:.+]] iter_args
// CHECK: tt.splat %[[IV1]]
// CHECK: %[[GSPAN:.+]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK-NEXT: %[[GONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[GBEFORE:.+]] = arith.subi %[[GSPAN]], %[[GONE]] : i32
// CHECK-NEXT: %[[GLAST:.+]] = arith.divsi %[[GBEFORE]], %[[C1024]] : i32
// CHECK-NEXT: %[[HOLDS:.+]] = arith.constant 12 : i32
// CHECK-NEXT: %[[LONG:.+]] = arith.cmpi sge, %[[GLAST]], %[[HOLDS]] : i32
// CHECK-NEXT: scf.if %[[LONG]] {
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[SPAN:.+]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK-NEXT: %[[BEFORE:.+]] = arith.subi %[[SPAN]], %[[ONE]] : i32
// CHECK-NEXT: %[[TRIPS:.+]] = arith.divsi %[[BEFORE]], %[[C1024]] : i32
// CHECK-NEXT: %[[FROM_LB:.+]] = arith.muli %[[TRIPS]], %[[C1024]] : i32
// CHECK-NEXT: %[[LAST:.+]] = arith.addi %[[C0]], %[[FROM_LB]] : i32
// CHECK-NEXT: scf.for %[[IV2:.+]] = %[[C0]] to %[[N]] step %[[C1024]] : i32 {
// CHECK-NEXT: %[[DONE:.+]] = arith.subi %[[IV2]], %[[C0]] : i32
// CHECK-NEXT: %[[REV:.+]] = arith.subi %[[LAST]], %[[DONE]] : i32
// CHECK-NEXT: tt.splat %[[REV]] : i32
// CHECK-NOT: %[[IV2]]
// CHECK: tt.store
// CHECK: } else {
// CHECK-NEXT: scf.for %[[IV3:.+]] = %[[C0]] to %[[N]] step %[[C1024]] : i32 {
// CHECK-NEXT: tt.splat %[[IV3]] : i32
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_passes(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
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
      %v = tt.load %p, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in : tensor<1024x!tt.ptr<f16>, #blocked>
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

// In place (the output is the input, at the same offsets): each iteration reads and writes
// its own chunk, so the loop is reversed; the rows of a persistent kernel's row loop too
// (an inner loop pair inside the grid-stride loop).
// CHECK-LABEL: tt.func @in_place_persistent(
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: arith.divsi
// CHECK: scf.yield
// CHECK: arith.divsi
// CHECK: scf.for
// CHECK-NEXT: arith.subi
// CHECK-NEXT: arith.subi
// CHECK: tt.store
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @in_place_persistent(%x: !tt.ptr<f16>, %rows: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %first = tt.get_program_id x : i32
    %programs = tt.get_num_programs x : i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    scf.for %row = %first to %rows step %programs : i32 {
      %row_off = arith.muli %row, %n : i32
      %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
      %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
      %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
        %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
        %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
        %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
        %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
        %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
        scf.yield %next : tensor<1024xf16, #blocked>
      }
      scf.for %off = %c0 to %n step %c1024 : i32 {
        %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
        %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
        %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
        %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
        %o = arith.subf %v, %sum : tensor<1024xf16, #blocked>
        tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked>
      }
    }
    tt.return
  }
}

// -----

// Loops whose iterations may depend on each other stay in order:
//   - a store one element past the chunk it read, through the same base (a shift in place:
//     iteration j writes the first element iteration j + 1 reads);
//   - chunks of 1024 elements 512 apart (each iteration overwrites half of the next one's);
//   - an atomic add (an effect other than a load or a store);
//   - a step that is not a constant (the chunks' distance unknown).
// CHECK-LABEL: tt.func @dependent_iterations(
// CHECK-NOT: arith.divsi
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @dependent_iterations(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %n: i32, %block: i32) {
    %c0 = arith.constant 0 : i32
    %c512 = arith.constant 512 : i32
    %c1024 = arith.constant 1024 : i32
    %ones = arith.constant dense<1> : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %n : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %shifted = arith.addi %idx, %ones : tensor<1024xi32, #blocked>
      %q = tt.addptr %xs, %shifted : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %v : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %sum2 = scf.for %off = %c0 to %n step %c512 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c512 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.addf %v, %sum2 : tensor<1024xf16, #blocked>
      tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %sum3 = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %old = tt.atomic_rmw fadd, relaxed, gpu, %p, %v : (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) -> tensor<1024xf16, #blocked>
    }
    %sum4 = scf.for %off = %c0 to %n step %block iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %next : tensor<1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %block : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.addf %v, %sum4 : tensor<1024xf16, #blocked>
      tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A 2-D chunk (rows x 1024 columns) whose rows lie a run-time stride apart: the stride
// could be smaller than the row, so chunks of different iterations may overlap; and an
// output loop that also sums what it writes (a carried accumulator, not an induction):
// both stay in order.
// CHECK-LABEL: tt.func @unbounded_windows(
// CHECK-NOT: arith.divsi
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unbounded_windows(%x: !tt.ptr<f16>, %n: i32, %stride: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2x1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<2x1xi32, #blocked>
    %strides = tt.splat %stride : i32 -> tensor<2x1xi32, #blocked>
    %r_off = arith.muli %r2, %strides : tensor<2x1xi32, #blocked>
    %r_offb = tt.broadcast %r_off : tensor<2x1xi32, #blocked> -> tensor<2x1024xi32, #blocked>
    %c = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<1024xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x1024xi32, #blocked>
    %c2b = tt.broadcast %c2 : tensor<1x1024xi32, #blocked> -> tensor<2x1024xi32, #blocked>
    %base = arith.addi %r_offb, %c2b : tensor<2x1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<2x1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<2x1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<2x1024xi32, #blocked>
      %idx = arith.addi %offs, %base : tensor<2x1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2x1024x!tt.ptr<f16>, #blocked>, tensor<2x1024xi32, #blocked>
      %v = tt.load %p : tensor<2x1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<2x1024xf16, #blocked>
      scf.yield %next : tensor<2x1024xf16, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<2x1024xi32, #blocked>
      %idx = arith.addi %offs, %base : tensor<2x1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2x1024x!tt.ptr<f16>, #blocked>, tensor<2x1024xi32, #blocked>
      %v = tt.load %p : tensor<2x1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %sum : tensor<2x1024xf16, #blocked>
      tt.store %p, %o : tensor<2x1024x!tt.ptr<f16>, #blocked>
    }
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked1>
    %xs1 = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked1>
    %zero1 = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked1>
    %s = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero1) -> (tensor<1024xf16, #blocked1>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked1>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked1>
      %p = tt.addptr %xs1, %idx : tensor<1024x!tt.ptr<f16>, #blocked1>, tensor<1024xi32, #blocked1>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked1>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked1>
      scf.yield %next : tensor<1024xf16, #blocked1>
    }
    %t = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero1) -> (tensor<1024xf16, #blocked1>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked1>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked1>
      %p = tt.addptr %xs1, %idx : tensor<1024x!tt.ptr<f16>, #blocked1>, tensor<1024xi32, #blocked1>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked1>
      %o = arith.subf %v, %s : tensor<1024xf16, #blocked1>
      tt.store %p, %o : tensor<1024x!tt.ptr<f16>, #blocked1>
      %next = arith.addf %acc, %o : tensor<1024xf16, #blocked1>
      scf.yield %next : tensor<1024xf16, #blocked1>
    }
    tt.return
  }
}

// -----

// Inductions the loops carry: pointers advanced a chunk per iteration (Triton's tutorials)
// and an i64 offset advanced by 1024 (a block pointer after Triton's
// rewrite-tensor-pointer), with an i32 counter. In the reversed loop (the long rows'
// version) each is computed for iteration n - j, n = (chunks - 0 - 1) / 1 the last,
// j = (iv - 0) / 1; the advances still read the carried values, whose final values the
// loop returns unchanged.
// CHECK-LABEL: tt.func @carried_inductions(
// CHECK: scf.for
// CHECK: scf.if %{{.+}} -> (tensor<1024x!tt.ptr<f16>, #blocked>, i64) {
// CHECK: %[[N:.+]] = arith.divsi %{{.+}}, %[[C1:.+]] : i32
// CHECK-NOT: arith.addi
// CHECK: scf.for %[[IV:.+]] = %[[C0:.+]] to %{{.+}} step %[[C1]] iter_args(%[[P:.+]] = %[[START:[^,]+]], %[[O:.+]] = %[[O0:.+]]) ->
// CHECK-NEXT: %[[DONE:.+]] = arith.subi %[[IV]], %[[C0]] : i32
// CHECK-NEXT: %[[J:.+]] = arith.divsi %[[DONE]], %[[C1]] : i32
// CHECK-NEXT: %[[REV:.+]] = arith.subi %[[N]], %[[J]] : i32
// CHECK-NEXT: %[[REVS:.+]] = tt.splat %[[REV]] : i32 -> tensor<1024xi32
// CHECK-NEXT: %[[STEP:.+]] = arith.muli %[[REVS]], %[[CHUNK:.+]] : tensor<1024xi32
// CHECK-NEXT: %[[PTR:.+]] = tt.addptr %[[START]], %[[STEP]]
// CHECK-NEXT: %[[REV64:.+]] = arith.extsi %[[REV]] : i32 to i64
// CHECK-NEXT: %[[OSTEP:.+]] = arith.muli %[[REV64]], %[[C1024:.+]] : i64
// CHECK-NEXT: %[[OFF:.+]] = arith.addi %[[O0]], %[[OSTEP]] : i64
// CHECK-NEXT: tt.load %[[PTR]]
// CHECK: tt.splat %[[OFF]] : i64
// CHECK: tt.addptr %[[P]], %[[CHUNK]]
// CHECK: arith.addi %[[O]], %[[C1024]] : i64
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @carried_inductions(%x_base: !tt.ptr<f16>, %y_base: !tt.ptr<f16>, %chunks: i32, %stride: i32) {
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x = tt.addptr %x_base, %row_off : !tt.ptr<f16>, i32
    %y = tt.addptr %y_base, %row_off : !tt.ptr<f16>, i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c0_i64 = arith.constant 0 : i64
    %c1024_i64 = arith.constant 1024 : i64
    %chunk = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %cols64 = arith.extsi %cols : tensor<1024xi32, #blocked> to tensor<1024xi64, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %start = tt.addptr %xs, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %s:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %start, %acc = %zero) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      %q = tt.addptr %p, %chunk : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %q, %next : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>
    }
    %t:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %start, %o = %c0_i64) -> (tensor<1024x!tt.ptr<f16>, #blocked>, i64) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %r = arith.subf %v, %s#1 : tensor<1024xf16, #blocked>
      %os = tt.splat %o : i64 -> tensor<1024xi64, #blocked>
      %idx = arith.addi %os, %cols64 : tensor<1024xi64, #blocked>
      %py = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi64, #blocked>
      tt.store %py, %r : tensor<1024x!tt.ptr<f16>, #blocked>
      %q = tt.addptr %p, %chunk : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %o2 = arith.addi %o, %c1024_i64 : i64
      scf.yield %q, %o2 : tensor<1024x!tt.ptr<f16>, #blocked>, i64
    }
    tt.return
  }
}
