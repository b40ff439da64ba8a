// @ts-types="@modelcontextprotocol/sdk/experimental/tasks"
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { Task } from "@modelcontextprotocol/sdk/types.js";
import type { OperationRegistry } from "../engine/mod.ts";

/**
 * The SDK's in-memory task store, linked to operations: `tasks/cancel` (which the SDK answers
 * by setting the status) also cancels the operation behind the task and kills its processes.
 */
export class OperationTaskStore extends InMemoryTaskStore {
  readonly #operationOfTask = new Map<string, string>();

  constructor(readonly registry: OperationRegistry) {
    super();
  }

  /** Records which operation a task runs. */
  link(taskId: string, operationId: string): void {
    this.#operationOfTask.set(taskId, operationId);
  }

  /** Sets a task's status; cancelling a task cancels its operation. */
  override async updateTaskStatus(
    taskId: string,
    status: Task["status"],
    statusMessage?: string,
    sessionId?: string,
  ): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    const operationId = this.#operationOfTask.get(taskId);
    if (status === "cancelled" && operationId) this.registry.cancel(operationId, "task cancelled");
  }
}
