import { fileURLToPath } from "node:url";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  ListRootsResultSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** Milliseconds a client has to answer `roots/list`. */
export const ROOTS_TIMEOUT_MS = 10_000;

interface Question {
  resolve(root: string): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Asks a client for its roots (`roots/list`) and turns the answer into the first root's path.
 * The question rides on the stream of a request the client is waiting on, so it arrives even
 * before the client opens its standalone SSE stream.
 */
export class RootRequester {
  readonly #send: (message: JSONRPCMessage, relatedRequestId: RequestId) => void;
  readonly #questions = new Map<string, Question>();
  readonly #timeoutMs: number;
  #next = 1;

  constructor(
    send: (message: JSONRPCMessage, relatedRequestId: RequestId) => void,
    options: { timeoutMs?: number } = {},
  ) {
    this.#send = send;
    this.#timeoutMs = options.timeoutMs ?? ROOTS_TIMEOUT_MS;
  }

  /** True while a question is unanswered. */
  get asking(): boolean {
    return this.#questions.size > 0;
  }

  /** Asks for the roots alongside request `related`; resolves with the first root's path. */
  firstRoot(related: RequestId): Promise<string> {
    // A string id with a prefix: it cannot collide with the numeric ids of the child's requests.
    const id = `ahma-roots-${this.#next++}`;
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#questions.delete(id);
        reject(
          new Error(
            `Cannot fix the session's root: the client did not answer roots/list within ${
              this.#timeoutMs / 1000
            } s; answer roots/list requests`,
          ),
        );
      }, this.#timeoutMs);
      this.#questions.set(id, { resolve, reject, timer });
    });
    this.#send({ jsonrpc: "2.0", id, method: "roots/list" }, related);
    return answer;
  }

  /** Takes a client response if it answers a question; returns whether it did. */
  answer(message: JSONRPCMessage): boolean {
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return false;
    const key = String(message.id);
    const question = this.#questions.get(key);
    if (!question) return false;
    this.#questions.delete(key);
    clearTimeout(question.timer);
    if (isJSONRPCErrorResponse(message)) {
      question.reject(
        new Error(
          `Cannot fix the session's root: the client refused roots/list (${message.error.message}); let it list its workspace`,
        ),
      );
      return true;
    }
    try {
      question.resolve(firstRootPath(message.result));
    } catch (error) {
      question.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return true;
  }

  /** Abandons unanswered questions. */
  close(): void {
    for (const question of this.#questions.values()) {
      clearTimeout(question.timer);
      question.reject(new Error("Session closed"));
    }
    this.#questions.clear();
  }
}

function firstRootPath(result: unknown): string {
  const parsed = ListRootsResultSchema.safeParse(result);
  if (!parsed.success) {
    throw new TypeError(
      "Cannot fix the session's root: the roots/list answer is malformed; send { roots: [...] }",
    );
  }
  const first = parsed.data.roots[0];
  if (!first) {
    throw new RangeError(
      "Cannot fix the session's root: the client listed no roots; open a workspace folder first",
    );
  }
  if (!first.uri.startsWith("file:")) {
    throw new RangeError(
      `Cannot fix the session's root: "${first.uri}" is not a file: URI; list a local folder`,
    );
  }
  return fileURLToPath(first.uri);
}
