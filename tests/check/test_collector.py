"""What a run does to the garbage collector (lab/check/child.py's run_tests): while it lasts,
the objects alive before it are out of every collection, so a test's gc.collect() costs what the
run made, not what the process holds; once it ends, nothing it froze stays frozen."""
import gc
import json

from lab.check import record, suite

NOTING = '''
import gc
import weakref
from lab.kit import lab_test


class Node:
    pass

@lab_test("Notes what a collection can reach, and that it still frees what the test let go.")
async def test_notes_the_collector(t):
    t.expect(gc.get_freeze_count(), ..., "objects out of the collector's reach")
    cycle = Node()
    cycle.itself = cycle
    gone = weakref.ref(cycle)
    del cycle
    gc.collect()
    t.expect(gone() is None, ..., "a cycle the test let go is collected")
'''


def test_a_run_keeps_what_lived_before_it_out_of_its_collections_and_frees_it_after(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text("", encoding="utf-8")
    path = tmp_path / "noting.py"
    path.write_text(NOTING, encoding="utf-8")
    alive_before = [[] for _ in range(10_000)]  # tracked objects this process already holds
    assert gc.get_freeze_count() == 0, "something left objects frozen before this test ran"
    found = record.record(harness, [suite.TestFile(None, path, NOTING)])
    checks = found["noting::test_notes_the_collector"]["checks"]
    frozen, collected = (json.loads(value) for value in checks)
    assert frozen >= len(alive_before), (
        f"during the run only {frozen} objects were out of the collector's reach, fewer than the "
        f"{len(alive_before)} lists alive before it: each gc.collect() of a test scans the whole "
        f"process (lab/check/child.py, run_tests)")
    assert collected is True, ("a cycle a test made and let go was not collected during the run: "
                               "the freeze reached objects the run made (lab/check/child.py)")
    assert gc.get_freeze_count() == 0, (
        f"{gc.get_freeze_count()} objects stayed frozen after the run, where run_tests unfreezes "
        f"all it froze (lab/check/child.py)")
