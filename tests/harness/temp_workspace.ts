/** A temporary directory that removes itself when disposed (`await using`). */
export interface TempWorkspace extends AsyncDisposable {
  /** The directory's real path. */
  path: string;
}

/** Creates a fresh temporary directory for one test. */
export async function makeTempWorkspace(prefix = "ahma_test_"): Promise<TempWorkspace> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix }));
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
