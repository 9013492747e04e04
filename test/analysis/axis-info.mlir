// Expectations for ttpipe's axis analysis (`ModuleAxisInfo`), read by test_axis_info.py: each
// `expected-remark` gives the contiguity, divisibility and constancy (per dimension) and the
// constant value of the result of the op on the next line. The values follow the transfer
// rules of Triton's AxisInfo: divisibility is the largest power of two dividing the first
// element of every run (2^62 = 4611686018427387904 for 0, 2^30 = 1073741824 for a range
// starting at 0), contiguity the length of runs increasing by one, constancy the length of
// runs of equal values. Chunks are separated as for --split-input-file.

// Ranges, constants, splats and their sums.
tt.func @ranges_and_constants(%n16: i32 {tt.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // A range starting at 32: divisible by 32 only.
  // expected-remark @below {{contiguity = [64], divisibility = [32], constancy = [1], constant_value = <none>}}
  %r32 = tt.make_range {end = 96 : i32, start = 32 : i32} : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = 16}}
  %c16 = arith.constant dense<16> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant_value = 0}}
  %zeros = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant_value = 24}}
  %c24 = arith.constant 24 : i32
  // A splat keeps the scalar's divisibility and is constant over the whole tensor.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %s16 = tt.splat %n16 : i32 -> tensor<128xi32>
  // An argument without hints: nothing known.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = <none>}}
  %s = tt.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant_value = 24}}
  %s24 = tt.splat %c24 : i32 -> tensor<128xi32>
  // Range plus splat: still contiguous, divisible by the splat's divisibility.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %a = arith.addi %s16, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1], constancy = [1], constant_value = <none>}}
  %b = arith.addi %r, %s : tensor<128xi32>
  // Constants fold.
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant_value = 40}}
  %c40 = arith.addi %c16, %s24 : tensor<128xi32>
  tt.return
}

// -----

// Subtraction, multiplication, division and remainder.
tt.func @arithmetic(%n16: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c16 = arith.constant dense<16> : tensor<128xi32>
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %ones = arith.constant dense<1> : tensor<128xi32>
  %zeros = arith.constant dense<0> : tensor<128xi32>
  %c8 = arith.constant 8 : i32
  // A range minus a constant stays contiguous.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %d = arith.subi %r, %c16 : tensor<128xi32>
  // A constant minus a range decreases: not contiguous.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %e = arith.subi %c16, %r : tensor<128xi32>
  // Scaling a range by 4: steps of 4, so no contiguity, and only 4 divides every element.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %m = arith.muli %r, %c4 : tensor<128xi32>
  // Multiplying by one changes nothing.
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %m1 = arith.muli %r, %ones : tensor<128xi32>
  // Multiplying by zero gives the constant 0.
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant_value = 0}}
  %m0 = arith.muli %r, %zeros : tensor<128xi32>
  // Scalars: divisibilities multiply.
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant_value = <none>}}
  %ms = arith.muli %n16, %c8 : i32
  // [0, 128) / 16: runs of 16 equal values; the first run holds 0, the next 1, ...
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %q = arith.divsi %r, %c16 : tensor<128xi32>
  // [0, 128) % 16: runs of 16 contiguous values, each starting at 0.
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>}}
  %rm = arith.remsi %r, %c16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %q1 = arith.divsi %r, %ones : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant_value = 0}}
  %rm1 = arith.remsi %r, %ones : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant_value = 4}}
  %cq = arith.divsi %c16, %c4 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4611686018427387904], constancy = [128], constant_value = 0}}
  %cr = arith.remui %c16, %c4 : tensor<128xi32>
  tt.return
}

// -----

// Shifts, bitwise logic, min/max, casts.
tt.func @bits(%n16: i32 {tt.divisibility = 16 : i32}, %n: i32) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c2 = arith.constant dense<2> : tensor<128xi32>
  %c16 = arith.constant dense<16> : tensor<128xi32>
  %c24 = arith.constant dense<24> : tensor<128xi32>
  %s16 = tt.splat %n16 : i32 -> tensor<128xi32>
  %s = tt.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1], constant_value = <none>}}
  %shl = arith.shli %r, %c2 : tensor<128xi32>
  // 16-divisible values shifted right by 2: divisible by 4.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant_value = <none>}}
  %shr = arith.shrsi %s16, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128], constant_value = 64}}
  %shc = arith.shli %c16, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %and = arith.andi %r, %c16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = 16}}
  %andc = arith.andi %c16, %c24 : tensor<128xi32>
  // Two uniform values give a uniform value.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = <none>}}
  %or = arith.ori %s16, %s : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [128], constant_value = 8}}
  %xorc = arith.xori %c16, %c24 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %max = arith.maxsi %r, %s16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = 16}}
  %minc = arith.minsi %c16, %c24 : tensor<128xi32>
  // Casts keep everything.
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %ext = arith.extsi %r : tensor<128xi32> to tensor<128xi64>
  tt.return
}

// -----

// Comparisons and selects.
tt.func @compare_and_select(%n16: i32 {tt.divisibility = 16 : i32}, %cond: i1) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c4 = arith.constant dense<4> : tensor<128xi32>
  %c16 = arith.constant dense<16> : tensor<128xi32>
  %s16 = tt.splat %n16 : i32 -> tensor<128xi32>
  %a = arith.addi %r, %s16 : tensor<128xi32>
  // A range against a 16-divisible bound flips at most at a multiple of 16: runs of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %lt = arith.cmpi slt, %r, %s16 : tensor<128xi32>
  // The same with the bound on the left.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16], constant_value = <none>}}
  %gt = arith.cmpi sgt, %s16, %r : tensor<128xi32>
  // Equality gives no runs.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1], constant_value = <none>}}
  %eq = arith.cmpi eq, %r, %s16 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = 1}}
  %ltc = arith.cmpi slt, %c4, %c16 : tensor<128xi32>
  // A per-element condition constant over runs of 16 keeps runs of 16 of the operands.
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1], constant_value = <none>}}
  %sel = arith.select %lt, %a, %r : tensor<128xi1>, tensor<128xi32>
  // A scalar condition keeps the whole runs.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %sel_s = arith.select %cond, %a, %r : tensor<128xi32>
  // A constant condition picks its operand.
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1], constant_value = <none>}}
  %sel_c = arith.select %ltc, %r, %a : tensor<128xi1>, tensor<128xi32>
  tt.return
}

// -----

// Two-dimensional values: expand_dims, broadcast, trans.
tt.func @shapes(%n16: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %c8 = arith.constant dense<8> : tensor<64xi32>
  %s16 = tt.splat %n16 : i32 -> tensor<64xi32>
  // The new unit dimension of a range is divisible by 1 only (its elements are 0, 1, ...).
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [1, 1], constant_value = <none>}}
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1], constant_value = <none>}}
  %col = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 1], constant_value = <none>}}
  %s16_col = tt.expand_dims %s16 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 64], constant_value = 8}}
  %c8_row = tt.expand_dims %c8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  // Broadcasting a dimension of size 1 makes it constant along that dimension.
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 1073741824], constancy = [32, 1], constant_value = <none>}}
  %rows = tt.broadcast %row : tensor<1x64xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 32], constant_value = <none>}}
  %cols = tt.broadcast %col : tensor<64x1xi32> -> tensor<64x32xi32>
  // A transpose permutes the dimensions.
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 32], constant_value = <none>}}
  %t = tt.trans %rows {order = array<i32: 1, 0>} : tensor<32x64xi32> -> tensor<64x32xi32>
  // Row offsets (a column times a 16-divisible stride) plus column indices: the usual
  // offsets of a row-major tile, contiguous along each row, each row starting at a
  // multiple of 16. Down a column nothing is known (the column indices hold 1).
  %stride = tt.splat %n16 : i32 -> tensor<32x1xi32>
  %r32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %col32 = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1], constant_value = <none>}}
  %row_off = arith.muli %col32, %stride : tensor<32x1xi32>
  %row_offs = tt.broadcast %row_off : tensor<32x1xi32> -> tensor<32x64xi32>
  // expected-remark @below {{contiguity = [1, 64], divisibility = [1, 16], constancy = [1, 1], constant_value = <none>}}
  %offs = arith.addi %row_offs, %rows : tensor<32x64xi32>
  tt.return
}

// -----

// Pointers: offsets count elements, divisibility counts bytes.
tt.func @pointers(%pf32: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %pf16: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n16: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c3 = arith.constant dense<3> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %base = tt.splat %pf32 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs = tt.addptr %base, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // Three f32 elements are 12 bytes: 4-byte aligned.
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [128], constant_value = <none>}}
  %off3 = tt.addptr %base, %c3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %base16 = tt.splat %pf16 : !tt.ptr<f16> -> tensor<128x!tt.ptr<f16>>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %ptrs16 = tt.addptr %base16, %r : tensor<128x!tt.ptr<f16>>, tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1], constant_value = <none>}}
  %p = tt.addptr %pf32, %n16 : !tt.ptr<f32>, i32
  // A load through one pointer splat everywhere reads one value everywhere.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant_value = <none>}}
  %v = tt.load %off3 : tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Hints: `tt.contiguity`, `tt.divisibility` and `tt.constancy` on arguments and on ops
// replace what the analysis derives.
tt.func @hints(%t: tensor<128xi32> {tt.contiguity = 128 : i32, tt.divisibility = 16 : i32},
               %u: tensor<128xi32> {tt.constancy = dense<32> : tensor<1xi32>, tt.divisibility = dense<8> : tensor<1xi32>}) {
  %zeros = arith.constant dense<0> : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %a = arith.addi %t, %zeros : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [32], constant_value = <none>}}
  %b = arith.addi %u, %zeros : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1], constant_value = <none>}}
  %c = arith.addi %t, %u {tt.contiguity = dense<32> : tensor<1xi32>, tt.divisibility = dense<32> : tensor<1xi32>} : tensor<128xi32>
  tt.return
}

// -----

// Control flow: loop-carried values reach a fixed point, branches join.
tt.func @control_flow(%pf32: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n16: i32 {tt.divisibility = 16 : i32}, %n: i32, %cond: i1) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %c128 = arith.constant dense<128> : tensor<128xi32>
  %c64 = arith.constant dense<64> : tensor<128xi32>
  %s16 = tt.splat %n16 : i32 -> tensor<128xi32>
  %a = arith.addi %r, %s16 : tensor<128xi32>
  %base = tt.splat %pf32 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %ptrs = tt.addptr %base, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  // The offsets start at [0, 128) and grow by 128: contiguous, 128-divisible.
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1], constant_value = <none>}}
  %res:2 = scf.for %i = %c0 to %n step %c32 iter_args(%off = %r, %p = %ptrs) -> (tensor<128xi32>, tensor<128x!tt.ptr<f32>>) : i32 {
    // The induction variable is divisible by gcd(lower bound, step) = 32.
    // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128], constant_value = <none>}}
    %iv = tt.splat %i : i32 -> tensor<128xi32>
    // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1], constant_value = <none>}}
    %next = arith.addi %off, %c128 : tensor<128xi32>
    // 64 f32 elements are 256 bytes: the pointers stay 16-byte aligned.
    // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
    %p_next = tt.addptr %p, %c64 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    scf.yield %next, %p_next : tensor<128xi32>, tensor<128x!tt.ptr<f32>>
  }
  // An scf.if joins its branches' values.
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %joined = scf.if %cond -> tensor<128xi32> {
    scf.yield %r : tensor<128xi32>
  } else {
    scf.yield %a : tensor<128xi32>
  }
  tt.return
}

// -----

// Unstructured control flow: a block argument joins what every branch passes in.
tt.func @branches(%n16: i32 {tt.divisibility = 16 : i32}, %cond: i1) {
  %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %s16 = tt.splat %n16 : i32 -> tensor<128xi32>
  %a = arith.addi %r, %s16 : tensor<128xi32>
  %c64 = arith.constant dense<64> : tensor<128xi32>
  %b = arith.addi %r, %c64 : tensor<128xi32>
  %zeros = arith.constant dense<0> : tensor<128xi32>
  cf.cond_br %cond, ^bb1(%a : tensor<128xi32>), ^bb1(%b : tensor<128xi32>)
^bb1(%x: tensor<128xi32>):
  // expected-remark @below {{contiguity = [128], divisibility = [16], constancy = [1], constant_value = <none>}}
  %y = arith.addi %x, %zeros : tensor<128xi32>
  tt.return
}

// -----

// Calls: what every call site passes is joined into the callee's argument hints.
tt.func @callee(%x: i32) {
  // Called with 64 and with a 16-divisible value: divisible by 16.
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128], constant_value = <none>}}
  %s = tt.splat %x : i32 -> tensor<128xi32>
  tt.return
}
tt.func @caller(%n16: i32 {tt.divisibility = 16 : i32}) {
  %c64 = arith.constant 64 : i32
  tt.call @callee(%c64) : (i32) -> ()
  tt.call @callee(%n16) : (i32) -> ()
  tt.return
}
