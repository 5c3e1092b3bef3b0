"""Sign-up, password reset (Django's view behind a per-address limit) and the API token page.

Log-in is Django's view behind the per-account guess limit (``accounts.guard``), log-out
Django's own; the per-address log-in lockout is django-axes (``accounts.lockout``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from accounts.guard import failed_attempts, refused_message, refused_wait, remember_device
from accounts.tokens import (
    token_expires_at,
    token_for_user,
    token_is_expired,
    token_issue,
    token_revoke,
    token_rotate,
)
from accounts.users import signed_in
from web.forms import SignupForm
from web.limits import address_limit_wait, email_limit_wait, rate_limited_page
from web.views import message_page


class LoginView(auth_views.LoginView):
    """Django's log-in page. An attempt the per-account guess limit refused unchecked is a 429
    page saying why and when; a successful log-in tells the owner of the failed attempts since
    their last one and marks the browser as one the account knows."""

    redirect_authenticated_user = True

    def form_invalid(self, form: Any) -> HttpResponse:
        wait = refused_wait(self.request)
        if wait is None:
            return super().form_invalid(form)
        context = {"message": refused_message(wait), "retry_after": wait}
        response = render(self.request, "registration/locked_out.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        attempts = failed_attempts(self.request)
        if attempts is not None:
            messages.warning(self.request, attempts.message())
        remember_device(self.request, response)
        return response


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in with it (a few sign-ups per address an hour)."""
    if request.user.is_authenticated:
        return redirect("deck-list-mine")
    if request.method == "POST":
        wait = address_limit_wait(request, "signup")
        if wait is not None:
            return rate_limited_page(request, "sign-up attempts", wait)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("deck-list-mine")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's new-password form behind the emailed link. The browser that sets the password
    proved it reads the owner's mail, so it becomes one the account knows: it logs in even while
    guesses at the account from elsewhere are paused."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        remember_device(self.request, response, username=form.user.get_username())
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset-by-email form; each client address, and each email address, may be asked
    for a few times an hour."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        wait = address_limit_wait(request, "password_reset")
        if wait is not None:
            return rate_limited_page(request, "password-reset requests", wait)
        wait = email_limit_wait(request.POST.get("email", ""), "password_reset")
        if wait is not None:  # the same mailbox asked for from many addresses
            return rate_limited_page(request, "password-reset requests for this email", wait)
        return super().post(request, *args, **kwargs)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """See your API token and when it expires; create, rotate or revoke it."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "create":
            token_issue(user=signed_in(request.user))
            messages.success(request, "Your API token is ready.")
        elif action == "rotate":
            token_rotate(user=signed_in(request.user))
            messages.success(request, "New token issued; the old one no longer works.")
        elif action == "revoke":
            if token_revoke(user=signed_in(request.user)):
                messages.success(request, "Token revoked: scripts using it now get 401.")
        else:
            return message_page(
                request, "Unknown action", "Choose create, rotate or revoke.", status=400
            )
        return redirect("account-token")
    token = token_for_user(signed_in(request.user))
    context = {
        "token": token,
        "expires": token_expires_at(token) if token else None,
        "expired": token_is_expired(token) if token else False,
        "ttl_days": settings.API_TOKEN_TTL_DAYS,
    }
    return render(request, "registration/api_token.html", context)
