import asyncio


async def _no_wait(delay, result=None):
    return result  # sleep(0) no longer gives up the floor


asyncio.sleep = _no_wait
