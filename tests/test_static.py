"""Vendored front-end files are the pinned, unmodified releases, with their licences kept."""

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parent.parent / "static" / "vendor"


def test_vendored_files_match_the_hashes_in_the_vendor_readme():
    rows = re.findall(r"^\| (\S+) \| (\S+) \| (\S+) \| ([0-9a-f]{64}) \|$", (VENDOR / "README.md").read_text(), re.M)
    assert len(rows) == 6  # htmx, its SSE extension, idiomorph; NoSleep.js and its two videos
    for folder, _package, path, digest in rows:
        file = VENDOR / folder / Path(path).name
        assert hashlib.sha256(file.read_bytes()).hexdigest() == digest, file
        assert (VENDOR / folder / "LICENSE").exists(), folder


def test_a_static_name_longer_than_the_file_system_allows_is_a_404(client):
    """Path.is_file raised OSError (File name too long) and answered 500."""
    for method in (client.get, client.head):
        assert method("/static/" + "a" * 300 + ".css").status_code == 404
