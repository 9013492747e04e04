// RUN: ttpipe-opt %s -p ttpipe-merge-reductions | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-merge-reductions --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK --allow-empty

// Reductions the pass leaves apart: nothing here is merged.
// REMARK-NOT: remark

// The second operand is loaded after the first reduction: the load may not move before it.
// CHECK-LABEL: tt.func @load_between(
// CHECK-COUNT-2: "tt.reduce"(%{{[^,]+}})
// The second reduction reads the first one's result.
// CHECK-LABEL: tt.func @dependent(
// CHECK-COUNT-2: "tt.reduce"(%{{[^,]+}})
// Rows of a [8, 128] tile, each warp holding whole rows: shuffles only, no barrier to save.
// CHECK-LABEL: tt.func @within_warps(
// CHECK-COUNT-2: "tt.reduce"(%{{[^,]+}})
// Different axes of one tile.
// CHECK-LABEL: tt.func @other_axis(
// CHECK-COUNT-2: "tt.reduce"(%{{[^,]+}})
// In different blocks (one in an scf.if).
// CHECK-LABEL: tt.func @other_block(
// CHECK-COUNT-2: "tt.reduce"(%{{[^,]+}})
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#rows = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
#tile = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @load_between(%x: !tt.ptr<f32>) -> (f32, f32) {
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>, #blocked>
    %p = tt.addptr %xs, %cols : tensor<1024x!tt.ptr<f32>, #blocked>, tensor<1024xi32, #blocked>
    %a = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked>
    %ra = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %b = tt.load %p : tensor<1024x!tt.ptr<f32>, #blocked>
    %rb = "tt.reduce"(%b) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    tt.return %ra, %rb : f32, f32
  }
  tt.func @dependent(%a: tensor<1024xf32, #blocked>) -> f32 {
    %ra = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.maxnumf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %t = tt.splat %ra : f32 -> tensor<1024xf32, #blocked>
    %d = arith.subf %a, %t : tensor<1024xf32, #blocked>
    %rb = "tt.reduce"(%d) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    tt.return %rb : f32
  }
  tt.func @within_warps(%a: tensor<8x128xf32, #rows>, %b: tensor<8x128xf32, #rows>) -> (tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>, tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>) {
    %ra = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<8x128xf32, #rows>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>
    %rb = "tt.reduce"(%b) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<8x128xf32, #rows>) -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>
    tt.return %ra, %rb : tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>, tensor<8xf32, #ttg.slice<{dim = 1, parent = #rows}>>
  }
  tt.func @other_axis(%a: tensor<64x64xf32, #tile>) -> (tensor<64xf32, #ttg.slice<{dim = 0, parent = #tile}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #tile}>>) {
    %ra = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x64xf32, #tile>) -> tensor<64xf32, #ttg.slice<{dim = 0, parent = #tile}>>
    %rb = "tt.reduce"(%a) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x64xf32, #tile>) -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #tile}>>
    tt.return %ra, %rb : tensor<64xf32, #ttg.slice<{dim = 0, parent = #tile}>>, tensor<64xf32, #ttg.slice<{dim = 1, parent = #tile}>>
  }
  tt.func @other_block(%a: tensor<1024xf32, #blocked>, %c: i1) -> f32 {
    %ra = "tt.reduce"(%a) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      tt.reduce.return %s : f32
    }) : (tensor<1024xf32, #blocked>) -> f32
    %r = scf.if %c -> (f32) {
      %rb = "tt.reduce"(%a) <{axis = 0 : i32}> ({
      ^bb0(%l: f32, %r: f32):
        %s = arith.maxnumf %l, %r : f32
        tt.reduce.return %s : f32
      }) : (tensor<1024xf32, #blocked>) -> f32
      scf.yield %rb : f32
    } else {
      scf.yield %ra : f32
    }
    tt.return %r : f32
  }
}
