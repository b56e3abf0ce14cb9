"""How the package is built: with its native core (the Rust crate in `native/`, built by
setuptools-rust into the extension module `exact61.core._native`) where a Rust toolchain is
there, else pure Python. The Python engine is the reference either way, and the fallback: the
package works the same without the native core, only slower (docs/architecture.md).

EXACT61_COMPILE decides:
- unset: build the native core when `cargo` is on the PATH, and keep going without it (one line
  says so) when it is not there or its build fails;
- 1: build it, and fail when that is impossible (CI: a wheel without it is a failure);
- 0: pure Python.
"""

from __future__ import annotations

import os
import shutil
import sys

from setuptools import setup

NATIVE = "exact61.core._native"
CRATE = "native/Cargo.toml"


def mode() -> str:
    """'pure', 'try' (build the native core if possible) or 'must', from EXACT61_COMPILE."""
    asked = os.environ.get("EXACT61_COMPILE", "")
    if asked == "0":
        return "pure"
    if asked == "1":
        return "must"
    if shutil.which("cargo") is None:
        print(
            "exact61: no Rust toolchain (cargo) on the PATH: installing the pure-Python engine",
            file=sys.stderr,
        )
        return "pure"
    return "try"


chosen = mode()
if chosen == "pure":
    setup()
else:
    from setuptools_rust import Binding, RustExtension

    setup(
        rust_extensions=[
            RustExtension(
                NATIVE,
                path=CRATE,
                binding=Binding.PyO3,
                debug=False,  # an editable install too: the searches need the optimised build
                optional=chosen == "try",  # a failed build leaves the pure engine, with a warning
            )
        ],
        # One wheel for every CPython from 3.11 (PyO3's stable ABI, `abi3-py311` in the crate).
        options={"bdist_wheel": {"py_limited_api": "cp311"}},
    )
