"""Issue 40: a file that filled the disk once crashed the batch in the journal (ENOSPC) with no
reports, and again on every rerun. The journal now takes back a line it could not finish, says
the disk is full, and lets the batch go on: every row it kept reads back whole."""
import errno
import os

from tests.grader.gradeclass import LAB

from grader import batch, plan as plans
from grader.journal import Journal


def test_a_full_disk_costs_the_journal_only_the_rows_it_could_not_keep(tmp_path, monkeypatch):
    plan = plans.make(LAB.id, own_lab_only=True)
    rows = [batch.grader_failed(plan, batch.Submission(name, None, f"{name}.py"),
                                RuntimeError("x")) for name in ("ann", "ben", "cy")]
    journal = Journal(tmp_path / "journal.jsonl")
    assert journal.append("k-ann", rows[0])
    written = os.write

    def full(fd, data):  # the disk takes a few bytes of the next line, then is full
        if fd > 2 and len(data) > 100:
            written(fd, data[:50])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return written(fd, data)

    monkeypatch.setattr("grader.journal.os.write", full)
    assert not journal.append("k-ben", rows[1]), "a row the full disk refused was said kept"
    assert not journal.append("k-cy", rows[2])
    monkeypatch.undo()
    assert journal.full == os.strerror(errno.ENOSPC) and journal.unkept == 2, (
        f"the journal says {journal.full!r} and {journal.unkept} rows unkept")
    kept = Journal(tmp_path / "journal.jsonl").load()
    assert list(kept) == ["ann"], (f"the journal read back {list(kept)}: the rows kept before "
                                   "the disk filled, and no half line of the others")
    assert (tmp_path / "journal.jsonl").read_bytes().endswith(b"\n"), (
        "a half-written line was left at the journal's end")
