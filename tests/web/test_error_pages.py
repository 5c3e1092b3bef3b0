"""The site's own 400, 403, 404 and 500 pages (tests run with DEBUG off, as production does);
the API answers the same errors as problem details."""

from __future__ import annotations

import pytest
from django.test import Client

ERROR_URLS = "tests.web.error_urls"


@pytest.fixture
def visitor() -> Client:
    """A client that gets the 500 page instead of the view's exception."""
    return Client(raise_request_exception=False)


@pytest.mark.django_db
def test_unknown_address_gets_the_branded_404_with_a_way_on(client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page not found" in html and "/no-such-page/" in html
    assert 'action="/cards/"' in html  # a card search to go on with
    assert 'class="site-header"' in html  # the site's own layout, navigation included


@pytest.mark.django_db
def test_unknown_card_gets_the_same_404_page(client) -> None:
    response = client.get("/games/revolt-n-reign/cards/no-such-card/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


@pytest.mark.django_db
def test_api_404_stays_problem_details(client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["status"] == 404


@pytest.mark.urls(ERROR_URLS)
def test_a_failing_page_gets_the_branded_500_without_touching_the_database(visitor) -> None:
    # No django_db mark: a 500 page that queried the database would fail here.
    response = visitor.get("/fail/")
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert "Deckwright" in html and 'href="/cards/"' in html
    assert "deliberate failure" not in html and "Traceback" not in html


@pytest.mark.urls(ERROR_URLS)
def test_a_failing_api_call_gets_a_500_problem(visitor) -> None:
    response = visitor.get("/api/v1/fail/")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "server-error" and "deliberate" not in body["detail"]


@pytest.mark.django_db
@pytest.mark.urls(ERROR_URLS)
def test_forbidden_page_offers_to_log_in(visitor) -> None:
    response = visitor.get("/forbidden/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Not allowed" in html and "/accounts/login/?next=/forbidden/" in html


def test_unknown_host_gets_the_branded_400(visitor) -> None:
    response = visitor.get("/", HTTP_HOST="not-this-site.example")
    assert response.status_code == 400
    assert "Bad request" in response.content.decode()


@pytest.mark.django_db
def test_a_form_without_its_csrf_token_gets_a_page_saying_what_to_do() -> None:
    browser = Client(enforce_csrf_checks=True)
    response = browser.post("/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This form could not be accepted" in html
    assert "reload the page" in html and "allow cookies" in html
