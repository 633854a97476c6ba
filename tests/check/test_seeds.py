"""Seeds (lab/check/seeds.py): a test draws its cases from t.random under the run's seed, the
reference under the same seed draws the same, and the child's hash seed is pinned by it."""
import json

import pytest

from lab.check import record, runner, seeds, suite

DRAWING = '''
import harness
from lab.kit import lab_test

@lab_test("Draws three numbers.")
async def test_draws(t):
    t.expect([t.random.randint(1, 10**9) for _ in range(3)], ..., "the drawn numbers")

@lab_test("Reports the order of a set of words.")
async def test_set_order(t):
    t.expect(list({"alpha", "beta", "gamma", "delta", "epsilon"}), ..., "a set's order")
'''


def drawing_file(folder):
    path = folder / "drawing.py"
    path.write_text(DRAWING, encoding="utf-8")
    return suite.TestFile(None, path, DRAWING)


def test_the_child_draws_what_the_reference_drew_under_the_same_seed(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text("", encoding="utf-8")
    test_file = drawing_file(tmp_path)
    for seed in (seeds.PUBLIC, 987654321):
        recorded = record.record(harness, [test_file], seed=seed)
        drawn = recorded["drawing::test_draws"]["checks"][0]
        assert recorded.seed == seed
        report = runner.run(harness, [test_file], recorded)
        assert report.outcomes[0].verdict == "pass", report.outcomes[0].message
        draws = seeds.random_for(seed, "drawing::test_draws")
        assert json.loads(drawn) == [draws.randint(1, 10**9) for _ in range(3)]


def test_a_run_under_another_seed_draws_other_cases(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_text("", encoding="utf-8")
    test_file = drawing_file(tmp_path)
    public = record.record(harness, [test_file], seed=seeds.PUBLIC)
    report = runner.run(harness, [test_file], seeds.Expected(public, seed=5))
    assert report.outcomes[0].verdict == "fail"
    assert "the drawn numbers" in report.outcomes[0].message


def test_the_child_runs_under_a_hash_seed_fixed_by_the_seed(tmp_path, monkeypatch):
    """A design that hangs on a set's order fails the same tests on every run; here the set's
    order the child reports is the same whatever hash seed the checker itself runs under."""
    harness = tmp_path / "harness.py"
    harness.write_text("", encoding="utf-8")
    test_file = drawing_file(tmp_path)
    wanted = seeds.Expected({"drawing::test_set_order": {"checks": ['""'], "why": ["order"]}})
    orders = set()
    for outer in ("1", "2", "3"):
        monkeypatch.setenv("PYTHONHASHSEED", outer)
        report = runner.run(harness, [test_file], wanted)
        orders.add(report.outcomes[1].message)
    assert len(orders) == 1 and "alpha" in orders.pop()


def test_expected_json_keeps_its_seed_and_reads_the_older_format():
    made = seeds.Expected({"a::test_x": {"checks": ["1"], "why": ["one"]}}, seed=41)
    again = seeds.loads(seeds.dumps(made))
    assert (again, again.seed) == (made, 41)
    older = seeds.loads(json.dumps({"a::test_x": {"checks": ["1"], "why": ["one"]}}))
    assert (older, older.seed) == (made, seeds.PUBLIC)


def test_a_secret_seed_is_never_the_public_one():
    assert all(seeds.secret() != seeds.PUBLIC for _ in range(200))


def lab_check(folder, *extra):
    import subprocess
    import sys
    from lab.check import manifest
    return subprocess.run([sys.executable, str(manifest.KIT / "lab" / "lab_check.py"),
                           "--harness", "harness.py", "--lesson", "3", "tests.py", *extra],
                          cwd=folder, capture_output=True, text=True)


def fixed_rounds(folder):
    from lab.check import manifest
    from tools import wrong_designs
    design = next(d for d in wrong_designs.catalogue() if d.name == "a fixed number of rounds")
    (folder / "harness.py").write_text(wrong_designs.harness(design), encoding="utf-8")
    (folder / "tests.py").write_text(manifest.lab("3.1").tests.read_text(encoding="utf-8"),
                                     encoding="utf-8")


def test_two_checks_of_a_wrong_design_under_the_public_seed_print_the_same_bytes(tmp_path):
    fixed_rounds(tmp_path)
    first, second = lab_check(tmp_path), lab_check(tmp_path)
    assert first.returncode == second.returncode == 1
    assert first.stdout == second.stdout and "however many rounds" in first.stdout


def test_a_check_under_another_seed_lists_what_the_file_found_and_judges_nothing(tmp_path):
    fixed_rounds(tmp_path)
    done = lab_check(tmp_path, "--seed", "99")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "under seed 99" in done.stdout and "nothing is judged" in done.stdout
    assert "PASS" not in done.stdout and "FAIL" not in done.stdout
    assert "          found: " in done.stdout and "none judged" in done.stdout


def test_an_expectation_is_read_and_written_through_one_class_in_the_files_format():
    """expected.json keeps a test's record as it always has ("kinds" only where a check is not
    "equal"), and seeds.Expectation is the one reader and writer of it."""
    plain = {"checks": ["1", "[2]"], "why": ["a", "b"]}
    read = seeds.Expectation.from_dict(plain)
    assert read.kinds == ("equal", "equal"), "a record without kinds did not read as equal checks"
    assert read.to_dict() == plain, "a record of plain checks was written with more than before"
    mixed = {"checks": ["1", "[2]"], "why": ["a", "b"], "kinds": ["equal", "same_items"]}
    assert seeds.Expectation.from_dict(mixed).to_dict() == mixed
    with pytest.raises(ValueError, match="2 checks holds 1 rules"):
        seeds.Expectation.from_dict({"checks": ["1", "2"], "why": ["a"]})
