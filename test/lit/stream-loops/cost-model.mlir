// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-stream-loops
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-stream-loops 2>/dev/null | filecheck %s
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-stream-loops{stages=3}' 2>/dev/null | filecheck %s --check-prefix=FORCED

// The cost model of ttpipe-stream-loops: stages enough to keep an SM's loads in flight.
// FORCED-COUNT-3: tt.num_stages = 3

// A grid-stride loop (its step reads tt.get_num_programs): one CTA per SM, 4 KB a step, so
// 8 stages keep 28 KB in flight (the most the ring gives: 32 KB would take 9); its load
// becomes a TMA load of a 1-D descriptor of x, extent n.
// CHECK-LABEL: tt.func @grid_stride(
// CHECK: %[[DESC:.+]] = tt.make_tensor_descriptor %{{.+}}, [%{{.+}}], [%c1_i64] : <f16>, <tensor<2048xf16, #shared>>
// CHECK: scf.for
// CHECK: tt.descriptor_load %[[DESC]]
// CHECK-NOT: tt.load
// CHECK: tt.store
// CHECK: } {tt.num_stages = 8 : i32}
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @grid_stride(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c2048 : i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %programs = tt.get_num_programs x : i32
    %step = arith.muli %programs, %c2048 : i32
    scf.for %off = %start to %n step %step : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
      %w = arith.addf %v, %v : tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %w, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A loop over a row (one program's loop, not grid-stride) is left to the pipeliner as it
// was: with many CTAs per SM its loads are in flight without stages.
// CHECK-LABEL: tt.func @row_walk(
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.load
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_walk(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c2048 : i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %step = arith.addi %c2048, %c0 : i32
    // expected-remark @below {{loop not streamed: not a grid-stride loop: a program's own loop runs with many CTAs per SM, which keep its loads in flight unpipelined}}
    scf.for %off = %start to %n step %step : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
      %w = arith.addf %v, %v : tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %w, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// The same loop at 32 warps (2 CTAs per SM): left alone too. Pipelining such loops measured
// slower than stock's unpipelined ones (0.46-0.72x).
// CHECK-LABEL: tt.func @row_walk_wide(
// CHECK-NOT: tt.num_stages
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [32], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 32 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @row_walk_wide(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c2048 : i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %step = arith.addi %c2048, %c0 : i32
    // expected-remark @below {{loop not streamed: not a grid-stride loop: a program's own loop runs with many CTAs per SM, which keep its loads in flight unpipelined}}
    scf.for %off = %start to %n step %step : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
      %w = arith.addf %v, %v : tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %w, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A loop the user pipelines (tl.range(..., num_stages=2)): its stages stay the user's, its
// load a pointer load (not a grid-stride loop).
// CHECK-LABEL: tt.func @user_stages(
// CHECK-NOT: tt.make_tensor_descriptor
// CHECK: tt.load
// CHECK: } {tt.num_stages = 2 : i32}
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 8 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @user_stages(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2048xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c2048 : i32
    %cols = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<2048xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<2048x!tt.ptr<f16>, #blocked>
    %step = arith.addi %c2048, %c0 : i32
    scf.for %off = %start to %n step %step : i32 {
      %offs = tt.splat %off : i32 -> tensor<2048xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<2048xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<2048xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      %v = tt.load %p, %in, %zero : tensor<2048x!tt.ptr<f16>, #blocked>
      %w = arith.addf %v, %v : tensor<2048xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<2048x!tt.ptr<f16>, #blocked>, tensor<2048xi32, #blocked>
      tt.store %q, %w, %in : tensor<2048x!tt.ptr<f16>, #blocked>
    } {tt.num_stages = 2 : i32}
    tt.return
  }
}
