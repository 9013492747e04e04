// RUN: ttpipe-opt %s -p ttpipe-full-tile-versions | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-full-tile-versions --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// A block of a flat tensor whose size n has no known divisor: the mask's runs are one element
// long, the pointer's eight. The load and the store run unmasked where the block's last lane
// (pid * 1024 + 1023) is below n and no lane's offset wraps.
// REMARK: versions.mlir:[[# @LINE + 32]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 2 accesses
// CHECK-LABEL: tt.func @pointwise(
// CHECK:         %[[BASE:.+]] = arith.muli
// CHECK:         %[[MASK:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<1024xi32, #blocked>
// CHECK:         %[[MAXBASE:.+]] = arith.constant 2147482624 : i32
// CHECK-NEXT:    %[[NOWRAP:.+]] = arith.cmpi sle, %[[BASE]], %[[MAXBASE]] : i32
// CHECK-NEXT:    %[[LAST:.+]] = arith.constant 1023 : i32
// CHECK-NEXT:    %[[TOP:.+]] = arith.addi %[[BASE]], %[[LAST]] : i32
// CHECK-NEXT:    %[[INSIDE:.+]] = arith.cmpi slt, %[[TOP]], %arg2 : i32
// CHECK-NEXT:    %[[OK:.+]] = arith.andi %[[NOWRAP]], %[[INSIDE]] : i1
// CHECK-NEXT:    scf.if %[[OK]] {
// CHECK-NEXT:      %[[X:.+]] = tt.load %{{.+}} : tensor<1024x!tt.ptr<bf16>, #blocked>
// CHECK:           tt.store %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<bf16>, #blocked>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tt.load %{{.+}}, %[[MASK]], %{{.+}} : tensor<1024x!tt.ptr<bf16>, #blocked>
// CHECK:           tt.store %{{.+}}, %{{.+}}, %[[MASK]] : tensor<1024x!tt.ptr<bf16>, #blocked>
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @pointwise(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xbf16, #blocked>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %mask, %zero : tensor<1024x!tt.ptr<bf16>, #blocked>
    %w = arith.addf %v, %v : tensor<1024xbf16, #blocked>
    %ys = tt.splat %y : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %yp, %w, %mask : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }

  // A loop over a row's chunks, the bound written n >= offs (sge: inclusive, the operands
  // swapped), the loaded chunk read after the span by the accumulation: the scf.if yields it.
  // REMARK: versions.mlir:[[# @LINE + 26]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 1 access
  // CHECK-LABEL: tt.func @row_loop(
  // CHECK:         scf.for %[[OFF:.+]] = {{.+}} iter_args(%[[ACC:.+]] = {{.+}}) -> (tensor<1024xf32, #blocked>)
  // CHECK:           %[[TOP:.+]] = arith.addi %[[OFF]], %{{.+}} : i32
  // CHECK-NEXT:      %[[INSIDE:.+]] = arith.cmpi sle, %[[TOP]], %arg1 : i32
  // CHECK:           %[[CHUNK:.+]] = scf.if %{{.+}} -> (tensor<1024xf32, #blocked>) {
  // CHECK-NEXT:        %[[FULL:.+]] = tt.load %{{.+}} : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:        scf.yield %[[FULL]] : tensor<1024xf32, #blocked>
  // CHECK-NEXT:      } else {
  // CHECK-NEXT:        %[[PART:.+]] = tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:        scf.yield %[[PART]] : tensor<1024xf32, #blocked>
  // CHECK-NEXT:      }
  // CHECK-NEXT:      %[[SUM:.+]] = arith.addf %[[ACC]], %[[CHUNK]] : tensor<1024xf32, #blocked>
  // CHECK-NEXT:      scf.yield %[[SUM]] : tensor<1024xf32, #blocked>
  tt.func @row_loop(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf32, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>)  : i32 {
      %offs_base = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %offs = arith.addi %range, %offs_base : tensor<1024xi32, #blocked>
      %mask = arith.cmpi sge, %ns, %offs : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %mask, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
      %next = arith.addf %acc, %v : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    tt.return %sum : tensor<1024xf32, #blocked>
  }

  // A loaded tile read inside the span (by the store) and after it (by the return): the
  // store in each version reads its own version's tile, the return the scf.if's result.
  // REMARK: versions.mlir:[[# @LINE + 23]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 2 accesses
  // CHECK-LABEL: tt.func @read_after(
  // CHECK:         %[[TILE:.+]] = scf.if %{{.+}} -> (tensor<1024xf32, #blocked>) {
  // CHECK-NEXT:      %[[FULL:.+]] = tt.load %{{.+}} : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:      tt.store %{{.+}}, %[[FULL]] : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:      scf.yield %[[FULL]] : tensor<1024xf32, #blocked>
  // CHECK-NEXT:    } else {
  // CHECK-NEXT:      %[[PART:.+]] = tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:      tt.store %{{.+}}, %[[PART]], %{{.+}} : tensor<1024x!tt.ptr<f32>, #blocked>
  // CHECK-NEXT:      scf.yield %[[PART]] : tensor<1024xf32, #blocked>
  // CHECK-NEXT:    }
  // CHECK-NEXT:    tt.return %[[TILE]] : tensor<1024xf32, #blocked>
  tt.func @read_after(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %base: i32 {tt.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf32, #blocked> {
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %ys, %offs : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %xp, %mask, %zero : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.store %yp, %v, %mask : tensor<1024x!tt.ptr<f32>, #blocked>
    tt.return %v : tensor<1024xf32, #blocked>
  }

  // A loop unrolled by two: each copy's accesses are versioned on their own bound.
  // REMARK: versions.mlir:[[# @LINE + 20]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 1 access
  // REMARK: versions.mlir:[[# @LINE + 25]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 1 access
  // CHECK-LABEL: tt.func @unrolled(
  // CHECK:         scf.for
  // CHECK-COUNT-2:   scf.if
  // CHECK-NOT:       scf.if
  // CHECK:         tt.return
  tt.func @unrolled(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %c2048 = arith.constant 2048 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<1024xf32, #blocked>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    scf.for %off = %c0 to %n step %c2048  : i32 {
      %b0 = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %o0 = arith.addi %b0, %range : tensor<1024xi32, #blocked>
      %m0 = arith.cmpi slt, %o0, %ns : tensor<1024xi32, #blocked>
      %p0 = tt.addptr %xs, %o0 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %p0, %one, %m0 : tensor<1024x!tt.ptr<f32>, #blocked>
      %off1 = arith.addi %off, %c1024 : i32
      %b1 = tt.splat %off1 : i32 -> tensor<1024xi32, #blocked>
      %o1 = arith.addi %b1, %range : tensor<1024xi32, #blocked>
      %m1 = arith.cmpi slt, %o1, %ns : tensor<1024xi32, #blocked>
      %p1 = tt.addptr %xs, %o1 : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %p1, %one, %m1 : tensor<1024x!tt.ptr<f32>, #blocked>
    }
    tt.return
  }

  // 64-bit offsets (the range sign-extended): the condition in i64.
  // REMARK: versions.mlir:[[# @LINE + 15]]:{{[0-9]+}}: remark: unmasked in a version of their own where the tile lies inside the bound: 1 access
  // CHECK-LABEL: tt.func @wide_offsets(
  // CHECK:         arith.constant 9223372036854774784 : i64
  // CHECK:         arith.cmpi slt, %{{.+}}, %arg2 : i64
  // CHECK:         scf.if
  tt.func @wide_offsets(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %base: i64 {tt.divisibility = 16 : i32}, %n: i64) {
    %one = arith.constant dense<1.000000e+00> : tensor<1024xbf16, #blocked>
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %wide = arith.extsi %range : tensor<1024xi32, #blocked> to tensor<1024xi64, #blocked>
    %bases = tt.splat %base : i64 -> tensor<1024xi64, #blocked>
    %offs = arith.addi %bases, %wide : tensor<1024xi64, #blocked>
    %ns = tt.splat %n : i64 -> tensor<1024xi64, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi64, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi64, #blocked>
    tt.store %p, %one, %mask : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}
