import assert from "node:assert/strict";
import { formatProblem, loadToolCatalog } from "../../src/config/mod.ts";
import {
  buildToolSpecs,
  dropNameCollisions,
  META_PARAMETERS,
  type ToolSpec,
} from "../../src/engine/mod.ts";

/** Builds the tools of inline tool files the way startup does. */
function specsOf(...texts: string[]): ToolSpec[] {
  const catalog = loadToolCatalog(texts.map((text, i) => ({ path: `tool${i}.json`, text })));
  assert.deepEqual(catalog.problems.map(formatProblem), []);
  return buildToolSpecs(catalog.files);
}

function byName(specs: ToolSpec[], name: string): ToolSpec {
  const spec = specs.find((tool) => tool.name === name);
  assert.ok(spec, `no tool "${name}" in ${specs.map((s) => s.name).join(", ")}`);
  return spec;
}

const GIT = `{
  "name": "git",
  "description": "Git",
  "command": "git",
  "timeout_seconds": 600,
  "force_synchronous": true,
  "annotations": { "readOnlyHint": false, "openWorldHint": false },
  "hints": { "default": "plan", "push": "review" },
  "subcommand": [
    { "name": "status", "description": "Status", "annotations": { "readOnlyHint": true } },
    {
      "name": "push",
      "timeout_seconds": 30,
      "force_synchronous": false,
      "annotations": { "destructiveHint": true, "openWorldHint": true }
    },
    { "name": "gc", "enabled": false },
    {
      "name": "remote",
      "timeout_seconds": 60,
      "annotations": { "idempotentHint": true },
      "subcommand": [
        { "name": "add", "force_synchronous": false },
        { "name": "show", "annotations": { "idempotentHint": false, "readOnlyHint": true } },
        { "name": "prune", "enabled": false }
      ]
    }
  ]
}`;

Deno.test("buildToolSpecs() names each leaf {tool}_{subcommand}, nested levels joined by _", () => {
  assert.deepEqual(specsOf(GIT).map((spec) => spec.name), [
    "git_status",
    "git_push",
    "git_remote_add",
    "git_remote_show",
  ]);
});

Deno.test("buildToolSpecs() keeps the subcommand path and the tool name on each spec", () => {
  const spec = byName(specsOf(GIT), "git_remote_add");
  assert.equal(spec.toolName, "git");
  assert.equal(spec.subcommandName, "remote_add");
  assert.equal(spec.sourcePath, "tool0.json");
  assert.equal(spec.kind, "command");
  if (spec.kind === "command") assert.deepEqual(spec.baseArgv, ["git", "remote", "add"]);
});

Deno.test("buildToolSpecs() gives a tool whose only subcommand is default its bare name", () => {
  const specs = specsOf(
    `{ "name": "ls", "description": "List", "command": "ls", "subcommand": [{ "name": "default" }] }`,
  );
  assert.deepEqual(specs.map((spec) => spec.name), ["ls"]);
  assert.equal(specs[0]?.subcommandName, "default");
});

Deno.test("buildToolSpecs() gives a tool with no subcommands its bare name", () => {
  const specs = specsOf(`{ "description": "Print the directory", "command": "pwd" }`);
  assert.deepEqual(specs.map((spec) => spec.name), ["pwd"]);
  assert.equal(specs[0]?.description, "Print the directory");
});

Deno.test("buildToolSpecs() names a default beside other subcommands {tool}_default", () => {
  const specs = specsOf(
    `{ "name": "t", "description": "d", "command": "t",
  "subcommand": [{ "name": "default" }, { "name": "other" }] }`,
  );
  assert.deepEqual(specs.map((spec) => spec.name), ["t_default", "t_other"]);
});

Deno.test("buildToolSpecs() drops disabled subcommands and disabled tools", () => {
  const specs = specsOf(
    GIT,
    `{ "name": "off", "description": "d", "command": "x", "enabled": false }`,
  );
  const names = specs.map((spec) => spec.name);
  assert.ok(!names.includes("git_gc"));
  assert.ok(!names.includes("git_remote_prune"));
  assert.ok(!names.some((name) => name.startsWith("off")));
});

Deno.test("buildToolSpecs() merges annotations down the levels, the subcommand's winning", () => {
  const specs = specsOf(GIT);
  assert.deepEqual(byName(specs, "git_status").annotations, {
    readOnlyHint: true,
    openWorldHint: false,
  });
  assert.deepEqual(byName(specs, "git_push").annotations, {
    readOnlyHint: false,
    destructiveHint: true,
    openWorldHint: true,
  });
  assert.deepEqual(byName(specs, "git_remote_show").annotations, {
    readOnlyHint: true,
    openWorldHint: false,
    idempotentHint: false,
  });
  assert.deepEqual(byName(specs, "git_remote_add").annotations, {
    readOnlyHint: false,
    openWorldHint: false,
    idempotentHint: true,
  });
});

Deno.test("buildToolSpecs() inherits timeout_seconds, the nearest level winning", () => {
  const specs = specsOf(GIT);
  assert.equal(byName(specs, "git_status").timeoutSeconds, 600);
  assert.equal(byName(specs, "git_push").timeoutSeconds, 30);
  assert.equal(byName(specs, "git_remote_add").timeoutSeconds, 60);
  const plain = specsOf(`{ "name": "p", "description": "d", "command": "p" }`);
  assert.equal(plain[0]?.timeoutSeconds, undefined);
});

Deno.test("buildToolSpecs() inherits force_synchronous, the subcommand's winning", () => {
  const specs = specsOf(GIT);
  assert.equal(byName(specs, "git_status").forceSynchronous, true);
  assert.equal(byName(specs, "git_push").forceSynchronous, false);
  assert.equal(byName(specs, "git_remote_add").forceSynchronous, false);
  assert.equal(byName(specs, "git_remote_show").forceSynchronous, true);
});

Deno.test("buildToolSpecs() takes the subcommand's hint, else the tool's default hint", () => {
  const specs = specsOf(GIT);
  assert.equal(byName(specs, "git_push").hint, "review");
  assert.equal(byName(specs, "git_status").hint, "plan");
});

Deno.test("buildToolSpecs() uses the subcommand's description, else the tool's", () => {
  const specs = specsOf(GIT);
  assert.equal(byName(specs, "git_status").description, "Status");
  assert.equal(byName(specs, "git_push").description, "Git");
});

const TYPED = `{
  "name": "typed",
  "description": "d",
  "command": "typed",
  "subcommand": [{
    "name": "default",
    "passthrough": true,
    "options": [
      { "name": "mode", "type": "string", "enum": ["fast", "slow"], "description": "Speed" },
      { "name": "--count", "type": "integer", "required": true },
      { "name": "file", "type": "string", "format": "path", "description": "A file" },
      { "name": "tag", "type": "array", "items": { "type": "string" } }
    ],
    "positional_args": [
      { "name": "paths", "type": "array", "items": { "type": "string", "format": "path" },
        "required": true }
    ]
  }]
}`;

Deno.test("buildToolSpecs() lists required arguments in the inputSchema", () => {
  const { inputSchema } = byName(specsOf(TYPED), "typed");
  assert.equal(inputSchema.type, "object");
  assert.equal(inputSchema.additionalProperties, false);
  assert.deepEqual(inputSchema.required, ["count", "paths"]);
});

Deno.test("buildToolSpecs() writes each argument's type, enum and items in the inputSchema", () => {
  const { properties } = byName(specsOf(TYPED), "typed").inputSchema;
  assert.deepEqual(properties.mode, {
    type: "string",
    description: "Speed",
    enum: ["fast", "slow"],
  });
  assert.deepEqual(properties.count, { type: "integer" });
  assert.deepEqual(properties.tag, { type: "array", items: { type: "string" } });
  assert.equal(properties.paths?.type, "array");
  assert.deepEqual(properties.paths?.items, { type: "string" });
  assert.deepEqual(properties.args, {
    type: "array",
    items: { type: "string" },
    description: "Extra arguments passed through after a final `--`.",
  });
});

Deno.test("buildToolSpecs() says in the inputSchema which arguments are workspace paths", () => {
  const { properties } = byName(specsOf(TYPED), "typed").inputSchema;
  assert.equal(properties.file?.description, "A file (path in the workspace)");
  assert.equal(properties.paths?.description, "(path in the workspace)");
});

Deno.test("buildToolSpecs() adds the meta-parameters to every inputSchema", () => {
  for (const spec of specsOf(GIT, TYPED)) {
    for (const meta of META_PARAMETERS) {
      assert.ok(spec.inputSchema.properties[meta], `${spec.name} lacks ${meta}`);
    }
    assert.ok(!spec.inputSchema.required?.some((name) => META_PARAMETERS.some((m) => m === name)));
  }
  const { properties } = byName(specsOf(TYPED), "typed").inputSchema;
  assert.equal(properties.working_directory?.type, "string");
  assert.deepEqual(properties.execution_mode?.enum, ["sync", "async"]);
  assert.equal(properties.timeout_seconds?.type, "number");
  assert.equal(properties.timeout_seconds?.exclusiveMinimum, 0);
});

Deno.test("buildToolSpecs() leaves required out of an inputSchema with no required argument", () => {
  const { inputSchema } = byName(specsOf(GIT), "git_status");
  assert.equal("required" in inputSchema, false);
  assert.deepEqual(Object.keys(inputSchema.properties), [...META_PARAMETERS]);
});

Deno.test("buildToolSpecs() builds sequences with their steps' tool names and delay", () => {
  const specs = specsOf(
    GIT,
    `{
  "name": "check",
  "description": "d",
  "command": "sequence",
  "step_delay_ms": 250,
  "sequence": [
    { "tool": "git", "subcommand": "status", "args": { "short": true } },
    { "tool": "git", "subcommand": "remote_show" }
  ]
}`,
  );
  const spec = byName(specs, "check");
  assert.equal(spec.kind, "sequence");
  if (spec.kind !== "sequence") return;
  assert.equal(spec.stepDelayMs, 250);
  // Parsed JSONC objects have a null prototype; spreading compares their entries only.
  assert.deepEqual(spec.steps.map((step) => ({ ...step, args: { ...step.args } })), [
    { toolName: "git_status", args: { short: true } },
    { toolName: "git_remote_show", args: {} },
  ]);
  assert.deepEqual(Object.keys(spec.inputSchema.properties), [...META_PARAMETERS]);
});

Deno.test("dropNameCollisions() keeps the first tool of a name and reports the later one", () => {
  const specs = buildToolSpecs(
    loadToolCatalog([
      {
        path: "sh.json",
        text:
          `{ "name": "sh", "description": "d", "command": "sh", "subcommand": [{ "name": "run" }] }`,
      },
      { path: "sh_run.json", text: `{ "name": "sh_run", "description": "d", "command": "sh" }` },
      { path: "await.json", text: `{ "name": "await", "description": "d", "command": "true" }` },
    ]).files,
  );
  const { unique, collisions } = dropNameCollisions(specs, ["await"]);
  assert.deepEqual(unique.map((spec) => [spec.name, spec.sourcePath]), [["sh_run", "sh.json"]]);
  assert.deepEqual(collisions.map((c) => [c.spec.sourcePath, c.takenBy]), [
    ["sh_run.json", "sh.json"],
    ["await.json", "(built in)"],
  ]);
});
