// A schedule that contradicts the IR is an error at the op at fault (the expander alone
// reports it; ttpipe-pipeline leaves such a loop as it is, as Triton does).
// RUN: ttpipe-opt %s --split-input-file --verify-diagnostics -p ttpipe-expand-loops

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @missing_stage(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 0 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      // expected-error @below {{not assigned a pipeline stage}}
      %v = tt.load %p : !tt.ptr<f32>
      tt.store %p, %v {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}

// -----

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @use_before_def(%src: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %n step %c1 : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>, i32
      // expected-error @below {{operation scheduled before its operands}}
      %v = tt.load %p {loop.cluster = 0 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      tt.store %p, %v {loop.cluster = 0 : i32, loop.stage = 1 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 1 : i32}
    tt.return
  }
}
