"""TOML's own conformance suite (tests/data/toml-test, TOML 1.0) through gestured: every
invalid file ends in `FILE:LINE[:COLUMN]: error: ...` from `gestured check` with exit
status 1 and no parser crash behind it, and every valid file parses (the parsing helper
hands back a document).
    python3 tests/toml_test.py GESTURED"""
import os, re, shutil, subprocess, sys, tempfile

gestured = os.path.abspath(sys.argv[1])
helper = os.path.join(os.path.dirname(gestured), "gestured-parse-config")
suite = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "toml-test")
files = open(os.path.join(suite, "files-toml-1.0.0")).read().split()
# gestured check refuses a configuration in a directory others may write to: a copy of
# the suite in a private one.
work = tempfile.mkdtemp(prefix="toml-test.")
os.chmod(work, 0o700)
copy = os.path.join(work, "suite")
shutil.copytree(suite, copy)
for root, dirs, _ in os.walk(copy):
    for d in dirs:
        os.chmod(os.path.join(root, d), 0o700)

unlocated, unparsed = [], []
for name in files:
    path = os.path.join(copy, name)
    if name.startswith("invalid/"):
        r = subprocess.run([gestured, "check", name], cwd=copy, capture_output=True, timeout=60)
        first = (r.stdout + r.stderr).decode("utf-8", "replace").splitlines()[:1]
        located = first and re.match(re.escape(name) + r":\d+(:\d+)?: error: ", first[0])
        if r.returncode != 1 or not located or b"crashed" in r.stdout + r.stderr:
            unlocated.append("%s (status %d): %s" % (name, r.returncode, first[0] if first else "nothing said"))
    else:
        with open(path, "rb") as f:
            r = subprocess.run([helper], stdin=f, capture_output=True, timeout=60)
        magic = b"gestured-parse 1\n"
        if r.returncode != 0 or not r.stdout.startswith(magic + b"D"):
            said = r.stdout[len(magic) + 1:].decode("utf-8", "replace")
            unparsed.append("%s: %s" % (name, re.sub(r"[\x00-\x1f]+", " ", said)[:200]))

invalid = sum(1 for n in files if n.startswith("invalid/"))
print("toml-test: %d invalid files, %d without a located error; %d valid files, %d not parsed"
      % (invalid, len(unlocated), len(files) - invalid, len(unparsed)))
for line in unlocated + unparsed:
    print("FAIL " + line)
shutil.rmtree(work)
sys.exit(1 if unlocated or unparsed else 0)
