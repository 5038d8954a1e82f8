"""The accounts' forms: Django's, with the password-reset e-mail sent by a worker."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.template import loader

from core.mail import mail_enqueue


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password-reset form, whose e-mail is rendered here (in the request's
    language) and sent through the outbox (core.mail), never in the request. The link starts with
    SITE_URL, the address users know, not the request's host."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        context = {**context, "site_url": settings.SITE_URL}
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        html = (
            loader.render_to_string(html_email_template_name, context)
            if html_email_template_name
            else None
        )
        mail_enqueue(kind="password.reset", subject=subject, body=body, to=[to_email], html=html)
