import assert from "node:assert/strict";
import { formatProblem, loadToolCatalog } from "../../src/config/mod.ts";
import { buildArgv, buildToolSpecs, type CommandToolSpec } from "../../src/engine/mod.ts";

/** Loads one tool file from its text the way startup does and returns its command tool. */
function commandSpec(text: string, name: string): CommandToolSpec {
  const catalog = loadToolCatalog([{ path: "inline.json", text }]);
  assert.deepEqual(catalog.problems.map(formatProblem), []);
  const spec = buildToolSpecs(catalog.files).find((tool) => tool.name === name);
  assert.ok(spec, `no tool "${name}"`);
  assert.equal(spec.kind, "command");
  return spec;
}

const PRINTER = commandSpec(
  `{
  "name": "p",
  "description": "every kind of argument",
  "command": "printer",
  "subcommand": [
    {
      "name": "print",
      "options": [
        { "name": "title", "type": "string" },
        { "name": "verbose", "type": "boolean" },
        { "name": "copies", "type": "integer" },
        { "name": "scale", "type": "number" },
        { "name": "tag", "type": "array", "items": { "type": "string" } },
        { "name": "size", "type": "array", "items": { "type": "integer" } },
        { "name": "colour", "type": "string", "enum": ["red", "blue"] },
        { "name": "max-count", "type": "integer", "alias": "n" },
        { "name": "quiet", "type": "boolean", "alias": "q" },
        { "name": "output", "type": "string", "alias": "-o" },
        { "name": "-c", "type": "string" },
        { "name": "--no-verify", "type": "boolean" }
      ],
      "positional_args": [
        { "name": "first", "type": "string" },
        { "name": "rest", "type": "array", "items": { "type": "string" } }
      ]
    }
  ]
}`,
  "p_print",
);

Deno.test("buildArgv() starts with the command and the subcommand words", () => {
  assert.deepEqual(buildArgv(PRINTER, {}), ["printer", "print"]);
});

Deno.test("buildArgv() writes a string option as --name value", () => {
  assert.deepEqual(buildArgv(PRINTER, { title: "a b" }), ["printer", "print", "--title", "a b"]);
});

Deno.test("buildArgv() writes a true boolean as a bare flag and a false one not at all", () => {
  assert.deepEqual(buildArgv(PRINTER, { verbose: true }), ["printer", "print", "--verbose"]);
  assert.deepEqual(buildArgv(PRINTER, { verbose: false }), ["printer", "print"]);
});

Deno.test("buildArgv() writes integers and numbers as their decimal text", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { copies: 3, scale: 1.5 }),
    ["printer", "print", "--copies", "3", "--scale", "1.5"],
  );
  assert.deepEqual(buildArgv(PRINTER, { copies: 0 }), ["printer", "print", "--copies", "0"]);
});

Deno.test("buildArgv() repeats an array option per item", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { tag: ["x", "y z"], size: [1, 2] }),
    ["printer", "print", "--tag", "x", "--tag", "y z", "--size", "1", "--size", "2"],
  );
  assert.deepEqual(buildArgv(PRINTER, { tag: [] }), ["printer", "print"]);
});

Deno.test("buildArgv() writes an enum option's value as given", () => {
  assert.deepEqual(buildArgv(PRINTER, { colour: "blue" }), [
    "printer",
    "print",
    "--colour",
    "blue",
  ]);
});

Deno.test("buildArgv() writes an alias as -alias, or as given when it starts with -", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { "max-count": 5, quiet: true, output: "out.txt" }),
    ["printer", "print", "-n", "5", "-q", "-o", "out.txt"],
  );
});

Deno.test("buildArgv() uses an option name starting with - as given, keyed without dashes", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { c: "echo hi", "no-verify": true }),
    ["printer", "print", "-c", "echo hi", "--no-verify"],
  );
});

Deno.test("buildArgv() writes options in definition order, not argument order", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { colour: "red", title: "t", verbose: true }),
    ["printer", "print", "--title", "t", "--verbose", "--colour", "red"],
  );
});

Deno.test("buildArgv() puts positional args after the options by default", () => {
  assert.deepEqual(
    buildArgv(PRINTER, { rest: ["b", "c"], first: "a", verbose: true }),
    ["printer", "print", "--verbose", "a", "b", "c"],
  );
});

Deno.test("buildArgv() passes shell metacharacters as one literal word", () => {
  const value = "; rm -rf / | cat $(id) `id` > x < y * 'q' \"d\"\nline";
  assert.deepEqual(buildArgv(PRINTER, { first: value }), ["printer", "print", value]);
});

Deno.test("buildArgv() puts positional args first when positional_args_first is set", () => {
  const spec = commandSpec(
    `{
  "name": "f",
  "description": "d",
  "command": "find",
  "subcommand": [{
    "name": "default",
    "positional_args_first": true,
    "positional_args": [{ "name": "where", "type": "string" }],
    "options": [{ "name": "-name", "type": "string" }, { "name": "-print", "type": "boolean" }]
  }]
}`,
    "f",
  );
  assert.deepEqual(
    buildArgv(spec, { "print": true, name: "*.ts", where: "src" }),
    ["find", "src", "-name", "*.ts", "-print"],
  );
});

const PASSTHROUGH = `{
  "name": "r",
  "description": "d",
  "command": "runner",
  "subcommand": [
    {
      "name": "run",
      "passthrough": true,
      "options": [{ "name": "release", "type": "boolean" }],
      "positional_args": [{ "name": "target", "type": "string" }]
    },
    { "name": "plain", "options": [{ "name": "release", "type": "boolean" }] }
  ]
}`;

Deno.test("buildArgv() appends passthrough args after a final --", () => {
  const spec = commandSpec(PASSTHROUGH, "r_run");
  assert.deepEqual(
    buildArgv(spec, { args: ["--flag", "x y"], release: true, target: "t" }),
    ["runner", "run", "--release", "t", "--", "--flag", "x y"],
  );
  assert.deepEqual(buildArgv(spec, { args: [] }), ["runner", "run"]);
});

Deno.test("buildArgv() ignores args where passthrough is not enabled", () => {
  const spec = commandSpec(PASSTHROUGH, "r_plain");
  assert.equal(spec.passthrough, false);
  assert.deepEqual(buildArgv(spec, { args: ["--evil"] }), ["runner", "plain"]);
});

Deno.test("buildArgv() never passes the meta-parameters to the command", () => {
  const meta = { working_directory: "sub", execution_mode: "async", timeout_seconds: 5 };
  assert.deepEqual(buildArgv(PRINTER, meta), ["printer", "print"]);
  assert.deepEqual(
    buildArgv(commandSpec(PASSTHROUGH, "r_run"), { ...meta, target: "t" }),
    ["runner", "run", "t"],
  );
});

Deno.test("buildArgv() joins nested subcommand levels as separate words", () => {
  const spec = commandSpec(
    `{ "name": "g", "description": "d", "command": "git", "subcommand": [
  { "name": "remote", "subcommand": [{ "name": "add", "positional_args": [
    { "name": "name", "type": "string" }, { "name": "url", "type": "string" }
  ] }] }
] }`,
    "g_remote_add",
  );
  assert.deepEqual(
    buildArgv(spec, { url: "https://x", name: "origin" }),
    ["git", "remote", "add", "origin", "https://x"],
  );
});

Deno.test("buildArgv() gives a lone default subcommand no word of its own", () => {
  const spec = commandSpec(
    `{ "name": "l", "description": "d", "command": "ls",
  "subcommand": [{ "name": "default", "options": [{ "name": "all", "type": "boolean", "alias": "a" }] }] }`,
    "l",
  );
  assert.deepEqual(buildArgv(spec, { all: true }), ["ls", "-a"]);
});
