"""The two exceptions of the fake world: one a harness must let through, one that means a test
asked a fake for more than it was given."""


class PowerCut(BaseException):
    """The process is going away: the power failed, the machine is shutting down.

    It derives from BaseException, not Exception, on purpose: it is not a tool failing, so a
    boundary written `except Exception` (lesson 4) must let it pass, and whatever the run was
    doing stops where it stood. Raise it from a tool, or arm Workspace.cut_power_after(n).
    """


class ScriptExhausted(AssertionError):
    """A fake was asked for more than its script holds: a model for one more reply, a Human
    for one more answer, a FakeProvider for one more stream.

    It is an AssertionError because it means the test and the code disagree about how many
    times the fake is asked; its message says which request and what was asked, for whoever
    wrote the test. The same facts travel as fields, so that the checker can tell a student
    without reading the message back: `fake` ("model", "person" or "provider"), `number` (the
    request or question, from 1), `scripted` (how many entries the script holds) and `asked`
    (what the fake was asked, as its message shows it).
    """

    def __init__(self, message: str = "", *, fake: str | None = None,
                 number: int | None = None, scripted: int | None = None, asked: str = ""):
        super().__init__(message)
        self.fake, self.number, self.scripted, self.asked = fake, number, scripted, asked
