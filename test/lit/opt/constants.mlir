// Integer and float attributes print as Triton 3.6 (MLIR) prints them: with their type, i64
// and f64 included (in arith.constant, in dictionaries, as module attributes), except
// `true`/`false`, and i64/f64 elements of arrays, which go without it.
// RUN: ttpipe-opt %s -split-input-file | filecheck %s
// RUN: ttpipe-opt %s -split-input-file | ttpipe-opt -split-input-file | filecheck %s

// CHECK-LABEL: tt.func @constants
// CHECK-NEXT: %c1_i64 = arith.constant 1 : i64{{$}}
// CHECK-NEXT: %c-1_i64 = arith.constant -1 : i64{{$}}
// CHECK-NEXT: %c1 = arith.constant 1 : index{{$}}
// CHECK-NEXT: %c1_i32 = arith.constant 1 : i32{{$}}
// CHECK-NEXT: %cst = arith.constant 1.000000e+00 : f64{{$}}
// CHECK-NEXT: %cst_0 = arith.constant 0x7FF0000000000000 : f64{{$}}
// CHECK-NEXT: %cst_1 = arith.constant 2.500000e+00 : f16{{$}}
// CHECK-NEXT: %true = arith.constant true{{$}}
// CHECK-NEXT: %false = arith.constant false{{$}}
// CHECK-NEXT: %cst_2 = arith.constant dense<1> : tensor<4xi64>{{$}}
// CHECK-NEXT: %cst_3 = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf64>{{$}}
// CHECK-NEXT: %c3_i64 = arith.constant {tt.x = [1, 2.000000e+00]} 3 : i64{{$}}
// CHECK: module attributes {tt.a = 3 : i64, tt.b = [1, 2 : i32, 2.500000e+00], tt.c = 2.500000e+00 : f64, tt.d = {n = 4 : i64}}

module {
  tt.func @constants() {
    %0 = arith.constant 1 : i64
    %1 = arith.constant -1 : i64
    %2 = arith.constant 1 : index
    %3 = arith.constant 1 : i32
    %4 = arith.constant 1.0 : f64
    %5 = arith.constant 0x7FF0000000000000 : f64
    %6 = arith.constant 2.5 : f16
    %7 = arith.constant true
    %8 = arith.constant 0 : i1
    %9 = arith.constant dense<1> : tensor<4xi64>
    %10 = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
    %11 = arith.constant {tt.x = [1, 2.0]} 3 : i64
    tt.return
  }
}

// -----

module attributes {tt.a = 3 : i64, tt.b = [1, 2 : i32, 0x4004000000000000 : f64], tt.c = 2.5 : f64, tt.d = {n = 4 : i64}} {
}
