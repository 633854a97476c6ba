# Issue 29: a student who wrote "cancelled" where the course says "aborted".
ABORTED = "Operation cancelled"
