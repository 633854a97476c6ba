"""bench/kinds.py's operators make the wrong designs their kinds name (issue 38, item 4): each
on a small piece of code, the mutants it must make and no other. (`bench.mutation --kinds`
counts, lab by lab, the mutants that would not compile.)"""
import textwrap

import pytest

from bench import kinds

CODE = textwrap.dedent('''\
    def run(messages, cap=None):
        own = list(messages)
        if cap is not None and len(own) > cap:
            return own[:]
        if not own:
            raise ValueError("empty")
        if own[0] == "stop":
            return None
        note = own.pop()
        try:
            reply = ask(own)
        except OSError:
            reply = ""
        while reply:
            reply = ask(own)
        for item in own:
            print(item)
        return {"content": note}
    ''')

WANTED = {
    "cap read for truth": [("if cap is not None and", "if cap and")],
    "the caller's list kept": [("own = list(messages)", "own = messages"),
                               ("return own[:]", "return own")],
    "two checks swapped": [("    if cap is not None and len(own) > cap:\n        return own[:]\n"
                            "    if not own:\n        raise ValueError(\"empty\")\n",
                            "    if not own:\n        raise ValueError(\"empty\")\n"
                            "    if cap is not None and len(own) > cap:\n        return own[:]\n"),
                           ('    if not own:\n        raise ValueError("empty")\n'
                            '    if own[0] == "stop":\n        return None\n',
                            '    if own[0] == "stop":\n        return None\n'
                            '    if not own:\n        raise ValueError("empty")\n')],
    "text stripped": [("return own[:]", "return (own[:]).strip()"),
                      ('{"content": note}', '{"content": (note).strip()}')],
    "a loop given a limit": [("    while reply:\n",
                              f"    for _round in range({kinds.LIMIT}):\n        if not (reply):\n"
                              "            break\n"),
                             ("for item in own:",
                              f"for item in __import__('itertools').islice(own, {kinds.LIMIT}):")],
}


def made():
    found = {}
    for kind in kinds.mutants(CODE):
        found.setdefault(kind.name, []).append(kind.code)
    return found


@pytest.mark.parametrize("name", sorted(WANTED))
def test_each_kind_makes_the_wrong_designs_it_names_and_no_other(name):
    """Each change in place: the mutant is the example with that one span changed."""
    codes = made().get(name, [])
    for old, new in WANTED[name]:
        assert old in CODE, f"the example lost {old!r}"
        assert any(new in code and code.replace(new, old, 1) == CODE for code in codes), (
            f"{name}: no mutant replaces {old!r} with {new!r}; it made:\n" +
            "\n---\n".join(codes))
    assert len(codes) == len(WANTED[name]), f"{name} made {len(codes)} mutants here, " \
        f"not {len(WANTED[name])}: {codes}"


def test_a_try_widened_takes_in_the_statement_before_it_or_after_it():
    code = "a = 1\ntry:\n    b = f(a)\nexcept OSError:\n    pass\nc = g(b)\n"
    widened = sorted(k.code for k in kinds.mutants(code) if k.name == "a try widened")
    assert widened == sorted(["try:\n    a = 1\n    b = f(a)\nexcept OSError:\n    pass\nc = g(b)\n",
                              "a = 1\ntry:\n    b = f(a)\n    c = g(b)\nexcept OSError:\n    pass\n"])


def test_a_try_narrowed_moves_a_body_statement_out_of_the_try():
    code = "try:\n    a = 1\n    b = f(a)\nexcept OSError:\n    pass\n"
    narrowed = sorted(k.code for k in kinds.mutants(code) if k.name == "a try narrowed")
    assert narrowed == sorted(["a = 1\ntry:\n    b = f(a)\nexcept OSError:\n    pass\n",
                               "try:\n    a = 1\nexcept OSError:\n    pass\nb = f(a)\n"])
