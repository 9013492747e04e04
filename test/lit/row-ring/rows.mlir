// RUN: ttpipe-opt %s -p ttpipe-row-ring | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-row-ring,ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty
// RUN: ttpipe-opt %s -p 'ttpipe-row-ring{consumers=2}' | filecheck %s --check-prefix=TWO
// RUN: ttpipe-opt %s -p 'ttpipe-row-ring{consumers=2}',ttpipe-verify-async 2>&1 >/dev/null | filecheck %s --check-prefix=VERIFIED --allow-empty
// RUN: ttpipe-opt %s -p 'ttgir-sm90{row-ring=true num-warps=8}' -o /dev/null
// RUN: not ttpipe-opt %s -p 'ttpipe-row-ring,ttpipe-plant-async-mutant{operator=drop-fence site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=UNFENCED

// The ring version passes the async-protocol check, with one consumer or two. Without the
// proxy fence before a slot's release, the refill's TMA copy is not ordered after the
// consumer's reads through the async proxy (on the GPU: rows wrong in the chunks read last).
// VERIFIED-NOT: error
// UNFENCED: error: the TMA copy overwrites slot [0] of the 48x2048xf16 shared memory after local_load of another thread with no fence.proxy.async (ttng.fence_async_shared) between{{.*}}[proxy-fence]

// A row summed, then divided by its sum and stored (one row per program; f16 chunks of 2048
// elements, 4 KB: slots of 4 chunks, 12 slots in 192 KB). At the start: the row fills at most
// the ring less its 2 stream slots (10 slots), the stride is not negative, the 1-D view of
// every row fits i32 coordinates, its base is 16-byte aligned, and y's rows lie clear of x's or
// on them (in place). Then the programs past 132 do nothing; the others allocate the ring (48
// chunks; a full and an empty mbarrier a slot), make one descriptor for every row, and
// split. No loop reduces across warps, so one consumer: the kernel's warps walk rows pid,
// pid + 132, ...: both loops run in steps of a slot (the body 4 times: whole slots, every
// chunk inside the row, so the masks `cols < n` hold and go: no select, no masked store),
// then the row's last chunks (fewer than a slot) as one more step of 4 copies, copy c in an
// scf.if on chunk c being in the row, nested in copy c - 1's. In the steps, the first loop
// waits for the slot's full mbarrier once and reads its 4 chunks; the second reads them,
// fences the reads (generic proxy) before the producer's next TMA writes (async proxy),
// arrives on its empty mbarrier between two barriers of every warp, then computes and stores
// the 4 chunks. In the last step the same, in the first copy's scf.if; the masks stay there:
// the first loop's select -inf past the row (the box reads into the next row), the second's
// stores are masked. One warp, for each slot of each row, waits
// for its empty mbarrier (phase flipped), expects its 16384 bytes and copies its 4 chunks,
// those past the row from past the view's end. The else branch: the body as written.
// CHECK-LABEL: tt.func @row_twice(
// CHECK: %[[PID:.+]] = tt.get_program_id x
// CHECK: %[[G:.+]] = tt.get_num_programs x
// CHECK: arith.cmpi sle, %{{.+}}, %c10_i32
// CHECK: tt.ptr_to_int
// CHECK: arith.remsi %{{.+}}, %c16_i64
// CHECK: scf.if %{{.+}} {
// CHECK: %[[RESIDENT:.+]] = arith.cmpi slt, %[[PID]], %c132_i32
// CHECK: scf.if %[[RESIDENT]] {
// CHECK: %[[RING:.+]] = ttg.local_alloc : () -> !ttg.memdesc<48x2048xf16
// CHECK: %[[FULL:.+]] = ttg.local_alloc : () -> !ttg.memdesc<12x1xi64
// CHECK-COUNT-12: ttng.init_barrier
// CHECK: %[[EMPTY:.+]] = ttg.local_alloc : () -> !ttg.memdesc<12x1xi64
// CHECK: %[[EXTENT:.+]] = arith.trunci %[[ELEMENTS:.+]] : i64 to i32
// The coordinate past the view's end, rounded up to 16 bytes (8 f16 elements): TMA takes no
// other (the view of rows at a stride longer than their extent ends anywhere).
// CHECK: %[[ROUNDED:.+]] = arith.addi %[[ELEMENTS]], %{{.+}} : i64
// CHECK-NEXT: %[[ALIGNS:.+]] = arith.divsi %[[ROUNDED]], %c8_i64 : i64
// CHECK-NEXT: %[[ALIGNED:.+]] = arith.muli %[[ALIGNS]], %c8_i64 : i64
// CHECK-NEXT: arith.trunci %[[ALIGNED]] : i64 to i32
// CHECK: %[[DESC:.+]] = tt.make_tensor_descriptor %{{.+}}, [%[[EXTENT]]]
// CHECK: gpu.barrier
// CHECK: ttg.warp_specialize(
// CHECK-NEXT: default {
// CHECK: scf.for %[[ROW:.+]] = %[[PID]] to %[[G]] step %c132_i32{{.*}} iter_args(%[[COUNT:.+]] = %c0_i32
// CHECK: scf.for %{{.+}} = %c0_i32{{.*}} to %{{.+}} step %c8192_i32 iter_args
// CHECK-NOT: {{scf.if|arith.select}}
// CHECK: ttng.wait_barrier
// CHECK: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|arith.select}}
// CHECK: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|arith.select}}
// CHECK: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|arith.select}}
// CHECK: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|arith.select}}
// CHECK: scf.yield
// CHECK: %[[LAST:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : i64
// CHECK-NEXT: scf.if %[[LAST]] -> (tensor<2048xf32
// CHECK-NOT: scf.if
// CHECK: ttng.wait_barrier
// CHECK-COUNT-4: %{{.+}} = ttg.local_load
// CHECK-NOT: scf.if
// CHECK: %[[X1:.+]] = arith.select
// CHECK-COUNT-3: scf.if %{{.+}} -> (tensor<2048xf32
// CHECK-NOT: {{ttng.wait_barrier|ttg.local_load}}
// CHECK: } else {
// CHECK: scf.for %{{.+}} = %c0_i32{{.*}} to %{{.+}} step %c8192_i32
// CHECK-NOT: {{ttng.wait_barrier|arith.select|scf.if|ttng.arrive_barrier|tt.store}}
// CHECK-COUNT-4: ttg.local_load
// CHECK-NOT: {{ttng.wait_barrier|arith.select|scf.if|ttng.arrive_barrier|gpu.barrier}}
// CHECK-COUNT-4: tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: ttng.arrive_barrier %{{.+}}, 1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: }
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: ttng.wait_barrier
// CHECK-COUNT-4: ttg.local_load
// CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT: gpu.barrier
// CHECK: ttng.arrive_barrier %{{.+}}, 1
// CHECK-NEXT: gpu.barrier
// CHECK: arith.select
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor
// CHECK-COUNT-3: scf.if %{{.+}} {
// CHECK-NOT: {{ttng.wait_barrier|ttng.arrive_barrier|ttg.local_load}}
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} : tensor
// CHECK: ttg.warp_yield
// CHECK: partition0(
// CHECK-SAME: num_warps(1)
// CHECK: scf.for
// CHECK: scf.for
// CHECK: arith.xori
// CHECK: ttng.wait_barrier
// CHECK: ttng.barrier_expect %{{.+}}, 16384
// A chunk past the row's last is copied from the aligned coordinate past the end.
// CHECK: %[[COORDINATE:.+]] = arith.select %{{.+}}, %{{.+}}, %[[PAST_END:arg[0-9]+]] : i32
// CHECK: ttng.async_tma_copy_global_to_local %{{.+}}[%[[COORDINATE]]]
// CHECK-COUNT-3: ttng.async_tma_copy_global_to_local
// CHECK: ttg.warp_return
// CHECK: ttng.inval_barrier
// CHECK: ttg.local_dealloc
// CHECK: } else {
// CHECK: tt.load
// CHECK: tt.load
// CHECK: tt.store

// Forced to two consumers: the second is a partition of the kernel's 8 warps taking the odd
// rows (from pid + 132, every 264th), its slot count starting a row's slots later.
// TWO-LABEL: tt.func @row_twice(
// TWO: ttg.warp_specialize(
// TWO: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c264_i32{{.*}} iter_args(%{{.+}} = %c0_i32
// TWO: partition0(
// TWO-SAME: num_warps(8)
// TWO: %[[FIRST:.+]] = arith.addi %{{.+}}, %c132_i32
// TWO: scf.for %{{.+}} = %[[FIRST]] to %{{.+}} step %c264_i32{{.*}} iter_args(%{{.+}} = %arg{{[0-9]+}})
// TWO: partition1(
// TWO-SAME: num_warps(1)
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_twice(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %stride: i32 {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf32, #blocked>
    %other = arith.constant dense<0xFC00> : tensor<2048xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
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
    tt.return
  }
}
