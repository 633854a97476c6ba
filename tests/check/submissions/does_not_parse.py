def run_tool(tools, call:
    return None
