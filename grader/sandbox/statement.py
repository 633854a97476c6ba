"""What a sandbox holds and what it cannot prevent, in plain words: the statement every report
and Gradescope result carries, so an instructor knows what grading untrusted code here risked.
It says what was found, not what was hoped for: the level the probe settled on, whether the
probe could still read a secret or reach the network, and how many submissions ran at once;
and it says plainly, at each level, what a submission can read and what it can leave behind."""
from __future__ import annotations

import os

from grader.sandbox import users


def statement(box) -> dict:
    """What the sandbox `box` holds and what it cannot prevent, in plain words: its level,
    whether its slots have users of their own, and the two lists."""
    r = box.resources
    holds = [
        "Each submission runs in processes of its own, in a new session, and the whole group "
        "is killed when a test ends or overruns.",
        "Its working folder, HOME and TMPDIR are a scratch folder holding only a copy of its "
        "harness.py, removed afterwards; its environment holds none of the grader's "
        "variables.",
        f"Limits per process: {r.memory_mb} MB of memory, {r.cpu_seconds} CPU seconds, files "
        f"of at most {r.file_mb} MB, a bounded number of processes, no core files; what it "
        "prints and what it reports to the grader are capped, and the time per test and "
        "per submission is bounded while it runs.",
        "Verdicts are decided in the grader, from values the child reports; the wanted "
        "values are not in the child's copy of the tests.",
        "The instructor's hidden tests run after the kit's, in processes of their own, and the "
        "grader writes their code to no disk; every report but the one marked not for "
        "students shows of a hidden test its sentence and verdict alone.",
    ]
    cannot = []
    who = _who(box)
    if box.level == "namespaces":
        holds += [
            f"It runs as {who}, without root and unable to regain it.",
            "It has no network, and a file system built for it from an allow-list: the "
            "Python interpreter and the libraries it loads, the kit's lab/ package and its "
            "lessons' lesson.toml files (what the tests import), all read-only, and its "
            "scratch folder; a /dev with only null, zero, random and urandom, and a /tmp, "
            f"/var/tmp and /dev/shm of its own (at most {r.temporary_mb} MB each), which "
            "nothing else writes to and which are gone when it ends. Nothing else exists for "
            "it: not the kit's .git history, starters, solutions or source, not the "
            "submissions or output folders, not the extra tests, no other program (no shell, "
            "no git), nothing else of yours.",
            "The process running it is alone in a PID namespace of its own (beside only a "
            "reaper the grader started), and its /proc shows only that namespace: it sees "
            "no other submission's processes, nor their folders, open files or report "
            "channels.",
            "Nothing it starts outlives it: when its process ends or is stopped, the kernel "
            "ends every process in its namespace (forked, double-forked, in a session of "
            "its own, or daemonised)"
            + (", and after each submission the grader kills every process left to its "
               "user." if box.first_uid is not None else "."),
        ]
        cannot.append(
            "It can read what the allow-list holds, which students have anyway: the "
            "interpreter's files and the kit's lab/ package and lesson.toml files.")
    elif box.level == "user":
        holds.append(f"It runs as {who}, without root and unable to regain it.")
        if box.first_uid is not None:
            holds.append("Nothing it starts outlives it: after each submission the grader "
                         "kills every process left to its user, and removes what that user "
                         "left in /tmp, /var/tmp and /dev/shm.")
        cannot += [
            "This machine does not allow namespaces, so the submission keeps the network and "
            "can read every file that every user may read: the kit's .git history (which "
            "holds the solutions), its starters (the next lab's starter holds this lab's "
            "answer), and the submissions folder where others may list it. A submission "
            "needs only the kit's lab/ and lessons/ and the interpreter: keep .git, "
            "starters/, solutions/, source/, the submissions and output folders and the "
            "extra tests where only their owner may open them (chmod 700). It can see that "
            "other processes run, and their command lines, but not their folders or open "
            "files.",
        ]
        if box.first_uid is None:
            cannot += [
                "A process it starts in a session of its own can outlive the grading: the "
                "grader can kill only its process group.",
                f"What it writes to /tmp, /var/tmp, /dev/shm or any folder every user may "
                f"write to stays after grading: it runs as {who}, whose files the grader "
                "cannot tell apart from those of everything else that runs as that user, so "
                "it removes none."]
        else:
            cannot.append("What it writes to any other folder every user may write to "
                          "stays after grading, as do System V shared memory, semaphores "
                          "and message queues it makes.")
    elif os.geteuid() == 0:
        cannot += [
            "Submissions run as root, because no other user could run them here: they can "
            "read and change anything on this machine. This is only sound inside a "
            "container that is thrown away after the run.",
            "A process it starts in a session of its own can outlive the grading: the "
            "grader can kill only its process group.",
            "What it writes to /tmp, /var/tmp, /dev/shm or anywhere else stays after grading: "
            "it runs as root, whose files the grader cannot tell apart from everyone's, so "
            "it removes none."]
    else:
        cannot += [
            "The grader does not run as root, so submissions run as your own user: they can "
            "read and change every file you can, including the kit's solutions, the "
            "extra tests, the output folder and the grader itself, and they can use the "
            "network. Grade untrusted code as root (the grader then runs each at once as "
            "a user of its own) or inside a container or virtual machine.",
            "A process it starts in a session of its own can outlive the grading: the "
            "grader can kill only its process group.",
            "What it writes to /tmp, /var/tmp, /dev/shm or anywhere else you may write "
            "stays after grading: it runs as your own user, whose files the grader cannot "
            "tell apart from yours, so it removes none."]
    if box.user is None:
        beside = " and those beside it" if box.jobs > 1 else ""
        cannot.append(
            f"It runs as the grader's own user, so it can write into the grader's own pipes, "
            f"which jams the worker grading it{beside}. That costs time, not other grades: "
            "workers that send nothing for longer than any submission may take are ended, "
            "and each submission they held is graded again alone; one that jams its worker "
            "alone too gets a row saying so.")
    cannot.append("A submission can still signal a little through its hidden tests' verdicts "
                  "(passed, failed, out of time, died) and the time it takes.")
    held, unbounded = _grouped(box)
    holds += held
    cannot += unbounded
    holds_jobs, cannot_jobs = _together(box, who)
    holds += holds_jobs
    cannot += cannot_jobs
    if box.readable:
        cannot.append("The probe could still read: " + ", ".join(box.readable) + ".")
    if box.network and box.level == "namespaces":
        cannot.append("The probe could still reach the network.")
    return {"level": box.level, "own_users": box.first_uid is not None, "holds": holds,
            "cannot_prevent": cannot}


def _grouped(box) -> tuple[list[str], list[str]]:
    """What its control group holds (grader/sandbox/cgroups.py), or what is not bounded for
    want of one; and whether its scratch folder is a file system of its own."""
    r = box.resources
    held, unbounded = [], []
    if box.groups and box.user:
        held.append(
            f"Its processes are held together in a control group of their own (cgroup "
            f"v{box.groups['version']}): at most {r.memory_mb + 4 * r.temporary_mb} MB of "
            "memory in all, the kernel's memory and socket buffers it makes the kernel hold "
            f"counted in, at most {r.processes} processes, and at most one processor's time, "
            "an equal share with the submission beside it.")
    else:
        unbounded.append(
            "This machine offers the grader no control groups (cgroup v2, or v1's memory with "
            "kmem.tcp, cpu and pids, as root), or the submission runs as root, which could "
            "leave one, so what a submission's processes hold together "
            "is not bounded: memory past each process's own limit, the socket buffers the "
            "kernel holds for it, and its share of the processors, with which it can slow "
            "the submission beside it until that one's tests run out of time.")
    if box.level == "namespaces":
        held.append(f"Its scratch folder is a file system of its own in memory (at most "
                    f"{r.temporary_mb} MB), as are its /tmp, /var/tmp and /dev/shm: a file "
                    "that fills them fills only its own, and the free space it sees is "
                    "nobody else's.")
    else:
        unbounded.append("Its scratch folder is on the grader's disk, whose free space it "
                         "shares with every submission and the grader's reports: only each "
                         f"file is bounded ({r.file_mb} MB).")
    return held, unbounded


def _who(box) -> str:
    if box.first_uid is not None:
        last = box.first_uid + max(box.jobs, 1) - 1
        ids = f"uid {box.first_uid}" + (f" to {last}" if last > box.first_uid else "")
        return (f"a user of its own ({ids}, one per submission graded at the same time; "
                "no account on this machine has these ids)")
    if box.user:
        account = users.name(box.user[0])
        return f"the user `{account}`" if account is not None else f"uid {box.user[0]}"
    return "root" if os.geteuid() == 0 else "your own user"


def _together(box, who: str) -> tuple[list[str], list[str]]:
    """What holds, and what does not, between submissions graded at the same time."""
    sharing = (f"Submissions graded at the same time ({box.jobs} here) share the "
               "machine's processors, memory and disk: one can slow the others down, "
               "within its own limits." if not (box.groups and box.user) else
               f"Submissions graded at the same time ({box.jobs} here) share the machine: "
               "its processors past each one's share, and what the memory left free and "
               "the system's load show; one can still slow another a little.")
    if box.jobs > 1 and box.first_uid is not None:
        return [f"Submissions graded at the same time ({box.jobs} here) each run as a "
                "user of their own, in folders only that user may open: none can read or "
                "change another's files."], [sharing]
    if box.jobs > 1:
        return [], [f"Submissions graded at the same time ({box.jobs} here) all run as "
                    f"{who}, as --allow-shared-user allowed: one can read and change the "
                    "files of the one beside it, and write into its report channel.",
                    sharing]
    if box.jobs_asked > 1:
        why = ("users of their own need the grader to run as root" if os.geteuid() != 0
               else "no sandbox that changes user works here" if box.user is None
               else f"no range of ids from {users.FIRST_UID} on was free for users of their own")
        return [f"Graded one submission at a time, although --jobs {box.jobs_asked} was "
                f"asked: here every submission would run as {who} ({why}), so one could "
                "read and change the files of the one beside it. --allow-shared-user "
                "grades several at once anyway."], []
    return ["Graded one submission at a time, so none runs beside another."], []
