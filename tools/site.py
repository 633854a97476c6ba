"""The course in a browser tab: a static JupyterLite site, built from the kit.

    python -m tools.site build --out site/

makes a folder any static host can serve (GitHub Pages, `python -m http.server`): JupyterLab and
a Python kernel (Pyodide) running in the page, every lesson notebook, the `lab` package, the
starters and the references the lessons' cells load, and the packed hints. Once served, the site
fetches nothing from anywhere else: the kernel's default is a CDN, and here it is pointed at
files in the site.

What the site holds, and where each part comes from (PyPI and the npm registry only, at build
time; downloads are kept in .site-cache/ so a second build needs no network):
- JupyterLab and the kernel's extension: jupyterlite-core and jupyterlite-pyodide-kernel,
  installed from PyPI into an environment of their own in .site-cache/ (tools/site_env.py says
  why: in the kit's, the kit's JupyterLab would load the kernel's extension);
- Pyodide's core (the runtime and the standard library): the npm package `pyodide`, at the
  version the kernel's extension was made for (its PYODIDE_VERSION), checked against the
  registry's integrity hash;
- what the kernel needs as it starts and the core package lacks (micropip, IPython and the
  pure-Python packages under it, jedi): the wheels of PyPI at the versions Pyodide's own lock
  file names; `comm`, which that lock lacks, from PyPI too, and the kernel's own wheels
  (pyodide-kernel, its ipykernel, piplite) from its extension;
- the lock file, pyodide-lock.json: Pyodide's, cut down to those wheels and the kit's, each
  entry pointing at its file in the site with that file's sha256 (pyodide-lock, the library
  that edits lock files, reads this Pyodide's format only from release 0.1.3, which needs
  Python 3.12; the kit supports 3.11, so the few fields are rewritten here). The kernel's
  Python starts with all of them (KERNEL_OPTIONS), loaded at once, so its worker installs
  nothing.

For a class, `--through LAB` makes the drive the student release through that lab instead
(grader/release/, `python -m grader release`): no references but those `--with-reference`
names, and the lessons' cells that need one show what they printed.

In the page, the drive holds the kit's folders as they are in the kit, for the student to open,
except that each lesson's notebook is named for its folder (`notebook` says why), and the work
folder, /drive/work, lives in the browser's storage. What the `lab` package reads is also in a
wheel the kernel loads into its memory as it starts (tools/kitwheel.py): every file on the drive
is a request away, and a practice check read from there took seconds, so `import lab` finds that
copy from any folder and reads the kit there, and the kernel's environment names /drive/work as
the work folder. There `course.check` is the practice check (lab/check/lines.py's PRACTICE). The
drive's lessons and starters are reworded for a page with no terminal, and its notebooks stored
as JupyterLite reads them (tools/site_page.py); the wheel is made from the reworded drive.
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path, PurePosixPath

from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

from lab.check import manifest, spoken
from lab.check.errors import UserError
from lab.desk import course
from tools import kitwheel, site_bytecode, site_env, site_page

CACHE = manifest.KIT / ".site-cache"
REGISTRY = "https://registry.npmjs.org/pyodide"
# Pyodide's core files, from its npm package: the runtime, the standard library, the lock file.
CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
        "pyodide-lock.json", "package.json")
# What the kernel's worker installs as it starts, unless its Python was started with them: these
# come from Pyodide's lock, with everything they depend on;
FROM_THE_LOCK = ("micropip", "ipython", "jedi")
# these, which Pyodide's lock lacks, from the kernel's extension (its own wheels: name, imports,
# depends) and PyPI (pinned), and all go into the lock, so that Pyodide loads them all at once as
# it starts, as it loads the kit's wheel, rather than the worker installing them one after
# another through piplite and micropip, which cost seconds of every kernel's start.
FROM_THE_EXTENSION = {"piplite": (["piplite"], ["micropip"]),
                      "pyodide-kernel": (["pyodide_kernel"], ["comm", "ipython"]),
                      "ipykernel": (["ipykernel"], ["pyodide-kernel"])}
FROM_PYPI = {"comm==0.2.3": (["comm"], [])}
# From the kit into the page's drive; the authors' wing (source/) never goes.
KIT_PARTS = ("lab", "lessons", "starters", "solutions")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", ".lab", "work")
DRIVE = PurePosixPath("/drive")  # where the kernel sees the site's files
# How the kernel's Python starts: with the kit's wheel loaded, and the work folder on the drive.
# The worker skips what the list names, by these names (jupyterlite-pyodide-kernel's worker.ts).
KERNEL_OPTIONS = {"packages": [kitwheel.NAME, "micropip", "piplite", "comm", "ipykernel",
                               "pyodide-kernel", "ipython", "jedi"],
                  "env": {course.WORK_ENV: str(DRIVE / "work")}}

README = """# {title}, in your browser

Everything here runs in this browser tab: JupyterLab, Python (Pyodide) and the course's fake
world. Nothing is installed and nothing is sent anywhere.

- Open a lesson, {first} first, and run its cells from the top.
- A lab: `{start}` in a cell copies the starter to work/{folder}/harness.py;
  open it here, fill its gaps, save.
- Check it: `{check}` in a cell. In the browser this is a practice check: the same
  tests and verdicts as the course's checker, run inside this page, not isolated. The check
  that counts is `python lab/lab_check.py ...` on a computer, or your instructor's grader.
- `{hint}` and `{progress}` work as on a computer.

Your files live in this browser's storage for this site: clearing the site's data deletes
them. Download what you want to keep (right-click in the file browser, Download).
"""


class SiteError(UserError):
    """The site cannot be built; the message says what is missing."""


def build(out: Path, *, through: str | None = None, with_reference=()) -> Path:
    """Build the site into `out` (replaced if it holds an earlier site) and return it. With
    `through`, the drive holds the student release through that lab (grader/release/: no
    references but those of `with_reference`, and the cells that need one show what they
    printed) instead of the whole course."""
    out = Path(out).resolve()
    if out.exists() and not (out / "jupyter-lite.json").is_file():
        raise SiteError(f"{out} exists and is not a site this tool built; give --out a new "
                        "folder or that site's.")
    with tempfile.TemporaryDirectory(prefix="course-site-") as scratch:
        stage = Path(scratch)
        pyodide = stage / "static" / "pyodide"
        lock = _lay_out_pyodide(pyodide)
        if through:
            _lay_out_release(stage / "files", through, with_reference)
        else:
            _lay_out_drive(stage / "files")
        extension = _extension()
        _kernel_wheels(lock, pyodide, kitwheel.make(stage / "files", KIT_PARTS, pyodide),
                       extension)
        (stage / "jupyter_lite_config.json").write_text(json.dumps({
            # No source maps: half the site's bytes, and of use only to whoever debugs JupyterLab.
            "LiteBuildConfig": {"ignore_sys_prefix": True, "federated_extensions": [str(extension)],
                                "contents": [str(stage / "files")], "output_dir": str(out),
                                "no_sourcemaps": True},
        }, indent=1), encoding="utf-8")
        (stage / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": _title(), "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "disablePyPIFallback": True, "loadPyodideOptions": KERNEL_OPTIONS}}},
        }, indent=1), encoding="utf-8")
        # Every cell of a lesson stays drawn, so the browser's find sees the whole lesson, and an
        # output is there as soon as its cell has run, scrolled to or not.
        (stage / "overrides.json").write_text(json.dumps({
            "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        done = subprocess.run([str(site_env.python(CACHE)), "-m", "jupyterlite_core", "build",
                               "--lite-dir", str(stage)], cwd=stage, capture_output=True, text=True)
        if done.returncode != 0:
            raise SiteError("jupyter lite build failed:\n" + (done.stdout + done.stderr)[-3000:])
        _answered(out, stage / "files")
    return out


# What JupyterLab asks the server when a traceback renders, to link the files it names: the
# answer "nothing found" (jupyter-server's shape). Without it the site answered 404, and
# JupyterLab then looked each path up in the drive, a 404 for each folder's all.json.
RESOLVED_NOTHING = {"resolved": [], "unresolved": []}


def _answered(out: Path, files: Path) -> None:
    """Put in the built site `out` what a lesson's page asks for that JupyterLite does not
    serve, so that no request of a lesson gets a 404: JupyterLab's api/resolvePath, and each
    lesson's figures at lab/figures/. A rendered Markdown image starts loading from its link
    as written (figures/NAME.svg, from the page at lab/index.html) before JupyterLab swaps in
    the drive's copy; figures are named for their lesson, so one folder holds them all."""
    (out / "api").mkdir(exist_ok=True)
    (out / "api" / "resolvePath").write_text(json.dumps(RESOLVED_NOTHING), encoding="utf-8")
    figures = out / "lab" / "figures"
    figures.mkdir(exist_ok=True)
    for figure in sorted((files / "lessons").glob("*/figures/*.svg")):
        if (figures / figure.name).exists():
            raise SiteError(f"Two lessons have a figure named {figure.name}; a figure's name "
                            "must be its lesson's own (figure-NN-K.svg).")
        shutil.copyfile(figure, figures / figure.name)


def _kernel_version() -> str:
    try:
        return site_env.kernel_version(CACHE)
    except UserError as problem:
        raise SiteError(str(problem)) from None


def _extension() -> Path:
    """The kernel's JupyterLab extension, from the build tools' own environment."""
    try:
        return site_env.extension(CACHE)
    except UserError as problem:
        raise SiteError(str(problem)) from None


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return answer.read()


def _pyodide_package() -> bytes:
    """The npm package `pyodide` at the kernel's version, from the cache or the registry, its
    bytes checked against the registry's sha512 integrity hash."""
    version = _kernel_version()
    cached = CACHE / f"pyodide-{version}.tgz"
    known = CACHE / f"pyodide-{version}.integrity"
    if not (cached.is_file() and known.is_file()):
        CACHE.mkdir(exist_ok=True)
        meta = json.loads(_fetch(f"{REGISTRY}/{version}"))
        data = _fetch(meta["dist"]["tarball"])
        known.write_text(meta["dist"]["integrity"], encoding="utf-8")
        cached.write_bytes(data)
    data, integrity = cached.read_bytes(), known.read_text(encoding="utf-8").strip()
    algorithm, _, digest = integrity.partition("-")
    if algorithm != "sha512" or \
            base64.b64encode(hashlib.sha512(data).digest()).decode() != digest:
        cached.unlink()
        raise SiteError(f"pyodide {version} from the npm registry does not match its integrity "
                        "hash; it was deleted from the cache: build again.")
    return data


def _lay_out_pyodide(folder: Path) -> dict:
    """Pyodide's core files into `folder`; returns its lock file, read."""
    folder.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(_pyodide_package())) as package:
        for member in package.getmembers():
            name = member.name.partition("/")[2]
            if name in CORE:
                (folder / name).write_bytes(package.extractfile(member).read())
    missing = [name for name in CORE if not (folder / name).is_file()]
    if missing:
        raise SiteError(f"The npm package pyodide lacks {missing}; the kernel cannot start "
                        "without them.")
    return json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))


def _needed(packages: dict) -> list[str]:
    """FROM_THE_LOCK and everything they depend on, by the lock's own `depends`."""
    by_name = {canonicalize_name(key): key for key in packages}
    wanted, seen = list(FROM_THE_LOCK), []
    while wanted:
        asked = wanted.pop()
        name = by_name.get(canonicalize_name(asked))
        if name is None:
            raise SiteError(f"Pyodide's lock file does not list {asked}, a package the kernel "
                            "needs.")
        if name not in seen:
            seen.append(name)
            wanted += packages[name]["depends"]
    return sorted(seen)


def _download(requirements: list[str], python: str) -> list[Path]:
    """Pure-Python wheels of PyPI, one per requirement (name==version), cached."""
    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                           "--only-binary=:all:", "--python-version", python, "--dest",
                           str(wheels), *requirements], capture_output=True, text=True)
    if done.returncode != 0:
        raise SiteError("pip could not download the kernel's wheels from PyPI:\n" +
                        done.stderr[-2000:])
    found, cached = [], {parse_wheel_filename(w.name)[:2]: w for w in wheels.glob("*.whl")}
    for requirement in requirements:
        name, version = requirement.split("==")
        match = [w for (n, v), w in cached.items()
                 if n == canonicalize_name(name) and v == Version(version)]
        if len(match) != 1:
            raise SiteError(f"No single wheel of {requirement} in {wheels}.")
        found.append(match[0])
    return found


def _kernel_wheels(lock: dict, folder: Path, kit: dict, extension: Path) -> None:
    """Put every wheel the kernel starts with beside Pyodide's lock (FROM_THE_LOCK's and what
    they depend on, FROM_THE_EXTENSION's from the kernel's `extension`, FROM_PYPI's), compile
    their modules and the kit's ahead (tools/site_bytecode.py), and rewrite the lock to them
    and the kit's (`kit`, its entry, its wheel already there)."""
    packages = lock["packages"]
    needed = _needed(packages)
    python = ".".join(lock["info"]["python"].split(".")[:2])
    wheels = dict(zip(needed, _download([f"{name}=={packages[name]['version']}"
                                         for name in needed], python)))
    kept = {name: {**packages[name], "file_name": wheel.name} for name, wheel in wheels.items()}
    for (requirement, (imports, depends)), wheel in zip(
            FROM_PYPI.items(), _download(list(FROM_PYPI), python)):
        name = canonicalize_name(requirement.split("==")[0])
        wheels[name], kept[name] = wheel, _entry(wheel, imports, depends)
    own = {canonicalize_name(parse_wheel_filename(wheel.name)[0]): wheel
           for wheel in (extension / "static" / "pypi").glob("*.whl")}
    for name, (imports, depends) in FROM_THE_EXTENSION.items():
        if name not in own:
            raise SiteError(f"The Pyodide kernel's extension at {extension} lacks its {name} "
                            "wheel; reinstall the kit's extra: pip install -e '.[site]'")
        wheels[name], kept[name] = own[name], _entry(own[name], imports, depends)
    for name, wheel in wheels.items():
        shutil.copyfile(wheel, folder / wheel.name)
        kept[name]["unvendored_tests"] = False
    kept[kit["name"]] = kit
    unsaid = site_bytecode.compile_wheels(
        folder, {folder / e["file_name"]: e["imports"] for e in kept.values()}, CACHE)
    if unsaid:
        print(f"tools.site: {unsaid}", file=sys.stderr)
    for entry in kept.values():
        entry["sha256"] = hashlib.sha256((folder / entry["file_name"]).read_bytes()).hexdigest()
    lock["packages"] = kept
    (folder / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n",
                                              encoding="utf-8")


def _entry(wheel: Path, imports: list[str], depends: list[str]) -> dict:
    """A lock file's entry for a pure-Python `wheel` that Pyodide's own lock does not list."""
    name, version, _, _ = parse_wheel_filename(wheel.name)
    return {"name": str(name), "version": str(version), "file_name": wheel.name,
            "install_dir": "site", "package_type": "package", "imports": imports,
            "depends": depends}


def _lay_out_drive(files: Path) -> None:
    """The kit's folders as the page's drive holds them, with hints packed, and the site's
    README."""
    for part in KIT_PARTS:
        shutil.copytree(manifest.KIT / part, files / part, ignore=IGNORED)
    labs = manifest.labs(built_only=True)
    files.joinpath(*manifest.PACKED).write_text(manifest.pack_hints(labs), encoding="utf-8")
    _for_the_page(files, labs[-1])


def _lay_out_release(files: Path, through: str, with_reference=()) -> None:
    """The student release through lab `through` as the page's drive holds it: its lab package
    (hints packed), lessons, starters and chosen references, with RELEASE.md, which lists the
    cells shown as recorded; then the page's words and the site's README."""
    from grader import release
    with tempfile.TemporaryDirectory(prefix="course-site-release-") as scratch:
        made = Path(scratch) / "release"
        try:
            last = manifest.lab(release.build(made, through=through,
                                              with_reference=with_reference).through)
        except UserError as problem:
            raise SiteError(str(problem)) from None
        for part in KIT_PARTS:
            if (made / part).is_dir():
                shutil.copytree(made / part, files / part, ignore=IGNORED)
        shutil.copyfile(made / "RELEASE.md", files / "RELEASE.md")
    _for_the_page(files, last)


def notebook(folder: str) -> PurePosixPath:
    """Where the site's drive holds the notebook of the lesson in lessons/`folder`: named for
    the folder (lessons/01-remembers/01-remembers.ipynb), not lesson.ipynb as in the kit. To
    JupyterLite (0.8.6 and its main branch) a notebook's new session is the running one with
    the same file name, wherever it is: a second lesson.ipynb was handed the first's, shut it
    down, and stayed "Initializing", with no kernel, until the page was reloaded."""
    return PurePosixPath("lessons", folder, f"{folder}.ipynb")


def _for_the_page(files: Path, last: manifest.Lab) -> None:
    """The drive's lessons and starters in the page's words, each lesson's notebook under its
    own name, and the site's README, whose example is `last`, the drive's last lab."""
    site_page.reword(files)
    for lesson in (files / "lessons").iterdir():
        if (lesson / "lesson.ipynb").is_file():
            (lesson / "lesson.ipynb").rename(files / notebook(lesson.name))
    said = {verb: spoken.in_cell(verb, last.id) for verb in ("start", "check", "hint")}
    (files / "README.md").write_text(README.format(
        title=_title(), first=_first(), folder=last.folder, progress=spoken.in_cell("progress"),
        **said), encoding="utf-8")


def first_page() -> str:
    """The site's address of the first lesson, relative to the site's root."""
    return f"lab/index.html?path={_first()}"


def _first() -> PurePosixPath:
    first = next(lesson for lesson in manifest.lessons() if lesson.notebook.is_file())
    return notebook(first.folder.name)


def _title() -> str:
    first = (manifest.KIT / "README.md").read_text(encoding="utf-8").splitlines()[0]
    return first.lstrip("# ").strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.site",
                                     description="Build the course as a static JupyterLite site.")
    commands = parser.add_subparsers(dest="command", required=True)
    made = commands.add_parser("build", help="build the site into a folder")
    made.add_argument("--out", type=Path, required=True, help="the folder to build it in")
    made.add_argument("--through", metavar="LAB", help="hold the student release through this "
                      "lab (as `python -m grader release`), not the whole course")
    made.add_argument("--with-reference", nargs="+", default=[], metavar="LAB",
                      help="with --through: the references of these labs, too")
    args = parser.parse_args(argv)
    if args.with_reference and not args.through:
        parser.error("--with-reference goes with --through")
    try:
        out = build(args.out, through=args.through, with_reference=args.with_reference)
    except (SiteError, OSError) as problem:
        print(f"tools.site: {problem}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"Built the course site in {out} ({size / 1e6:.0f} MB). Serve the folder with any "
          f"static host; to try it here: python -m http.server -d {out} -b 127.0.0.1 8000, then "
          f"open http://127.0.0.1:8000/{first_page()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
