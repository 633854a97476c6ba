import time as _time

# Blocks while it is imported, for longer than its whole submission may take: a limit checked
# only after a verdict never sees it until the import's own guard gives up.
_time.sleep(600)
