"""Vendored front-end files are the pinned, unmodified releases, with their licences kept."""

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "static" / "vendor"


def test_vendored_files_match_the_hashes_in_the_vendor_readme():
    rows = re.findall(r"^\| (\S+) \| (\S+) \| (\S+) \| ([0-9a-f]{64}) \|$", (VENDOR / "README.md").read_text(), re.M)
    assert len(rows) == 3
    for folder, _package, path, digest in rows:
        file = VENDOR / folder / Path(path).name
        assert hashlib.sha256(file.read_bytes()).hexdigest() == digest, file
        assert (VENDOR / folder / "LICENSE").exists(), folder
