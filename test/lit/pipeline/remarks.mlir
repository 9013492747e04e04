// Loops ttpipe cannot pipeline stay as they were, with a remark at the loop saying why.
// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline'
// RUN: ttpipe-opt %s --split-input-file --remarks -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARKS
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-assign-latencies,ttpipe-schedule-loops,ttpipe-pipeline' 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

// QUIET-NOT: remark
// REMARKS: remarks.mlir:[[# @LINE + 8]]:{{[0-9]+}}: remark: loop not pipelined: it contains a gpu.barrier

// A barrier would be reordered against the other stages' memory accesses.
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @barrier(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined: it contains a gpu.barrier}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i : !tt.ptr<f32>, i32
      %v = tt.load %p : !tt.ptr<f32>
      gpu.barrier
      tt.store %p, %v : !tt.ptr<f32>
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

// -----

// REMARKS: remarks.mlir:[[# @LINE + 9]]:{{[0-9]+}}: remark: loop not pipelined: it contains a loop

// Outer loops are not pipelined; the inner one, without tt.num_stages, has nothing worth
// pipelining and stays quiet.
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @outer(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined: it contains a loop}}
    scf.for %i = %c0 to %n step %c1 : i32 {
      scf.for %j = %c0 to %n step %c1 : i32 {
        %p = tt.addptr %src, %j : !tt.ptr<f32>, i32
        %v = tt.load %p : !tt.ptr<f32>
        tt.store %p, %v : !tt.ptr<f32>
      }
    } {tt.num_stages = 3 : i32}
    tt.return
  }
}

// -----

// REMARKS: remarks.mlir:[[# @LINE + 9]]:{{[0-9]+}}: remark: loop not pipelined: no op in it has a latency to hide

// A loop without a load or MMA has nothing to overlap, so the loop asked to pipeline gets
// no schedule. The same loop without tt.num_stages gets no remark.
module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @nothing_to_hide(%n: i32) -> (i32, i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-remark @below {{loop not pipelined: no op in it has a latency to hide}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i32) : i32 {
      %t = arith.addi %s, %i : i32
      scf.yield %t : i32
    } {tt.num_stages = 3 : i32}
    %q = scf.for %i = %c0 to %n step %c1 iter_args(%s = %c0) -> (i32) : i32 {
      %t = arith.addi %s, %i : i32
      scf.yield %t : i32
    }
    tt.return %r, %q : i32, i32
  }
}
