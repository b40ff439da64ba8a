import assert from "node:assert/strict";
import { guardRequest, isLoopbackHost } from "../../src/transport/mod.ts";

function request(headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:3000/mcp", { headers });
}

Deno.test("isLoopbackHost() accepts localhost, 127.0.0.0/8 and ::1 only", () => {
  for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (
    const host of ["0.0.0.0", "10.0.0.1", "evil.example.com", "localhost.evil.com", "128.0.0.1"]
  ) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

Deno.test("guardRequest() refuses a Host naming another machine with 403", async () => {
  const refused = guardRequest(request({ host: "evil.example.com" }));
  assert.equal(refused?.status, 403);
  assert.match((await refused?.json()).error.message, /Host header "evil.example.com"/);
  assert.equal(guardRequest(request({ host: "localhost:3000" })), undefined);
  assert.equal(guardRequest(request({ host: "[::1]:3000" })), undefined);
  assert.equal(guardRequest(request({ host: "10.0.0.5:3000" }), { allowAnyHost: true }), undefined);
});

Deno.test("guardRequest() lets only local pages or the asked host be the Origin", () => {
  const host = { host: "127.0.0.1:3000" };
  assert.equal(guardRequest(request({ ...host, origin: "http://localhost:5173" })), undefined);
  for (const origin of ["http://evil.example.com", "null", "file://", "chrome-extension://x"]) {
    assert.equal(guardRequest(request({ ...host, origin }))?.status, 403, origin);
  }
  const remote = { host: "box.lan:3000", origin: "http://box.lan:8080" };
  assert.equal(guardRequest(request(remote), { allowAnyHost: true }), undefined);
});

Deno.test("guardRequest() with a token wants exactly `Authorization: Bearer TOKEN` (401)", () => {
  const options = { authToken: "t0ken" };
  const host = { host: "localhost" };
  for (const authorization of [undefined, "Bearer t0ke", "Bearer t0ken2", "Basic t0ken", "t0ken"]) {
    const headers = authorization ? { ...host, authorization } : host;
    const refused = guardRequest(request(headers), options);
    assert.equal(refused?.status, 401, authorization);
    assert.match(refused?.headers.get("www-authenticate") ?? "", /^Bearer/);
  }
  assert.equal(
    guardRequest(request({ ...host, authorization: "Bearer t0ken" }), options),
    undefined,
  );
  assert.equal(
    guardRequest(request({ ...host, authorization: "bearer  t0ken" }), options),
    undefined,
  );
});

Deno.test("guardRequest() answers a rebinding attempt with 403 even without the token", () => {
  const refused = guardRequest(request({ host: "evil.example.com" }), { authToken: "t0ken" });
  assert.equal(refused?.status, 403);
});
