"""The namp-vp runs of the ctest suite: the tests run through tests/e2e/check_run.py."""
import os
import re
import shlex
import subprocess
import sys


def namp_vp_tests(build, regex, who):
    """{test name: (check_run command up to and including namp-vp, namp-vp's arguments)} of the
    check_run.py tests of namp-vp that ctest -R regex selects in build; `who` names the caller in
    the note about a test whose command line ctest prints unsplittable."""
    out = subprocess.run(["ctest", "--test-dir", build, "-N", "-V", "-R", regex],
                         capture_output=True, text=True, check=True).stdout
    cmds, names = {}, {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+): Test command: (.*)$", line)
        if m:
            try:
                cmds[m.group(1)] = shlex.split(m.group(2))
            except ValueError:  # ctest prints arguments unescaped: a quote in a regex
                cmds[m.group(1)] = None
        m = re.match(r"\s*Test\s+#(\d+): (\S+)", line)
        if m:
            names[m.group(1)] = m.group(2)
    tests, unread = {}, []
    for k, c in cmds.items():
        if c is None:
            unread.append(names.get(k, k))
            continue
        if len(c) < 2 or not c[1].endswith("check_run.py") or "--" not in c:
            continue
        sep = c.index("--")
        if sep + 1 >= len(c) or os.path.basename(c[sep + 1]) != "namp-vp":
            continue
        if "--record" in c[:sep]:  # the suite's own record of the run stays the default's
            i = c.index("--record")
            c = c[:i] + c[i + 2:]
            sep -= 2
        tests[names.get(k, k)] = (c[:sep + 2], c[sep + 2:])
    for name in unread:
        print(f"{who}: {name} left out: its command line as ctest prints it cannot be split",
              file=sys.stderr)
    return tests
