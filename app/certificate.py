"""The certificate `nightshift --https` serves: made on this machine for its own addresses, kept in the instance folder.

Phones that open the LAN address over plain http get no secure context, so no Screen Wake Lock; over https they do.
Nobody signs this certificate but this machine, so each phone's browser warns once before it opens the page (README).
"""

from __future__ import annotations

import ipaddress
import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

VALID_FOR = timedelta(days=397)  # the longest a browser accepts for a server certificate
RENEW_WITHIN = timedelta(days=30)


def names_for(addresses: list[str], public_host: str = "") -> list[str]:
    """Every name a screen may open this machine by: its LAN addresses, loopback, its host name, the public URL's."""
    names = [*addresses, "127.0.0.1", "::1", "localhost", socket.gethostname(), public_host]
    return list(dict.fromkeys(name for name in names if name))


def _alternative(name: str) -> x509.GeneralName:
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _covers(path: Path, names: list[str]) -> bool:
    """Whether the certificate there is still good for a month and names every one of `names`."""
    try:
        certificate = x509.load_pem_x509_certificate(path.read_bytes())
        listed = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    if certificate.not_valid_after_utc - datetime.now(UTC) < RENEW_WITHIN:
        return False
    return all(_alternative(name) in listed for name in names)


def ensure(folder: Path, names: list[str]) -> tuple[Path, Path]:
    """(certificate, key) files in `folder/tls/`, made anew when missing, about to expire, or missing one of `names`
    (the machine joined another network)."""
    tls = folder / "tls"
    cert_path, key_path = tls / "cert.pem", tls / "key.pem"
    if key_path.exists() and _covers(cert_path, names):
        return cert_path, key_path
    tls.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Night Shift on {socket.gethostname()}")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + VALID_FOR)
        .add_extension(x509.SubjectAlternativeName([_alternative(name) for name in names]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256()))
    key_path.touch(mode=0o600, exist_ok=True)
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path
