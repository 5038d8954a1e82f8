"""A protest's attachment: a PDF or an image, recognised by its first bytes (never by its
name or the browser's content type), no larger than settings.PROTEST_ATTACHMENT_MAX_BYTES."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

from core.errors import Refused

# (signature at offset 0, content type). WebP is "RIFF" + size + "WEBP" (checked below).
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "application/pdf"),
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


@dataclass(frozen=True)
class CheckedFile:
    name: str
    content_type: str
    data: bytes


def sniff_content_type(head: bytes) -> str | None:
    """The content type the first bytes announce, or None if not a PDF or an image."""
    for magic, content_type in _MAGIC:
        if head.startswith(magic):
            return content_type
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def attachment_check(*, name: str, file: IO[bytes]) -> CheckedFile:
    """Read an uploaded file once; refuse it if too large or not a PDF or an image."""
    limit = settings.PROTEST_ATTACHMENT_MAX_BYTES
    data = file.read(limit + 1)
    if len(data) > limit:
        raise Refused(
            _("The attachment is larger than %(size)s.") % {"size": filesizeformat(limit)}
        )
    content_type = sniff_content_type(data[:16])
    if content_type is None:
        raise Refused(
            _("The attachment must be a PDF document or an image (PNG, JPEG, GIF, WebP).")
        )
    short_name = name.replace("\\", "/").rsplit("/", 1)[-1][:200] or "attachment"
    return CheckedFile(name=short_name, content_type=content_type, data=data)
