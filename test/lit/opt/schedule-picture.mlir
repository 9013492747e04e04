// --schedule-picture=DIR draws each pipelined loop (ops by stage and cluster, rings with their
// bytes, the waits that guard them) and each warp-specialized one (lanes with their warps and
// register budgets, mbarriers between them) as an SVG named <function>-loop<N>.svg. The example
// kept at one tile a program stays a software-pipelined loop.
// RUN: rm -rf %t && ttpipe-opt %S/../../../examples/matmul_ptr.sm90a.ttir -p 'ttgir-sm90{warp-specialize-persistent=false}' --schedule-picture=%t -o /dev/null
// RUN: filecheck %s --input-file %t/matmul_ptr-loop0.svg
// RUN: ttpipe-opt %S/../warp-specialize/Inputs/matmul_tma_ws_persistent.ttir -p 'ttgir-sm90{num-warps=4}' -schedule-picture %t -o /dev/null
// RUN: filecheck %s --input-file %t/matmul_tma_ws_persistent-loop0.svg --check-prefix=WS

// CHECK: data-function="matmul_ptr"
// CHECK-SAME: data-kind="pipelined loop"
// CHECK: shared memory: 98,304 B (42.3%) of 232,448 B, the limit of cuda:90
// CHECK: after ttpipe-schedule-loops: 3 stages × 4 clusters
// CHECK: data-op="ttng.warp_group_dot" data-stage="2" data-cluster="0"
// CHECK: data-op="tt.load" data-stage="0" data-cluster="3"
// CHECK: class="lane" data-lane="all warps" data-warps="4"
// CHECK: data-op="ttg.async_wait" data-lane="all warps"
// CHECK: class="buffer" data-name="%a" data-depth="3" data-bytes="49152" data-stage-bytes="16384"
// CHECK: cp.async wait num=2 (all warps)
// CHECK: wgmma wait pendings=1 (all warps)

// WS: data-kind="warp-specialized loop"
// WS: without a stage grid
// WS: class="lane" data-lane="default" data-warps="4" data-registers="unknown"
// WS: class="lane" data-lane="partition0" data-warps="4" data-registers="232"
// WS: class="lane" data-lane="partition1" data-warps="1" data-registers="40"
// WS: class="buffer" data-name="%9" data-depth="4" data-bytes="65536"
// WS: ← %11[i]: TMA copy completes (partition1)
// WS: class="buffer" data-name="%11" data-depth="4"
// WS: ← %11[i]: expects 32768 B (partition1)
