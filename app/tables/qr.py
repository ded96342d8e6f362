"""QR codes for the join link: inline SVG for the host screen, PNG for anything else."""

from __future__ import annotations

import io
import re
from functools import lru_cache

import qrcode
import qrcode.image.svg
from qrcode.constants import ERROR_CORRECT_M


def _qr(data: str) -> qrcode.QRCode:
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=4, box_size=10)
    code.add_data(data)
    code.make(fit=True)
    return code


@lru_cache(maxsize=256)
def svg(data: str) -> str:
    """An <svg> element (no XML prolog, no style attributes) that scales to its container."""
    image = _qr(data).make_image(image_factory=qrcode.image.svg.SvgPathImage)
    markup = image.to_string(encoding="unicode")
    markup = markup[markup.index("<svg"):]
    head, rest = markup.split(">", 1)
    head = re.sub(r'\s(width|height)="[^"]*"', "", head)  # the stylesheet sizes it
    return f'{head} role="img" aria-label="QR code that opens the join page" class="qr-svg">{rest}'



@lru_cache(maxsize=256)
def png(data: str) -> bytes:
    """A black-on-white PNG with a quiet zone, readable by any phone camera."""
    image = _qr(data).make_image(fill_color="black", back_color="white")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()
