"""Output files: written all together, and a device or pipe written in place (renaming a
file over `/dev/null` would replace the device)."""

from __future__ import annotations

import os
import stat
import threading

from ttpipe import opt
from ttpipe.outputs import write_atomically


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_atomically({str(fifo): b"text", str(tmp_path / "file"): b"more"}, where="test")
    reader.join(10)
    assert got == [b"text"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert (tmp_path / "file").read_bytes() == b"more"


def test_opt_output_to_dev_null_keeps_the_device(tmp_path):
    source = tmp_path / "in.mlir"
    source.write_text("module {\n}\n")
    assert opt.main([str(source), "-o", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
