// Bounds and step all dynamic (a persistent-style loop): each prologue iteration is predicated
// on lb + k * step < ub. With the epilogue peeled, the trip count is computed as
// (ub - lb + step + (step < 0 ? 1 : -1)) / step, the last iterations start at
// max(0, total - maxStage) (the prologue may have run short), each epilogue part runs only if
// total >= its version, and the loop's result selects the last version that ran.
// RUN: ttpipe-opt %s --strip-debuginfo -p ttpipe-expand-loops | filecheck %s --check-prefixes=CHECK,PRED
// RUN: ttpipe-opt %s --strip-debuginfo -p 'ttpipe-expand-loops{peel-epilogue=true}' | filecheck %s --check-prefixes=CHECK,PEEL

module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @dynamic_bounds(
  // CHECK-SAME: %[[SRC:[^:]+]]: !tt.ptr<f32>, %[[LB:[^:]+]]: i32, %[[UB:[^:]+]]: i32, %[[STEP:[^:]+]]: i32
  // Prologue: iterations lb and lb + step, each predicated on being below ub.
  // CHECK: %[[C0:.+]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[OFF0:.+]] = arith.muli %[[STEP]], %[[C0]] : i32
  // CHECK-NEXT: %[[IV0:.+]] = arith.addi %[[LB]], %[[OFF0]] : i32
  // CHECK-NEXT: %[[P0:.+]] = arith.cmpi slt, %[[IV0]], %[[UB]] : i32
  // CHECK: %[[V0:.+]] = tt.load %{{.+}}, %[[P0]]
  // CHECK: %[[C1:.+]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[OFF1:.+]] = arith.muli %[[STEP]], %[[C1]] : i32
  // CHECK-NEXT: %[[IV1:.+]] = arith.addi %[[LB]], %[[OFF1]] : i32
  // CHECK-NEXT: %[[P1:.+]] = arith.cmpi slt, %[[IV1]], %[[UB]] : i32
  // CHECK-NEXT: %[[SQ0:.+]] = arith.mulf %[[V0]], %[[V0]] : f32
  // CHECK: %[[V1:.+]] = tt.load %{{.+}}, %[[P1]]
  // Kernel: the whole range when predicated, two iterations short when peeled.
  // PEEL: %[[SHORT:.+]] = arith.subi %[[UB]], %{{.+}} : i32
  // PRED: %[[LOOP:.+]]:3 = scf.for %[[I:[^ ]+]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:[^ ]+]] = %{{.+}}, %{{.+}} = %[[SQ0]], %{{.+}} = %[[V1]])
  // PEEL: %[[LOOP:.+]]:3 = scf.for %[[I:[^ ]+]] = %[[LB]] to %[[SHORT]] step %[[STEP]] iter_args(%[[ACC:[^ ]+]] = %{{.+}}, %{{.+}} = %[[SQ0]], %{{.+}} = %[[V1]])
  // PRED: %[[LAST:.+]] = arith.subi %[[UB]], %{{.+}} : i32
  // PRED-NEXT: %[[STAGE0:.+]] = arith.cmpi slt, %[[I]], %[[LAST]] : i32
  // PRED: tt.load %{{.+}}, %[[STAGE0]] : !tt.ptr<f32>
  // PEEL: tt.load %{{.+}} : !tt.ptr<f32>
  // PRED: tt.return %[[LOOP]]#0 : f32
  // Epilogue: the remaining stages of the last two iterations.
  // PEEL: %[[NEG:.+]] = arith.cmpi slt, %[[STEP]], %{{.+}} : i32
  // PEEL: %[[ROUND:.+]] = arith.select %[[NEG]], %{{.+}}, %{{.+}} : i32
  // PEEL-NEXT: %[[RANGE:.+]] = arith.subi %[[UB]], %[[LB]] : i32
  // PEEL-NEXT: %[[PLUS:.+]] = arith.addi %[[RANGE]], %[[STEP]] : i32
  // PEEL-NEXT: %[[ROUNDED:.+]] = arith.addi %[[PLUS]], %[[ROUND]] : i32
  // PEEL-NEXT: %[[TOTAL:.+]] = arith.divsi %[[ROUNDED]], %[[STEP]] : i32
  // PEEL: %[[FIRST:.+]] = arith.subi %[[TOTAL]], %{{.+}} : i32
  // PEEL-NEXT: arith.maxsi %{{.+}}, %[[FIRST]] : i32
  // PEEL: %[[RUNS1:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : i32
  // PEEL: %[[RUNS2:.+]] = arith.cmpi sge, %[[TOTAL]], %{{.+}} : i32
  // PEEL-NEXT: %[[SUM1:.+]] = arith.addf %[[LOOP]]#0, %[[LOOP]]#1 : f32
  // PEEL-NEXT: %[[SQ:.+]] = arith.mulf %[[LOOP]]#2, %[[LOOP]]#2 : f32
  // PEEL-NEXT: %[[KEEP1:.+]] = arith.select %[[RUNS1]], %[[SUM1]], %[[LOOP]]#0 : f32
  // PEEL-NEXT: %[[SUM2:.+]] = arith.addf %[[KEEP1]], %[[SQ]] : f32
  // PEEL-NEXT: %[[KEEP2:.+]] = arith.select %[[RUNS2]], %[[SUM2]], %[[KEEP1]] : f32
  // PEEL-NEXT: tt.return %[[KEEP2]] : f32
  tt.func @dynamic_bounds(%src: !tt.ptr<f32>, %lb: i32, %ub: i32, %step: i32) -> f32 {
    %zero = arith.constant 0.0 : f32
    %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %zero) -> (f32) : i32 {
      %p = tt.addptr %src, %i {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>, i32
      %v = tt.load %p {loop.cluster = 2 : i32, loop.stage = 0 : i32} : !tt.ptr<f32>
      %sq = arith.mulf %v, %v {loop.cluster = 1 : i32, loop.stage = 1 : i32} : f32
      %s = arith.addf %acc, %sq {loop.cluster = 0 : i32, loop.stage = 2 : i32} : f32
      scf.yield %s : f32
    } {tt.scheduled_max_stage = 2 : i32}
    tt.return %r : f32
  }
}
