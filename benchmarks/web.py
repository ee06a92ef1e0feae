#!/usr/bin/env python3
"""The browser table's first render on loopback: ``matador serve`` and Debian's Chromium.

    python benchmarks/web.py [--loads 20] [--chromium /usr/bin/chromium]

Starts ``matador serve`` (SQLite in a temporary directory), makes one table against the
computer with the lobby's one-click button, then opens the seat's link ``--loads`` times
in fresh browser contexts (cold caches) and reads the page's own mark
``matador:first-render`` (milliseconds from the start of navigation to the first
rendering of the table from the server's snapshot). Prints the median, the 90th
percentile and the largest, and the gzipped size of the table's scripts.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
STATIC = Path(__file__).resolve().parents[1] / "src" / "matador" / "web" / "static"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=20)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    matador = Path(sys.executable).parent / "matador"
    with tempfile.TemporaryDirectory() as data:
        proc = subprocess.Popen([str(matador), "serve", "--port", "0", "--data-dir", data],
                                stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            base = line.strip().split("open ")[1].rstrip("/")
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=args.chromium, args=FLAGS)
                page = browser.new_page()
                page.goto(f"{base}/")
                page.click("#play-computer")
                page.wait_for_selector("#hand button")
                link = page.url
                page.close()
                times = []
                for _ in range(args.loads):
                    context = browser.new_context(viewport={"width": 1280, "height": 800})
                    p = context.new_page()
                    p.goto(link)
                    p.wait_for_function(
                        "performance.getEntriesByName('matador:first-render').length > 0")
                    times.append(p.evaluate(
                        "performance.getEntriesByName('matador:first-render')[0].startTime"))
                    context.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    size = sum(len(gzip.compress((STATIC / n).read_bytes(), 9))
               for n in ("table.js", "dom.js", "domino.js"))
    print(f"first table render over {len(times)} cold loads: median "
          f"{statistics.median(times):.0f} ms, p90 {p90:.0f} ms, max {times[-1]:.0f} ms")
    print(f"table scripts (table.js + dom.js + domino.js), gzipped: {size / 1024:.1f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
