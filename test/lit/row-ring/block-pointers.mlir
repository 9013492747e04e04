// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty

// A row written with block pointers, as Triton lowers `tl.make_block_ptr(x, (rows, n),
// (stride, 1), (row, 0), (1, 2048), (1, 0))` advanced a chunk per iteration: tiles of
// 1 x 2048, the column offset an i64 the loops carry, masked to [0, n) along the columns.
// The ring holds the boxes without the unit dimension (2048 elements a chunk, one 1-D
// descriptor of every row); each read loads the chunk in the row layout's slice and
// expands it back to 1 x 2048. In the runs of whole slots the offset (0, 2048, ... from the
// lower bound, advanced by the step) stays below n, so the mask holds and goes: no select,
// no masked store. In the last chunks (guarded copies) the mask selects the read (at the load: the mask
// is computed after the slot's reads) and masks the store.
// VERIFIED-NOT: error
// CHECK-LABEL: tt.func @block_pointer_rows(
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<48x2048xf16, #shared
// CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<2048xf16, #shared>>
// CHECK: ttg.warp_specialize(
// CHECK: scf.for %{{.+}} step %c8192_i32{{[_0-9]*}} iter_args(%{{.+}} = %c0_i64
// CHECK: ttng.wait_barrier
// CHECK: %[[BOX:.+]] = ttg.local_load %{{.+}} -> tensor<2048xf16, #ttg.slice<{dim = 0, parent = #blocked}>>
// CHECK: tt.expand_dims %[[BOX]] {axis = 0 : i32} : tensor<2048xf16, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x2048xf16, #blocked>
// CHECK-NOT: arith.select
// CHECK: scf.yield
// CHECK: scf.if %{{.+}} -> (tensor<1x2048xf32
// CHECK: %[[READ:.+]] = ttg.local_load
// CHECK: %[[TILE:.+]] = tt.expand_dims %[[READ]]
// CHECK: arith.select %{{.+}}, %[[TILE]], %{{.+}} : tensor<1x2048xi1, #blocked>, tensor<1x2048xf16, #blocked>
// CHECK: scf.for %{{.+}} step %c8192_i32
// CHECK-NOT: arith.select
// CHECK-COUNT-4: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor<1x2048x!tt.ptr<f16>, #blocked>
// CHECK: scf.if %{{.+}} {
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor<1x2048x!tt.ptr<f16>, #blocked>
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK: ttng.async_tma_copy_global_to_local %{{.+}}[%{{.+}}] {{.*}} -> !ttg.memdesc<2048xf16, #shared
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @block_pointer_rows(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %c0_i64 = arith.constant 0 : i64
    %c2048_i64 = arith.constant 2048 : i64
    %zeros = arith.constant dense<0> : tensor<1x2048xi64, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1x2048xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1x2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %n64 = arith.extsi %n : i32 to i64
    %stride64 = arith.extsi %stride : i32 to i64
    %row64 = arith.extsi %row : i32 to i64
    %row_off = arith.muli %row64, %stride64 : i64
    %row_offs = tt.splat %row_off : i64 -> tensor<1x2048xi64, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1x2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1x2048x!tt.ptr<f16>, #blocked>
    %cols32 = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = arith.extsi %cols32 : tensor<2048xi32, #ttg.slice<{dim = 0, parent = #blocked}>> to tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
    %ns = tt.splat %n64 : i64 -> tensor<1x2048xi64, #blocked>
    %sum:2 = scf.for %i = %c0 to %n step %c2048 iter_args(%col = %c0_i64, %acc = %zero) -> (i64, tensor<1x2048xf32, #blocked>) : i32 {
      %cs = tt.splat %col : i64 -> tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
      %c1d = arith.addi %cs, %cols : tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
      %c2d = tt.expand_dims %c1d {axis = 0 : i32} : tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x2048xi64, #blocked>
      %offs = arith.addi %row_offs, %c2d : tensor<1x2048xi64, #blocked>
      %p = tt.addptr %xs, %offs : tensor<1x2048x!tt.ptr<f16>, #blocked>, tensor<1x2048xi64, #blocked>
      %lo = arith.cmpi sge, %c2d, %zeros : tensor<1x2048xi64, #blocked>
      %hi = arith.cmpi slt, %c2d, %ns : tensor<1x2048xi64, #blocked>
      %in = arith.andi %lo, %hi : tensor<1x2048xi1, #blocked>
      %v = tt.load %p, %in, %other : tensor<1x2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1x2048xf16, #blocked> to tensor<1x2048xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1x2048xf32, #blocked>
      %col_next = arith.addi %col, %c2048_i64 : i64
      scf.yield %col_next, %next : i64, tensor<1x2048xf32, #blocked>
    }
    %flat = tt.reshape %sum#1 allow_reorder : tensor<1x2048xf32, #blocked> -> tensor<2048xf32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %total = "tt.reduce"(%flat) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<2048xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) -> f32
    %t = tt.splat %total : f32 -> tensor<1x2048xf32, #blocked>
    %last = scf.for %i = %c0 to %n step %c2048 iter_args(%col = %c0_i64) -> (i64) : i32 {
      %cs = tt.splat %col : i64 -> tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
      %c1d = arith.addi %cs, %cols : tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>>
      %c2d = tt.expand_dims %c1d {axis = 0 : i32} : tensor<2048xi64, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x2048xi64, #blocked>
      %offs = arith.addi %row_offs, %c2d : tensor<1x2048xi64, #blocked>
      %p = tt.addptr %xs, %offs : tensor<1x2048x!tt.ptr<f16>, #blocked>, tensor<1x2048xi64, #blocked>
      %lo = arith.cmpi sge, %c2d, %zeros : tensor<1x2048xi64, #blocked>
      %hi = arith.cmpi slt, %c2d, %ns : tensor<1x2048xi64, #blocked>
      %in = arith.andi %lo, %hi : tensor<1x2048xi1, #blocked>
      %v = tt.load %p, %in, %other : tensor<1x2048x!tt.ptr<f16>, #blocked>
      %f = arith.extf %v : tensor<1x2048xf16, #blocked> to tensor<1x2048xf32, #blocked>
      %o = arith.divf %f, %t : tensor<1x2048xf32, #blocked>
      %h = arith.truncf %o : tensor<1x2048xf32, #blocked> to tensor<1x2048xf16, #blocked>
      %q = tt.addptr %ys, %offs : tensor<1x2048x!tt.ptr<f16>, #blocked>, tensor<1x2048xi64, #blocked>
      tt.store %q, %h, %in : tensor<1x2048x!tt.ptr<f16>, #blocked>
      %col_next = arith.addi %col, %c2048_i64 : i64
      scf.yield %col_next : i64
    }
    tt.return
  }
}
