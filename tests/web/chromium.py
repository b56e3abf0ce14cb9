"""How the browser tests launch Chromium: the flags that keep it headless and quiet (no sandbox
in a container, no GPU, no network of its own, no first-run pages). Plain data, no imports, so
that `benchmarks/bench_web_lighthouse.py` gives Lighthouse's Chromium the same flags from here."""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
