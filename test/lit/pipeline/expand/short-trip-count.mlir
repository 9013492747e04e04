// Index-typed loops with constant bounds (the only loops the expander treats as static, as
// Triton's fork does: `arith::ConstantIndexOp` bounds). Two iterations for four stages is
// fewer iterations than stages: the loop is expanded as a dynamic one, every prologue op
// predicated on its iteration existing. Eight iterations is enough: the prologue runs
// unpredicated, and with the epilogue peeled nothing is predicated at all.
// RUN: ttpipe-opt %s --strip-debuginfo -p 'ttpipe-expand-loops{peel-epilogue=true}' | filecheck %s

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @two_iterations_four_stages(
  // CHECK-SAME: %[[SRC:[^:]+]]: !tt.ptr<f32>, %[[DST:[^:]+]]: !tt.ptr<f32>
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // Prologue: three iterations of stage 0, each predicated on iv < 2.
  // CHECK: %[[P0:.+]] = arith.cmpi slt, %{{.+}}, %[[C2]] : index
  // CHECK: tt.load %{{.+}}, %[[P0]] : !tt.ptr<f32>
  // CHECK: %[[P1:.+]] = arith.cmpi slt, %{{.+}}, %[[C2]] : index
  // CHECK: tt.load %{{.+}}, %[[P1]] : !tt.ptr<f32>
  // CHECK: %[[P2:.+]] = arith.cmpi slt, %{{.+}}, %[[C2]] : index
  // CHECK: tt.load %{{.+}}, %[[P2]] : !tt.ptr<f32>
  // Kernel: up to 2 - 3 * 1, so it never runs.
  // CHECK: %[[KUB:.+]] = arith.subi %[[C2]], %{{.+}} : index
  // CHECK: scf.for %{{.+}} = %{{.+}} to %[[KUB]] step
  // Epilogue: three parts, the stores predicated on the trip count.
  // CHECK: %[[TOTAL:.+]] = arith.divsi
  // CHECK: %[[R1:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : index
  // CHECK: %[[R2:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : index
  // CHECK: %[[R3:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : index
  // CHECK: tt.store %{{.+}}, %{{.+}}, %[[R1]] : !tt.ptr<f32>
  // CHECK: tt.store %{{.+}}, %{{.+}}, %[[R2]] : !tt.ptr<f32>
  // CHECK: tt.store %{{.+}}, %{{.+}}, %[[R3]] : !tt.ptr<f32>
  // CHECK: tt.return
  tt.func @two_iterations_four_stages(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %ii = arith.index_cast %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : index to i32
      %p = tt.addptr %src, %ii {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %q = tt.addptr %dst, %ii {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !tt.ptr<f32>, i32
      tt.store %q, %v {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 3 : i32}
    tt.return
  }

  // Loads and stores without masks: three in the prologue, one each in the kernel, three
  // stores in the epilogue.
  // CHECK-LABEL: tt.func @eight_iterations_four_stages(
  // CHECK-COUNT-3: tt.load %{{[^ ,]+}} : !tt.ptr<f32>
  // CHECK: scf.for
  // CHECK: tt.store %{{[^ ,]+}}, %{{[^ ,]+}} : !tt.ptr<f32>
  // CHECK: tt.load %{{[^ ,]+}} : !tt.ptr<f32>
  // CHECK: scf.yield
  // CHECK-COUNT-3: tt.store %{{[^ ,]+}}, %{{[^ ,]+}} : !tt.ptr<f32>
  // CHECK-NOT: tt.store
  // CHECK: tt.return
  tt.func @eight_iterations_four_stages(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i {loop.cluster = 1 : i32, loop.stage = 0 : i32} : index to i32
      %p = tt.addptr %src, %ii {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 1 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %q = tt.addptr %dst, %ii {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !tt.ptr<f32>, i32
      tt.store %q, %v {loop.cluster = 0 : i32, loop.stage = 3 : i32} : !tt.ptr<f32>
    } {tt.scheduled_max_stage = 3 : i32}
    tt.return
  }
}
