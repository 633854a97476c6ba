"""What a harness.py never needs, found in its code and in what it does: an aid to review.

A harness talks to a model and its tools; it never needs the checker's modules, Python's import
machinery, the garbage collector's view of every object, ctypes, a tracer, other frames, or code
built while it runs. A file that uses them may be reaching into the process that checks it (the
red team's oracle replaced the checker's loader of tests from inside harness.py), so the grader
marks it "needs review" with the lines. It is an aid, never a verdict: a grade never depends on
it, and a file can hide from either half.

Two halves:
- `scan(source)`: what the code names (imports, calls, attributes), read from its syntax tree
  in the grader's own process, so nothing the file does can change what is found;
- `install(harness_path)`: an audit hook (PEP 578) the child adds before it imports harness.py,
  which notes each audited event harness.py's own code raises (code compiled or executed, frames
  read, a tracer set, the collector's lists of objects, ctypes, a watched module imported) on
  its own descriptor, a copy of standard error made before harness.py runs. The checker reads
  that line out of what harness.py printed (`found_in`), so a file that prints more than the
  grader keeps before one pushes it out: the scan is the half to trust.
"""
from __future__ import annotations

import ast
import os
import re
import sys
import threading
from dataclasses import dataclass

# Modules a harness has no use for: the checker's own (lab, and the tests beside it), the import
# machinery, the collector, memory and frames.
MODULES = {"lab", "tests", "importlib", "imp", "_imp", "zipimport", "pkgutil", "runpy", "gc",
           "ctypes", "_ctypes", "inspect", "marshal", "builtins", "code", "codeop", "dis",
           "sysconfig", "site"}
CALLS = {"exec", "eval", "compile", "__import__", "breakpoint"}
# A generator's frame (ag_frame, gi_frame, cr_frame) is not here: lesson 15 teaches reading
# whether a run has one, which is how a harness tells a finished run; what is in it is.
TAUGHT = {"ag_frame", "gi_frame", "cr_frame"}
ATTRIBUTES = {"__code__", "__globals__", "__builtins__", "__subclasses__", "__closure__",
              "f_back", "f_globals", "f_locals", "f_code", "f_builtins", "tb_frame",
              "_getframe", "settrace", "setprofile", "_current_frames",
              "meta_path", "path_hooks", "path_importer_cache", "addaudithook", "CodeType",
              "FunctionType"}
SYS_ATTRIBUTES = {"modules", "path"}  # on the sys module, however it was imported
TEXTS = ("lab.check", "lab/check", "lab.kit", "tests.py", "expected.json")

# Audited events harness.py's own code raises only to reach past itself.
EVENTS = {"exec", "compile", "sys._getframe", "sys._current_frames", "sys.settrace",
          "sys.setprofile", "sys.addaudithook", "gc.get_objects", "gc.get_referrers",
          "gc.get_referents", "code.__new__", "function.__new__", "marshal.loads",
          "marshal.load", "object.__getattr__"}
MARK = "\x00needs-review\x00"  # opens each line the hook writes


@dataclass(frozen=True, order=True)
class Finding:
    line: int
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}"


def scan(source: str) -> list[Finding]:
    """What `source` names that a harness never needs, by line; [] for a file that does not
    parse (its row says so already)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    found: set[Finding] = set()
    sys_names = {"sys"}
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in MODULES:
                    found.add(Finding(line, f"imports {alias.name}"))
                if alias.name == "sys":
                    sys_names.add(alias.asname or "sys")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level == 0 and module.split(".")[0] in MODULES:
                found.add(Finding(line, f"imports from {module}"))
            if module == "sys":
                for alias in node.names:
                    if alias.name in SYS_ATTRIBUTES | ATTRIBUTES:
                        found.add(Finding(line, f"takes sys.{alias.name}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in CALLS:
            found.add(Finding(line, f"calls {node.func.id}()"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "delattr") and len(node.args) > 1:
            name = node.args[1]
            if not isinstance(name, ast.Constant):
                found.add(Finding(line, f"calls {node.func.id}() with a name built as it runs"))
            elif name.value in ATTRIBUTES:
                found.add(Finding(line, f"uses .{name.value}"))
        elif isinstance(node, ast.Attribute):
            if node.attr in ATTRIBUTES:
                found.add(Finding(line, f"uses .{node.attr}"))
            elif node.attr == "sys":  # os.sys: the sys module under another module's name
                found.add(Finding(line, f"uses {ast.unparse(node.value)}.sys"))
            elif node.attr in SYS_ATTRIBUTES and isinstance(node.value, ast.Name) \
                    and node.value.id in sys_names:
                found.add(Finding(line, f"uses sys.{node.attr}"))
        elif isinstance(node, ast.Subscript) and _namespace(node.value):
            # vars(m)["mod" + "ules"] or m.__dict__[...]: getattr's reach, by subscript
            key = node.slice
            if not isinstance(key, ast.Constant):
                found.add(Finding(line, "reads a namespace with a name built as it runs"))
            elif key.value in SYS_ATTRIBUTES | ATTRIBUTES:
                found.add(Finding(line, f"uses .{key.value}"))
        elif isinstance(node, ast.Name) and node.id == "__builtins__":
            found.add(Finding(line, "uses __builtins__"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            named = next((text for text in TEXTS if text in node.value), None)
            if named:
                found.add(Finding(line, f"names {named} in a string"))
    return sorted(found)


def _namespace(node: ast.expr) -> bool:
    """Whether `node` is an object's namespace as a dict: vars(x), or x.__dict__."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "vars" and len(node.args) == 1) or (
        isinstance(node, ast.Attribute) and node.attr == "__dict__")


# --- the child's half --------------------------------------------------------------------------

def install(harness_path: str) -> None:
    """Add the audit hook that notes harness.py's own audited events (EVENTS, and importing a
    module of MODULES), once per event and line, on a copy of standard error made now, before
    harness.py can move it. Called in the child only, once: a hook cannot be taken out again,
    and hooks that each read frames raise events in one another (each such read is audited)."""
    paths = {harness_path, os.path.realpath(harness_path)}
    out = os.dup(2)
    seen: set[tuple[str, int]] = set()
    busy = threading.local()
    getframe = sys._getframe

    def caller(frame):
        """The first frame that is not the import machinery's."""
        while frame is not None and frame.f_code.co_filename.startswith("<frozen"):
            frame = frame.f_back
        return frame

    def hook(event, args):
        if getattr(busy, "on", False):
            return
        watched = event in EVENTS or event.startswith("ctypes.") or (
            event == "import" and str(args[0]).split(".")[0] in MODULES)
        if not watched or (event == "object.__getattr__" and len(args) > 1
                           and args[1] in TAUGHT):
            return
        busy.on = True
        try:
            # An import is raised inside the import machinery, on behalf of the frame that
            # imports; anything else by the frame that called the audited function itself (so
            # json's loading of its own modules is not harness.py's exec).
            frame = caller(getframe(1)) if event == "import" else getframe(1)
            if frame is None or frame.f_code.co_filename not in paths:
                return
            key = (event if event != "import" else f"import {args[0]}", frame.f_lineno)
            if key in seen:
                return
            seen.add(key)
            os.write(out, f"{MARK}{frame.f_lineno}\x00{key[0]}\n".encode("utf-8", "replace"))
        except Exception:  # an aid: it never changes what the file does
            pass
        finally:
            busy.on = False

    sys.addaudithook(hook)


def found_in(output: str) -> tuple[list[Finding], str]:
    """(what the hook noted, the output without its notes) from what harness.py printed; a
    note may fall in the middle of a line the file was printing."""
    if MARK not in output:
        return [], output
    found = {Finding(int(number), f"did {event} as it ran")
             for number, event in _NOTE.findall(output)}
    return sorted(found), _NOTE.sub("", output)


_NOTE = re.compile(re.escape(MARK) + r"(\d+)\x00([^\n\x00]*)\n")
