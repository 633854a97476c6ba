# Issue 25's seventh attack: leaves files in the machine's shared temporary folders, a file
# and a folder holding one in each, named with its mark, to be found after grading.
import os as _os

for _place in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        with open(_os.path.join(_place, "@LEFT@"), "w", encoding="utf-8") as _handle:
            _handle.write("left behind\n")
        _os.makedirs(_os.path.join(_place, "@LEFT@.d", "inner"), exist_ok=True)
        with open(_os.path.join(_place, "@LEFT@.d", "inner", "file"), "w") as _handle:
            _handle.write("left behind\n")
    except OSError:
        pass
