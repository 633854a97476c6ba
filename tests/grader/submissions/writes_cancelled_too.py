# Issue 29: a second student with the same misreading, so that the summary groups the two.
ABORTED = "Operation cancelled"
