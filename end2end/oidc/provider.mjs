// A real OpenID provider for the sign-in tests: panva's certified
// `oidc-provider`, on a loopback port of its own, with one client (askdesk)
// and its own login page (devInteractions: any login name signs in as that
// account, with any password).
//
// The accounts are named for what their ID token carries:
//   NAME             email NAME@askdesk.test, verified
//   unverified-NAME  email NAME@askdesk.test, not verified
//   expired-NAME     email NAME@askdesk.test, verified, in a token the
//                    provider signs with its own key but dated an hour ago
//   tampered-NAME    its own email in a token the provider signs, whose
//                    payload is then changed to NAME@askdesk.test without
//                    signing it again
// A relying party that skipped a check would let NAME in with the last two,
// so a test that sees them refused knows the check is made.
//
// Environment: REDIRECT_URI (the client's one), CLIENT_ID, CLIENT_SECRET.
// Prints `oidc provider at ISSUER` once it serves.

import http from "node:http";
import Provider from "oidc-provider";
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair } from "jose";

const { REDIRECT_URI, CLIENT_ID, CLIENT_SECRET } = process.env;
if (!REDIRECT_URI || !CLIENT_ID || !CLIENT_SECRET) {
  console.error("provider.mjs needs REDIRECT_URI, CLIENT_ID and CLIENT_SECRET");
  process.exit(2);
}

const DOMAIN = "askdesk.test";
const KID = "askdesk-e2e";
const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: KID, alg: "RS256", use: "sig" };

/** What a login name says: its kind (undefined for a plain NAME) and NAME. */
function account(id) {
  const [, kind, name] = /^(?:(unverified|expired|tampered)-)?(.+)$/.exec(id);
  return { kind, name };
}

/** The claims of the account a login name signs in as. */
function claimsOf(id) {
  const { kind, name } = account(id);
  return {
    sub: id,
    email: kind === "tampered" ? `${id}@${DOMAIN}` : `${name}@${DOMAIN}`,
    email_verified: kind !== "unverified",
  };
}

const base64url = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The ID token as the account's kind has it sent. */
async function spoiled(idToken) {
  const claims = decodeJwt(idToken);
  const { kind, name } = account(String(claims.sub));
  if (kind === "expired") {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...claims, iat: now - 7200, exp: now - 3600 })
      .setProtectedHeader(decodeProtectedHeader(idToken))
      .sign(privateKey);
  }
  if (kind === "tampered") {
    const [header, , signature] = idToken.split(".");
    return [header, base64url({ ...claims, email: `${name}@${DOMAIN}` }), signature].join(".");
  }
  return idToken;
}

const server = http.createServer();
await new Promise((listening) => server.listen(0, "127.0.0.1", listening));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [{
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    redirect_uris: [REDIRECT_URI],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  }],
  jwks: { keys: [signingKey] },
  claims: { openid: ["sub"], email: ["email", "email_verified"] },
  // The default configuration otherwise: in the code flow the ID token
  // carries only `sub`, and the email's claims come from UserInfo
  // (OpenID Connect Core 5.4), which askdesk must ask.
  pkce: { required: () => true },
  findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => claimsOf(id) }),
});

provider.use(async (ctx, next) => {
  await next();
  if (ctx.path === "/token" && ctx.status === 200 && ctx.body?.id_token) {
    ctx.body = { ...ctx.body, id_token: await spoiled(ctx.body.id_token) };
  }
});

server.on("request", provider.callback());
console.log(`oidc provider at ${issuer}`);
