"""The kit as the browser site's Python holds it: one wheel, which the kernel unpacks into its
own memory as it starts (tools/site.py lists it in Pyodide's lock file and has it loaded).

In the page, every stat, open and read of a file on the drive (/drive) is a request to
JupyterLab's contents, tens of milliseconds each: importing `lab` from there and running the
practice check of lab 15.1 made about five hundred of them, most of its 7 s on a quiet 2-core
machine and 11 to 17 s on a busy one (bench/site_check.py; lab_check.py takes 0.25 to 0.9 s).
From memory the same check takes under 2 s on the quiet machine. The wheel holds what the `lab` package reads, laid out as in
the kit: `lab/` itself, the lessons' folders without their notebooks and figures (which only
JupyterLab opens), the starters and the references. Unpacked into site-packages, `import lab`
finds it from any folder, and the kit's folder as `lab` knows it (manifest.KIT, the folder
holding lab/) is site-packages, in memory. The student's work folder stays on the drive, in the
browser's storage: the site sets HARNESS_COURSE_WORK for the kernel.

It is made from the drive's own copy of those folders, so the page reads what it shows; the
same files make the same bytes, and its version is a hash of them, so a browser never serves a
stale copy from its cache under a new lock file.
"""
from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

NAME = "harness-course"  # the kit's distribution name, as pyproject.toml gives it
IMPORTS = ("lab",)
LEFT_OUT = ("*.ipynb", "figures")  # of the lessons' folders: what only JupyterLab opens
STAMP = (1980, 1, 1, 0, 0, 0)  # every entry's time: the same files make the same wheel


def _held(files: Path, parts) -> list[tuple[str, bytes]]:
    """(path in the wheel, bytes) of every file of `parts` under `files`, in order."""
    held = []
    for part in parts:
        for path in sorted((files / part).rglob("*")):
            inside = path.relative_to(files)
            if path.is_dir() or (inside.parts[0] == "lessons" and any(
                    inside.match(pattern) or pattern in inside.parts for pattern in LEFT_OUT)):
                continue
            held.append((inside.as_posix(), path.read_bytes()))
    return held


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make(files: Path, parts, folder: Path) -> dict:
    """Write the wheel of `parts` (folders under `files`, the drive's copy) into `folder`, and
    return its entry for Pyodide's lock file."""
    held = _held(files, parts)
    content = hashlib.sha256()
    for name, data in held:
        content.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    version = f"0.{int(content.hexdigest()[:12], 16)}"
    info = f"{NAME.replace('-', '_')}-{version}.dist-info"
    held += [(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
              .encode()),
             (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: tools.kitwheel\n"
                               b"Root-Is-Purelib: true\nTag: py3-none-any\n")]
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n" for name, data in held)
    held.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    wheel = folder / f"{NAME.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in held:
            entry = zipfile.ZipInfo(name, STAMP)
            entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(entry, data)
    return {"name": NAME, "version": version, "file_name": wheel.name, "install_dir": "site",
            "package_type": "package", "imports": list(IMPORTS), "depends": [],
            "unvendored_tests": False,
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest()}
