"""lab.world.errors: which exceptions a harness's boundary may catch."""
import pytest

import lab


def test_power_cut_passes_through_an_except_exception_boundary():
    def boundary():
        try:
            raise lab.PowerCut("the machine is going down")
        except Exception:  # lesson 4's boundary: must not catch the program ending
            return "caught"

    with pytest.raises(lab.PowerCut, match="going down"):
        boundary()
    assert not issubclass(lab.PowerCut, Exception)
    assert issubclass(lab.PowerCut, BaseException)


def test_script_exhausted_is_an_assertion_error_with_its_message():
    error = lab.ScriptExhausted("ScriptedModel: request 3 has no scripted reply (the script has 2)")
    assert isinstance(error, AssertionError)
    assert "request 3" in str(error)
