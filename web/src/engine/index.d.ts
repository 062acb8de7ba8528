// Types of the engine facade. All matrices are row-major Float32Arrays; inputs may also be plain
// arrays of numbers. Every function throws an Error naming the bad argument on bad input.

export type Values = Float32Array | ArrayLike<number>;
export type Flags = Uint8Array | ArrayLike<boolean | number>;

export interface AttentionInput {
  q: Values; // (nq, dk)
  k: Values; // (nk, dk)
  v: Values; // (nk, dv)
  nq: number;
  nk: number;
  dk: number;
  dv: number;
  scale?: boolean; // divide scores by sqrt(dk); default true
  temperature?: number; // softmax temperature > 0; default 1
  causal?: boolean; // query i sees keys 0..i; needs nq === nk
  keyPadding?: Flags | null; // nk flags, true = padded key, never attended
  trace?: boolean; // default true; false returns only weights and output (less to copy)
}

export interface AttentionTrace {
  scores: Float32Array; // (nq, nk) Q K^T
  scaled: Float32Array; // (nq, nk) scores / sqrt(dk), or scores when scale is false
  masked: Float32Array; // (nq, nk) scaled with -Infinity where masked
  weights: Float32Array; // (nq, nk) softmax(masked / temperature); masked entries exactly 0
  output: Float32Array; // (nq, dv) weights V
}

export interface ScoreInput {
  kind: 'additive' | 'dot' | 'general';
  s: Values; // (ds) decoder state
  h: Values; // (n, dh) encoder states
  n: number;
  ds: number;
  dh: number;
  ws?: Values; // additive: (da, ds)
  wh?: Values; // additive: (da, dh)
  v?: Values; // additive: (da)
  da?: number; // additive
  w?: Values; // general: (ds, dh)
}

export interface ScoreResult {
  scores: Float32Array; // (n) e_j
  weights: Float32Array; // (n) softmax(e), sums to 1
  context: Float32Array; // (dh) sum_j weights_j h_j
}

export interface MultiHeadInput {
  xq: Values; // (nq, dModel)
  xkv: Values; // (nk, dModel); the same as xq for self-attention
  nq: number;
  nk: number;
  dModel: number;
  heads: number; // divides dModel
  wq: Values; // (dModel, dModel), Q = xq wq + bq
  wk: Values;
  wv: Values;
  wo: Values; // output = concat(heads) wo + bo
  bq?: Values | null; // (dModel)
  bk?: Values | null;
  bv?: Values | null;
  bo?: Values | null;
  causal?: boolean;
  keyPadding?: Flags | null;
}

export interface MultiHeadResult {
  heads: { weights: Float32Array; output: Float32Array }[]; // (nq, nk) and (nq, dModel / heads)
  output: Float32Array; // (nq, dModel)
}

export interface ScalingSide {
  samples: Float32Array; // q.k, or q.k / sqrt(dk)
  mean: number;
  variance: number;
  maxWeight: number; // mean largest softmax weight over `keys` keys
  entropy: number; // mean softmax entropy, nats
  gradientNorm: number; // mean Frobenius norm of the softmax Jacobian
}

export interface ScalingResult {
  dk: number;
  unscaled: ScalingSide;
  scaled: ScalingSide;
}

export interface BottleneckResult {
  counts: number[]; // N, the facts stored, as asked
  fixedVector: Float32Array; // (counts) share of facts read back exactly from one vector of width d
  attention: Float32Array; // (counts) share read back exactly by attention over all N keys
}

export interface EmbeddingsInfo {
  words: number; // vocabulary size
  dim: number; // d, the length of every vector
}

export interface EmbeddedTokens {
  vectors: Float32Array; // (n, d), row i the vector of tokens[i]
  known: Uint8Array; // (n), 1 = a vocabulary word, 0 = unknown (a fallback vector)
  d: number;
}

export interface Engine {
  softmax(x: Values, rows: number, cols: number, options?: { temperature?: number }): Float32Array;
  attention(input: AttentionInput & { trace?: true }): AttentionTrace;
  attention(input: AttentionInput & { trace: false }): Pick<AttentionTrace, 'weights' | 'output'>;
  score(input: ScoreInput): ScoreResult;
  multiHeadAttention(input: MultiHeadInput): MultiHeadResult;
  positionalEncoding(n: number, d: number): Float32Array; // (n, d)
  glorotUniform(rows: number, cols: number, seed: number): Float32Array;
  unitNormal(rows: number, cols: number, seed: number): Float32Array;
  scalingExperiment(options: {
    dk: number;
    samples?: number;
    keys?: number;
    trials?: number;
    seed?: number;
  }): ScalingResult;
  bottleneckExperiment(options: {
    counts: ArrayLike<number>; // N per run, increasing, 1 to 4096
    width: number; // d, 1 to 1024
    codebook?: number; // M, 2 to 1024; default 16
    trials?: number; // default 4
    seed?: number;
  }): BottleneckResult;
  loadEmbeddings(bytes: Uint8Array | ArrayBuffer): EmbeddingsInfo; // the word-vector asset
  embed(tokens: string[]): EmbeddedTokens; // throws until loadEmbeddings has succeeded
}

export function loadEngine(): Promise<Engine>;
