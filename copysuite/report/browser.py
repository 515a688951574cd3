"""A headless Chromium for the matrix page: the page as the browser builds it (its DOM after the script ran), and a
screenshot. Chromium's own command line, no driver: `apt-get install chromium` (Debian) provides it."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# headless, as root, on a machine without network or display (the flags a CI container needs)
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def find() -> str | None:
    """The path of a Chromium or Chrome on PATH, or None."""
    return next((path for path in map(shutil.which, NAMES) if path), None)


def _run(url: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    exe = find()
    if exe is None:
        raise FileNotFoundError(f"no Chromium on PATH (looked for {', '.join(NAMES)})")
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args, url], capture_output=True,
                              text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{exe} exited {done.returncode} on {url}: {done.stderr[-2000:]}")
    return done


def url(path, fragment: str = "") -> str:
    return Path(path).resolve().as_uri() + (f"#{fragment}" if fragment else "")


def dom(path, fragment: str = "") -> str:
    """The page's DOM as Chromium serializes it once the page has loaded (its scripts have run)."""
    return _run(url(path, fragment), "--dump-dom").stdout


def screenshot(path, png, fragment: str = "", size=(1400, 1800)) -> None:
    _run(url(path, fragment), f"--window-size={size[0]},{size[1]}", f"--screenshot={Path(png).resolve()}")
