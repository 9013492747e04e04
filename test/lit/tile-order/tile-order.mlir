// RUN: ttpipe-opt %s --split-input-file -p ttpipe-tile-order | filecheck %s
// RUN: ttpipe-opt %s --split-input-file -p ttpipe-tile-order --remarks 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-tile-order{group=4}' | filecheck %s --check-prefix=FOUR
// RUN: ttpipe-opt %s --split-input-file -p 'ttpipe-tile-order{group=1}' | filecheck %s --check-prefix=ONE
// RUN: not ttpipe-opt %s -p 'ttpipe-tile-order{group=0}' 2>&1 | filecheck %s --check-prefix=BAD

// BAD: group{{.*}}must be at least 1
// ONE-NOT: ttpipe.tile_order
// ONE-NOT: arith.minsi

// A persistent GEMM over row-major tiles (t / n, t % n), its loop bound written rows * n:
// the row and column come from the grouped order, with no run-time choice.
// CHECK-LABEL: tt.func @persistent(
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[TILES:.+]] step
// CHECK: %[[G:.+]] = arith.constant 8 : i32
// CHECK: %[[W:.+]] = arith.muli %[[G]], %[[N:.+]] : i32
// CHECK: %[[Q:.+]] = arith.divsi %[[T]], %[[W]] : i32
// CHECK: %[[FIRST:.+]] = arith.muli %[[Q]], %[[G]] : i32
// CHECK: %[[LEFT:.+]] = arith.subi %[[ROWS:.+]], %[[FIRST]] : i32
// CHECK: %[[MIN:.+]] = arith.minsi %[[LEFT]], %[[G]] : i32
// CHECK: %[[SIZE:.+]] = arith.maxsi %[[MIN]], %{{.+}} : i32
// CHECK: %[[WITHIN:.+]] = arith.remsi %[[T]], %[[W]] : i32
// CHECK: %[[R:.+]] = arith.remsi %[[WITHIN]], %[[SIZE]] : i32
// CHECK: %[[ROW:.+]] = arith.addi %[[FIRST]], %[[R]] : i32
// CHECK: %[[COL:.+]] = arith.divsi %[[WITHIN]], %[[SIZE]] : i32
// CHECK-NOT: arith.select
// CHECK: arith.muli %[[ROW]], %{{.+}} : i32
// CHECK: arith.muli %[[COL]], %{{.+}} : i32
// CHECK: } {ttpipe.tile_order = 8 : i32}
// FOUR-LABEL: tt.func @persistent(
// FOUR: arith.constant 4 : i32
// FOUR: } {ttpipe.tile_order = 4 : i32}
module {
  tt.func @persistent(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %cd: !tt.tensordesc<tensor<128x128xbf16>>, %M: i32, %N: i32, %K: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c127 = arith.constant 127 : i32
    %c128 = arith.constant 128 : i32
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %m1 = arith.addi %M, %c127 : i32
    %rows = arith.divsi %m1, %c128 : i32
    %n1 = arith.addi %N, %c127 : i32
    %n = arith.divsi %n1, %c128 : i32
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %tm = arith.divsi %t, %n : i32
      %om = arith.muli %tm, %c128 : i32
      %tn = arith.remsi %t, %n : i32
      %on = arith.muli %tn, %c128 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) : i32 {
        %a = tt.descriptor_load %ad[%om, %k] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
        %b = tt.descriptor_load %bd[%on, %k] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
        %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
        %d = tt.dot %a, %bt, %c : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
        scf.yield %d : tensor<128x128xf32>
      }
      %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xbf16>
      tt.descriptor_store %cd[%om, %on], %out : !tt.tensordesc<tensor<128x128xbf16>>, tensor<128x128xbf16>
    }
    tt.return
  }
}

// -----

// A program a tile, pointer loads carried by the K loop: the rows of tiles are the grid's
// size over n, and the grouped order is taken only where n divides the grid.
// CHECK-LABEL: tt.func @program(
// CHECK: %[[PID:.+]] = tt.get_program_id x {ttpipe.tile_order = 8 : i32} : i32
// CHECK: %[[GRID:.+]] = tt.get_num_programs x : i32
// CHECK: %[[ROWS:.+]] = arith.divsi %[[GRID]], %[[N:.+]] : i32
// CHECK: %[[REM:.+]] = arith.remsi %[[GRID]], %[[N]] : i32
// CHECK: %[[DIVIDES:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : i32
// CHECK: arith.subi %[[ROWS]], %{{.+}} : i32
// CHECK: %[[ROW:.+]] = arith.addi
// CHECK: %[[COL:.+]] = arith.divsi
// CHECK: %[[OLDROW:.+]] = arith.divsi %[[PID]], %[[N]] : i32
// CHECK: %[[PM:.+]] = arith.select %[[DIVIDES]], %[[ROW]], %[[OLDROW]] : i32
// CHECK: %[[OLDCOL:.+]] = arith.remsi %[[PID]], %[[N]] : i32
// CHECK: %[[PN:.+]] = arith.select %[[DIVIDES]], %[[COL]], %[[OLDCOL]] : i32
// CHECK: arith.muli %[[PM]], %{{.+}} : i32
// CHECK: arith.muli %[[PN]], %{{.+}} : i32
module {
  tt.func @program(%a_ptr: !tt.ptr<bf16>, %b_ptr: !tt.ptr<bf16>, %c_ptr: !tt.ptr<f32>, %N: i32, %K: i32, %sa: i32, %sb: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c127 = arith.constant 127 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tt.get_program_id x : i32
    %n1 = arith.addi %N, %c127 : i32
    %n = arith.divsi %n1, %c128 : i32
    %pm = arith.divsi %pid, %n : i32
    %pn = arith.remsi %pid, %n : i32
    %om = arith.muli %pm, %c128 : i32
    %on = arith.muli %pn, %c128 : i32
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %rk = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %oms = tt.splat %om : i32 -> tensor<128xi32>
    %rm = arith.addi %oms, %range : tensor<128xi32>
    %ons = tt.splat %on : i32 -> tensor<128xi32>
    %rn = arith.addi %ons, %range : tensor<128xi32>
    %rm2 = tt.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %sas = tt.splat %sa : i32 -> tensor<128x1xi32>
    %am = arith.muli %rm2, %sas : tensor<128x1xi32>
    %a0 = tt.splat %a_ptr : !tt.ptr<bf16> -> tensor<128x1x!tt.ptr<bf16>>
    %a1 = tt.addptr %a0, %am : tensor<128x1x!tt.ptr<bf16>>, tensor<128x1xi32>
    %a2 = tt.broadcast %a1 : tensor<128x1x!tt.ptr<bf16>> -> tensor<128x64x!tt.ptr<bf16>>
    %rk2 = tt.expand_dims %rk {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rk3 = tt.broadcast %rk2 : tensor<1x64xi32> -> tensor<128x64xi32>
    %a3 = tt.addptr %a2, %rk3 : tensor<128x64x!tt.ptr<bf16>>, tensor<128x64xi32>
    %rn2 = tt.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %b0 = tt.splat %b_ptr : !tt.ptr<bf16> -> tensor<1x128x!tt.ptr<bf16>>
    %b1 = tt.addptr %b0, %rn2 : tensor<1x128x!tt.ptr<bf16>>, tensor<1x128xi32>
    %b2 = tt.broadcast %b1 : tensor<1x128x!tt.ptr<bf16>> -> tensor<64x128x!tt.ptr<bf16>>
    %rk4 = tt.expand_dims %rk {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %sbs = tt.splat %sb : i32 -> tensor<64x1xi32>
    %bk = arith.muli %rk4, %sbs : tensor<64x1xi32>
    %bk2 = tt.broadcast %bk : tensor<64x1xi32> -> tensor<64x128xi32>
    %b3 = tt.addptr %b2, %bk2 : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
    %step_a = arith.constant dense<64> : tensor<128x64xi32>
    %sb64 = arith.muli %sb, %c64 : i32
    %step_b = tt.splat %sb64 : i32 -> tensor<64x128xi32>
    %acc:3 = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero, %pa = %a3, %pb = %b3) -> (tensor<128x128xf32>, tensor<128x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>) : i32 {
      %a = tt.load %pa : tensor<128x64x!tt.ptr<bf16>>
      %b = tt.load %pb : tensor<64x128x!tt.ptr<bf16>>
      %d = tt.dot %a, %b, %c : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      %na = tt.addptr %pa, %step_a : tensor<128x64x!tt.ptr<bf16>>, tensor<128x64xi32>
      %nb = tt.addptr %pb, %step_b : tensor<64x128x!tt.ptr<bf16>>, tensor<64x128xi32>
      scf.yield %d, %na, %nb : tensor<128x128xf32>, tensor<128x64x!tt.ptr<bf16>>, tensor<64x128x!tt.ptr<bf16>>
    }
    %c_tile = tt.splat %c_ptr : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
    tt.store %c_tile, %acc#0 : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// A 2-D grid, x the tile's row of A and y its column of B (`pid_m = program_id(0)`,
// `pid_n = program_id(1)`): the GPU starts programs x fastest, t = y * X + x; the ids'
// readers read the grouped coordinates (y the slow one, x the fast), the y id moved up to the
// x id so that they come before every reader.
// CHECK-LABEL: tt.func @grid(
// CHECK: %[[X:.+]] = tt.get_program_id x {ttpipe.tile_order = 8 : i32} : i32
// CHECK: %[[Y:.+]] = tt.get_program_id y : i32
// CHECK: %[[NX:.+]] = tt.get_num_programs x : i32
// CHECK: %[[NY:.+]] = tt.get_num_programs y : i32
// CHECK: %[[YX:.+]] = arith.muli %[[Y]], %[[NX]] : i32
// CHECK: %[[T:.+]] = arith.addi %[[YX]], %[[X]] : i32
// CHECK: arith.subi %[[NY]], %{{.+}} : i32
// CHECK: %[[SLOW:.+]] = arith.addi
// CHECK: %[[FAST:.+]] = arith.divsi
// CHECK: arith.muli %[[FAST]], %{{.+}} : i32
// CHECK: arith.muli %[[SLOW]], %{{.+}} : i32
// CHECK-NOT: arith.muli %[[X]], %{{.+}} : i32
// Attention on a grid of query blocks (x) by heads (y): K and V follow the head alone, Q
// both; kept.
// CHECK-LABEL: tt.func @attention_grid(
// CHECK-NOT: arith.minsi
// REMARK: remark: tiles kept in row-major order: no dot of the tile reads one operand along its row of tiles and the other along its column
module {
  tt.func @grid(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %cd: !tt.tensordesc<tensor<128x128xf32>>, %K: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pm = tt.get_program_id x : i32
    %om = arith.muli %pm, %c128 : i32
    %pn = tt.get_program_id y : i32
    %on = arith.muli %pn, %c128 : i32
    %acc = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32>) : i32 {
      %a = tt.descriptor_load %ad[%om, %k] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%on, %k] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %c : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tt.descriptor_store %cd[%om, %on], %acc : !tt.tensordesc<tensor<128x128xf32>>, tensor<128x128xf32>
    tt.return
  }
  tt.func @attention_grid(%qd: !tt.tensordesc<tensor<128x64xbf16>>, %kd: !tt.tensordesc<tensor<128x64xbf16>>, %od: !tt.tensordesc<tensor<128x128xf32>>, %S: i32) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %block = tt.get_program_id x : i32
    %head = tt.get_program_id y : i32
    %hS = arith.muli %head, %S : i32
    %qb = arith.muli %block, %c128 : i32
    %qrow = arith.addi %hS, %qb : i32
    %q = tt.descriptor_load %qd[%qrow, %c0] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %k = tt.descriptor_load %kd[%hS, %c0] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
    %s = tt.dot %q, %kt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
    tt.descriptor_store %od[%qrow, %c0], %s : !tt.tensordesc<tensor<128x128xf32>>, tensor<128x128xf32>
    tt.return
  }
}

// -----

// Declined, each with a remark at the index: a loop that carries a value from tile to tile
// (its tiles' order is part of what it computes), one that reads a value computed from the
// program id, one that writes through a pointer it reads through, one with an atomic, and
// a program id read beside its row and column.
// CHECK-LABEL: tt.func @carried(
// CHECK-NOT: arith.minsi
// CHECK-LABEL: tt.func @from_program_id(
// CHECK-NOT: arith.minsi
// CHECK-LABEL: tt.func @in_place(
// CHECK-NOT: arith.minsi
// CHECK-LABEL: tt.func @atomic(
// CHECK-NOT: arith.minsi
// CHECK-LABEL: tt.func @id_read(
// CHECK-NOT: arith.minsi
// REMARK: remark: tiles kept in row-major order: the loop over tiles carries values from one tile to the next
// REMARK: remark: tiles kept in row-major order: the tile's code reads a value computed from the program id
// REMARK: remark: tiles kept in row-major order: the loop over tiles reads memory through a pointer it writes through
// REMARK: remark: tiles kept in row-major order: the loop over tiles updates memory with 'tt.atomic_rmw'
// REMARK: remark: tiles kept in row-major order: the tile index is read by 'tt.addptr', not only divided into a row and a column
module {
  tt.func @carried(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %rows: i32, %n: i32) -> tensor<128x128xf32> {
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    %sum = scf.for %t = %pid to %tiles step %c132 iter_args(%s = %zero) -> (tensor<128x128xf32>) : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %s : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      scf.yield %d : tensor<128x128xf32>
    }
    tt.return %sum : tensor<128x128xf32>
  }
  tt.func @from_program_id(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %cd: !tt.tensordesc<tensor<128x128xf32>>, %rows: i32, %n: i32) {
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    %slot = arith.muli %pid, %c132 : i32
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      tt.descriptor_store %cd[%slot, %tn], %d : !tt.tensordesc<tensor<128x128xf32>>, tensor<128x128xf32>
    }
    tt.return
  }
  tt.func @in_place(%a_ptr: !tt.ptr<bf16>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %rows: i32, %n: i32) {
    %c64 = arith.constant 64 : i32
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    %one = arith.constant 1 : i64
    %k64 = arith.constant 64 : i64
    %ad = tt.make_tensor_descriptor %a_ptr, [%rows, %c64], [%k64, %one] : <bf16>, <tensor<128x64xbf16>>
    %cd = tt.make_tensor_descriptor %a_ptr, [%rows, %n], [%k64, %one] : <bf16>, <tensor<128x128xbf16>>
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      %out = arith.truncf %d : tensor<128x128xf32> to tensor<128x128xbf16>
      tt.descriptor_store %cd[%tm, %tn], %out : !tt.tensordesc<tensor<128x128xbf16>>, tensor<128x128xbf16>
    }
    tt.return
  }
  tt.func @atomic(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %counter: !tt.ptr<i32>, %rows: i32, %n: i32) {
    %c1 = arith.constant 1 : i32
    %c132 = arith.constant 132 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    scf.for %t = %pid to %tiles step %c132 : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      %old = tt.atomic_rmw add, acq_rel, gpu, %counter, %c1 : (!tt.ptr<i32>, i32) -> i32
    }
    tt.return
  }
  tt.func @id_read(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %out: !tt.ptr<f32>, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tt.get_program_id x : i32
    %tm = arith.divsi %pid, %n : i32
    %tn = arith.remsi %pid, %n : i32
    %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
    %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
    %p = tt.addptr %out, %pid : !tt.ptr<f32>, i32
    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
    tt.store %ps, %d : tensor<128x128x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// Kept: attention's two dots (S = Q K^T, O = P V) read K and V along the head (the row of
// this numbering) alone and Q along both: no operand follows the column alone, and grouping
// rows buys nothing.
// CHECK-LABEL: tt.func @attention(
// CHECK-NOT: arith.minsi
// REMARK: remark: tiles kept in row-major order: no dot of the tile reads one operand along its row of tiles and the other along its column
module {
  tt.func @attention(%qd: !tt.tensordesc<tensor<128x64xbf16>>, %kd: !tt.tensordesc<tensor<128x64xbf16>>, %vd: !tt.tensordesc<tensor<128x64xbf16>>, %od: !tt.tensordesc<tensor<128x64xf32>>, %blocks: i32, %S: i32) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %zo = arith.constant dense<0.000000e+00> : tensor<128x64xf32>
    %pid = tt.get_program_id x : i32
    %head = arith.divsi %pid, %blocks : i32
    %block = arith.remsi %pid, %blocks : i32
    %hS = arith.muli %head, %S : i32
    %qb = arith.muli %block, %c128 : i32
    %qrow = arith.addi %hS, %qb : i32
    %q = tt.descriptor_load %qd[%qrow, %c0] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
    %o = scf.for %j = %c0 to %S step %c128 iter_args(%acc = %zo) -> (tensor<128x64xf32>) : i32 {
      %krow = arith.addi %hS, %j : i32
      %k = tt.descriptor_load %kd[%krow, %c0] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %v = tt.descriptor_load %vd[%krow, %c0] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %kt = tt.trans %k {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %s = tt.dot %q, %kt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      %p = arith.truncf %s : tensor<128x128xf32> to tensor<128x128xbf16>
      %d = tt.dot %p, %v, %acc : tensor<128x128xbf16> * tensor<128x64xbf16> -> tensor<128x64xf32>
      scf.yield %d : tensor<128x64xf32>
    }
    tt.descriptor_store %od[%qrow, %c0], %o : !tt.tensordesc<tensor<128x64xf32>>, tensor<128x64xf32>
    tt.return
  }
}

// -----

// A persistent loop whose bound is an argument (not written rows * n): rows = T / n, the
// grouped order selected where n divides T. A loop that starts at the program id but ends
// at a bound computed from it (one tile a program, written as a loop) is no loop over the
// launch's tiles, and keeps its order.
// CHECK-LABEL: tt.func @bound_argument(
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[TILES:.+]] step
// CHECK: %[[ROWS:.+]] = arith.divsi %[[TILES]], %[[N:.+]] : i32
// CHECK: %[[REM:.+]] = arith.remsi %[[TILES]], %[[N]] : i32
// CHECK: %[[DIVIDES:.+]] = arith.cmpi eq, %[[REM]], %{{.+}} : i32
// CHECK: arith.subi %[[ROWS]], %{{.+}} : i32
// CHECK: arith.select %[[DIVIDES]]
// CHECK: arith.select %[[DIVIDES]]
// CHECK: } {ttpipe.tile_order = 8 : i32}
// CHECK-LABEL: tt.func @one_tile_loop(
// CHECK-NOT: arith.minsi
// REMARK: remark: tiles kept in row-major order: the loop over tiles ends or steps by a value computed from the program id
module {
  tt.func @bound_argument(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %cd: !tt.tensordesc<tensor<128x128xf32>>, %tiles: i32, %n: i32) {
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tt.get_program_id x : i32
    %grid = tt.get_num_programs x : i32
    scf.for %t = %pid to %tiles step %grid : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      tt.descriptor_store %cd[%tm, %tn], %d : !tt.tensordesc<tensor<128x128xf32>>, tensor<128x128xf32>
    }
    tt.return
  }
  tt.func @one_tile_loop(%ad: !tt.tensordesc<tensor<128x64xbf16>>, %bd: !tt.tensordesc<tensor<128x64xbf16>>, %cd: !tt.tensordesc<tensor<128x128xf32>>, %n: i32) {
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %pid = tt.get_program_id x : i32
    %end = arith.addi %pid, %c1 : i32
    scf.for %t = %pid to %end step %c1 : i32 {
      %tm = arith.divsi %t, %n : i32
      %tn = arith.remsi %t, %n : i32
      %a = tt.descriptor_load %ad[%tm, %tm] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %b = tt.descriptor_load %bd[%tn, %tn] : !tt.tensordesc<tensor<128x64xbf16>> -> tensor<128x64xbf16>
      %bt = tt.trans %b {order = array<i32: 1, 0>} : tensor<128x64xbf16> -> tensor<64x128xbf16>
      %d = tt.dot %a, %bt, %zero : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
      tt.descriptor_store %cd[%tm, %tn], %d : !tt.tensordesc<tensor<128x128xf32>>, tensor<128x128xf32>
    }
    tt.return
  }
}

// -----

// The persistent GEMM as `ttgir-sm100` hands it to the pass: the tcgen05 MMA reads A and B
// from shared memory (each a `local_alloc` of its TMA load, B through a transposed view)
// and accumulates in TMEM; A follows the row of tiles and B the column, so it is regrouped.
// CHECK-LABEL: tt.func @tcgen05(
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step
// CHECK: arith.minsi
// CHECK: %[[ROW:.+]] = arith.addi
// CHECK: %[[COL:.+]] = arith.divsi
// CHECK: arith.muli %[[ROW]], %{{.+}} : i32
// CHECK: arith.muli %[[COL]], %{{.+}} : i32
// CHECK: ttng.tc_gen5_mma
// CHECK: } {ttpipe.tile_order = 8 : i32}
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#acc = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], warp = [[32, 0], [64, 0]], block = []}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#nvmma_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @tcgen05(%ad: !tt.tensordesc<tensor<128x64xbf16, #nvmma>>, %bd: !tt.tensordesc<tensor<128x64xbf16, #nvmma>>, %cd: !tt.tensordesc<tensor<128x128xbf16, #nvmma>>, %M: i32, %N: i32, %K: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c127 = arith.constant 127 : i32
    %c128 = arith.constant 128 : i32
    %c148 = arith.constant 148 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #acc>
    %m1 = arith.addi %M, %c127 : i32
    %rows = arith.divsi %m1, %c128 : i32
    %n1 = arith.addi %N, %c127 : i32
    %n = arith.divsi %n1, %c128 : i32
    %tiles = arith.muli %rows, %n : i32
    %pid = tt.get_program_id x : i32
    scf.for %t = %pid to %tiles step %c148 : i32 {
      %tm = arith.divsi %t, %n : i32
      %om = arith.muli %tm, %c128 : i32
      %tn = arith.remsi %t, %n : i32
      %on = arith.muli %tn, %c128 : i32
      %sum = scf.for %k = %c0 to %K step %c64 iter_args(%c = %zero) -> (tensor<128x128xf32, #acc>) : i32 {
        %a = tt.descriptor_load %ad[%om, %k] : !tt.tensordesc<tensor<128x64xbf16, #nvmma>> -> tensor<128x64xbf16, #blocked>
        %as = ttg.local_alloc %a : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #nvmma, #smem>
        %b = tt.descriptor_load %bd[%on, %k] : !tt.tensordesc<tensor<128x64xbf16, #nvmma>> -> tensor<128x64xbf16, #blocked>
        %bs = ttg.local_alloc %b : (tensor<128x64xbf16, #blocked>) -> !ttg.memdesc<128x64xbf16, #nvmma, #smem>
        %bt = ttg.memdesc_trans %bs {order = array<i32: 1, 0>} : !ttg.memdesc<128x64xbf16, #nvmma, #smem> -> !ttg.memdesc<64x128xbf16, #nvmma_t, #smem>
        %tacc, %token = ttng.tmem_alloc %c : (tensor<128x128xf32, #acc>) -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
        %done = ttng.tc_gen5_mma %as, %bt, %tacc[%token], %true, %true : !ttg.memdesc<128x64xbf16, #nvmma, #smem>, !ttg.memdesc<64x128xbf16, #nvmma_t, #smem>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
        %d, %token2 = ttng.tmem_load %tacc[%done] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #acc>
        scf.yield %d : tensor<128x128xf32, #acc>
      }
      %out = arith.truncf %sum : tensor<128x128xf32, #acc> to tensor<128x128xbf16, #acc>
      %outc = ttg.convert_layout %out : tensor<128x128xbf16, #acc> -> tensor<128x128xbf16, #blocked1>
      tt.descriptor_store %cd[%om, %on], %outc : !tt.tensordesc<tensor<128x128xbf16, #nvmma>>, tensor<128x128xbf16, #blocked1>
    }
    tt.return
  }
}
