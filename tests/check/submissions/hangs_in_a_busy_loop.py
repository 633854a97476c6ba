_plain = error_message


def error_message(text, stop_reason="error"):
    while stop_reason == "aborted":  # never awaits: no budget of turns can end this
        pass
    return _plain(text, stop_reason)
