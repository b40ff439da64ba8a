import { MTDF_SCHEMA } from "../config/mod.ts";
import type { CliArguments } from "./cli_options.ts";
import type { Logger } from "./logger.ts";

/** The generated schema file's exact text. */
export function schemaText(): string {
  return `${JSON.stringify(MTDF_SCHEMA, null, 2)}\n`;
}

/**
 * `ahma schema [OUT]` writes the MTDF JSON Schema to OUT (or stdout); with `--check`, returns 1
 * when OUT differs from what would be written.
 */
export async function schemaCommand(cli: CliArguments, logger: Logger): Promise<number> {
  const [out] = cli.rest;
  const text = schemaText();
  if (cli.check) {
    if (!out) {
      throw new TypeError(
        'Cannot check the schema: name the file, as in "ahma schema --check schemas/mtdf.schema.json"',
      );
    }
    const current = await Deno.readTextFile(out).catch(() => "");
    if (current === text) return 0;
    logger.error(`${out} is stale; regenerate it with "deno task schema"`);
    return 1;
  }
  if (out) await Deno.writeTextFile(out, text);
  else await Deno.stdout.write(new TextEncoder().encode(text));
  return 0;
}
