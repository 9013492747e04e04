// An indirect load: each iteration loads a row index, then the row it names. The whole
// pipeliner pipelines both loads, the index load first.
// RUN: ttpipe-opt %s -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' | filecheck %s

// With `tt.num_stages = 3` each load gets latency 2: the index load runs in stage 0, the row
// load in stage 2 (once its index is back) and the add in stage 4. Each ring is as deep as
// the distance from its producer to its consumer: two slots. The 32-bit index is copied as a
// one-element tensor and read back with local_load + unsplat to form the row's address. The
// prologue issues the index loads of iterations 0..3 and the row loads of iterations 0..1;
// the loop issues the row load of i + 2 and the index load of i + 4, each predicated on its
// iteration existing.
// CHECK-LABEL: tt.func @gather_rows
// CHECK-SAME: (%[[IDX:[^:]+]]: !tt.ptr<i32>{{.*}}, %[[TABLE:[^:]+]]: !tt.ptr<f32>{{.*}}, %{{[^:]+}}: !tt.ptr<f32>{{.*}}, %[[N:[^:]+]]: i32
// CHECK: %[[IDX_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi32
// CHECK: %[[ROW_RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<2x512xf32
// CHECK: %[[IDX_PTRS:.+]] = tt.splat %[[IDX]] : !tt.ptr<i32> -> tensor<1x!tt.ptr<i32>
// CHECK: ttg.async_copy_global_to_local %[[IDX_PTRS]],
// CHECK: ttg.async_copy_global_to_local %{{.+}} : tensor<1x!tt.ptr<i32>
// First row load of the prologue, from index 0.
// CHECK: %[[I0:.+]] = ttg.local_load %{{.+}} token %{{.+}} : !ttg.memdesc<1xi32{{.*}}> -> tensor<1xi32
// CHECK: %[[ROW0:.+]] = tt.unsplat %[[I0]]
// CHECK: %[[BASE0:.+]] = tt.addptr %[[TABLE]], %[[ROW0]]
// CHECK: ttg.async_copy_global_to_local %{{.+}} : tensor<512x!tt.ptr<f32>
// CHECK: ttg.async_copy_global_to_local %{{.+}} : tensor<1x!tt.ptr<i32>
// CHECK: ttg.async_copy_global_to_local %{{.+}} : tensor<512x!tt.ptr<f32>
// CHECK: ttg.async_copy_global_to_local %{{.+}} : tensor<1x!tt.ptr<i32>
// CHECK-NOT: ttg.async_copy_global_to_local
// CHECK: scf.for %[[I:[^ ]+]] = {{.*}} iter_args(%[[ACC:[^ ]+]] = %{{[^,]+}},
// CHECK: %[[IDX_LAST:.+]] = arith.subi %[[N]], %{{.+}} : i32
// CHECK: %[[IDX_MORE:.+]] = arith.cmpi slt, %[[I]], %[[IDX_LAST]] : i32
// CHECK: %[[ROW_LAST:.+]] = arith.subi %[[N]], %{{.+}} : i32
// CHECK: %[[ROW_MORE:.+]] = arith.cmpi slt, %[[I]], %[[ROW_LAST]] : i32
// CHECK: %[[READY:.+]] = ttg.async_wait %{{.+}}, %{{.+}} {num = 2 : i32}
// CHECK: %[[ROW:.+]] = ttg.local_load %{{.+}} token %[[READY]] : !ttg.memdesc<512xf32
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[ROW]]
// CHECK: %[[NEXT_IDX:.+]] = ttg.local_load %{{.+}} token %[[READY]] : !ttg.memdesc<1xi32
// CHECK: %[[NEXT_ROW:.+]] = tt.unsplat %[[NEXT_IDX]]
// CHECK: tt.addptr %[[TABLE]], %[[NEXT_ROW]]
// CHECK: %[[ROW_MASK:.+]] = tt.splat %[[ROW_MORE]] : i1 -> tensor<512xi1
// CHECK: ttg.async_copy_global_to_local %{{.+}}, %{{.+}} mask %[[ROW_MASK]]
// CHECK: %[[IDX_MASK:.+]] = tt.splat %[[IDX_MORE]] : i1 -> tensor<1xi1
// CHECK: ttg.async_copy_global_to_local %{{.+}}, %{{.+}} mask %[[IDX_MASK]]
// CHECK: scf.yield %[[SUM]],
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @gather_rows(%idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %table: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %range = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #blk>
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blk>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #blk>) : i32 {
      %ip = tt.addptr %idx, %i : !tt.ptr<i32>, i32
      %row = tt.load %ip : !tt.ptr<i32>
      %row512 = arith.muli %row, %c1 : i32
      %base = tt.addptr %table, %row512 : !tt.ptr<f32>, i32
      %bases = tt.splat %base : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blk>
      %ptrs = tt.addptr %bases, %range : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %v = tt.load %ptrs : tensor<512x!tt.ptr<f32>, #blk>
      %s = arith.addf %acc, %v : tensor<512xf32, #blk>
      scf.yield %s : tensor<512xf32, #blk>
    } {tt.num_stages = 3 : i32}
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #blk>
    %op = tt.addptr %os, %range : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
    tt.store %op, %r : tensor<512x!tt.ptr<f32>, #blk>
    tt.return
  }
}
