"""Connecting as claude.ai and ChatGPT do: the official SDK's
OAuthClientProvider finds askdesk's authorization server from the MCP
endpoint's 401, registers (dynamic registration) or names its own client
metadata document (served here over HTTPS with a CA of the test's own),
sends the person to the consent page — where a signed-in person allows
it — exchanges the code with its PKCE verifier, and calls ask_user as the
person's own agent; the person answers at the desk. Then the grant is
revoked with `askdesk people revoke`, and its token no longer reaches
the endpoint."""

import datetime
import html
import http.server
import json
import re
import ssl
import subprocess
import tempfile
import threading
import urllib.parse
import uuid

import anyio
import httpx2
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from mcp import ClientSession
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from conftest import BINARY, SITE, wait_for_url
from test_relay import add

pytestmark = pytest.mark.anyio

REDIRECT = "http://127.0.0.1:4567/callback"


def certificate(name: x509.Name, key, issuer: x509.Name, signer, ca: bool, host: str | None = None):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder().subject_name(name).issuer_name(issuer).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if host:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(host)]), critical=False)
    return builder.sign(signer, hashes.SHA256())


def pem(cert) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


class Documents(http.server.BaseHTTPRequestHandler):
    """Serves the client's metadata document, as claude.ai serves its own."""

    document: dict = {}

    def do_GET(self):
        body = json.dumps(self.document).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def desk():
    with tempfile.TemporaryDirectory() as tmp:
        ca_key = ec.generate_private_key(ec.SECP256R1())
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "askdesk test CA")])
        ca = certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
        leaf_key = ec.generate_private_key(ec.SECP256R1())
        leaf_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
        leaf = certificate(leaf_name, leaf_key, ca_name, ca_key, ca=False, host="localhost")
        with open(f"{tmp}/ca.pem", "wb") as f:
            f.write(pem(ca))
        with open(f"{tmp}/leaf.pem", "wb") as f:
            f.write(pem(leaf))
            f.write(leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
        documents = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Documents)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(f"{tmp}/leaf.pem")
        documents.socket = context.wrap_socket(documents.socket, server_side=True)
        threading.Thread(target=documents.serve_forever, daemon=True).start()
        document_url = f"https://localhost:{documents.server_address[1]}/oauth/client.json"
        Documents.document = {
            "client_id": document_url, "client_name": "Document client",
            "redirect_uris": [REDIRECT], "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "token_endpoint_auth_method": "none",
        }

        database = f"{tmp}/oauth.db"
        alice = add(database, "alice")
        process = subprocess.Popen(
            [str(BINARY), "--addr", "127.0.0.1:0", "--database", database, "--site-root", SITE,
             "--oauth-private-clients", "--oauth-client-ca", f"{tmp}/ca.pem"],
            stdout=subprocess.PIPE, stderr=open(f"{tmp}/server.log", "w"), text=True,
        )
        try:
            yield wait_for_url(process), database, alice, document_url
        finally:
            process.terminate()
            process.wait(timeout=10)
            documents.shutdown()


class Memory:
    """The SDK's TokenStorage, in memory."""

    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, client_info):
        self.client = client_info


class Person:
    """A person at the desk in a browser: signed in with their token, they
    allow what the consent page asks. What it sent back to the client is
    what the client's callback receives."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url, token
        self.browser = httpx2.AsyncClient(base_url=url, timeout=30)
        self.redirected: dict | None = None
        self.consent_page = ""

    async def sign_in(self):
        signed = await self.browser.post("/signin", data={"token": self.token})
        assert signed.status_code == 303, signed.text

    async def open(self, authorization_url: str):
        page = await self.browser.get(authorization_url)
        assert page.status_code == 200, page.text
        self.consent_page = page.text
        fields = [(name, html.unescape(value)) for name, value in
                  re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text)]
        answered = await self.browser.post(
            "/oauth/authorize", content=urllib.parse.urlencode(fields + [("decision", "allow")]),
            headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert answered.status_code == 303, answered.text
        location = answered.headers["location"]
        assert location.startswith(REDIRECT), location
        self.redirected = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(location).query))

    async def callback(self) -> AuthorizationCodeResult:
        sent = self.redirected
        assert sent and "code" in sent, sent
        return AuthorizationCodeResult(code=sent["code"], state=sent.get("state"), iss=sent.get("iss"))


def provider(url: str, person: Person, storage: Memory, document_url: str | None = None):
    metadata = OAuthClientMetadata(
        client_name="Registered client", redirect_uris=[REDIRECT],
        grant_types=["authorization_code", "refresh_token"], response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return OAuthClientProvider(
        server_url=f"{url}/mcp", client_metadata=metadata, storage=storage,
        redirect_handler=person.open, callback_handler=person.callback, client_metadata_url=document_url,
    )


async def answered_at_the_desk(url: str, token: str, title: str):
    """The person finds the ask titled `title` at the desk and answers it."""
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http:
        with anyio.fail_after(30):
            while True:
                asks = (await http.get(f"{url}/api/v1/asks")).json()["asks"]
                found = [a for a in asks if a["title"] == title]
                if found:
                    break
                await anyio.sleep(0.2)
        ask = found[0]
        answer = {"answers": [{"id": "q1", "selected": ["Yes"]}]}
        done = await http.post(f"{url}/api/v1/asks/{ask['id']}/answers", json=answer)
        assert done.status_code == 200, done.text
        return ask


async def ask_through(url: str, auth: OAuthClientProvider, person_token: str) -> tuple[str, dict]:
    """ask_user over the connection `auth` makes; the person answers. The
    tool's text, and the ask as the desk lists it."""
    title = f"Connected {uuid.uuid4()}"
    arguments = {"title": title, "questions": [
        {"id": "q1", "question": "Ship it?", "options": [{"label": "Yes"}, {"label": "No"}]}]}
    http = httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=120))
    found = {}
    async with streamable_http_client(f"{url}/mcp", http_client=http) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await session.initialize()

            async def answer():
                found["ask"] = await answered_at_the_desk(url, person_token, title)

            async with anyio.create_task_group() as group:
                group.start_soon(answer)
                with anyio.fail_after(60):
                    result = await session.call_tool("ask_user", arguments)
    assert not result.is_error, result
    return result.content[0].text, found["ask"]


async def test_a_registered_client_connects_with_consent_and_asks_as_the_persons_agent(desk):
    url, database, alice, _ = desk
    person = Person(url, alice)
    await person.sign_in()
    storage = Memory()
    text, ask = await ask_through(url, provider(url, person, storage), alice)
    assert "Yes" in text, text
    assert ask["askedBy"] == "registered-client-alice", ask
    assert "unverified" in person.consent_page.lower() or "Unverified" in person.consent_page
    assert person.redirected["iss"] == url
    assert storage.tokens.access_token.startswith("askd_at_")

    # The person's administrator disconnects it: the token stops at once.
    listed = subprocess.run([str(BINARY), "people", "grants", "alice", "--json", "--database", database],
                            capture_output=True, text=True, check=True)
    grants = [json.loads(line) for line in listed.stdout.splitlines()]
    grant = next(g for g in grants if g["agent"] == "registered-client-alice")
    subprocess.run([str(BINARY), "people", "revoke", grant["id"], "--database", database], check=True,
                   capture_output=True)
    async with httpx2.AsyncClient(timeout=30) as http:
        refused = await http.post(
            f"{url}/mcp", headers={"Authorization": f"Bearer {storage.tokens.access_token}",
                                   "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}})
    assert refused.status_code == 401
    assert 'error="invalid_token"' in refused.headers["www-authenticate"]


async def test_a_client_known_by_its_metadata_document_is_named_by_its_host(desk):
    url, _, alice, document_url = desk
    person = Person(url, alice)
    await person.sign_in()
    storage = Memory()
    text, ask = await ask_through(url, provider(url, person, storage, document_url), alice)
    assert "Yes" in text, text
    # No registration: the client's id is its document's URL.
    assert person.redirected and "code" in person.redirected
    if storage.client is not None:
        assert str(storage.client.client_id) == document_url
    assert ask["askedBy"] == "localhost-alice", ask
    assert "localhost" in person.consent_page
    assert "nverified" not in person.consent_page


async def test_without_a_signed_in_person_nothing_is_issued(desk):
    url, _, alice, _ = desk
    person = Person(url, alice)  # never signs in
    storage = Memory()
    with pytest.raises(BaseException):
        with anyio.fail_after(30):
            await ask_through(url, provider(url, person, storage), alice)
    assert storage.tokens is None


def test_setup_for_claude_ai_checks_the_desk_and_prints_what_to_paste(desk):
    url, _, _, _ = desk
    done = subprocess.run([str(BINARY), "setup", "claude-ai", "--url", url], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"Remote MCP server URL: {url}/mcp" in done.stdout, done.stdout
    chatgpt = subprocess.run([str(BINARY), "setup", "chatgpt", "--url", url], capture_output=True, text=True)
    assert chatgpt.returncode == 0 and f"MCP server URL {url}/mcp" in chatgpt.stdout, chatgpt.stdout
    # Not https, and not this machine: the hosts could not reach it.
    refused = subprocess.run([str(BINARY), "setup", "claude-ai", "--url", "http://desk.example.com"],
                             capture_output=True, text=True)
    assert refused.returncode == 1 and "must be https" in refused.stderr, refused.stderr
    missing = subprocess.run([str(BINARY), "setup", "chatgpt"], capture_output=True, text=True)
    assert missing.returncode == 1 and "needs --url" in missing.stderr, missing.stderr
