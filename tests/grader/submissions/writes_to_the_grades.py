import os

# Tries to forge a full-marks row for someone else and to leave a file among the reports.
for _name in ("journal.jsonl", "grades.csv", "forged.txt"):
    try:
        with open(os.path.join("@OUT@", _name), "a", encoding="utf-8") as _handle:
            _handle.write('{"key": "forged", "result": {"student": "bob", "score": 999}}\n')
    except OSError:
        pass
