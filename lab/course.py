"""`from lab import course` in a notebook: the student's desk, lab/desk/course.py itself (the
desk's one face, the same module, not a copy), at the path the lessons have always used."""
import sys

from lab.desk import course

sys.modules[__name__] = course
