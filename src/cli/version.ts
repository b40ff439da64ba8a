import config from "../../deno.json" with { type: "json" };

/** ahma's version, from deno.json. */
export const AHMA_VERSION: string = config.version;
