import asyncio

_real_bash = make_bash_tool


def make_bash_tool(shell, *args, **kwargs):
    tool = _real_bash(shell, *args, **kwargs)

    async def execute(arguments, signal=None):
        await asyncio.get_running_loop().create_future()  # nothing will ever resolve this

    return {**tool, "execute": execute}
