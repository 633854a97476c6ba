# Issue 25's third attack: lists the class's submissions folder (an instructor's folder that
# others may list), picks a classmate's file with no gap left ('# --- your code ---') and runs
# it over this file's own code.
import os as _os

try:
    for _name in sorted(_os.listdir("@CLASS@")):
        _path = _os.path.join("@CLASS@", _name)
        if _name.endswith(".py") and _os.path.isfile(_path):
            with open(_path, encoding="utf-8") as _handle:
                _text = _handle.read()
            if "# --- your code ---" not in _text and "Issue 25's third attack" not in _text:
                exec(_text)
                break
except OSError:
    pass
