// RUN: ttpipe-opt %s --split-input-file -p ttpipe-l2-eviction | filecheck %s

// A layer norm's two passes over a row: the second loop reads x again (its last read) and
// writes y; both get evict_first, the first read keeps the default. Both loops read w,
// which every program reads: its second read is no last read of the kernel, and keeps
// the default too.
// CHECK-LABEL: tt.func @two_passes(
// CHECK: scf.for
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.load %{{.+}}, %{{.+}} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @two_passes(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %g = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %f = arith.extf %g : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// The same passes, the second read and the store with cache modifiers of the kernel's own
// (`.cg`, `.cs`): PTX takes no eviction priority beside a cache operator, so nothing is marked.
// CHECK-LABEL: tt.func @cache_modifiers(
// CHECK-NOT: evict_first
// CHECK: tt.load %{{.+}}, %{{.+}}, %{{.+}} cacheModifier = cg : tensor<1024x!tt.ptr<f16>
// CHECK-NOT: evict_first
// CHECK: tt.store %{{.+}}, %{{.+}}, %{{.+}} cacheModifier = cs : tensor<1024x!tt.ptr<f16>
// CHECK-NOT: evict_first
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @cache_modifiers(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %w: !tt.ptr<f16>, %stride: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf32, #blocked>
    %other = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
    %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #blocked>
    %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %sum = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf32, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %g = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %f = arith.extf %g : tensor<1024xf16, #blocked> to tensor<1024xf32, #blocked>
      %next = arith.addf %acc, %f : tensor<1024xf32, #blocked>
      scf.yield %next : tensor<1024xf32, #blocked>
    }
    scf.for %off = %c0 to %n step %c1024 : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %in = arith.cmpi slt, %idx, %ns : tensor<1024xi32, #blocked>
      %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p, %in, %other cacheModifier = cg : tensor<1024x!tt.ptr<f16>, #blocked>
      %pw = tt.addptr %ws, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %vw = tt.load %pw, %in : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.mulf %v, %vw : tensor<1024xf16, #blocked>
      %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      tt.store %q, %o, %in cacheModifier = cs : tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Three passes: only the last read of x is marked; the middle loop reads x again later.
// Pointers carried by the loops and advanced by a chunk each iteration (Triton's tutorials)
// match when their starts and advances do.
// CHECK-LABEL: tt.func @three_passes_carried(
// CHECK: scf.for
// CHECK: tt.load %{{[^,]+}} : tensor<1024x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: tt.load %{{[^,]+}} : tensor<1024x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: tt.load %{{[^,]+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}}, %{{[^,]+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @three_passes_carried(%x_base: !tt.ptr<f16>, %y_base: !tt.ptr<f16>, %chunks: i32, %stride: i32) {
    %row = tt.get_program_id x : i32
    %row_off = arith.muli %row, %stride : i32
    %x = tt.addptr %x_base, %row_off : !tt.ptr<f16>, i32
    %y = tt.addptr %y_base, %row_off : !tt.ptr<f16>, i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %x0 = tt.addptr %xs, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %y0 = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %a:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %acc = %zero) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %s = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %s : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>
    }
    %b:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %acc = %a#1) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %s = arith.maximumf %acc, %v : tensor<1024xf16, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %s : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>
    }
    %c:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %b#1 : tensor<1024xf16, #blocked>
      tt.store %q, %o : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// Nothing is marked where the second loop reads other memory than the first in the same
// iteration (a chunk further on; pointers advanced by another amount), where the bounds
// differ, or where the kernel chose the policies itself; nor in a kernel whose loops read
// what every program reads (no program id in the address: @shared_reread).
// CHECK-LABEL: tt.func @not_rereads(
// CHECK-NOT: evict_first
// CHECK: evictionPolicy = evict_last
// CHECK-NOT: evict_first
// CHECK: evictionPolicy = evict_last
// CHECK-NOT: evict_first
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @not_rereads(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %chunks: i32, %other_chunks: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %twice = arith.constant dense<2048> : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %xs = tt.splat %x : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %x0 = tt.addptr %xs, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %x1 = tt.addptr %x0, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %y0 = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %a:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %acc = %zero) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %s = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %s : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>
    }
    %b:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x1, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %q, %v : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %c:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %q, %v : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %twice : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %d:2 = scf.for %i = %c0 to %other_chunks step %c1 iter_args(%p = %x0, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %q, %v : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    %e:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %x0, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p evictionPolicy = evict_last : tensor<1024x!tt.ptr<f16>, #blocked>
      tt.store %q, %v evictionPolicy = evict_last : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @shared_reread(
// CHECK-NOT: evict_first
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @shared_reread(%w: !tt.ptr<f16>, %y: !tt.ptr<f16>, %chunks: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %step = arith.constant dense<1024> : tensor<1024xi32, #blocked>
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %ws = tt.splat %w : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %w0 = tt.addptr %ws, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %y0 = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    %a:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %w0, %acc = %zero) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %s = arith.addf %acc, %v : tensor<1024xf16, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %s : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xf16, #blocked>
    }
    %b:2 = scf.for %i = %c0 to %chunks step %c1 iter_args(%p = %w0, %q = %y0) -> (tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>) : i32 {
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %o = arith.subf %v, %a#1 : tensor<1024xf16, #blocked>
      tt.store %q, %o : tensor<1024x!tt.ptr<f16>, #blocked>
      %pn = tt.addptr %p, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %qn = tt.addptr %q, %step : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      scf.yield %pn, %qn : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A persistent kernel: programs walk rows pid, pid + programs, ... (an outer grid-stride
// loop), each row in two loops. The row's address depends on the program id through the
// outer loop's induction variable: the second read and the store are marked.
// CHECK-LABEL: tt.func @persistent_rows(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tt.load %{{[^,]+}} : tensor<1024x!tt.ptr<f16>
// CHECK: scf.for
// CHECK: tt.load %{{[^,]+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
// CHECK: tt.store %{{.+}}, %{{[^,]+}} evictionPolicy = evict_first {ttpipe.l2_eviction} : tensor<1024x!tt.ptr<f16>
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @persistent_rows(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>, %rows: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %pid = tt.get_program_id x : i32
    %programs = tt.get_num_programs x : i32
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    scf.for %row = %pid to %rows step %programs : i32 {
      %row_off = arith.muli %row, %n : i32
      %x_row = tt.addptr %x, %row_off : !tt.ptr<f16>, i32
      %y_row = tt.addptr %y, %row_off : !tt.ptr<f16>, i32
      %xs = tt.splat %x_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
      %ys = tt.splat %y_row : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
      %s = scf.for %off = %c0 to %n step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
        %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
        %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
        %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
        %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
        %a = arith.addf %acc, %v : tensor<1024xf16, #blocked>
        scf.yield %a : tensor<1024xf16, #blocked>
      }
      scf.for %off = %c0 to %n step %c1024 : i32 {
        %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
        %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
        %p = tt.addptr %xs, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
        %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
        %o = arith.subf %v, %s : tensor<1024xf16, #blocked>
        %q = tt.addptr %ys, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
        tt.store %q, %o : tensor<1024x!tt.ptr<f16>, #blocked>
      }
    }
    tt.return
  }
}

// -----

// Keys read twice by a two-pass softmax over them (max, then sum): their address depends on
// the head (program_id y) but not on the query block (program_id x), so every query block
// of the head reads them too, and they keep their priority.
// CHECK-LABEL: tt.func @keys_shared_by_query_blocks(
// CHECK-NOT: evict_first
// CHECK: tt.return
#blocked = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @keys_shared_by_query_blocks(%k: !tt.ptr<f16>, %out: !tt.ptr<f16>, %seq: i32) {
    %c0 = arith.constant 0 : i32
    %c1024 = arith.constant 1024 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1024xf16, #blocked>
    %block = tt.get_program_id x : i32
    %head = tt.get_program_id y : i32
    %head_off = arith.muli %head, %seq : i32
    %k_head = tt.addptr %k, %head_off : !tt.ptr<f16>, i32
    %ks = tt.splat %k_head : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %cols = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #blocked>
    %m = scf.for %off = %c0 to %seq step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ks, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %a = arith.maximumf %acc, %v : tensor<1024xf16, #blocked>
      scf.yield %a : tensor<1024xf16, #blocked>
    }
    %s = scf.for %off = %c0 to %seq step %c1024 iter_args(%acc = %zero) -> (tensor<1024xf16, #blocked>) : i32 {
      %offs = tt.splat %off : i32 -> tensor<1024xi32, #blocked>
      %idx = arith.addi %offs, %cols : tensor<1024xi32, #blocked>
      %p = tt.addptr %ks, %idx : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
      %v = tt.load %p : tensor<1024x!tt.ptr<f16>, #blocked>
      %d = arith.subf %v, %m : tensor<1024xf16, #blocked>
      %a = arith.addf %acc, %d : tensor<1024xf16, #blocked>
      scf.yield %a : tensor<1024xf16, #blocked>
    }
    %row = arith.muli %block, %c1024 : i32
    %o = tt.addptr %out, %row : !tt.ptr<f16>, i32
    %os = tt.splat %o : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #blocked>
    %op = tt.addptr %os, %cols : tensor<1024x!tt.ptr<f16>, #blocked>, tensor<1024xi32, #blocked>
    tt.store %op, %s : tensor<1024x!tt.ptr<f16>, #blocked>
    tt.return
  }
}
