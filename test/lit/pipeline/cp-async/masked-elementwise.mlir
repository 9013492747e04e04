// A loop without a dot pipelines only when asked (`tt.num_stages`): here an elementwise add of
// two masked rows per iteration, loads two iterations ahead of the add and the store.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// Predication: a copy issued ahead keeps its own mask, and-ed with "this iteration exists"
// (start < n in the prologue, start < n - 1024 in the loop). The offsets and the mask the
// store needs two stages later are carried by the loop in rotating iteration arguments, so
// the store of iteration i reads the values computed for it two iterations earlier.
// CHECK-LABEL: tt.func @add_rows
// CHECK-SAME: (%{{[^:]+}}: !tt.ptr<f32>{{.*}}, %{{[^:]+}}: !tt.ptr<f32>{{.*}}, %[[OUT:[^:]+]]: !tt.ptr<f32>{{.*}}, %[[N:[^:]+]]: i32 {tt.divisibility = 16 : i32}
// CHECK-DAG: %[[C1024:.+]] = arith.constant 1024 : i32
// CHECK-DAG: %[[OUTS:.+]] = tt.splat %[[OUT]]
// CHECK-DAG: %[[X_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32
// CHECK-DAG: %[[Y_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32
// Prologue, iteration 0.
// CHECK: %[[RUN0:.+]] = arith.cmpi sgt, %[[N]], %{{.+}} : i32
// CHECK: %[[MASK0:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<512xi32
// CHECK: %[[RUN0S:.+]] = tt.splat %[[RUN0]] : i1 -> tensor<512xi1
// CHECK: %[[PRED0:.+]] = arith.andi %[[RUN0S]], %[[MASK0]]
// CHECK: %[[CP0:.+]] = ttg.async_copy_global_to_local %{{.+}}, %{{.+}} mask %[[PRED0]]
// CHECK: ttg.async_commit_group tokens %[[CP0]]
// CHECK: ttg.async_copy_global_to_local
// CHECK: ttg.async_commit_group
// Prologue, iteration 1.
// CHECK: %[[OFFS1:.+]] = arith.addi
// CHECK: %[[MASK1:.+]] = arith.cmpi slt, %[[OFFS1]]
// CHECK-COUNT-2: ttg.async_commit_group
// Kernel.
// CHECK: scf.for %[[START:[^ ]+]] = {{.*}} iter_args({{.*}}, %[[OFFS_NOW:[^ ]+]] = %{{[^,]+}}, %[[OFFS_NEXT:[^ ]+]] = %[[OFFS1]], %[[MASK_NOW:[^ ]+]] = %[[MASK0]], %[[MASK_NEXT:[^ ]+]] = %[[MASK1]])
// CHECK: %[[LAST:.+]] = arith.subi %[[N]], %[[C1024]] : i32
// CHECK: %[[MORE:.+]] = arith.cmpi slt, %[[START]], %[[LAST]] : i32
// CHECK: %[[READY:.+]] = ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: %[[XV:.+]] = ttg.local_load %{{.+}} token %[[READY]]
// CHECK: %[[YV:.+]] = ttg.local_load %{{.+}} token %[[READY]]
// CHECK: %[[SUM:.+]] = arith.addf %[[XV]], %[[YV]]
// CHECK: %[[OP:.+]] = tt.addptr %[[OUTS]], %[[OFFS_NOW]]
// CHECK: tt.store %[[OP]], %[[SUM]], %[[MASK_NOW]]
// CHECK: %[[AHEAD:.+]] = arith.addi %[[START]], %[[C1024]] : i32
// CHECK: %[[OFFS2:.+]] = arith.addi
// CHECK: %[[MASK2:.+]] = arith.cmpi slt, %[[OFFS2]]
// CHECK: %[[MORES:.+]] = tt.splat %[[MORE]] : i1 -> tensor<512xi1
// CHECK: arith.andi %[[MORES]], %[[MASK2]]
// CHECK: scf.yield {{.*}}, %[[OFFS_NEXT]], %[[OFFS2]], %[[MASK_NEXT]], %[[MASK2]] :
// CHECK: ttg.async_wait {num = 0 : i32}
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @add_rows(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %len: i32) {
    %c0 = arith.constant 0 : i32
    %c512 = arith.constant 512 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blk>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blk>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blk>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blk>
    %lens = tt.splat %len : i32 -> tensor<512xi32, #blk>
    scf.for %start = %c0 to %n step %c512 : i32 {
      %starts = tt.splat %start : i32 -> tensor<512xi32, #blk>
      %offs = arith.addi %starts, %range : tensor<512xi32, #blk>
      %mask = arith.cmpi slt, %offs, %lens : tensor<512xi32, #blk>
      %xp = tt.addptr %xs, %offs : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %xv = tt.load %xp, %mask : tensor<512x!tt.ptr<f32>, #blk>
      %yp = tt.addptr %ys, %offs : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %yv = tt.load %yp, %mask : tensor<512x!tt.ptr<f32>, #blk>
      %sum = arith.addf %xv, %yv : tensor<512xf32, #blk>
      %op = tt.addptr %os, %offs : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      tt.store %op, %sum, %mask : tensor<512x!tt.ptr<f32>, #blk>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}
