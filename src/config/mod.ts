/** Loading and checking MTDF tool files. */
export type {
  MtdfAnnotations,
  MtdfArgument,
  MtdfItems,
  MtdfStep,
  MtdfSubcommand,
  MtdfTool,
  MtdfValueType,
} from "./mtdf_types.ts";
export { MTDF_SCHEMA, MTDF_SCHEMA_PATH } from "./mtdf_schema.ts";
export { formatProblem, type ToolFileProblem } from "./tool_file_problem.ts";
export type { ParsedToolFile } from "./tool_file_validator.ts";
export {
  loadToolCatalog,
  readToolDirectory,
  type ToolCatalog,
  type ToolSource,
} from "./tool_catalog.ts";
export { BUNDLED_TOOL_FILES, bundledToolSources } from "./bundled_catalog.ts";
