"""The pipeline expander preserves what a loop computes, for every valid schedule.

A small interpreter runs scalar loops (arith, `tt.addptr`/`tt.load`/`tt.store` on pointer
offsets, `scf.for`) before and after `pipeline_for_loop`; for each body, every stage
assignment up to 3 stages with a valid order, both epilogue modes, static (index) and
dynamic (i32) bounds and trip counts 0..6, the stores and the returned values must agree.
A load whose mask is false yields poison, and memory ends after the last iteration's
element; poison reaching a store or a returned value, or a load out of bounds, fails the
test, so predication that is too weak shows up as well as wrong versions.
"""

from __future__ import annotations

import itertools

import pytest

from ttpipe.dialects import scf
from ttpipe.passes.pipeline.expand import PipeliningOptions, Refusal, pipeline_for_loop
from ttpipe.passes.pipeline.predicate import predicate_op
from ttpipe.textio import parse_module

POISON = object()

HEADER = ('module attributes {"ttg.target" = "cuda:90", "ttg.num-ctas" = 1 : i32, '
          '"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {\n')

BODIES = {
    # A load used one stage later, a reduction carried across iterations.
    "reduce": """
      %p = tt.addptr %src, %i : !tt.ptr<f32>, {t}
      %v = tt.load %p : !tt.ptr<f32>
      %w = arith.mulf %v, %v : f32
      %s = arith.addf %acc, %w : f32
      %q = tt.addptr %dst, %i : !tt.ptr<f32>, {t}
      tt.store %q, %s : !tt.ptr<f32>
      scf.yield %s, %v : f32, f32
    """,
    # The previous iteration's load (distance 1) used next to the current one.
    "previous": """
      %p = tt.addptr %src, %i : !tt.ptr<f32>, {t}
      %v = tt.load %p : !tt.ptr<f32>
      %d = arith.subf %v, %prev : f32
      %s = arith.addf %acc, %d : f32
      %q = tt.addptr %dst, %i : !tt.ptr<f32>, {t}
      tt.store %q, %d : !tt.ptr<f32>
      scf.yield %s, %v : f32, f32
    """,
}

LOOP = """
  tt.func @f(%src: !tt.ptr<f32>, %dst: !tt.ptr<f32>, %n: {t}) -> (f32, f32) {{
    %c0 = arith.constant 0 : {t}
    %c1 = arith.constant 1 : {t}
    %zero = arith.constant 0.0 : f32
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %prev = %zero) -> (f32, f32) {iv_type} {{
{body}
    }}
    tt.return %r#0, %r#1 : f32, f32
  }}
}}
"""


def build(body: str, n: int, static: bool):
    """The module; a static loop has an index constant as its upper bound."""
    t = "index" if static else "i32"
    text = HEADER + LOOP.format(t=t, iv_type="" if static else ": i32", body=body.format(t=t))
    if static:
        text = text.replace("%n: index", "%unused: index").replace(
            "%zero = arith.constant", f"%n = arith.constant {n} : index\n    %zero = arith.constant")
    return parse_module(text, "loop.mlir").module


class Interpreter:
    def __init__(self, src: list[float]):
        self.memory = {("src", i): v for i, v in enumerate(src)}
        self.stores: dict[int, object] = {}

    def run_func(self, func, args: dict) -> list:
        env = dict(zip(func.regions[0].blocks[0].args, args))
        return self.run_block(func.regions[0].blocks[0], env)

    def run_block(self, block, env) -> list:
        for op in block.ops:
            name = op.name
            if name in ("tt.return", "scf.yield"):
                return [env[v] for v in op.operands]
            if name == "scf.for":
                self.run_for(op, env)
                continue
            ins = [env[v] for v in op.operands]
            env.update(zip(op.results, self.step(op, ins)))
        raise AssertionError("block without terminator")

    def run_for(self, op, env) -> None:
        lb, ub, step, *carried = [env[v] for v in op.operands]
        body = op.regions[0].blocks[0]
        i = lb
        while i < ub:
            inner = dict(env)
            inner.update(zip(body.args, [i, *carried]))
            carried = self.run_block(body, inner)
            i += step
        env.update(zip(op.results, carried))

    def step(self, op, ins) -> list:
        name = op.name
        if name == "arith.constant":
            return [op.value.value.data]
        if any(v is POISON for v in ins) and name not in ("arith.select", "tt.store"):
            return [POISON] * len(op.results)
        binary = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
                  "arith.muli": lambda a, b: a * b, "arith.maxsi": max,
                  "arith.divsi": lambda a, b: int(a / b), "arith.andi": lambda a, b: a and b,
                  "arith.addf": lambda a, b: a + b, "arith.subf": lambda a, b: a - b,
                  "arith.mulf": lambda a, b: a * b}
        if name in binary:
            return [binary[name](*ins)]
        if name == "arith.cmpi":
            predicate = op.predicate.value.data
            a, b = ins
            return [{2: a < b, 3: a <= b, 4: a > b, 5: a >= b}[predicate]]
        if name == "arith.select":
            c, a, b = ins
            assert c is not POISON
            return [a if c else b]
        if name == "tt.addptr":
            (base, offset), delta = ins
            return [(base, offset + delta)]
        if name == "tt.load":
            ptr, *mask = ins
            if mask and not mask[0]:
                return [POISON]
            assert ptr in self.memory, f"load out of bounds: {ptr}"
            return [self.memory[ptr]]
        if name == "tt.store":
            (base, offset), value, *mask = ins
            if mask and not mask[0]:
                return []
            assert value is not POISON, "poison stored"
            self.stores[offset] = value
            return []
        raise NotImplementedError(name)


def run(module, n: int) -> tuple[dict, list]:
    func = next(op for op in module.walk() if op.name == "tt.func")
    interp = Interpreter([float(k + 1) for k in range(n)])
    results = interp.run_func(func, [("src", 0), ("dst", 0), n])
    return interp.stores, results


def schedules(for_op: scf.ForOp, max_stages: int):
    """Every stage assignment (0..max_stages-1) with stages non-decreasing along
    same-iteration dependences, emitted in two orders: by stage descending (Triton's
    usual kernel order) and in body order."""
    ops = list(for_op.body.ops)[:-1]
    for stages in itertools.product(range(max_stages), repeat=len(ops)):
        stage_of = dict(zip(ops, stages))
        if max(stages) == 0:
            continue
        if any(v.owner in stage_of and stage_of[v.owner] > stage_of[op]
               for op in ops for v in op.operands):
            continue
        yield [(op, stage_of[op]) for op in sorted(ops, key=lambda o: -stage_of[o])]
        yield [(op, stage_of[op]) for op in ops]


@pytest.mark.parametrize("body", sorted(BODIES))
@pytest.mark.parametrize("static", [False, True], ids=["dynamic", "static"])
@pytest.mark.parametrize("peel", [False, True], ids=["predicated", "peeled"])
def test_expansion_preserves_semantics(body: str, static: bool, peel: bool):
    expanded = 0
    # A dynamic loop's module is the same for every trip count: expanded once, run for each.
    trip_counts = [[n] for n in range(7)] if static else [list(range(7))]
    for counts in trip_counts:
        template = build(BODIES[body], counts[0], static)
        references = {n: run(template, n) for n in counts}
        for_op = next(op for op in template.walk() if isinstance(op, scf.ForOp))
        originals = list(for_op.body.ops)
        for index, schedule in enumerate(schedules(for_op, 3)):
            module = template.clone()
            loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
            ops = list(loop.body.ops)
            mapped = [(ops[originals.index(op)], stage) for op, stage in schedule]
            result = pipeline_for_loop(loop, PipeliningOptions(
                mapped, predicate_fn=predicate_op, peel_epilogue=peel, support_dynamic_loops=True))
            if isinstance(result, Refusal):
                continue
            expanded += 1
            for n in counts:
                assert run(module, n) == references[n], f"n={n}, schedule #{index}: {[s for _, s in mapped]}"
    assert expanded > 0
