# Issue 29: a student handed in another file of theirs, with none of the lab's names.
def greet(name):
    return f"Hello, {name}!"


TODO = ["read lesson 15", "start lab 15.1"]
