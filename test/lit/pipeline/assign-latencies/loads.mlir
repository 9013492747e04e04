// ttpipe-assign-latencies on loads: mma.sync operands read through registers, per-loop
// `tt.num_stages`, latencies given by the user, indirect loads, and loops without a dot.
// RUN: ttpipe-opt %s --split-input-file --ttpipe-assign-latencies=num-stages=3 | filecheck %s

// Ampere matmuls (tt.dot on registers), both operands loaded through pointers.
#a = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {"ttg.target" = "cuda:80", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // 1. The loads reach the dot through convert_layout (and, for B, an arith.mulf): both
  //    are still its operands' loads and get num-stages - 1 = 2.
  // 2. `tt.num_stages = 4` on a loop: 3.
  // 3. A load that already has a `tt.latency` marks the loop as scheduled by the user:
  //    its latency is kept and no other load gets one.
  // CHECK-LABEL: tt.func @operands_in_registers
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x32x!tt.ptr<f16>
  // CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<32x128x!tt.ptr<f16>
  // CHECK-NEXT: arith.mulf
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 3 : i32} : tensor<128x32x!tt.ptr<f16>
  // CHECK: tt.load %{{.+}} {tt.latency = 3 : i32} : tensor<32x128x!tt.ptr<f16>
  // CHECK: } {tt.num_stages = 4 : i32}
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<f16>
  // CHECK: tt.load %{{.+}} : tensor<32x128x!tt.ptr<f16>
  // CHECK: tt.return
  tt.func @operands_in_registers(%k: i32,
      %pa: tensor<128x32x!tt.ptr<f16>, #a> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
      %pb: tensor<32x128x!tt.ptr<f16>, #b> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %two = arith.constant dense<2.000000e+00> : tensor<32x128xf16, #b>
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %av = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bs = arith.mulf %bv, %two : tensor<32x128xf16, #b>
      %bd = ttg.convert_layout %bs : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    %r4 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r) -> (tensor<128x128xf32, #mma>) : i32 {
      %av = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bd = ttg.convert_layout %bv : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 4 : i32}
    %ru = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r4) -> (tensor<128x128xf32, #mma>) : i32 {
      %av = tt.load %pa {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bd = ttg.convert_layout %bv : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    tt.return %ru : tensor<128x128xf32, #mma>
  }
  // A's rows come through an index load: two levels of loads share the stages, so every load
  // of the loop (the index, A, and B which is not indirect) gets (num-stages - 1) // 2: 1 with
  // three stages, 2 with `tt.num_stages = 5`.
  // CHECK-LABEL: tt.func @indirect
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<i32>
  // CHECK-NEXT: tt.addptr
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<128x32x!tt.ptr<f16>
  // CHECK: tt.load %{{.+}} {tt.latency = 1 : i32} : tensor<32x128x!tt.ptr<f16>
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x32x!tt.ptr<i32>
  // CHECK-NEXT: tt.addptr
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<128x32x!tt.ptr<f16>
  // CHECK: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<32x128x!tt.ptr<f16>
  // CHECK: } {tt.num_stages = 5 : i32}
  tt.func @indirect(%k: i32,
      %pidx: tensor<128x32x!tt.ptr<i32>, #a> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 32]> : tensor<2xi32>},
      %table: tensor<128x32x!tt.ptr<f16>, #a> {tt.divisibility = dense<16> : tensor<2xi32>},
      %pb: tensor<32x128x!tt.ptr<f16>, #b> {tt.divisibility = dense<16> : tensor<2xi32>, tt.contiguity = dense<[1, 128]> : tensor<2xi32>}) -> tensor<128x128xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
    %r = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #mma>) : i32 {
      %j = tt.load %pidx : tensor<128x32x!tt.ptr<i32>, #a>
      %pa = tt.addptr %table, %j {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>} : tensor<128x32x!tt.ptr<f16>, #a>, tensor<128x32xi32, #a>
      %av = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bd = ttg.convert_layout %bv : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    %r5 = scf.for %i = %c0 to %k step %c1 iter_args(%acc = %r) -> (tensor<128x128xf32, #mma>) : i32 {
      %j = tt.load %pidx : tensor<128x32x!tt.ptr<i32>, #a>
      %pa = tt.addptr %table, %j {tt.contiguity = dense<[1, 32]> : tensor<2xi32>, tt.divisibility = dense<16> : tensor<2xi32>} : tensor<128x32x!tt.ptr<f16>, #a>, tensor<128x32xi32, #a>
      %av = tt.load %pa : tensor<128x32x!tt.ptr<f16>, #a>
      %ad = ttg.convert_layout %av : tensor<128x32xf16, #a> -> tensor<128x32xf16, #opa>
      %bv = tt.load %pb : tensor<32x128x!tt.ptr<f16>, #b>
      %bd = ttg.convert_layout %bv : tensor<32x128xf16, #b> -> tensor<32x128xf16, #opb>
      %d = tt.dot %ad, %bd, %acc : tensor<128x32xf16, #opa> * tensor<32x128xf16, #opb> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    } {tt.num_stages = 5 : i32}
    tt.return %r5 : tensor<128x128xf32, #mma>
  }
}

// -----

// A loop without a dot has nothing worth pipelining unless it asks with `tt.num_stages`.
#blk = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @no_dot
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} : tensor<512x!tt.ptr<f32>
  // CHECK: scf.for
  // CHECK-NEXT: tt.load %{{.+}} {tt.latency = 2 : i32} : tensor<512x!tt.ptr<f32>
  // CHECK: } {tt.num_stages = 3 : i32}
  tt.func @no_dot(%n: i32, %x: tensor<512x!tt.ptr<f32>, #blk> {tt.divisibility = dense<16> : tensor<1xi32>, tt.contiguity = dense<512> : tensor<1xi32>}, %out: tensor<512x!tt.ptr<f32>, #blk>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %x : tensor<512x!tt.ptr<f32>, #blk>
      %w = arith.addf %v, %v : tensor<512xf32, #blk>
      tt.store %out, %w : tensor<512x!tt.ptr<f32>, #blk>
    }
    scf.for %i = %c0 to %n step %c1 : i32 {
      %v = tt.load %x : tensor<512x!tt.ptr<f32>, #blk>
      %w = arith.addf %v, %v : tensor<512xf32, #blk>
      tt.store %out, %w : tensor<512x!tt.ptr<f32>, #blk>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}
