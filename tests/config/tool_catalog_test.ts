import assert from "node:assert/strict";
import { basename, join } from "node:path";
import {
  formatProblem,
  loadToolCatalog,
  readToolDirectory,
  type ToolFileProblem,
} from "../../src/config/mod.ts";
import { BROKEN_TOOLS, FIXTURE_TOOLS } from "../harness/repository.ts";
import { makeTempWorkspace } from "../harness/temp_workspace.ts";

/** Each broken fixture: where its one flaw is, and what the reason must say. */
const BROKEN_CASES: Record<string, { line: number; column: number; reason: RegExp }> = {
  "array_without_items.json": { line: 9, column: 9, reason: /items/ },
  "bad_json_syntax.json": { line: 5, column: 3, reason: /invalid JSON \(comma expected\)/ },
  "duplicate_subcommand.json": { line: 8, column: 7, reason: /"status" is defined twice/ },
  "missing_command.json": { line: 1, column: 1, reason: /required property 'command'/ },
  "subcommand_and_sequence.json": { line: 7, column: 7, reason: /both "subcommand" and "seq/ },
  "underscore_in_subcommand.json": { line: 7, column: 7, reason: /"log_all" contains "_"/ },
  "unknown_field.json": { line: 9, column: 49, reason: /unknown field "descripton"/ },
  "unknown_sequence_step.json": { line: 7, column: 5, reason: /unknown tool "no-such-tool"/ },
  "unknown_value_type.json": { line: 9, column: 28, reason: /must be one of "string", "bool/ },
  "wrong_type.json": { line: 5, column: 3, reason: /"\/timeout_seconds" must be number/ },
};

function source(path: string, text: string): { path: string; text: string } {
  return { path, text };
}

function problemsOf(text: string, path = "inline.jsonc"): ToolFileProblem[] {
  return loadToolCatalog([source(path, text)]).problems;
}

Deno.test("loadToolCatalog() reads JSONC with comments and trailing commas", () => {
  const catalog = loadToolCatalog([source(
    "commented.jsonc",
    `// a tool file with comments
{
  /* the name */ "name": "commented",
  "description": "JSONC", // trailing comment
  "command": "true",
  "subcommand": [{ "name": "default", },],
}`,
  )]);
  assert.deepEqual(catalog.problems, []);
  assert.equal(catalog.fileCount, 1);
  assert.equal(catalog.files[0]?.name, "commented");
  assert.equal(catalog.files[0]?.tool.subcommand?.[0]?.name, "default");
});

Deno.test("loadToolCatalog() names a tool after its command when it has no name", () => {
  const catalog = loadToolCatalog([source("x.json", `{ "description": "d", "command": "ls" }`)]);
  assert.equal(catalog.files[0]?.name, "ls");
});

Deno.test("readToolDirectory() reads .json and .jsonc files sorted by name, nothing else", async () => {
  await using workspace = await makeTempWorkspace();
  const tool = (name: string) => `{ "name": "${name}", "description": "d", "command": "true" }`;
  await Deno.writeTextFile(join(workspace.path, "b.jsonc"), tool("b"));
  await Deno.writeTextFile(join(workspace.path, "a.json"), tool("a"));
  await Deno.writeTextFile(join(workspace.path, "notes.txt"), "not a tool");
  await Deno.mkdir(join(workspace.path, "dir.json"));
  const sources = await readToolDirectory(workspace.path);
  assert.deepEqual(sources.map((s) => basename(s.path)), ["a.json", "b.jsonc"]);
  assert.equal(sources[0]?.path, join(workspace.path, "a.json"));
  assert.equal(sources[0]?.text, tool("a"));
});

for (const [file, expected] of Object.entries(BROKEN_CASES)) {
  Deno.test(`loadToolCatalog() rejects broken_tools/${file} at line ${expected.line}`, async () => {
    const path = join(BROKEN_TOOLS, file);
    const catalog = loadToolCatalog([
      ...await readToolDirectory(FIXTURE_TOOLS),
      source(path, await Deno.readTextFile(path)),
    ]);
    assert.equal(catalog.problems.length, 1, catalog.problems.map(formatProblem).join("\n"));
    const [problem] = catalog.problems;
    assert.ok(problem);
    assert.equal(problem.path, path);
    assert.equal(problem.line, expected.line);
    assert.equal(problem.column, expected.column);
    assert.match(problem.reason, expected.reason);
    assert.ok(!catalog.files.some((loaded) => loaded.path === path));
  });
}

Deno.test("broken_tools/ holds only files with a case in this suite", async () => {
  const names = (await readToolDirectory(BROKEN_TOOLS)).map((s) => basename(s.path));
  assert.deepEqual(names, Object.keys(BROKEN_CASES).sort());
});

Deno.test("loadToolCatalog() loads the good files beside the bad ones", async () => {
  const good = await readToolDirectory(FIXTURE_TOOLS);
  const bad = await readToolDirectory(BROKEN_TOOLS);
  const catalog = loadToolCatalog([...bad, ...good].sort((a, b) => a.path.localeCompare(b.path)));
  assert.equal(catalog.fileCount, good.length + bad.length);
  assert.deepEqual(
    catalog.files.map((file) => file.path).sort(),
    good.map((s) => s.path).sort(),
  );
  assert.deepEqual(
    [...new Set(catalog.problems.map((problem) => problem.path))].sort(),
    bad.map((s) => s.path).sort(),
  );
});

Deno.test("loadToolCatalog() rejects the later of two files with the same tool name", async () => {
  await using workspace = await makeTempWorkspace();
  await Deno.writeTextFile(
    join(workspace.path, "a_first.json"),
    `{ "name": "dup", "description": "first", "command": "true" }`,
  );
  await Deno.writeTextFile(
    join(workspace.path, "b_second.json"),
    `{
  "description": "second",
  "name": "dup",
  "command": "false"
}`,
  );
  const catalog = loadToolCatalog(await readToolDirectory(workspace.path));
  assert.deepEqual(catalog.files.map((file) => file.tool.description), ["first"]);
  assert.deepEqual(catalog.problems, [{
    path: join(workspace.path, "b_second.json"),
    line: 3,
    column: 3,
    reason: `tool "dup" is already defined in "${
      join(workspace.path, "a_first.json")
    }"; rename one`,
  }]);
});

Deno.test("loadToolCatalog() counts a tool named after its command as a duplicate too", () => {
  const catalog = loadToolCatalog([
    source("one.json", `{ "name": "ls", "description": "d", "command": "true" }`),
    source("two.json", `{\n  "description": "d",\n  "command": "ls"\n}`),
  ]);
  assert.deepEqual(catalog.files.map((file) => file.path), ["one.json"]);
  assert.equal(catalog.problems[0]?.path, "two.json");
  assert.equal(catalog.problems[0]?.line, 3);
  assert.match(catalog.problems[0]?.reason ?? "", /tool "ls" is already defined in "one.json"/);
});

const ECHO_TOOL = `{
  "name": "show",
  "description": "d",
  "command": "echo",
  "subcommand": [
    { "name": "one" },
    { "name": "group", "subcommand": [{ "name": "inner" }] }
  ]
}`;

Deno.test("loadToolCatalog() accepts sequence steps naming loaded tools, in any file order", () => {
  const catalog = loadToolCatalog([
    source(
      "a_sequence.json",
      `{
  "name": "both",
  "description": "d",
  "command": "sequence",
  "sequence": [
    { "tool": "show", "subcommand": "one" },
    { "tool": "show", "subcommand": "group_inner" },
    { "tool": "bare" }
  ]
}`,
    ),
    source("b_show.json", ECHO_TOOL),
    source("c_bare.json", `{ "name": "bare", "description": "d", "command": "true" }`),
  ]);
  assert.deepEqual(catalog.problems, []);
  assert.deepEqual(catalog.files.map((file) => file.name), ["both", "show", "bare"]);
});

Deno.test("loadToolCatalog() rejects a subcommand-level step naming an unknown subcommand", () => {
  const catalog = loadToolCatalog([
    source("show.json", ECHO_TOOL),
    source(
      "check.json",
      `{
  "name": "check",
  "description": "d",
  "command": "echo",
  "subcommand": [
    {
      "name": "all",
      "sequence": [
        { "tool": "show", "subcommand": "one" },
        { "tool": "show", "subcommand": "missing" }
      ]
    }
  ]
}`,
    ),
  ]);
  assert.deepEqual(catalog.files.map((file) => file.name), ["show"]);
  assert.deepEqual(catalog.problems.map(formatProblem), [
    'check.json:10:9: sequence step names unknown tool "show" subcommand "missing"; define it or fix the step',
  ]);
});

Deno.test("loadToolCatalog() rejects a step naming a group rather than a leaf", () => {
  const problems = loadToolCatalog([
    source("show.json", ECHO_TOOL),
    source(
      "seq.json",
      `{ "name": "s", "description": "d", "command": "sequence",
  "sequence": [{ "tool": "show", "subcommand": "group" }] }`,
    ),
  ]).problems;
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.line, 2);
  assert.match(problems[0]?.reason ?? "", /unknown tool "show" subcommand "group"/);
});

Deno.test("loadToolCatalog() rejects a bare step naming a tool that has subcommands", () => {
  const problems = loadToolCatalog([
    source("show.json", ECHO_TOOL),
    source(
      "seq.json",
      `{ "name": "s", "description": "d", "command": "sequence", "sequence": [{ "tool": "show" }] }`,
    ),
  ]).problems;
  assert.equal(problems.length, 1);
  assert.match(problems[0]?.reason ?? "", /unknown tool "show";/);
});

Deno.test("loadToolCatalog() accepts a bare step naming a tool with a lone default", () => {
  const problems = loadToolCatalog([
    source(
      "lone.json",
      `{ "name": "lone", "description": "d", "command": "true", "subcommand": [{ "name": "default" }] }`,
    ),
    source(
      "seq.json",
      `{ "name": "s", "description": "d", "command": "sequence", "sequence": [{ "tool": "lone" }] }`,
    ),
  ]).problems;
  assert.deepEqual(problems, []);
});

Deno.test("loadToolCatalog() rejects a sequence whose step names a tool rejected for its steps", () => {
  const catalog = loadToolCatalog([
    source(
      "outer.json",
      `{ "name": "outer", "description": "d", "command": "sequence", "sequence": [{ "tool": "inner" }] }`,
    ),
    source(
      "inner.json",
      `{ "name": "inner", "description": "d", "command": "sequence", "sequence": [{ "tool": "gone" }] }`,
    ),
  ]);
  assert.deepEqual(catalog.files, []);
  assert.deepEqual(catalog.problems.map((problem) => problem.path).sort(), [
    "inner.json",
    "outer.json",
  ]);
});

Deno.test("loadToolCatalog() reports every schema problem of one file, each at its line", () => {
  const problems = problemsOf(`{
  "description": "d",
  "command": "true",
  "enabled": "yes",
  "colour": "red"
}`);
  assert.deepEqual(problems.map(formatProblem).sort(), [
    'inline.jsonc:4:3: "/enabled" must be boolean; fix it (the format is in schemas/mtdf.schema.json)',
    'inline.jsonc:5:3: the file has unknown field "colour"; remove or rename it',
  ]);
});

Deno.test("loadToolCatalog() locates an underscore in a nested subcommand", () => {
  const problems = problemsOf(`{
  "description": "d",
  "command": "cargo",
  "subcommand": [
    {
      "name": "build",
      "subcommand": [
        { "name": "all_targets" }
      ]
    }
  ]
}`);
  assert.deepEqual(problems.map(formatProblem), [
    'inline.jsonc:8:11: subcommand "all_targets" contains "_"; rename it (use "-")',
  ]);
});

Deno.test("loadToolCatalog() locates a syntax error on a later line after a CRLF file's lines", () => {
  const problems = problemsOf('{\r\n  "description": "d",\r\n  "command": "true",,\r\n}');
  assert.equal(problems.length, 1);
  assert.equal(problems[0]?.line, 3);
  assert.match(problems[0]?.reason ?? "", /invalid JSON/);
});

Deno.test("loadToolCatalog() rejects an empty file and a file that is not an object", () => {
  assert.equal(problemsOf("").length, 1);
  assert.match(problemsOf("[]")[0]?.reason ?? "", /the file must be object/);
});

Deno.test("formatProblem() writes path:line:col: reason", () => {
  assert.equal(
    formatProblem({ path: "tools/git.jsonc", line: 12, column: 7, reason: "it is wrong; fix it" }),
    "tools/git.jsonc:12:7: it is wrong; fix it",
  );
});

Deno.test("loadToolCatalog() rejects sequences that call each other in a cycle", () => {
  const catalog = loadToolCatalog([
    source(
      "ping.json",
      `{ "name": "ping", "description": "d", "command": "sequence", "sequence": [{ "tool": "pong" }] }`,
    ),
    source(
      "pong.json",
      `{ "name": "pong", "description": "d", "command": "sequence", "sequence": [{ "tool": "ping" }] }`,
    ),
    source(
      "self.json",
      `{ "name": "self", "description": "d", "command": "x", "subcommand": [
        { "name": "a", "sequence": [{ "tool": "self", "subcommand": "a" }] }] }`,
    ),
  ]);
  assert.deepEqual(catalog.files, []);
  assert.match(
    formatProblem(catalog.problems[0]!),
    /^ping\.json:1:\d+: sequence steps form a cycle \(ping -> pong -> ping\)/,
  );
  assert.ok(
    catalog.problems.some((problem) =>
      problem.path === "self.json" && /cycle/.test(problem.reason)
    ),
  );
});

Deno.test("loadToolCatalog() accepts a sequence of the same tool's other subcommands", () => {
  const catalog = loadToolCatalog([source(
    "make.json",
    `{ "name": "make", "description": "d", "command": "make", "subcommand": [
      { "name": "build" }, { "name": "test" },
      { "name": "all", "sequence": [{ "tool": "make", "subcommand": "build" }, { "tool": "make", "subcommand": "test" }] }] }`,
  )]);
  assert.deepEqual(catalog.problems, []);
});

Deno.test("loadToolCatalog() rejects a step naming a disabled subcommand", () => {
  const catalog = loadToolCatalog([
    source(
      "off.json",
      `{ "name": "off", "description": "d", "command": "off", "subcommand": [{ "name": "run", "enabled": false }, { "name": "on" }] }`,
    ),
    source(
      "seq.json",
      `{ "name": "seq", "description": "d", "command": "sequence", "sequence": [{ "tool": "off", "subcommand": "run" }] }`,
    ),
  ]);
  assert.deepEqual(catalog.files.map((file) => file.name), ["off"]);
  assert.match(catalog.problems[0]?.reason ?? "", /unknown tool "off" subcommand "run"/);
});
