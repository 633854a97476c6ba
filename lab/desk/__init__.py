"""The student's desk: a work folder of their own, labs started and checked, hints, progress,
and the JupyterLab that opens the course (lab/desk/course.py, the `course` command)."""
