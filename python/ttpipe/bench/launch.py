"""`python -m ttpipe.bench.launch CASE`: one launch of one bench case, for tools that wrap a
process (`compute-sanitizer`, `ncu`): compile (through the plug-in with the case's pipeline,
or stock Triton in one of the case's versions), NaN-poison the output, launch once with
torch, synchronize, and print one JSON line:

    {"case", "side", "size", "compiled", "warp_specialized", "asynchronous", "rel_error", "nan", "ok"[, "power"]}

    python -m ttpipe.bench.launch gemm-ws-bf16-4096-128x128w4 [--side ttpipe|triton[:LABEL]|torch]
        [--size 300x264x528] [--no-check] [--pipeline P] [--then PASSES] [--seed S] [--power-seconds S]

`--side torch` runs the case's torch baseline once (cuBLAS). `--size` needs a case with
`sized_setup` (the warp-specialized GEMMs: MxNxK; the looped row kernels: ROWSxN; the
grid-stride kernel: NxPROGRAMS). `--no-check` skips the float32 reference, so that only
the case's kernel (and input set-up) runs. `--then` runs more passes after the pipeline
(`ttpipe-plant-async-mutant{...}`: a planted protocol bug, `ttpipe.bench.mutants`).
`--power-seconds S` then launches the kernel back to back for S seconds while nvidia-smi
samples the SM clock and the board's power (`ttpipe.bench.power.sample_while`): "power".
Exit status: 0 ok, 1 wrong result
(or NaN left in the output), 2 compile or launch error, 3 bad arguments.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

import ttpipe.triton
from ttpipe.bench.cases import CASES
from ttpipe.bench.power import sample_while
from ttpipe.triton.pipelines import default_pipeline
from ttpipe.bench.harness import (
    _one_line,
    _relative_error,
    asynchronous,
    case_pipeline,
    on_device,
    poisoned_launch,
    quiet_stderr,
    warp_specialized,
)


def problem_size(text: str) -> tuple[int, ...]:
    """A size argument: one to three positive sizes joined by 'x' (MxNxK, ROWSxN, ...)."""
    dims = tuple(int(part) for part in text.lower().split("x"))
    if not 1 <= len(dims) <= 3 or min(dims) < 1:
        raise argparse.ArgumentTypeError(f"'{text}': expected MxNxK, ROWSxN or NxPROGRAMS")
    return dims


def build_arg_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m ttpipe.bench.launch", description=__doc__.split("\n\n")[0])
    p.add_argument("case")
    p.add_argument("--side", default="ttpipe", help="ttpipe (default), triton[:LABEL] (a stock version), torch")
    p.add_argument("--size", type=problem_size, default=None,
                   help="cases with sized_setup: MxNxK (GEMMs), ROWSxN (row kernels), NxPROGRAMS (grid-stride)")
    p.add_argument("--pipeline", default=None, help="the plug-in's pipeline where the case has none of its own")
    p.add_argument("--then", default=None, help="passes the plug-in runs after the case's pipeline")
    p.add_argument("--no-check", action="store_true", help="no float32 reference: only the kernel runs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--power-seconds", type=float, default=0.0,
                   help="then launch back to back this long, sampling the SM clock and power (nvidia-smi)")
    p.add_argument("--num-sms", type=int, default=None,
                   help="persistent kernels: CTAs in the grid (default: the GPU's SMs)")
    return p


def run(argv: list[str]) -> int:
    args = build_arg_parser().parse_args(argv)
    case = CASES.get(args.case)
    if case is None:
        sys.stderr.write(f"ttpipe.bench.launch: error: unknown case '{args.case}'\n")
        return 3
    if args.size is not None and case.sized_setup is None:
        sys.stderr.write(f"ttpipe.bench.launch: error: case '{case.name}' has one size (no sized_setup)\n")
        return 3
    if args.size is not None and len(args.size) != len(case.small_sizes[0]):
        sys.stderr.write(f"ttpipe.bench.launch: error: --size {'x'.join(map(str, args.size))}: case '{case.name}' "
                         f"takes {len(case.small_sizes[0])} sizes, as {'x'.join(map(str, case.small_sizes[0]))}\n")
        return 3
    side, _, label = args.side.partition(":")
    runs = dict(case.stock_runs())
    if side not in ("ttpipe", "triton", "torch") or (side == "triton" and label not in runs):
        sys.stderr.write(f"ttpipe.bench.launch: error: --side {args.side}: ttpipe, torch or triton[:LABEL], "
                         f"LABEL one of {list(runs)}\n")
        return 3

    import torch  # only here: the module imports without it (no GPU needed to read --help)

    device = torch.device("cuda", torch.cuda.current_device())
    constexprs = on_device(runs[label] if side == "triton" else case.constexprs,
                           args.num_sms or torch.cuda.get_device_properties(device).multi_processor_count)
    launch = (case.setup(torch, device, args.seed, constexprs) if args.size is None else
              case.sized_setup(torch, device, args.seed, constexprs, args.size))
    result = {"case": case.name, "side": args.side, "size": list(args.size) if args.size else None}
    pipeline = case_pipeline(case, args.pipeline)
    if args.then:
        capability = torch.cuda.get_device_capability(device)
        pipeline = f"{pipeline or default_pipeline(capability[0] * 10 + capability[1])},{args.then}"
    try:
        if side == "torch":
            out = launch.baseline()
            result["compiled"] = None
            if args.power_seconds:
                result["power"] = sample_while(launch.baseline, torch.cuda.synchronize, args.power_seconds)
        else:
            plugin = ttpipe.triton.installed(pipeline) if side == "ttpipe" else contextlib.nullcontext()
            def launch_kernel():
                return case.kernel[launch.grid](*launch.args, **constexprs, **case.options)

            with plugin, quiet_stderr():
                compiled = poisoned_launch(torch, lambda _: launch_kernel(), launch)
                if args.power_seconds:
                    result["power"] = sample_while(launch_kernel, torch.cuda.synchronize, args.power_seconds)
            out = launch.output
            result["compiled"] = "ttpipe" if side == "ttpipe" else "triton"
            result["warp_specialized"] = warp_specialized(compiled)
            result["asynchronous"] = asynchronous(compiled)
        torch.cuda.synchronize()
    except Exception as exc:
        result["error"] = _one_line(exc)
        print(json.dumps(result), flush=True)
        return 2
    result["nan"] = bool(out.isnan().any())
    if not args.no_check:
        error = _relative_error(torch, out, launch.reference())
        result["rel_error"] = error
        result["ok"] = not result["nan"] and case.accepts(error)
    else:
        result["ok"] = not result["nan"]
    print(json.dumps(result), flush=True)
    return 0 if result["ok"] else 1


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    sys.exit(main())
