_plain = error_message


def error_message(text, stop_reason="error"):
    while stop_reason == "aborted":  # never yields: only the wall-clock guard can end this
        pass
    return _plain(text, stop_reason)
