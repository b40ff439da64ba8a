/** A reason one tool file was rejected, with where in the file it is. */
export interface ToolFileProblem {
  path: string;
  line: number;
  column: number;
  reason: string;
}

/** Formats a problem the way compilers do: `path:line:col: reason`. */
export function formatProblem(problem: ToolFileProblem): string {
  return `${problem.path}:${problem.line}:${problem.column}: ${problem.reason}`;
}
