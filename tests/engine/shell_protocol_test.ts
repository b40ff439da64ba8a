import assert from "node:assert/strict";
import {
  commandScript,
  concatBytes,
  FrameParser,
  makeNonce,
  quoteWord,
} from "../../src/engine/shell_protocol.ts";

const encoder = new TextEncoder();

/** Feeds `stream` to a parser in pieces cut at `cuts`; returns the output and status it found. */
function parse(nonce: string, stream: Uint8Array, cuts: number[]) {
  const parser = new FrameParser(nonce);
  const output: Uint8Array[] = [];
  let status: number | undefined;
  let start = 0;
  for (const cut of [...cuts, stream.length]) {
    const progress = parser.push(stream.subarray(start, cut));
    output.push(progress.output);
    status ??= progress.status;
    start = cut;
  }
  return { output: concatBytes(output), status, done: parser.done };
}

Deno.test("makeNonce() returns 32 fresh hex digits", () => {
  const [a, b] = [makeNonce(), makeNonce()];
  assert.match(a, /^[0-9a-f]{32}$/);
  assert.notEqual(a, b);
});

Deno.test("FrameParser finds output and status exactly, however the stream is cut", () => {
  const nonce = makeNonce();
  const body = concatBytes([
    encoder.encode(`${nonce.slice(0, 5)} ${nonce}:begin\n:end: no newline `),
    Uint8Array.from({ length: 256 }, (_, i) => i),
    encoder.encode(nonce.slice(0, 31)),
  ]);
  const stream = concatBytes([
    encoder.encode(`late bytes of the last command ${nonce.slice(0, 9)}`),
    encoder.encode(`${nonce}:begin\n`),
    body,
    encoder.encode(`${nonce}:end:42\nbytes after the frame`),
  ]);
  for (let trial = 0; trial < 200; trial++) {
    const cuts = Array.from({ length: trial % 12 }, () => Math.floor(Math.random() * stream.length))
      .sort((a, b) => a - b);
    assert.deepEqual(parse(nonce, stream, cuts), { output: body, status: 42, done: true });
  }
  assert.deepEqual(parse(nonce, stream, [...Array(stream.length).keys()]), {
    output: body,
    status: 42,
    done: true,
  });
});

Deno.test("FrameParser holds back only what may start the end marker", () => {
  const nonce = makeNonce();
  const parser = new FrameParser(nonce);
  parser.push(encoder.encode(`${nonce}:begin\n`));
  assert.deepEqual(parser.push(encoder.encode("a line\n")).output, encoder.encode("a line\n"));
  const held = parser.push(encoder.encode(`x${nonce.slice(0, 4)}`));
  assert.deepEqual(held.output, encoder.encode("x"));
  assert.equal(parser.begun, true);
  assert.equal(parser.done, false);
});

Deno.test("quoteWord() makes sh pass any word through unchanged", async () => {
  const words = ["plain", "it's", "''", "$HOME `id` $(id) \\n", "a\nb", "", "-n", "*", "é"];
  const script = `printf '[%s]' ${words.map(quoteWord).join(" ")}`;
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", script],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(new TextDecoder().decode(stdout), words.map((word) => `[${word}]`).join(""));
});

Deno.test("commandScript() refuses a NUL byte, which no argv can carry", () => {
  assert.throws(() => commandScript(makeNonce(), { argv: ["echo", "a\0b"], cwd: "/" }), TypeError);
});

Deno.test("commandScript() kills the namespace only when asked and only as pid 2", () => {
  const nonce = makeNonce();
  assert.ok(!commandScript(nonce, { argv: ["true"], cwd: "/" }).includes("kill"));
  assert.ok(
    commandScript(nonce, { argv: ["true"], cwd: "/" }, { killNamespace: true })
      .includes('[ "$$" = 2 ] && kill -s KILL -- -1'),
  );
});

Deno.test("commandScript() evaluates `sh -c SCRIPT` in the subshell instead of starting sh", () => {
  const script = commandScript("n0nce", { argv: ["sh", "-c", "echo 'a b'; exit 3"], cwd: "/w" });
  assert.match(script, /\( cd -- '\/w' \|\| exit; eval 'echo '\\''a b'\\''; exit 3' \)/);
  const plain = commandScript("n0nce", { argv: ["sh", "-c", "echo $0", "name"], cwd: "/w" });
  assert.match(plain, /'sh' '-c' 'echo \$0' 'name'/);
});
