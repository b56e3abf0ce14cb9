"""How the package is built: with its native core (the Rust crate in `native/`, built by
setuptools-rust into the extension module `exact61.core._native`) where a Rust toolchain is
there, else pure Python. The Python engine is the reference either way, and the fallback: the
package works the same without the native core, only slower (docs/architecture.md).

EXACT61_COMPILE decides:
- unset: build the native core when `cargo` is on the PATH, and keep going without it (one line
  says so, in pip's verbose output: `exact61 --version` names the engine installed) when it is
  not there or its build fails;
- 1: build it, and fail when that is impossible (CI: a wheel without it is a failure);
- 0: pure Python.

A native module left in `build/` by an earlier build is removed first: a build that makes none
(pure, or a native build that failed) must not put the old one in its wheel.
"""

from __future__ import annotations

import glob
import os
import shutil
import sys

from setuptools import setup

NATIVE = "exact61.core._native"
CRATE = "native/Cargo.toml"
# The steps of pip's build that build something (it runs this file once a step: one line only).
BUILDING = ("bdist_wheel", "editable_wheel", "build_ext", "build_rust", "install")


def say(line: str) -> None:
    if any(step in sys.argv for step in BUILDING):
        print(f"exact61: {line}", file=sys.stderr)


def mode() -> str:
    """'pure', 'try' (build the native core if possible) or 'must', from EXACT61_COMPILE."""
    asked = os.environ.get("EXACT61_COMPILE", "").strip()
    if asked not in ("", "0", "1"):
        raise SystemExit(f"exact61: EXACT61_COMPILE is 0 (pure) or 1 (native), not {asked!r}")
    if asked == "0":
        say("EXACT61_COMPILE=0: installing the pure-Python engine")
        return "pure"
    if shutil.which("cargo") is None:
        if asked == "1":
            raise SystemExit(
                "exact61: EXACT61_COMPILE=1 builds the native core, which needs a Rust toolchain: "
                "no cargo on the PATH (https://rustup.rs)"
            )
        say("no Rust toolchain (cargo) on the PATH: installing the pure-Python engine")
        return "pure"
    return "must" if asked == "1" else "try"


for stale in glob.glob("build/lib*/exact61/core/_native*"):
    os.remove(stale)
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
