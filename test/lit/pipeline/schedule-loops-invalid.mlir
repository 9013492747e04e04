// A custom scheduler's schedule is checked before it is written: every op of the body must
// be placed, and after the producers of its operands. The scheduler is in Inputs/.
// RUN: env PYTHONPATH=%S/Inputs ttpipe-opt %s --split-input-file --verify-diagnostics --ttpipe-schedule-loops=scheduler=bad_schedulers:rule_breaker

// An op left out of the schedule is reported at the op.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @unplaced(%k: i32, %desc: !tt.tensordesc<tensor<128x64xf16>>, %out: tensor<128x64x!tt.ptr<f16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      // expected-error @below {{the schedule of the loop gives 'tt.descriptor_load' no stage}}
      %a = tt.descriptor_load %desc[%c0, %i] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      tt.store %out, %a : tensor<128x64x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}

// -----

// A user scheduled before its producer is reported at the user.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.target" = "cuda:100", "ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @backwards(%k: i32, %desc: !tt.tensordesc<tensor<128x64xf16>>, %out: tensor<128x64x!tt.ptr<f16>, #blocked>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    scf.for %i = %c0 to %k step %c1 : i32 {
      %a = tt.descriptor_load %desc[%c0, %i] {tt.latency = 2 : i32} : !tt.tensordesc<tensor<128x64xf16>> -> tensor<128x64xf16, #blocked>
      // expected-error @below {{the schedule puts 'tt.store' before 'tt.descriptor_load', which produces its operand}}
      tt.store %out, %a : tensor<128x64x!tt.ptr<f16>, #blocked>
    }
    tt.return
  }
}
