// ttpipe-schedule-loops with Triton's scheduler: how latencies become stages, and where the
// ops around the loads (address updates, branches, users of a tcgen05 MMA) are placed.
// RUN: ttpipe-opt %s --split-input-file --allow-unregistered-dialect --ttpipe-schedule-loops | filecheck %s

#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // Each load is issued as many stages before its user as its latency says: 2 -> stage 0,
  // 1 -> stage 1; clusters order them so that the earlier-issued load comes first.
  // CHECK-LABEL: tt.func @uneven
  // CHECK: tt.load %{{.+}} {loop.cluster = 2 : i32, loop.stage = 0 : i32}
  // CHECK: tt.load %{{.+}} {loop.cluster = 1 : i32, loop.stage = 1 : i32}
  // CHECK: arith.addf {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: tt.store {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: } {tt.scheduled_max_stage = 2 : i32}
  tt.func @uneven(%n: i32, %x: tensor<512x!tt.ptr<f32>, #blk>, %y: tensor<512x!tt.ptr<f32>, #blk>, %out: tensor<512x!tt.ptr<f32>, #blk>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %a = tt.load %x {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %b = tt.load %y {tt.latency = 1 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %s = arith.addf %a, %b : tensor<512xf32, #blk>
      tt.store %out, %s : tensor<512x!tt.ptr<f32>, #blk>
    }
    tt.return
  }
  // An address computed before its load goes with the load (stage 0, same cluster). An
  // address update after the load, only used by the next iteration's load, runs in stage 1,
  // in a cluster of its own before the users of the loads.
  // CHECK-LABEL: tt.func @pointer_updates
  // CHECK: %[[XN:.+]] = tt.addptr {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: tt.load %[[XN]] {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: tt.load %{{.+}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: arith.addf {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: arith.addf {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
  tt.func @pointer_updates(%n: i32, %x0: tensor<512x!tt.ptr<f32>, #blk>, %y0: tensor<512x!tt.ptr<f32>, #blk>, %step: tensor<512xi32, #blk>) -> tensor<512xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blk>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %x = %x0, %y = %y0) -> (tensor<512xf32, #blk>, tensor<512x!tt.ptr<f32>, #blk>, tensor<512x!tt.ptr<f32>, #blk>) : i32 {
      %xn = tt.addptr %x, %step : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %a = tt.load %xn {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %b = tt.load %y {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %s = arith.addf %a, %b : tensor<512xf32, #blk>
      %acc2 = arith.addf %acc, %s : tensor<512xf32, #blk>
      %yn = tt.addptr %y, %step : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      scf.yield %acc2, %xn, %yn : tensor<512xf32, #blk>, tensor<512x!tt.ptr<f32>, #blk>, tensor<512x!tt.ptr<f32>, #blk>
    }
    tt.return %r#0 : tensor<512xf32, #blk>
  }
  // A load without a latency is not pipelined: it runs in its user's stage, and so does the
  // update of its address; the pipelined load's address update runs a stage early.
  // CHECK-LABEL: tt.func @not_pipelined_load
  // CHECK: tt.load %{{.+}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: tt.load %{{.+}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  // CHECK: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
  // CHECK: tt.addptr {{.*}} {loop.cluster = 0 : i32, loop.stage = 2 : i32}
  tt.func @not_pipelined_load(%n: i32, %x0: tensor<512x!tt.ptr<f32>, #blk>, %y0: tensor<512x!tt.ptr<f32>, #blk>, %step: tensor<512xi32, #blk>) -> tensor<512xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blk>
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %x = %x0, %y = %y0) -> (tensor<512xf32, #blk>, tensor<512x!tt.ptr<f32>, #blk>, tensor<512x!tt.ptr<f32>, #blk>) : i32 {
      %a = tt.load %x {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %b = tt.load %y : tensor<512x!tt.ptr<f32>, #blk>
      %s = arith.addf %a, %b : tensor<512xf32, #blk>
      %acc2 = arith.addf %acc, %s : tensor<512xf32, #blk>
      %xn = tt.addptr %x, %step : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %yn = tt.addptr %y, %step : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      scf.yield %acc2, %xn, %yn : tensor<512xf32, #blk>, tensor<512x!tt.ptr<f32>, #blk>, tensor<512x!tt.ptr<f32>, #blk>
    }
    tt.return %r#0 : tensor<512xf32, #blk>
  }
  // An scf.if computing a load's address is scheduled with the first stage; one that only
  // consumes results (a conditional store) goes to the last stage, in a cluster after
  // everything else.
  // CHECK-LABEL: tt.func @branches
  // CHECK: scf.if
  // CHECK: } {loop.cluster = 0 : i32, loop.stage = 0 : i32}
  // CHECK: tt.load %{{.+}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: arith.addf {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32}
  // CHECK: scf.if
  // CHECK: tt.store
  // CHECK: } {loop.cluster = 4 : i32, loop.stage = 2 : i32}
  tt.func @branches(%n: i32, %cond: i1, %x: tensor<512x!tt.ptr<f32>, #blk>, %x2: tensor<512x!tt.ptr<f32>, #blk>, %out: tensor<512x!tt.ptr<f32>, #blk>) -> tensor<512xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blk>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #blk>) : i32 {
      %p = scf.if %cond -> tensor<512x!tt.ptr<f32>, #blk> {
        scf.yield %x : tensor<512x!tt.ptr<f32>, #blk>
      } else {
        scf.yield %x2 : tensor<512x!tt.ptr<f32>, #blk>
      }
      %a = tt.load %p {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %acc2 = arith.addf %acc, %a : tensor<512xf32, #blk>
      scf.if %cond {
        tt.store %out, %acc2 : tensor<512x!tt.ptr<f32>, #blk>
      }
      scf.yield %acc2 : tensor<512xf32, #blk>
    }
    tt.return %r : tensor<512xf32, #blk>
  }
  // An index load (latency 1) feeding a load's address (latency 2): stages 0, 1, and 3 for
  // the user; the address computation goes with the load it feeds.
  // CHECK-LABEL: tt.func @indirect
  // CHECK: tt.load %{{.+}} {loop.cluster = 3 : i32, loop.stage = 0 : i32} : tensor<512x!tt.ptr<i32>
  // CHECK: tt.addptr {{.*}} {loop.cluster = 2 : i32, loop.stage = 1 : i32}
  // CHECK: tt.load %{{.+}} {loop.cluster = 2 : i32, loop.stage = 1 : i32} : tensor<512x!tt.ptr<f32>
  // CHECK: arith.addf {{.*}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
  // CHECK: } {tt.scheduled_max_stage = 3 : i32}
  tt.func @indirect(%n: i32, %idx: tensor<512x!tt.ptr<i32>, #blk>, %table: tensor<512x!tt.ptr<f32>, #blk>) -> tensor<512xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<512xf32, #blk>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<512xf32, #blk>) : i32 {
      %j = tt.load %idx {tt.latency = 1 : i32} : tensor<512x!tt.ptr<i32>, #blk>
      %p = tt.addptr %table, %j : tensor<512x!tt.ptr<f32>, #blk>, tensor<512xi32, #blk>
      %a = tt.load %p {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>, #blk>
      %acc2 = arith.addf %acc, %a : tensor<512xf32, #blk>
      scf.yield %acc2 : tensor<512xf32, #blk>
    }
    tt.return %r : tensor<512xf32, #blk>
  }
}

// -----

#blk = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // A tcgen05 MMA of latency 1: its accumulator is read one stage after it (stage 3, in an
  // earlier cluster, so that the read of iteration i comes before the MMA of i + 1). A
  // user inside an scf.if moves with the whole scf.if to the last stage, in a cluster of its
  // own; the ops inside the scf.if get no schedule of their own.
  // CHECK-LABEL: tt.func @mma_users
  // CHECK: scf.for
  // CHECK: tt.descriptor_load {{.*}} {loop.cluster = 3 : i32, loop.stage = 0 : i32}
  // CHECK: ttg.local_alloc {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32}
  // CHECK: ttng.tc_gen5_mma {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
  // CHECK: ttng.tmem_load {{.*}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
  // CHECK: tt.store {{.*}} {loop.cluster = 0 : i32, loop.stage = 3 : i32}
  // CHECK: scf.for
  // CHECK: ttng.tc_gen5_mma {{.*}} {loop.cluster = 1 : i32, loop.stage = 2 : i32, tt.self_latency = 1 : i32}
  // CHECK: scf.if
  // CHECK-NEXT: ttng.tmem_load %{{[^{]*$}}
  // CHECK-NEXT: tt.store %{{[^{]*$}}
  // CHECK: } {loop.cluster = 4 : i32, loop.stage = 3 : i32}
  tt.func @mma_users(%k: i32, %cond: i1, %a_desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %b: !ttg.memdesc<64x128xf16, #shared_t, #smem>, %out: tensor<128x128x!tt.ptr<f32>, #acc>) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %true = arith.constant true
    %false = arith.constant false
    %tm, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %r = scf.for %off = %c0 to %k step %c64 iter_args(%t = %tok) -> (!ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %t2 = ttng.tc_gen5_mma %as, %b, %tm[%t], %false, %true {tt.latency = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %v, %t3 = ttng.tmem_load %tm[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
      tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #acc>
      scf.yield %t3 : !ttg.async.token
    }
    %r2 = scf.for %off = %c0 to %k step %c64 iter_args(%t = %r) -> (!ttg.async.token) : i32 {
      %av = tt.descriptor_load %a_desc[%c0, %off] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #blk>
      %as = ttg.local_alloc %av : (tensor<128x64xf16, #blk>) -> !ttg.memdesc<128x64xf16, #shared, #smem>
      %t2 = ttng.tc_gen5_mma %as, %b, %tm[%t], %false, %true {tt.latency = 1 : i32, tt.self_latency = 1 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem>, !ttg.memdesc<64x128xf16, #shared_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
      %t4 = scf.if %cond -> !ttg.async.token {
        %v, %t3 = ttng.tmem_load %tm[%t2] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
        tt.store %out, %v : tensor<128x128x!tt.ptr<f32>, #acc>
        scf.yield %t3 : !ttg.async.token
      } else {
        scf.yield %t2 : !ttg.async.token
      }
      scf.yield %t4 : !ttg.async.token
    }
    tt.return
  }
}
