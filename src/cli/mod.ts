/** The command line: parse, build, dispatch. */
export { runCli } from "./main.ts";
export { CLI_OPTIONS, usageText } from "./cli_options.ts";
