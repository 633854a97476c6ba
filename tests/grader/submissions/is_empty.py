# Issue 29: a file holding nothing but this comment: the student never began.
