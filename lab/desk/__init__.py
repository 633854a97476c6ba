"""The student's desk: a work folder of their own, labs started and checked, hints, progress,
open answers, and the JupyterLab that opens the course. Its one face is lab/desk/course.py
(`from lab import course` in a notebook, the `course` command), which gathers the names of the
modules here, one job each:

- workfolder.py: where the work folder is, and its JSON files;
- labfolder.py: what a lab's folder holds (its `lab` doorway, `.lab`) and the command that
  checks it there;
- labs.py: starting and resetting a lab, in course order (`--mine`: carry.py);
- progress.py: each lab's last check, and the course's progress view;
- hints.py, answers.py: hints one level at a time; open answers kept and recalled;
- cells.py: what notebook cells load, a reference or the student's file (bounded by guard.py);
- checking.py: `course check`, the checker in a process of its own or the practice check;
- cli.py, launcher.py: the `course` command, and JupyterLab;
- errors.py: what a student got wrong, as types;
- recorded.py: a release's cells that need what it leaves out;
- chat.py, real.py: `course chat`, a student's harness on a real model and folder.
"""
