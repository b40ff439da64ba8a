import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ToolSpec } from "./tool_spec.ts";

/** A call argument that does not fit the tool's schema; the message names the field. */
export class InvalidArgumentError extends Error {
  override name = "InvalidArgumentError";
}

/** Checks call arguments against each tool's input schema, compiling each schema once. */
export class ArgumentChecker {
  readonly #ajv = new Ajv({ allErrors: true, strict: false });
  readonly #compiled = new Map<string, ValidateFunction>();

  /** Throws {@linkcode InvalidArgumentError} naming every field that is wrong. */
  check(spec: ToolSpec, args: Record<string, unknown>): void {
    let validate = this.#compiled.get(spec.name);
    if (!validate) {
      validate = this.#ajv.compile(spec.inputSchema);
      this.#compiled.set(spec.name, validate);
    }
    if (validate(args)) return;
    const reasons = (validate.errors ?? []).map(describe);
    throw new InvalidArgumentError(
      `Cannot call "${spec.name}": ${
        [...new Set(reasons)].join("; ")
      }; fix the arguments and call again`,
    );
  }
}

function describe(error: ErrorObject): string {
  const field = error.instancePath.slice(1).replaceAll("/", ".");
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown argument "${String(error.params.additionalProperty)}"`;
    case "required":
      return `missing required argument "${String(error.params.missingProperty)}"`;
    case "enum":
      return `argument "${field}" must be one of ${
        (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")
      }`;
    default:
      return `argument "${field}" ${error.message ?? "is invalid"}`;
  }
}
