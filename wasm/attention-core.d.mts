// Type of the module that em++ generates (web/src/engine/generated/attention-core.mjs); the build
// copies this file beside it.
export interface CoreOptions {
  wasmBinary?: ArrayBufferView | ArrayBuffer;
  locateFile?: (path: string, prefix: string) => string;
}

export default function createAttentionCore(options?: CoreOptions): Promise<any>;
