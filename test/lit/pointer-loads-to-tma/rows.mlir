// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-pointer-loads-to-tma
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-pointer-loads-to-tma 2>/dev/null | filecheck %s

// Loads in loops the pass rewrites or leaves, each left one with a remark saying why.

// A row walked in 1024-element chunks (a looped reduction): a 1-D box of the row
// x + row * stride (the base moves by the scope-invariant row offset), extent n, at coordinate
// off.
// CHECK-LABEL: tt.func @row_sum(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: !tt.ptr<f16> {{[^,]*}}, %[[STRIDE:[a-z0-9_]+]]: i32 {{[^,]*}}, %[[N:[a-z0-9_]+]]: i32
// CHECK: %[[ROW:.+]] = tt.get_program_id x : i32
// CHECK: %[[OFF:.+]] = arith.muli %[[ROW]], %[[STRIDE]] : i32
// CHECK: %[[OFF64:.+]] = arith.extsi %[[OFF]] : i32 to i64
// CHECK: %[[BASE:.+]] = tt.addptr %[[X]], %[[OFF64]] : !tt.ptr<f16>, i64
// A tensormap's extent must be >= 1: n is clamped to 1, and where n < 1 (an empty row, which
// the masked load reads as zeros everywhere) the coordinate moves past it.
// CHECK: %[[EMPTY:.+]] = arith.cmpi slt, %[[N]], %c1_i32 : i32
// CHECK-NEXT: %[[EXTENT:.+]] = arith.maxsi %[[N]], %c1_i32 : i32
// CHECK: %[[DESC:.+]] = tt.make_tensor_descriptor %[[BASE]], [%[[EXTENT]]], [%c1_i64] : <f16>, <tensor<1024xf16, #shared>>
// CHECK: scf.for %[[COL:[a-z0-9_]+]] = %c0{{.*}} to %[[N]] step %c1024{{.*}} iter_args(%{{[a-z0-9_]+}} = %{{[a-z0-9_]+}}) -> (tensor<1024xf32, #blocked>)
// CHECK: %[[AT:.+]] = arith.select %[[EMPTY]], %c1073741824_i32, %[[COL]] : i32
// CHECK-NEXT: %[[V:.+]] = tt.descriptor_load %[[DESC]][%[[AT]]] : !tt.tensordesc<tensor<1024xf16, #shared>> -> tensor<1024xf16, #blocked>
// CHECK-NEXT: arith.extf %[[V]]
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_sum(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A load whose masked-off elements read -inf: TMA fills zeros, so the loaded value is
// selected with -inf where the mask is false.
// CHECK-LABEL: tt.func @other_not_zero(
// CHECK: %[[NINF:.+]] = arith.constant dense<0xFC00> : tensor<1024xf16, #blocked>
// CHECK: scf.for
// CHECK: %[[IN:.+]] = arith.cmpi slt
// CHECK: %[[V:.+]] = tt.descriptor_load
// CHECK-NEXT: %[[X:.+]] = arith.select %[[IN]], %[[V]], %[[NINF]] : tensor<1024xi1, #blocked>, tensor<1024xf16, #blocked>
// CHECK-NEXT: arith.extf %[[X]]
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @other_not_zero(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0xFC00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Every other element: no dimension of stride 1.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @strided(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %two = arith.constant dense<2> : tensor<1024xi32, #blocked>
      %even = arith.muli %idx, %two : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %even, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %even : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: a mask comparison that is not one tile dimension's index against a uniform value}}
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Every other element, unmasked: no dimension of stride 1.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @strided_unmasked(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %two = arith.constant dense<2> : tensor<1024xi32, #blocked>
      %even = arith.muli %idx, %two : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %even : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: no single tile dimension with stride 1 (TMA's innermost dimension is contiguous)}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A gather: the index of each element squared.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %sq = arith.muli %idx, %idx : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %sq : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: a product of two tile indices ('arith.muli') in an address}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A row stride not known to be a multiple of 8 elements: the row's base address may
// not be 16-byte aligned.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unaligned_rows(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 , %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: the base address is known aligned to 2 bytes; TMA needs 16}}
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A mask of one element left out: not a box.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_a_box(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi ne, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: a mask comparison 'ne' (only signed <, <=, >, >= bound a TMA box)}}
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// Indices kept in bounds by a remainder: past n they read the row's start again, where
// TMA would read zeros; this pass alone cannot tell whether the kernel discards those.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @wrapped(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %wrapped = arith.remsi %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %base, %wrapped : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: its indices are kept in bounds by remsi/select, and the elements past the bound are not shown to be discarded}}
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}

// -----

// A mask the same for the whole tile: no bound TMA can express.
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @uniform_mask(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32, %out: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %base = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %go = arith.cmpi slt, %off, %n : i32
      %in = tt.splat %go : i1 -> tensor<1024xi1, #blocked>
      %p = tt.addptr %base, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      // expected-remark @below {{load not turned into a TMA load: a mask that is not a conjunction of bounds on the tile's indices}}
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    %total = "tt.reduce"(%sum) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %o = tt.addptr %out, %row : !tt.ptr<f32>, i32
    tt.store %o, %total : !tt.ptr<f32>
    tt.return
  }
}
