"""lab: the package's public names."""
import lab

PUBLIC = {"PowerCut", "ScriptExhausted", "call", "reply", "say", "fail", "forever", "Request",
          "ScriptedModel", "Workspace", "Shell", "Process", "tick", "ticks", "drive",
          "background", "shape", "show", "validate", "Human", "FakeProvider", "Response",
          "stream_lines", "refuse", "pause", "HANG", "BlockingClient", "Refused", "SERVERS",
          "RATE_LIMIT", "QUOTA"}


def test_every_public_name_is_exported_and_listed_in_all():
    assert set(lab.__all__) == PUBLIC
    for name in PUBLIC:
        assert hasattr(lab, name), name


def test_every_public_class_and_function_states_its_contract_in_a_docstring():
    for name in PUBLIC - {"HANG"}:
        assert (getattr(lab, name).__doc__ or "").strip(), name


def test_the_package_docstring_explains_that_time_is_loop_turns():
    assert "turn" in lab.__doc__ and "sleep(0)" in lab.__doc__
