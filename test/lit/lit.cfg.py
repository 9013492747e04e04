"""lit configuration: RUN lines use `ttpipe-opt` and `filecheck` (Python FileCheck) from PATH."""

import os

import lit.formats

config.name = "ttpipe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.environment["PATH"] = os.environ.get("PATH", "")
config.environment["PYTHONUNBUFFERED"] = "1"
