_hoard = bytearray(8 * 1024 ** 3)  # 8 GB at import: the memory limit must stop it
