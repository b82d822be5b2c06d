"""Generated tables in a hand-written document: the text between a BEGIN marker and the END
marker after it is the script's, the rest the author's (the numbers in docs/ are never typed)."""
import os
import sys


def spliced(doc, begin, end, text):
    """doc with what stands between `begin` and the next `end` replaced by a newline and text;
    None when doc lacks the markers."""
    i = doc.find(begin)
    j = doc.find(end, i + len(begin)) if i >= 0 else -1
    return None if j < 0 else doc[:i + len(begin)] + "\n" + text + doc[j:]


def splice(path, begin, end, text):
    """spliced() on the file at path; a document without the markers ends the script with an
    error."""
    with open(path) as f:
        doc = spliced(f.read(), begin, end, text)
    if doc is None:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {path} has no {begin} ... {end} markers")
    with open(path, "w") as f:
        f.write(doc)
