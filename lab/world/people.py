"""People: a user whose answers are written down in advance, so a door that asks permission
can be tested without anyone at the keyboard."""

from .errors import ScriptExhausted


class Human:
    """A person who answers questions from a script. ask(question) writes the question down in
    .questions and returns the next answer, as given (True is not "yes", and the fake does not
    pretend otherwise). When the answers run out it raises ScriptExhausted, because a question
    nobody scripted is a question the test did not expect."""

    def __init__(self, answers):
        if isinstance(answers, (str, bytes, dict)) or not isinstance(answers, (list, tuple)):
            raise TypeError("Human(answers) takes a list of answers, one per question, e.g. "
                            f"Human([True, False]); got {answers!r}")
        self._answers = list(answers)
        self.questions = []

    def ask(self, question):
        """Record `question` and return the next scripted answer."""
        self.questions.append(question)
        number = len(self.questions)
        if number > len(self._answers):
            raise ScriptExhausted(f"Human: question {number} has no scripted answer (the "
                                  f"script has {len(self._answers)}): {question!r}. Add an "
                                  "answer to Human([...]) for it", fake="person",
                                  number=number, scripted=len(self._answers),
                                  asked=repr(question))
        return self._answers[number - 1]
