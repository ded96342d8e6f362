"""`nightshift --https`'s certificate: made for this machine's addresses, kept, and made anew when an address is new."""

from cryptography import x509

from app.certificate import ensure, names_for


def listed(path) -> list[str]:
    alternatives = x509.load_pem_x509_certificate(path.read_bytes()).extensions.get_extension_for_class(
        x509.SubjectAlternativeName).value
    return [str(name.value) for name in alternatives]


def test_the_certificate_names_every_address_and_is_kept_until_the_machine_has_a_new_one(tmp_path):
    names = names_for(["192.168.1.20"], "nightshift.lan")
    cert, key = ensure(tmp_path, names)
    assert {"192.168.1.20", "127.0.0.1", "::1", "localhost", "nightshift.lan"} <= set(listed(cert))
    assert key.stat().st_mode & 0o077 == 0  # the key is the owner's alone
    made = cert.read_bytes()
    assert ensure(tmp_path, names)[0].read_bytes() == made  # the same addresses: the same certificate
    moved = ensure(tmp_path, names_for(["10.0.0.7"]))[0]  # another Wi-Fi: a new certificate that names it
    assert moved.read_bytes() != made and "10.0.0.7" in listed(moved)


def test_the_keep_awake_video_is_served_in_byte_ranges_for_safari(client):
    path = "/static/vendor/nosleep.js-0.12.0/no-sleep.mp4"
    whole = client.get(path)
    assert whole.status_code == 200 and whole.mimetype == "video/mp4" and whole.headers["Accept-Ranges"] == "bytes"
    part = client.get(path, headers={"Range": "bytes=0-1"})
    assert part.status_code == 206 and part.data == whole.data[:2]
    assert part.headers["Content-Range"] == f"bytes 0-1/{len(whole.data)}"
