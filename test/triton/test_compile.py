"""`ttpipe-compile`: the cubin is the one `triton.compile` gives for the same TTGIR, the
launch metadata matches the kernel's parameter list, `--emit sass` shows the tensor-core
instructions of the arch, and every bad input is one error line, exit 1, no output file."""

import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
import triton
from triton.backends.compiler import GPUTarget

from ttpipe import compile as ttpipe_compile
from ttpipe.runtime import parameter_types

CORPUS = pathlib.Path(__file__).parent.parent / "corpus"

PTX_PARAM = re.compile(r"\.param (?:\.align \d+ )?\.(?P<type>[a-z]+\d+)(?P<ptr> \.ptr)?[^,\n]*?(?:\[(?P<count>\d+)\])?,?$",
                       re.M)


def corpus_file(target: str, kernel: str, name: str, tmp_path: pathlib.Path, suffix: str) -> pathlib.Path:
    source = CORPUS / target / kernel / name
    assert source.exists(), f"{source} is not in the corpus"
    copy = tmp_path / f"{kernel}{suffix}"
    shutil.copy(source, copy)
    return copy


# ptxas-blackwell 12.9 is not deterministic for most sm_100a tcgen05 kernels of the corpus
# (the same PTX gives one of two cubins, registers swapped); the warp-specialized
# persistent matmul is one it always compiles the same way.
@pytest.mark.parametrize("target,kernel,arch,capability,mma", [
    ("sm90a", "matmul_tma_persistent", "sm_90a", 90, r"\bHGMMA\b"),
    ("sm100a", "matmul_tma_persistent_ws", "sm_100a", 100, r"\bUTC[A-Z]*MMA\b"),
])
def test_ttgir_compiles_to_tritons_cubin(tmp_path, triton_cache, capfd, target, kernel, arch, capability, mma):
    source = corpus_file(target, kernel, "final-ttgir.mlir", tmp_path, ".ttgir")
    out = tmp_path / "out" / "k.cubin"
    out.parent.mkdir()
    assert ttpipe_compile.main([str(source), "--arch", arch, "-o", str(out), "--emit", "llir,ptx,sass"]) == 0
    assert capfd.readouterr().err == ""
    expected = triton.compile(str(source), target=GPUTarget("cuda", capability, 32))
    assert out.read_bytes() == expected.asm["cubin"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["k.cubin", "k.json", "k.llir", "k.ptx", "k.sass"]
    assert re.search(mma, (out.parent / "k.sass").read_text())

    metadata = json.loads((out.parent / "k.json").read_text())
    for key in ("name", "shared", "num_warps", "num_ctas", "cluster_dims", "global_scratch_size",
                "global_scratch_align", "profile_scratch_size", "tmem_size", "launch_pdl"):
        assert metadata[key] == getattr(expected.metadata, key, metadata[key]), key
    assert metadata["signature"][:3] == ["tensordesc<fp16[128,64]>", "tensordesc<fp16[128,64]>",
                                         "tensordesc<fp16[128,128]>"]
    assert [m["block_size"] for m in metadata["tensordesc_meta"]] == [[128, 64]] * 3
    assert_parameters_match_ptx(metadata["signature"], (out.parent / "k.ptx").read_text())


def assert_parameters_match_ptx(signature, ptx: str):
    """The runtime's parameter list has the sizes (and pointer-ness) of the PTX entry's."""
    entry = ptx[ptx.index(".entry"):ptx.index(")", ptx.index(".entry"))]
    found = [(int(m["type"][1:]) // 8 * int(m["count"] or 1), bool(m["ptr"])) for m in PTX_PARAM.finditer(entry)]
    sizes = {"CUtensorMap": 128, "i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "fp16": 2, "bf16": 2, "fp32": 4,
             "fp64": 8}
    expected = [(8, True) if t.startswith("*") else (sizes[t], False) for t in parameter_types(signature)]
    assert found == expected


def test_ttir_goes_through_the_default_pipeline(tmp_path, triton_cache):
    """TTIR from the corpus through ttgir-sm90 (impl=triton) gives the cubin of the corpus' TTGIR."""
    ttir = corpus_file("sm90a", "pointwise", "final-ttir.mlir", tmp_path, ".ttir")
    ttgir = corpus_file("sm90a", "pointwise", "final-ttgir.mlir", tmp_path, ".ttgir")
    compiled = ttpipe_compile.compile_file(str(ttir), "sm_90a", pipeline="ttgir-sm90{impl=triton}")
    assert compiled.metadata["pipeline"] == "ttgir-sm90{impl=triton}"
    assert compiled.cubin == triton.compile(str(ttgir), target=GPUTarget("cuda", 90, 32)).asm["cubin"]
    assert compiled.metadata["signature"] == ["*bf16", "*bf16", "*bf16", "fp32", "i32"]
    assert_parameters_match_ptx(compiled.metadata["signature"], compiled.asm["ptx"])


def test_console_script(tmp_path):
    source = corpus_file("sm90a", "softmax", "final-ttgir.mlir", tmp_path, ".ttgir")
    entry = "from ttpipe.tools.ttpipe_compile import main; main()"  # what the ttpipe-compile script runs
    result = subprocess.run([sys.executable, "-c", entry, str(source), "--arch", "sm_90a",
                             "-o", str(tmp_path / "softmax.cubin")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "softmax.json").read_text())["name"] == "softmax"


def _bad_inline_asm(tmp_path):
    source = corpus_file("sm90a", "inline_asm", "final-ttgir.mlir", tmp_path, ".ttgir")
    text = source.read_text()
    assert "shf.l.wrap.b32 $0, $1, $1, 7;" in text
    source.write_text(text.replace("shf.l.wrap.b32 $0, $1, $1, 7;", "bogus.op.b32 $0, $1;"))
    return source


def _too_much_shared_memory(tmp_path):
    """The persistent matmul with 8 instead of 3 buffers per operand: 288 KB of shared memory."""
    source = corpus_file("sm90a", "matmul_tma_persistent", "final-ttgir.mlir", tmp_path, ".ttgir")
    source.write_text(source.read_text().replace("3x128x64xf16", "8x128x64xf16"))
    return source


def _unparsable(tmp_path):
    source = tmp_path / "bad.ttgir"
    source.write_text('module attributes {"ttg.num-warps" = 4 : i32} {\n  tt.func @f() {\n'
                      '    %0 = arith.constant 1 : i32 junk\n  }\n}\n')
    return source


def _pointwise(tmp_path):
    return corpus_file("sm90a", "pointwise", "final-ttgir.mlir", tmp_path, ".ttgir")


@pytest.mark.parametrize("make_source,flags,message", [
    (_pointwise, ["--arch", "sm_89"], r"^ttpipe-compile: error: unknown arch 'sm_89'"),
    (_unparsable, ["--arch", "sm_90a"], r"^\S*bad\.ttgir:3:\d+: error: "),
    (_bad_inline_asm, ["--arch", "sm_90a"], r"^\S*inline_asm\.ttgir: error: ptxas failed: PTX line \d+: "),
    (_too_much_shared_memory, ["--arch", "sm_90a"],
     r"^\S*matmul_tma_persistent\.ttgir: error: kernel @matmul_tma_persistent needs 294936 bytes of shared memory"),
    (_pointwise, ["--arch", "sm_90a", "--num-warps", "8"], r"error: --num-warps 8 conflicts with .* = 4"),
    (_pointwise, ["--arch", "sm_90a", "--pipeline", "no-such-pass"], r"^ttpipe-compile: --pipeline: error: "),
])
def test_errors_are_one_line_and_write_nothing(tmp_path, capfd, make_source, flags, message):
    source = make_source(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    assert ttpipe_compile.main([str(source), *flags, "-o", str(out / "k.cubin"), "--emit", "ptx,sass"]) == 1
    captured = capfd.readouterr()
    errors = [line for line in captured.err.splitlines() if "error:" in line]
    assert len(errors) == 1 and re.search(message, errors[0]), captured.err
    assert "Traceback" not in captured.err and captured.out == ""
    assert list(out.iterdir()) == []


def test_a_launch_condition_goes_to_the_metadata(triton_cache):
    """The bench's looped layer norm (N an argument): the default pipeline builds the row ring,
    whose range of row lengths goes to the JSON metadata and off the TTGIR; without the ring
    there is none."""
    source = str(pathlib.Path(__file__).parents[1] / "lit" / "reverse-rereads" / "Inputs" / "layernorm_looped.ttir")
    ring = ttpipe_compile.compile_file(source, "sm_90a", num_warps=8)
    versions = ring.metadata["ttpipe_launch_when"]
    assert versions["num_warps"] == 8 and versions["condition"]["without"] == "ttpipe-row-ring"
    assert "ttg.warp_specialize" in ring.asm["ttgir"] and "ttpipe.launch_when" not in ring.asm["ttgir"]
    json.dumps(ring.metadata)  # the K.json beside the cubin
    plain = ttpipe_compile.compile_file(source, "sm_90a", pipeline="ttgir-sm90{row-ring=false}", num_warps=8)
    assert "ttpipe_launch_when" not in plain.metadata
