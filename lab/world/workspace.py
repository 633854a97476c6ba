"""The workspace: a disk that is a dict, so every run starts from the same files and a power cut
can land on exactly the write a test chose."""

from . import contracts
from .errors import PowerCut


def _key(path):
    """The workspace key of `path`: parts joined by "/", with "", "." and a leading "/" ignored,
    so "./src//a.py" and "src/a.py" name one file and "" or "." is the root."""
    if not isinstance(path, str):
        raise TypeError(f"a workspace path is a string such as 'src/app.py'; got {path!r}")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ValueError(f"the workspace has no '..': paths stay inside it; got {path!r}")
    return "/".join(parts)


class Workspace(contracts.Workspace):
    """An in-memory tree of files: relative "/" paths mapped to text.

    A directory exists when some file lies beneath it, and "" or "." is the root. Errors are the
    ones a disk gives: FileNotFoundError(path) for a missing path, IsADirectoryError(path) for a
    directory where a file was wanted, NotADirectoryError(path) the other way round.

    cut_power_after(n) arms a PowerCut for a chosen write, so a test can stop the world at
    exactly the moment it wants to study.
    """

    def __init__(self, files=None):
        if files is not None and not isinstance(files, dict):
            raise TypeError("Workspace(files) takes a dict of path -> text, e.g. "
                            f"Workspace({{'src/app.py': 'print(1)\\n'}}); got {files!r}")
        self._files = {}
        self._cut = None  # (writes still allowed, torn) while a power cut is armed
        for path, text in (files or {}).items():
            key = self._writable(path, text, "Workspace(files)")
            self._files[key] = text

    def __repr__(self):
        return f"Workspace({len(self._files)} files)"

    @property
    def files(self):
        """A snapshot of every file, {path: text}: a copy, so changing it changes nothing."""
        return dict(self._files)

    def exists(self, path):
        """True for a file or a directory."""
        key = _key(path)
        return key in self._files or self.isdir(path)

    def isdir(self, path):
        """True when `path` is the root or some file lies beneath it."""
        key = _key(path)
        return key == "" or any(name.startswith(key + "/") for name in self._files)

    def listdir(self, path="."):
        """The sorted names of the direct children of a directory, files and directories alike."""
        key = _key(path)
        if key in self._files:
            raise NotADirectoryError(path)
        if not self.isdir(path):
            raise FileNotFoundError(path)
        prefix = key + "/" if key else ""
        return sorted({name[len(prefix):].split("/")[0]
                       for name in self._files if name.startswith(prefix)})

    def read_text(self, path):
        """The text of a file. FileNotFoundError(path) if nothing is there, IsADirectoryError(path)
        for a directory."""
        key = _key(path)
        if key in self._files:
            return self._files[key]
        if self.isdir(path):
            raise IsADirectoryError(path)
        raise FileNotFoundError(path)

    def write_text(self, path, text):
        """Create the file, or replace all of its text."""
        key = self._writable(path, text, "write_text")
        self._power(path, key, text, replace=True)
        self._files[key] = text

    def append_text(self, path, text):
        """Add `text` to the end of the file, creating it if needed."""
        key = self._writable(path, text, "append_text")
        self._power(path, key, text, replace=False)
        self._files[key] = self._files.get(key, "") + text

    def remove(self, path):
        """Delete a file. Raises like read_text for a missing path or a directory."""
        self.read_text(path)
        del self._files[_key(path)]

    def cut_power_after(self, n, torn=False):
        """Arm a power cut, once: the (n+1)-th write from now (write_text or append_text) raises
        PowerCut instead of finishing. With torn=True the first half of that write's text lands
        first (appended, or as the file's new text), as a disk that lost power mid-write leaves
        it. Calling it again re-arms it from now."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"cut_power_after(n): n is how many writes still succeed, a whole "
                             f"number 0 or more; got {n!r}")
        self._cut = (n, bool(torn))

    def _writable(self, path, text, where):
        key = _key(path)
        if not isinstance(text, str):
            raise TypeError(f"{where}({path!r}, text): text is a str; got {type(text).__name__}")
        if key == "" or any(name.startswith(key + "/") for name in self._files):
            raise IsADirectoryError(path)
        parts = key.split("/")
        for end in range(1, len(parts)):
            if "/".join(parts[:end]) in self._files:
                raise NotADirectoryError(path)
        return key

    def _power(self, path, key, text, *, replace):
        if self._cut is None:
            return
        left, torn = self._cut
        if left > 0:
            self._cut = (left - 1, torn)
            return
        self._cut = None
        if torn:
            half = text[:len(text) // 2]
            self._files[key] = half if replace else self._files.get(key, "") + half
        raise PowerCut(f"the power went off while writing {path}")
