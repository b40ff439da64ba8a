import {
  findNodeAtLocation,
  getNodeValue,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";

/** A file that cannot be parsed as JSONC; carries where the problem is. */
export class ToolFileSyntaxError extends SyntaxError {
  override name = "ToolFileSyntaxError";
  constructor(
    readonly path: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${path}:${line}:${column}: ${reason}`);
  }
}

/** A parsed JSONC file that can map a JSON pointer back to a line and column. */
export class JsoncDocument {
  readonly value: unknown;
  readonly #text: string;
  readonly #tree: Node | undefined;

  constructor(readonly path: string, text: string) {
    const errors: ParseError[] = [];
    this.#text = text;
    this.#tree = parseTree(text, errors, { allowTrailingComma: true });
    const first = errors[0];
    if (first !== undefined) {
      const { line, column } = this.positionOf(first.offset);
      throw new ToolFileSyntaxError(path, line, column, describeParseError(first));
    }
    this.value = this.#tree === undefined ? undefined : getNodeValue(this.#tree);
  }

  /** Line and column (1-based) of a character offset. */
  positionOf(offset: number): { line: number; column: number } {
    const before = this.#text.slice(0, offset).split("\n");
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
  }

  /** Line and column of the value at a JSON pointer such as `/subcommand/0/name`. */
  locate(pointer: string): { line: number; column: number } {
    const segments = pointer.split("/").slice(1).map(decodePointerSegment);
    for (let depth = segments.length; depth >= 0; depth--) {
      const node = this.#tree && findNodeAtLocation(this.#tree, segments.slice(0, depth));
      if (node) {
        return this.positionOf(node.parent?.type === "property" ? node.parent.offset : node.offset);
      }
    }
    return { line: 1, column: 1 };
  }
}

function decodePointerSegment(segment: string): string | number {
  const text = segment.replaceAll("~1", "/").replaceAll("~0", "~");
  return /^\d+$/.test(text) ? Number(text) : text;
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  return `invalid JSON (${code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()}); fix the syntax`;
}
