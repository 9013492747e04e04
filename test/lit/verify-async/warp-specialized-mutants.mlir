// ttpipe's persistent ping-pong matmul (a one-warp TMA producer, two consumer warpgroups
// taking turns, a 4-stage ring of full/empty mbarriers: the kernel's 3 stages deepened, its
// K loop asking for none; a TMA-store epilogue) passes the check as the pipeline makes it;
// each planted bug is an error naming its rule.
// RUN: ttpipe-opt %S/../warp-specialize/Inputs/matmul_tma_ws_persistent.ttir -p 'ttgir-sm90{num-warps=4 verify-async=false}' -o %t.mlir
// RUN: ttpipe-opt %t.mlir -p ttpipe-verify-async --remarks 2>&1 | filecheck %s --check-prefix=CLEAN --allow-empty
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=shift-phase site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=PHASE
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=drop-arrive site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=ARRIVE
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=expect-half site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=HALF
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=expect-double site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=DOUBLE
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=loosen-wait site=0},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=WGMMA
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=loosen-wait site=2},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=STORE
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=early-reuse site=1},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=REUSE
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=hoist-read site=1},ttpipe-verify-async' 2>&1 | filecheck %s --check-prefix=HOIST
// RUN: not ttpipe-opt %t.mlir -p 'ttpipe-plant-async-mutant{operator=shift-phase site=7}' 2>&1 | filecheck %s --check-prefix=NOSITE

// CLEAN-NOT: {{error|remark}}

// PHASE: error: this wait on mbarrier [0] of the 2x1xi64 array for a phase of parity 0 never returns: 0 phase(s) completed, and phase 0 still waits for 1 of 1 arrival(s), and no thread is left to complete it [deadlock]
// PHASE-NEXT: note: initialised here with count 1

// ARRIVE: error: this wait on mbarrier [{{[0-9]}}] of the {{[24]}}x1xi64 array {{.*}} never returns: {{.*}} [deadlock]

// HALF: error: barrier_expect announces 16384 bytes on mbarrier [0] of the 4x1xi64 array, but its TMA copies bring more: phase 0 completes after 16384 bytes with 1 copy(ies) still in flight [expect-bytes]
// HALF-NEXT: note: a copy still in flight

// DOUBLE: error: barrier_expect announces 65536 bytes on mbarrier [0] of the 4x1xi64 array in phase 0, but its TMA copies bring 32768: the phase never completes [expect-bytes]
// DOUBLE-NEXT: note: this wait never returns

// WGMMA: error: the TMA copy overwrites slot [0] of the 4x128x64xf16 shared memory while the wgmma may still read it: {{.*}} [write-before-release]
// WGMMA-NEXT: note: the read it races with (the wgmma)

// STORE: error: local_store overwrites the 128x128xf16 shared memory while the TMA store may still read it: {{.*}} [write-before-release]
// STORE-NEXT: note: the read it races with (the TMA store)

// REUSE: error: the wgmma reads slot [0] of the 4x128x64xf16 shared memory while the TMA copy that writes it may still be in flight: no wait orders the read after the write [read-before-wait]

// HOIST: error: {{.*}} [write-before-release]

// NOSITE: error: no site 7 for 'shift-phase': the module has 5
