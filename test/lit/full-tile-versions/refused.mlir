// RUN: ttpipe-opt %s -p ttpipe-full-tile-versions | filecheck %s
// RUN: ttpipe-opt %s -p ttpipe-full-tile-versions --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK --allow-empty

// Accesses the pass leaves as they are: no function here gains a version.
// REMARK-NOT: remark
// CHECK-NOT: scf.if

#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // n a multiple of 16: the mask is constant over runs of 16, the vector already full.
  tt.func @aligned_bound(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
    %c1024 = arith.constant 1024 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<1024xbf16, #blocked>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %p, %one, %mask : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }

  // The pointer has no run longer than the mask's (a base of unknown alignment): nothing to gain.
  tt.func @unaligned_pointer(%x: !tt.ptr<bf16>, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<1024xbf16, #blocked>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %p, %one, %mask : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }

  // A bound and'ed with another condition, and a lower bound: not matched.
  tt.func @other_masks(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32, %keep: tensor<1024xi1, #blocked>) {
    %c1024 = arith.constant 1024 : i32
    %one = arith.constant dense<1.000000e+00> : tensor<1024xbf16, #blocked>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %below = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %both = arith.andi %below, %keep : tensor<1024xi1, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %p, %one, %both : tensor<1024x!tt.ptr<bf16>, #blocked>
    %above = arith.cmpi sgt, %offs, %ns : tensor<1024xi32, #blocked>
    tt.store %p, %one, %above : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }

  // An asynchronous copy between the accesses: the span is the pipeliner's, not doubled.
  tt.func @async_in_span(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xbf16, #blocked>
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c1024 : i32
    %range = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %bases = tt.splat %base : i32 -> tensor<1024xi32, #blocked>
    %offs = arith.addi %bases, %range : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<1024x!tt.ptr<bf16>, #blocked>
    %p = tt.addptr %xs, %offs : tensor<1024x!tt.ptr<bf16>, #blocked>, tensor<1024xi32, #blocked>
    %v = tt.load %p, %mask, %zero : tensor<1024x!tt.ptr<bf16>, #blocked>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1024xbf16, #shared, #smem, mutable>
    %copy = ttg.async_copy_global_to_local %p, %buf : tensor<1024x!tt.ptr<bf16>, #blocked> -> <1024xbf16, #shared, #smem, mutable>
    tt.store %p, %v, %mask : tensor<1024x!tt.ptr<bf16>, #blocked>
    tt.return
  }
}
