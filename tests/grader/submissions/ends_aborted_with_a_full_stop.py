# Issue 29: a student who ended the words with a full stop.
ABORTED = "Operation aborted."
