"""The site's wheels with their Python compiled ahead of time, by the site's own Pyodide run in
Node.js at build time (tools/site.py).

A kernel in the page compiles every module it imports from source, in WebAssembly: importing
IPython, which the kernel does before its first cell, took 5.5 s that way and 1.25 s from
bytecode (Pyodide in Node on this 2-core machine), and `import lab` at the first practice check
pays the same. Bytecode must come from the very Python that runs it (the page's is Pyodide's
3.14, which the kit's own Python is not), so the compiling is done by that Pyodide, in Node,
which the machines that build the site have (it is not a Python package; without it the site is
built from source alone, slower to start, and the build says so).

Each `.py` of a wheel gets its `__pycache__/NAME.TAG.pyc` beside it, listed in the wheel's
RECORD, as an *unchecked* hash-based pyc: the unpacked files' times are the time they were
unpacked, so a timestamped pyc would be thrown away, and the wheel's bytes never change after
the build. The sources stay, for tracebacks. A compiled wheel is kept in .site-cache/ under
the digest of the wheel it was made from and the Pyodide that made it, so a build whose wheels
have not changed does not start Node.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

# Run inside Pyodide: compile the modules of every wheel in NAMES (its file name: the top-level
# names it is imported by), in the folder mounted at /wheels.
COMPILE = r'''
import io, py_compile, sys, zipfile
site = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages/"
unchecked = py_compile.PycInvalidationMode.UNCHECKED_HASH
for name, imports in NAMES.items():
    path, imports = "/wheels/" + name, {i.replace("-", "_") for i in imports}
    with zipfile.ZipFile(path) as wheel:
        entries = [(info, wheel.read(info)) for info in wheel.infolist()]
    out, compiled = io.BytesIO(), []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as made:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                record = (info, data)
                continue
            made.writestr(info, data)
            top = info.filename.split("/")[0].removesuffix(".py")
            if not info.filename.endswith(".py") or top not in imports:
                continue
            with open("/tmp/module.py", "wb") as source:
                source.write(data)
            try:
                py_compile.compile("/tmp/module.py", "/tmp/module.pyc", site + info.filename,
                                   doraise=True, invalidation_mode=unchecked)
            except py_compile.PyCompileError:
                continue  # not this Python's source (a template, a test's sample): left as it is
            folder, _, file = info.filename.rpartition("/")
            pyc = f"{folder}/__pycache__/{file[:-3]}.{sys.implementation.cache_tag}.pyc"
            entry = zipfile.ZipInfo(pyc.lstrip("/"), info.date_time)
            entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            made.writestr(entry, open("/tmp/module.pyc", "rb").read())
            compiled.append(entry.filename)
        info, data = record
        made.writestr(info, data + "".join(f"{p},,\n" for p in compiled).encode())
    open(path, "wb").write(out.getvalue())
'''
# Node's side: start the site's Pyodide, mount the wheels' folder, run COMPILE.
SCRIPT = """
const [pyodideFolder, wheels, names, code] = JSON.parse(process.argv[2]);
const { loadPyodide } = await import(pyodideFolder + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pyodideFolder + "/" });
py.FS.mkdirTree("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: wheels }, "/wheels");
py.globals.set("NAMES", py.toPy(names));
py.runPython(code);
"""


def compile_wheels(pyodide: Path, wheels: dict[Path, list[str]], cache: Path) -> str | None:
    """Replace each of `wheels` (files in `pyodide`, the site's Pyodide folder, each with the
    top-level names it is imported by, as its lock entry lists them) by the same wheel with
    those modules compiled: the kit's wheel holds starters, references and tests too, which the
    checker always compiles from their source. None when done, else why it was not (no
    Node.js, or Node failed), in a sentence for the build to print."""
    version = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    cache = cache / f"bytecode-{version}"
    cache.mkdir(parents=True, exist_ok=True)

    def kept(wheel: Path) -> Path:
        made_of = hashlib.sha256(wheel.read_bytes() + json.dumps(wheels[wheel]).encode())
        return cache / made_of.hexdigest()[:32] / wheel.name
    todo = [wheel for wheel in wheels if not kept(wheel).is_file()]
    if todo:
        node = shutil.which("node")
        if node is None:
            return ("Node.js is not on PATH, so the site's Python modules were not compiled "
                    "ahead: each kernel compiles them as it starts, seconds slower.")
        with tempfile.TemporaryDirectory(prefix="course-site-bytecode-") as scratch:
            for wheel in todo:
                shutil.copyfile(wheel, Path(scratch) / wheel.name)
            (Path(scratch) / "compile.mjs").write_text(SCRIPT, encoding="utf-8")
            arguments = json.dumps([str(pyodide.resolve()), scratch,
                                    {wheel.name: wheels[wheel] for wheel in todo}, COMPILE])
            done = subprocess.run([node, str(Path(scratch) / "compile.mjs"), arguments],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                return ("Node.js could not compile the site's Python modules ahead, so each "
                        "kernel compiles them as it starts:\n" + done.stderr[-1500:])
            for wheel in todo:  # moved in whole, for builds running side by side
                kept(wheel).parent.mkdir(exist_ok=True)
                partial = kept(wheel).with_name(f"{wheel.name}.{os.getpid()}")
                shutil.copyfile(Path(scratch) / wheel.name, partial)
                os.replace(partial, kept(wheel))
    for wheel in wheels:
        shutil.copyfile(kept(wheel), wheel)
    return None
