// Type of the module that em++ generates (web/src/engine/generated/attention-core.mjs); the build
// copies this file beside it.
export interface CoreOptions {
  wasmBinary?: ArrayBufferView | ArrayBuffer;
  locateFile?: (path: string, prefix: string) => string;
  // Instantiates the module itself: calls receive later and returns {} (Emscripten's contract).
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
}

export default function createAttentionCore(options?: CoreOptions): Promise<any>;
