"""Sign-in nobody can block, in a real browser (issue 30, item 5): after a name has been
guessed past its limit, its owner signs in from a new browser all the same; the page
solves the server's proof of work (ALTCHA) with WebCrypto, saying "Checking…" meanwhile."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from browser_helpers import start_server, stop_server

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("winnable-proof")
    running = start_server(
        folder / "proof.db",
        folder / "server.log",
        {
            "WINNABLE_ARGON2_MEMORY_KIB": "1024",
            "WINNABLE_ARGON2_TIME_COST": "1",
            "WINNABLE_RATE_LIMITS": "1",
            "WINNABLE_LIMIT_DEFAULT": "10000/minute",
            "WINNABLE_LIMIT_LOGIN": "1000/minute",
            "WINNABLE_LIMIT_LOGIN_NAME": "3/hour",
        },
    )
    yield running
    stop_server(running)


def post(server, path: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        server.url(path), data=json.dumps(body).encode(), method="POST", headers={"Content-Type": "application/json", "Origin": server.base}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_owner_signs_in_from_a_new_browser_after_the_guessing(page, guarded_server):
    assert post(guarded_server, "/api/auth/signup", {"name": "ada", "password": PASSWORD})[0] == 201
    codes = [post(guarded_server, "/api/auth/login", {"name": "ada", "password": f"guess {k}"})[0] for k in range(4)]
    assert codes == [401, 401, 401, 429]  # the name is under guessing now
    status, body = post(guarded_server, "/api/auth/login", {"name": "ada", "password": PASSWORD})
    assert status == 429 and "altcha" in body  # the right password alone is not let in

    page.goto(guarded_server.url("/account"))
    page.wait_for_selector("#login-form")
    # What the status line says while the page works (kept across the page's reload).
    page.evaluate("""() => {
        const status = document.querySelector('#login-form .form-status');
        new MutationObserver(() => {
            if (!status.hidden && status.textContent) sessionStorage.setItem('proof-status', status.textContent);
        }).observe(status, { attributes: true, childList: true, characterData: true, subtree: true });
    }""")
    page.fill("#login-name", "ada")
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("body[data-player='ada']")
    assert page.evaluate("() => sessionStorage.getItem('proof-status')") == "Checking…"


def test_a_wrong_password_after_the_proof_says_so(page, guarded_server):
    post(guarded_server, "/api/auth/signup", {"name": "bob", "password": PASSWORD})
    for k in range(4):
        post(guarded_server, "/api/auth/login", {"name": "bob", "password": f"guess {k}"})
    page.goto(guarded_server.url("/account"))
    page.wait_for_selector("#login-form")
    page.fill("#login-name", "bob")
    page.fill("#login-password", "not the password")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#login-form .form-error:not([hidden])")
    assert page.text_content("#login-form .form-error") == "Wrong name or password."
    page.fill("#login-password", PASSWORD)  # the next try solves the challenge the 401 carried
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("body[data-player='bob']")
