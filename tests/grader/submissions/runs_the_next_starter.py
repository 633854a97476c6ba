# Issue 25's second attack: the next lab's starter holds this lab's answer (with the next lab's
# gaps), so it reads that file and runs it over this file's own code.
try:
    with open("@KIT@/starters/15-stop/lab2/harness.py", encoding="utf-8") as _handle:
        exec(_handle.read())
except OSError:
    pass
