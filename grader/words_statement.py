"""The isolation statement's sentences: what a sandbox holds and what it cannot prevent, in
plain words, made from what the probe found (grader/sandbox/found.py's Sandbox), the sibling of
lab/check/words_feedback.py for grader/sandbox/statement.py.

The statement travels as facts (its Statement record, and grades.json's "sandbox"); every
sentence an instructor reads of it, in the summary, report files, Gradescope's log or the
class page, is made here when it is read, so rewording one changes nothing the sandbox
decided. `statement` lays the two lists out from the facts; each sentence is a constant or a
function of plain values below it, so a translation replaces sentences, not decisions.
"""
from __future__ import annotations

from grader.sandbox.found import Sandbox


def statement(box: Sandbox) -> tuple[list[str], list[str]]:
    """What the sandbox `box` holds and what it cannot prevent, in plain words: the two
    lists of an isolation statement (grader/sandbox/statement.py's), made from its facts."""
    holds = [OWN_PROCESSES, SCRATCH, limits(box.memory_mb, box.cpu_seconds, box.file_mb),
             VERDICTS_IN_GRADER, HIDDEN_APART]
    cannot: list[str] = []
    who = _who(box)
    if box.level == "namespaces":
        holds += [runs_as(who), allow_list(box.temporary_mb), PID_NAMESPACE,
                  nothing_outlives(box.first_uid is not None)]
        cannot.append(READS_THE_ALLOW_LIST)
    elif box.level == "user":
        holds.append(runs_as(who))
        if box.first_uid is not None:
            holds.append(SWEPT_AFTER)
        cannot.append(NO_NAMESPACES)
        if box.first_uid is None:
            cannot += [OUTLIVES, shared_leftovers(who)]
        else:
            cannot.append(OTHER_FOLDERS_STAY)
    elif box.root:
        cannot += [AS_ROOT, OUTLIVES, ROOT_LEFTOVERS]
    else:
        cannot += [AS_YOUR_USER, OUTLIVES, YOUR_LEFTOVERS]
    if box.uid is None:
        cannot.append(own_pipes(box.jobs > 1))
    cannot.append(SIGNALS)
    held, unbounded = _grouped(box)
    holds += held
    cannot += unbounded
    holds_jobs, cannot_jobs = _together(box, who)
    holds += holds_jobs
    cannot += cannot_jobs
    if box.readable:
        cannot.append(still_reads(box.readable))
    if box.network and box.level == "namespaces":
        cannot.append(STILL_REACHES_NETWORK)
    return holds, cannot


def _grouped(box: Sandbox) -> tuple[list[str], list[str]]:
    """What its control group holds (grader/sandbox/cgroups.py), or what is not bounded for
    want of one; and whether its scratch folder is a file system of its own."""
    held, unbounded = [], []
    if box.groups is not None:
        held.append(control_group(box.groups, box.memory_mb + 4 * box.temporary_mb,
                                  box.processes))
    else:
        unbounded.append(NO_CONTROL_GROUPS)
    if box.level == "namespaces":
        held.append(scratch_in_memory(box.temporary_mb))
    else:
        unbounded.append(scratch_on_disk(box.file_mb))
    return held, unbounded


def _who(box: Sandbox) -> str:
    """Whom a submission runs as, as the statement's sentences name them."""
    if box.first_uid is not None:
        return own_users(box.first_uid, box.first_uid + max(box.jobs, 1) - 1)
    if box.uid is not None:
        return user(box.account, box.uid)
    return ROOT if box.root else YOUR_USER


def _together(box: Sandbox, who: str) -> tuple[list[str], list[str]]:
    """What holds, and what does not, between submissions graded at the same time."""
    sharing = shared_machine(box.jobs, box.groups is not None)
    if box.jobs > 1 and box.first_uid is not None:
        return [apart(box.jobs)], [sharing]
    if box.jobs > 1:
        return [], [together(box.jobs, who), sharing]
    if box.jobs_asked > 1:
        why = (NEEDS_ROOT if not box.root else NO_CHANGING_SANDBOX if box.uid is None
               else no_free_ids(box.free_from))
        return [one_at_a_time_asked(box.jobs_asked, who, why)], []
    return [ONE_AT_A_TIME], []


# --- what every sandbox holds ------------------------------------------------------------------

OWN_PROCESSES = ("Each submission runs in processes of its own, in a new session, and the whole "
                 "group is killed when a test ends or overruns.")
SCRATCH = ("Its working folder, HOME and TMPDIR are a scratch folder holding only a copy of its "
           "harness.py, removed afterwards; its environment holds none of the grader's "
           "variables.")


def limits(memory_mb: int, cpu_seconds: int, file_mb: int) -> str:
    return (f"Limits per process: {memory_mb} MB of memory, {cpu_seconds} CPU seconds, files "
            f"of at most {file_mb} MB, a bounded number of processes, no core files; what it "
            "prints and what it reports to the grader are capped, and the time per test and "
            "per submission is bounded while it runs.")


VERDICTS_IN_GRADER = ("Verdicts are decided in the grader, from values the child reports; the "
                      "wanted values are not in the child's copy of the tests.")
HIDDEN_APART = ("The instructor's hidden tests run after the kit's, in processes of their own, "
                "and the grader writes their code to no disk; every report but the one marked "
                "not for students shows of a hidden test its sentence and verdict alone.")
SIGNALS = ("A submission can still signal a little through its hidden tests' verdicts (passed, "
           "failed, out of time, died) and the time it takes.")


# --- whom it runs as ---------------------------------------------------------------------------

def own_users(first: int, last: int) -> str:
    ids = f"uid {first}" + (f" to {last}" if last > first else "")
    return (f"a user of its own ({ids}, one per submission graded at the same time; no "
            "account on this machine has these ids)")


def user(account: str | None, uid: int) -> str:
    return f"the user `{account}`" if account is not None else f"uid {uid}"


ROOT = "root"
YOUR_USER = "your own user"


def runs_as(who: str) -> str:
    return f"It runs as {who}, without root and unable to regain it."


# --- at "namespaces" ---------------------------------------------------------------------------

def allow_list(temporary_mb: int) -> str:
    return ("It has no network, and a file system built for it from an allow-list: the "
            "Python interpreter and the libraries it loads, the kit's lab/ package and its "
            "lessons' lesson.toml files (what the tests import), all read-only, and its "
            "scratch folder; a /dev with only null, zero, random and urandom, and a /tmp, "
            f"/var/tmp and /dev/shm of its own (at most {temporary_mb} MB each), which "
            "nothing else writes to and which are gone when it ends. Nothing else exists for "
            "it: not the kit's .git history, starters, solutions or source, not the "
            "submissions or output folders, not the extra tests, no other program (no shell, "
            "no git), nothing else of yours.")


PID_NAMESPACE = ("The process running it is alone in a PID namespace of its own (beside only a "
                 "reaper the grader started), and its /proc shows only that namespace: it sees "
                 "no other submission's processes, nor their folders, open files or report "
                 "channels.")


def nothing_outlives(swept: bool) -> str:
    """`swept`: the grader also kills what is left to the slot's own user."""
    return ("Nothing it starts outlives it: when its process ends or is stopped, the kernel "
            "ends every process in its namespace (forked, double-forked, in a session of "
            "its own, or daemonised)"
            + (", and after each submission the grader kills every process left to its "
               "user." if swept else "."))


READS_THE_ALLOW_LIST = ("It can read what the allow-list holds, which students have anyway: the "
                        "interpreter's files and the kit's lab/ package and lesson.toml files.")


def scratch_in_memory(temporary_mb: int) -> str:
    return (f"Its scratch folder is a file system of its own in memory (at most "
            f"{temporary_mb} MB), as are its /tmp, /var/tmp and /dev/shm: a file that fills "
            "them fills only its own, and the free space it sees is nobody else's.")


STILL_REACHES_NETWORK = "The probe could still reach the network."


def still_reads(paths: tuple[str, ...]) -> str:
    return "The probe could still read: " + ", ".join(paths) + "."


# --- at "user" and "limits" --------------------------------------------------------------------

SWEPT_AFTER = ("Nothing it starts outlives it: after each submission the grader kills every "
               "process left to its user, and removes what that user left in /tmp, /var/tmp "
               "and /dev/shm.")
NO_NAMESPACES = (
    "This machine does not allow namespaces, so the submission keeps the network and can read "
    "every file that every user may read: the kit's .git history (which holds the solutions), "
    "its starters (the next lab's starter holds this lab's answer), and the submissions "
    "folder where others may list it. A submission needs only the kit's lab/ and lessons/ and "
    "the interpreter: keep .git, starters/, solutions/, source/, the submissions and output "
    "folders and the extra tests where only their owner may open them (chmod 700). It can see "
    "that other processes run, and their command lines, but not their folders or open files.")
OUTLIVES = ("A process it starts in a session of its own can outlive the grading: the grader "
            "can kill only its process group.")


def shared_leftovers(who: str) -> str:
    return ("What it writes to /tmp, /var/tmp, /dev/shm or any folder every user may write to "
            f"stays after grading: it runs as {who}, whose files the grader cannot tell apart "
            "from those of everything else that runs as that user, so it removes none.")


OTHER_FOLDERS_STAY = ("What it writes to any other folder every user may write to stays after "
                      "grading, as do System V shared memory, semaphores and message queues it "
                      "makes.")
AS_ROOT = ("Submissions run as root, because no other user could run them here: they can read "
           "and change anything on this machine. This is only sound inside a container that is "
           "thrown away after the run.")
ROOT_LEFTOVERS = ("What it writes to /tmp, /var/tmp, /dev/shm or anywhere else stays after "
                  "grading: it runs as root, whose files the grader cannot tell apart from "
                  "everyone's, so it removes none.")
AS_YOUR_USER = ("The grader does not run as root, so submissions run as your own user: they can "
                "read and change every file you can, including the kit's solutions, the extra "
                "tests, the output folder and the grader itself, and they can use the network. "
                "Grade untrusted code as root (the grader then runs each at once as a user of "
                "its own) or inside a container or virtual machine.")
YOUR_LEFTOVERS = ("What it writes to /tmp, /var/tmp, /dev/shm or anywhere else you may write "
                  "stays after grading: it runs as your own user, whose files the grader cannot "
                  "tell apart from yours, so it removes none.")


def own_pipes(beside: bool) -> str:
    """It runs as the grader's own user; `beside`: others are graded at the same time."""
    return ("It runs as the grader's own user, so it can write into the grader's own pipes, "
            f"which jams the worker grading it{' and those beside it' if beside else ''}. That "
            "costs time, not other grades: workers that send nothing for longer than any "
            "submission may take are ended, and each submission they held is graded again "
            "alone; one that jams its worker alone too gets a row saying so.")


def scratch_on_disk(file_mb: int) -> str:
    return ("Its scratch folder is on the grader's disk, whose free space it shares with every "
            f"submission and the grader's reports: only each file is bounded ({file_mb} MB).")


# --- control groups, and submissions graded together ------------------------------------------

def control_group(version: int, memory_mb: int, processes: int) -> str:
    return (f"Its processes are held together in a control group of their own (cgroup "
            f"v{version}): at most {memory_mb} MB of memory in all, the kernel's memory and "
            "socket buffers it makes the kernel hold counted in, at most "
            f"{processes} processes, and at most one processor's time, an equal share with the "
            "submission beside it.")


NO_CONTROL_GROUPS = (
    "This machine offers the grader no control groups (cgroup v2, or v1's memory with "
    "kmem.tcp, cpu and pids, as root), or the submission runs as root, which could leave one, "
    "so what a submission's processes hold together is not bounded: memory past each "
    "process's own limit, the socket buffers the kernel holds for it, and its share of the "
    "processors, with which it can slow the submission beside it until that one's tests run "
    "out of time.")


def shared_machine(jobs: int, grouped: bool) -> str:
    if not grouped:
        return (f"Submissions graded at the same time ({jobs} here) share the machine's "
                "processors, memory and disk: one can slow the others down, within its own "
                "limits.")
    return (f"Submissions graded at the same time ({jobs} here) share the machine: its "
            "processors past each one's share, and what the memory left free and the "
            "system's load show; one can still slow another a little.")


def apart(jobs: int) -> str:
    return (f"Submissions graded at the same time ({jobs} here) each run as a user of their "
            "own, in folders only that user may open: none can read or change another's "
            "files.")


def together(jobs: int, who: str) -> str:
    return (f"Submissions graded at the same time ({jobs} here) all run as {who}, as "
            "--allow-shared-user allowed: one can read and change the files of the one beside "
            "it, and write into its report channel.")


NEEDS_ROOT = "users of their own need the grader to run as root"
NO_CHANGING_SANDBOX = "no sandbox that changes user works here"


def no_free_ids(first: int) -> str:
    return f"no range of ids from {first} on was free for users of their own"


def one_at_a_time_asked(asked: int, who: str, why: str) -> str:
    return (f"Graded one submission at a time, although --jobs {asked} was asked: here every "
            f"submission would run as {who} ({why}), so one could read and change the files of "
            "the one beside it. --allow-shared-user grades several at once anyway.")


ONE_AT_A_TIME = "Graded one submission at a time, so none runs beside another."
